"""The project's folders, in one place: the root, the record and reports, snapshots, scenarios,
and the build environments and caches under ``.nox``. Stdlib only: both sides of the build
seam use it (the runtime finds ``scenarios/`` here)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Project:
    """A project checkout's folders; ``Project(root)`` for a copy of the tree (tests, bench)."""

    root: Path

    @property
    def nox(self) -> Path:
        return self.root / ".nox"

    @property
    def builds(self) -> Path:
        """One environment per build (harness/execution/environments.py)."""
        return self.nox / "builds"

    @property
    def cache(self) -> Path:
        """The index, result and export caches: never committed, safe to delete."""
        return self.nox / ".harness-cache"

    @property
    def reports(self) -> Path:
        return self.root / "reports"

    @property
    def snapshots(self) -> Path:
        return self.root / "snapshots"

    @property
    def scenarios(self) -> Path:
        return self.root / "scenarios"


# This checkout: harness/ sits at the project root.
PROJECT = Project(Path(__file__).resolve().parent.parent)
PROJECT_ROOT = PROJECT.root
