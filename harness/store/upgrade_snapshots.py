"""The upgrades' snapshot store: one text file per (scenario, case, writer release, reader release).

``snapshots/upgrades/<scenario>/<case>/<writer>-to-<reader>.txt`` holds the outcome, detail and
timeline (the writer's lines, then the reader's) the pair produced, in the matrix's snapshot form
(harness/store/snapshots.py ``render``). A pair is compared with its own file only: unlike a
release's result, no other pair's answer stands for it. Written only on ``--update-snapshots``,
never for an ``error``.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from harness.planning import versions
from harness.runtime.outcomes import ERROR, OUTCOMES
from harness.store.rows import AnyRow, fields
from harness.store.snapshots import CHANGED, MATCH, NEW, Check, SnapshotCorrupt, read_text, render, repair_hint

UPGRADE_SNAPSHOTS = "upgrades"  # beside snapshots/matrix/
_SEPARATOR = "-to-"


class UpgradeSnapshots:
    def __init__(self, root: Path):
        self.root = root

    def path(self, scenario: str, case: str, writer: str, reader: str) -> Path:
        return self.root / scenario / case / f"{writer}{_SEPARATOR}{reader}.txt"

    def name(self, scenario: str, case: str, writer: str, reader: str) -> str:
        """The file's path from the snapshots folder (for messages)."""
        return self.path(scenario, case, writer, reader).relative_to(self.root.parent).as_posix()

    def timeline(self, scenario: str, case: str, writer: str, reader: str) -> str | None:
        """The timeline the pair's snapshot holds, or None."""
        try:
            text = read_text(self.path(scenario, case, writer, reader), self.root.parent.parent)
        except OSError:
            return None
        head, sep, timeline = text.partition("\n\n")
        return timeline if sep and head.startswith("outcome: ") else None

    def check(self, row: AnyRow) -> Check:
        """Compare an upgrade's result with its pair's snapshot."""
        r = fields(row)
        path = self.path(r["scenario"], r["case"], r["from_version"], r["version"])
        if not path.exists():
            return Check(NEW, None, "")
        stored, actual = read_text(path, self.root.parent.parent), render(r)
        if stored == actual:
            return Check(MATCH, path.stem, "")
        diff = "".join(
            difflib.unified_diff(
                stored.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=f"snapshot {path.stem}",
                tofile=f"{r['from_source']} -> {r['source']}",
            )
        )
        return Check(CHANGED, path.stem, diff)

    def accept(self, row: AnyRow) -> bool:
        """Store the pair's result as its snapshot; False for an ``error`` (never stored)."""
        r = fields(row)
        if r["outcome"] == ERROR:
            return False
        path = self.path(r["scenario"], r["case"], r["from_version"], r["version"])
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(render(r), encoding="utf-8")
        tmp.replace(path)
        return True

    def validate(self) -> None:
        """Refuse a damaged store before any run: every file a snapshot this store wrote."""
        if not self.root.exists():
            return
        for path in sorted(self.root.rglob("*")):
            if path.is_dir():
                continue
            rel = path.relative_to(self.root.parent.parent).as_posix()
            hint = repair_hint(rel)
            writer, sep, reader = path.stem.partition(_SEPARATOR)
            if (
                path.suffix != ".txt"
                or len(path.relative_to(self.root).parts) != 3
                or not sep
                or not versions.is_final(writer)
                or not versions.is_final(reader)
            ):
                raise SnapshotCorrupt(
                    f"{rel} is not where an upgrade's snapshot belongs "
                    f"(snapshots/upgrades/<scenario>/<case>/<writer>-to-<reader>.txt); {hint}"
                )
            first = read_text(path, self.root.parent.parent).split("\n", 1)[0]
            if not first.startswith("outcome: ") or first[9:] not in OUTCOMES:
                raise SnapshotCorrupt(f"{rel} does not start with 'outcome: <one of {', '.join(OUTCOMES)}>'; {hint}")

    def orphans(self, known: set[tuple[str, str]]) -> list[str]:
        """Stored (scenario/case) folders no upgrade scenario defines any more."""
        if not self.root.exists():
            return []
        stored = {(p.parent.parent.name, p.parent.name) for p in self.root.glob("*/*/*.txt")}
        return sorted(f"{s}/{c}" for s, c in stored - known)
