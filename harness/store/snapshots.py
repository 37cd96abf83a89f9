"""The matrix's snapshot store: one text file per (scenario, case, release where it changed).

``snapshots/matrix/<scenario>/<case>/<version>.txt`` holds the outcome, detail and
timeline that ``<version>`` produced. A release with no file of its own is compared with
the nearest earlier release that has one, so identical results are stored once and a
hundred (case, release) pairs stay a handful of reviewable files. Files are written only
when the user asks (``--update-snapshots``), and never for local builds or ``error``s.

A result measured on another interpreter than the default (harness/planning/interpreters.py) is
compared with ``<case>/py<minor>/<version>.txt`` where that interpreter's timeline differs, else with
the default's: its nearest own file counts where it is no older than the default's nearest, so an
interpreter's files are stored only where its timeline differs and are inherited as releases are.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.planning import interpreters, versions
from harness.runtime.outcomes import ERROR, OUTCOMES
from harness.store.rows import AnyRow, fields, python_of

INTERPRETER_DIR = "py{}"  # an interpreter's own snapshots of a case: <case>/py3.10/<version>.txt

MATCH, NEW, CHANGED, UPDATED = "match", "new", "changed", "updated"


def render(row: AnyRow) -> str:
    """The stored text of a result: what a snapshot compares."""
    result = fields(row)
    return f"outcome: {result['outcome']}\ndetail: {result['detail']}\n\n{result['timeline']}"


@dataclass
class Check:
    status: str  # match | new | changed | updated
    base: str | None  # the release whose snapshot it was compared with
    diff: str  # unified diff when changed


class SnapshotCorrupt(UsageError, ValueError):
    """A stored snapshot file that is not one (hand-edited into another shape, or damaged)."""


def repair_hint(rel: str) -> str:
    """How to mend the stored file ``rel`` (its path from the project root)."""
    return f"restore it with `git checkout -- {rel}` or delete it and re-run with --update-snapshots"


def read_text(path: Path, project: Path) -> str:
    """A stored snapshot's text, read as UTF-8; a file that is not UTF-8 is a damaged store, said
    in one line naming it (``project``: the root its name is shown from)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        # Every command that reads the store meets it here, not only the ones that validate first.
        rel = path.relative_to(project).as_posix()
        raise SnapshotCorrupt(f"{rel} is not UTF-8 text (a damaged snapshot store); {repair_hint(rel)}") from None


class SnapshotStore:
    def __init__(self, root: Path):
        self.root = root

    def _dir(self, scenario: str, case: str, python: str = interpreters.DEFAULT) -> Path:
        d = self.root / scenario / case
        return d if python == interpreters.DEFAULT else d / INTERPRETER_DIR.format(python)

    def stored_versions(self, scenario: str, case: str, python: str = interpreters.DEFAULT) -> list[str]:
        d = self._dir(scenario, case, python)
        return sorted((p.stem for p in d.glob("*.txt")), key=versions.key) if d.exists() else []

    def nearest(self, scenario: str, case: str, version: str, python: str = interpreters.DEFAULT) -> str | None:
        """The snapshot a result of ``version`` on ``python`` is compared with, as its name under the
        case's folder (``0.6.9``, or ``py3.10/0.0.12`` for an interpreter's own); None: no snapshot."""
        earlier = [v for v in self.stored_versions(scenario, case) if versions.key(v) <= versions.key(version)]
        base = earlier[-1] if earlier else None
        if python != interpreters.DEFAULT:
            own = [v for v in self.stored_versions(scenario, case, python) if versions.key(v) <= versions.key(version)]
            if own and (base is None or versions.key(own[-1]) >= versions.key(base)):
                return f"{INTERPRETER_DIR.format(python)}/{own[-1]}"
        return base

    def location(self, scenario: str, case: str, version: str, python: str = interpreters.DEFAULT) -> Path:
        """The file a result of ``version`` on ``python`` is compared with (``nearest``); with none
        stored, the file ``accept`` stores its first snapshot in."""
        base = self.nearest(scenario, case, version, python)
        if base is None:
            return self._dir(scenario, case, python) / f"{version}.txt"
        return self.root / scenario / case / f"{base}.txt"

    def read(self, scenario: str, case: str, version: str) -> str:
        return read_text(self._dir(scenario, case) / f"{version}.txt", self.root.parent.parent)

    def timeline(self, scenario: str, case: str, version: str) -> str | None:
        """The timeline the snapshot of ``version`` holds (after its outcome and detail lines), or None."""
        try:
            text = self.read(scenario, case, version)
        except OSError:
            return None
        head, sep, timeline = text.partition("\n\n")
        return timeline if sep and head.startswith("outcome: ") else None

    def check(self, row: AnyRow) -> Check:
        """Compare a result with its release's snapshot, or the nearest earlier release's."""
        result = fields(row)
        if interpreters.is_unsupported(result["outcome"], result["detail"]):
            # A release its interpreter cannot install (its index entry says so): nothing ran, nothing to store.
            return Check(MATCH, None, "")
        base = self.nearest(result["scenario"], result["case"], result["version"] or "0", python_of(result))
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

    def accept(self, row: AnyRow) -> bool:
        """Store a release's result as its snapshot; False when it must not be stored."""
        result = fields(row)
        if result["outcome"] == ERROR or not result.get("release"):
            return False
        python = python_of(result)
        if interpreters.is_unsupported(result["outcome"], result["detail"]):
            return True  # nothing ran (``check``)
        if python != interpreters.DEFAULT:
            # Another interpreter's result: stored only where it differs from what it is compared with.
            base = self.nearest(result["scenario"], result["case"], result["version"], python)
            if base is not None and self.read(result["scenario"], result["case"], base) == render(result):
                return True
            own = self._dir(result["scenario"], result["case"], python) / f"{result['version']}.txt"
            own.parent.mkdir(parents=True, exist_ok=True)
            own.with_suffix(".tmp").write_text(render(result), encoding="utf-8")
            own.with_suffix(".tmp").replace(own)
            return True
        path = self._dir(result["scenario"], result["case"]) / f"{result['version']}.txt"
        earlier = [
            v
            for v in self.stored_versions(result["scenario"], result["case"])
            if versions.key(v) < versions.key(result["version"])
        ]
        if (
            earlier
            and self.read(result["scenario"], result["case"], earlier[-1]) == render(result)
            and not path.exists()
        ):
            return True  # unchanged since an earlier release: that release's file covers it
        # A release with a file of its own keeps it, even where its result now equals an earlier
        # release's: the file keeps it in the scenario's matrix (harness/store/membership.py
        # ``scenario_releases``), so accepting new timelines never drops a release's results.
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(render(result), encoding="utf-8")
        tmp.replace(path)
        return True

    def pin(self, scenario: str, case: str, version: str, base: str) -> None:
        """Store ``base``'s snapshot as ``version``'s own, so ``version`` keeps being compared
        with what it matched when a snapshot is inserted between them."""
        path = self._dir(scenario, case) / f"{version}.txt"
        if not path.exists():
            path.write_text(self.read(scenario, case, base), encoding="utf-8")

    def known_pairs(self) -> set[tuple[str, str]]:
        """Every (scenario, case) with stored snapshots, for orphan detection."""
        if not self.root.exists():
            return set()
        return {(p.parent.parent.name, p.parent.name) for p in self.root.glob("*/*/*.txt")}

    def validate(self) -> None:
        """Refuse a damaged store before any run: every file must be a snapshot this store wrote."""
        if not self.root.exists():
            return
        for path in sorted(self.root.rglob("*")):
            if path.is_dir():
                continue
            rel = path.relative_to(self.root.parent.parent).as_posix()
            hint = repair_hint(rel)
            parts = path.relative_to(self.root).parts
            own_interpreter = len(parts) == 4 and re.fullmatch(r"py3\.\d{1,2}", parts[2]) is not None
            if path.suffix != ".txt" or not (len(parts) == 3 or own_interpreter) or not versions.is_final(path.stem):
                raise SnapshotCorrupt(
                    f"{rel} is not where a snapshot belongs (snapshots/matrix/<scenario>/<case>/<version>.txt, "
                    f"or <case>/py<interpreter>/<version>.txt); {hint}"
                )
            lines = read_text(path, self.root.parent.parent).split("\n", 3)
            if (
                len(lines) < 3
                or not lines[0].startswith("outcome: ")
                or lines[0][9:] not in OUTCOMES
                or not lines[1].startswith("detail: ")
                or lines[2] != ""
            ):
                raise SnapshotCorrupt(
                    f"{rel} does not start with 'outcome: <one of {', '.join(OUTCOMES)}>' and 'detail: ...'; {hint}"
                )

    def orphans(self, known: set[tuple[str, str]]) -> list[str]:
        """Stored (scenario/case) directories that no scenario defines any more: nobody checks them."""
        return sorted(f"{s}/{c}" for s, c in self.known_pairs() - known)

    def orphan_files(self, known: set[tuple[str, str]]) -> list[Path]:
        """Every stored file of a (scenario, case) not in ``known``, an interpreter's own ones too."""
        if not self.root.exists():
            return []
        files = (*self.root.glob("*/*/*.txt"), *self.root.glob(f"*/*/{INTERPRETER_DIR.format('*')}/*.txt"))
        return sorted(p for p in files if self._pair_of(p) not in known)

    def remove_orphan(self, path: Path, known: set[tuple[str, str]]) -> None:
        """Delete ``path``, one of ``orphan_files(known)``, and the folders it leaves empty; any
        other file is refused: a release's snapshot of a known case is never deleted."""
        if path not in self.orphan_files(known):
            raise ValueError(f"{path} is no orphaned snapshot: refused to delete it")
        path.unlink()
        for folder in path.parents:
            if folder == self.root or not folder.is_relative_to(self.root) or any(folder.iterdir()):
                break
            folder.rmdir()

    def _pair_of(self, path: Path) -> tuple[str, str]:
        """(scenario, case) of a stored file's path."""
        scenario, case = path.relative_to(self.root).parts[:2]
        return scenario, case
