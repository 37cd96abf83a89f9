"""The matrix's snapshot store: one text file per (scenario, case, release where it changed).

``snapshots/matrix/<scenario>/<case>/<version>.txt`` holds the outcome, detail and
timeline that ``<version>`` produced. A release with no file of its own is compared with
the nearest earlier release that has one, so identical results are stored once and a
hundred (case, release) pairs stay a handful of reviewable files. Files are written only
when the user asks (``--update-snapshots``), and never for local builds or ``error``s.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from harness import versions
from harness.outcomes import ERROR

MATCH, NEW, CHANGED, UPDATED = "match", "new", "changed", "updated"


def render(result: dict) -> str:
    """The stored text of a result: what a snapshot compares."""
    return f"outcome: {result['outcome']}\ndetail: {result['detail']}\n\n{result['timeline']}"


@dataclass
class Check:
    status: str  # match | new | changed | updated
    base: str | None  # the release whose snapshot it was compared with
    diff: str  # unified diff when changed


class SnapshotStore:
    def __init__(self, root: Path):
        self.root = root

    def _dir(self, scenario: str, case: str) -> Path:
        return self.root / scenario / case

    def stored_versions(self, scenario: str, case: str) -> list[str]:
        d = self._dir(scenario, case)
        return sorted((p.stem for p in d.glob("*.txt")), key=versions.key) if d.exists() else []

    def _nearest(self, scenario: str, case: str, version: str) -> str | None:
        earlier = [v for v in self.stored_versions(scenario, case) if versions.key(v) <= versions.key(version)]
        return earlier[-1] if earlier else None

    def read(self, scenario: str, case: str, version: str) -> str:
        return (self._dir(scenario, case) / f"{version}.txt").read_text()

    def check(self, result: dict) -> Check:
        """Compare a result with its release's snapshot, or the nearest earlier release's."""
        base = self._nearest(result["scenario"], result["case"], result["version"] or "0")
        if base is None:
            return Check(NEW, None, "")
        stored = self.read(result["scenario"], result["case"], base)
        actual = render(result)
        if stored == actual:
            return Check(MATCH, base, "")
        diff = "".join(
            difflib.unified_diff(
                stored.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=f"snapshot {base}",
                tofile=f"{result['source']}",
            )
        )
        return Check(CHANGED, base, diff)

    def accept(self, result: dict) -> bool:
        """Store a release's result as its snapshot; False when it must not be stored."""
        if result["outcome"] == ERROR or not result.get("release"):
            return False
        path = self._dir(result["scenario"], result["case"]) / f"{result['version']}.txt"
        earlier = [
            v for v in self.stored_versions(result["scenario"], result["case"])
            if versions.key(v) < versions.key(result["version"])
        ]
        if earlier and self.read(result["scenario"], result["case"], earlier[-1]) == render(result):
            # Unchanged since an earlier release: that release's file already covers it.
            path.unlink(missing_ok=True)
            return True
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(render(result))
        tmp.replace(path)
        return True

    def known_pairs(self) -> set[tuple[str, str]]:
        """Every (scenario, case) with stored snapshots, for orphan detection."""
        if not self.root.exists():
            return set()
        return {(p.parent.parent.name, p.parent.name) for p in self.root.glob("*/*/*.txt")}
