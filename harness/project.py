"""The project's folders, in one place: the root, the record and reports, snapshots, scenarios,
and the build environments and caches under ``.nox``. Stdlib only: both sides of the build
seam use it (the runtime finds ``scenarios/`` here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# Each folder, relative to the project root.
FOLDERS = {
    "nox": ".nox",
    "builds": ".nox/builds",  # one environment per build (harness/execution/environments.py)
    "cache": ".nox/.harness-cache",  # the index, result, bytecode and export caches: never committed
    "reports": "reports",
    "snapshots": "snapshots",
    "scenarios": "scenarios",
    "upgrades": "upgrades",  # bugs across two releases (harness/runtime/upgrade.py)
}


@dataclass(frozen=True)
class Project:
    """A project checkout's folders; ``Project(root)`` for a copy of the tree (tests, bench)."""

    root: Path
    nox: Path = field(init=False)
    builds: Path = field(init=False)
    cache: Path = field(init=False)
    reports: Path = field(init=False)
    snapshots: Path = field(init=False)
    scenarios: Path = field(init=False)
    upgrades: Path = field(init=False)

    def __post_init__(self) -> None:
        for name, relative in FOLDERS.items():
            object.__setattr__(self, name, Path(self.root) / relative)


# This checkout: harness/ sits at the project root.
PROJECT = Project(Path(__file__).resolve().parent.parent)
PROJECT_ROOT = PROJECT.root
