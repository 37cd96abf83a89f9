"""The snapshot store: one text file per result key, under ``snapshots/``, in two folders.

A bug case's result, keyed (scenario, case, version, python), is stored as
``snapshots/matrix/<scenario>/<case>/<version>.txt``: the outcome, detail and timeline that
``<version>`` produced. A release with no file of its own is compared with the nearest earlier
release that has one, so identical results are stored once and a hundred (case, release) pairs stay
a handful of reviewable files.

A result measured on another interpreter than the default (harness/planning/interpreters.py) is
compared with ``<case>/py<minor>/<version>.txt`` where that interpreter's timeline differs, else with
the default's: its nearest own file counts where it is no older than the default's nearest, so an
interpreter's files are stored only where its timeline differs and are inherited as releases are.

An upgrade pair's result, keyed by its writer release too (``Row.from_version``), is stored as
``snapshots/upgrades/<scenario>/<case>/<writer>-to-<reader>.txt`` (the writer's timeline lines, then
the reader's) and compared with that file only: unlike a release's result, no other pair's answer
stands for it.

Files are written only when the user asks (``--update-snapshots``), never for an ``error``, and a
bug case's never for a local build.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Set
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.planning import interpreters, versions
from harness.runtime.outcomes import ERROR, OUTCOMES
from harness.runtime.result import CaseResult
from harness.store.rows import Row

MATRIX = "matrix"  # snapshots/matrix/: the bug cases' results
UPGRADES = "upgrades"  # snapshots/upgrades/: the upgrade pairs' results
INTERPRETER_DIR = "py{}"  # an interpreter's own snapshots of a case: <case>/py3.10/<version>.txt
PAIR_NAME = "{}-to-{}"  # an upgrade pair's file name (without .txt): <writer>-to-<reader>

# Where each folder's files belong, as a damaged store's message says it.
LAYOUTS = {
    MATRIX: "a snapshot belongs (snapshots/matrix/<scenario>/<case>/<version>.txt, "
    "or <case>/py<interpreter>/<version>.txt)",
    UPGRADES: "an upgrade's snapshot belongs (snapshots/upgrades/<scenario>/<case>/<writer>-to-<reader>.txt)",
}

MATCH, NEW, CHANGED, UPDATED = "match", "new", "changed", "updated"

# The (scenario, case)s the project defines: a stored file of any other is an orphan.
Known = Set[tuple[str, str]]


def render(row: Row | CaseResult) -> str:
    """The stored text of a result (a row, or a case's result as a worker gives it): what a snapshot compares."""
    return f"outcome: {row.outcome}\ndetail: {row.detail}\n\n{row.timeline}"


@dataclass(frozen=True)
class Key:
    """What a stored snapshot is of: a bug case's result (scenario, case, version, python), or an
    upgrade pair's, whose ``writer`` release wrote the state its reader ``version`` read."""

    scenario: str
    case: str
    version: str  # the release (an upgrade pair's reader)
    python: str = interpreters.DEFAULT
    writer: str | None = None  # an upgrade pair's writer release; None for a bug case's result

    @classmethod
    def of(cls, row: Row) -> Key:
        """The key of a result row: an upgrade pair's where it has a writer."""
        return cls(row.scenario, row.case, row.version or "0", row.python, row.from_version or None)


@dataclass
class Check:
    status: str  # match | new | changed | updated
    base: str | None  # the stored file compared with, by its name under the case's folder (``Base``)
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


def _write(path: Path, text: str) -> None:
    """Store ``text`` at ``path`` whole: an interrupted write leaves the old file, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


class SnapshotStore:
    """The project's ``snapshots/`` folder (``root``): each result's file found by its ``Key``."""

    def __init__(self, root: Path):
        self.root = root
        self.matrix = root / MATRIX
        self.upgrades = root / UPGRADES

    # --- where a result's snapshot is -------------------------------------------------------------

    def case_dir(self, key: Key) -> Path:
        """The folder of the key's case: its files are named from there (``Check.base``)."""
        return (self.upgrades if key.writer else self.matrix) / key.scenario / key.case

    def _dir(self, scenario: str, case: str, python: str = interpreters.DEFAULT) -> Path:
        d = self.matrix / scenario / case
        return d if python == interpreters.DEFAULT else d / INTERPRETER_DIR.format(python)

    def own(self, key: Key) -> Path:
        """The file the key's own result is stored in: its release's (on its interpreter), or its pair's."""
        if key.writer:
            return self.case_dir(key) / f"{PAIR_NAME.format(key.writer, key.version)}.txt"
        return self._dir(key.scenario, key.case, key.python) / f"{key.version}.txt"

    def stored_versions(self, scenario: str, case: str, python: str = interpreters.DEFAULT) -> list[str]:
        """The releases of a bug case with a file of their own on ``python``, oldest first."""
        d = self._dir(scenario, case, python)
        return sorted((p.stem for p in d.glob("*.txt")), key=versions.key) if d.exists() else []

    def nearest(self, scenario: str, case: str, version: str, python: str = interpreters.DEFAULT) -> str | None:
        """The snapshot a bug case's result of ``version`` on ``python`` is compared with, as its name
        under the case's folder (``0.6.9``, or ``py3.10/0.0.12`` for an interpreter's own); None: none."""
        earlier = [v for v in self.stored_versions(scenario, case) if versions.key(v) <= versions.key(version)]
        base = earlier[-1] if earlier else None
        if python != interpreters.DEFAULT:
            own = [v for v in self.stored_versions(scenario, case, python) if versions.key(v) <= versions.key(version)]
            if own and (base is None or versions.key(own[-1]) >= versions.key(base)):
                return f"{INTERPRETER_DIR.format(python)}/{own[-1]}"
        return base

    def stored(self, key: Key) -> Path | None:
        """The file a result of ``key`` is compared with, None where none is stored: a bug case's
        ``nearest`` (inherited from an earlier release), an upgrade pair's own only."""
        if key.writer:
            path = self.own(key)
            return path if path.exists() else None
        base = self.nearest(key.scenario, key.case, key.version, key.python)
        return None if base is None else self.case_dir(key) / f"{base}.txt"

    def path(self, key: Key) -> Path:
        """The file a result of ``key`` is compared with (``stored``); with none stored, the file
        ``accept`` stores its first snapshot in."""
        return self.stored(key) or self.own(key)

    def base(self, path: Path) -> str:
        """A stored file's name under its case's folder, without ``.txt`` (``0.6.9``,
        ``py3.10/0.0.12``, ``1.0.0-to-1.1.0``): what a row's ``snapshot_base`` records."""
        area, scenario, case = path.relative_to(self.root).parts[:3]
        return path.relative_to(self.root / area / scenario / case).with_suffix("").as_posix()

    def recorded(self, row: Row) -> Path | None:
        """The file a recorded row's timeline is in: a bug case's, the one its ``snapshot_base``
        names (None without one); an upgrade pair's, its own."""
        key = Key.of(row)
        if key.writer:
            return self.own(key)
        base = row.snapshot_base
        return self.case_dir(key) / f"{base}.txt" if base else None

    def name(self, path: Path) -> str:
        """``path`` from the project root, as messages show it (``snapshots/matrix/...``)."""
        return path.relative_to(self.root.parent).as_posix()

    # --- reading, comparing, writing ----------------------------------------------------------------

    def _read(self, path: Path) -> str:
        return read_text(path, self.root.parent)

    def read(self, scenario: str, case: str, base: str) -> str:
        """The text of a bug case's file named ``base`` under its folder (``Check.base``)."""
        return self._read(self.matrix / scenario / case / f"{base}.txt")

    def timeline(self, row: Row) -> str | None:
        """The timeline the file a recorded row names holds (``recorded``; after its outcome and
        detail lines), or None: no such file, or not a snapshot."""
        path = self.recorded(row)
        try:
            text = self._read(path) if path else ""
        except OSError:
            return None
        head, sep, timeline = text.partition("\n\n")
        return timeline if sep and head.startswith("outcome: ") else None

    def check(self, row: Row) -> Check:
        """Compare a result with its snapshot: a release's own or the nearest earlier release's, a
        pair's own."""
        key = Key.of(row)
        if not key.writer and interpreters.is_unsupported(row.outcome, row.detail):
            # A release its interpreter cannot install (its index entry says so): nothing ran, nothing to store.
            return Check(MATCH, None, "")
        path = self.stored(key)
        if path is None:
            return Check(NEW, None, "")
        base, stored, actual = self.base(path), self._read(path), render(row)
        if stored == actual:
            return Check(MATCH, base, "")
        received = f"{row.from_source} -> {row.source}" if key.writer else row.source
        diff = "".join(
            difflib.unified_diff(
                stored.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=f"snapshot {base}",
                tofile=received,
            )
        )
        return Check(CHANGED, base, diff)

    def accept(self, row: Row) -> bool:
        """Store a result as its snapshot; False when it must not be stored (an ``error``, or a bug
        case's result of a build that is no release)."""
        key = Key.of(row)
        if row.outcome == ERROR:
            return False
        if key.writer:
            _write(self.own(key), render(row))  # a pair's file is its own: nothing inherits it
            return True
        if not row.release:
            return False
        if interpreters.is_unsupported(row.outcome, row.detail):
            return True  # nothing ran (``check``)
        path = self.own(key)
        if key.python != interpreters.DEFAULT:
            # Another interpreter's result: stored only where it differs from what it is compared with.
            base = self.stored(key)
            if base is None or self._read(base) != render(row):
                _write(path, render(row))
            return True
        stored = self.stored_versions(key.scenario, key.case)
        earlier = [v for v in stored if versions.key(v) < versions.key(key.version)]
        if earlier and self.read(key.scenario, key.case, earlier[-1]) == render(row) and not path.exists():
            return True  # unchanged since an earlier release: that release's file covers it
        # A release with a file of its own keeps it, even where its result now equals an earlier
        # release's: the file keeps it in the scenario's matrix (harness/store/membership.py
        # ``scenario_releases``), so accepting new timelines never drops a release's results.
        _write(path, render(row))
        return True

    def check_all(self, results: list[Row], update: bool, recorded: list[Row] | None = None) -> None:
        """Compare every result (a release's or an upgrade pair's: one path for every axis) with its
        snapshot and set its snapshot fields; with ``update``, store the new and changed ones.

        A snapshot stored for a release between two others (a one-release bug's x.y.0) would
        make the later releases that matched the earlier snapshot compare with it instead:
        those in the record (``recorded``) and not re-run here get the earlier one pinned as their own.
        """
        ran = {(r.scenario, r.case, r.version) for r in results}
        for r in results:
            check = self.check(r)
            r.snapshot, r.snapshot_base, r.snapshot_diff = check.status, check.base, check.diff
            if not (update and check.status in (NEW, CHANGED)):
                continue
            base = check.base
            later = [
                x
                for x in recorded or []
                if (x.scenario, x.case) == (r.scenario, r.case)
                and x.release
                and not x.from_source
                and x.python == r.python
                and base is not None
                and x.snapshot_base == base
                and versions.key(x.version or "0") > versions.key(r.version or "0")
                and (x.scenario, x.case, x.version) not in ran
            ]
            if self.accept(r):
                # The file it is compared with now: an interpreter's own (py3.10/<version>) is no <version>,
                # a pair's is <writer>-to-<reader>.
                r.snapshot, r.snapshot_base = UPDATED, self.base(self.path(Key.of(r)))
                for x in later:
                    assert base is not None and x.version is not None  # `later` is empty without a base
                    self.pin(x.scenario, x.case, x.version, base)

    def pin(self, scenario: str, case: str, version: str, base: str) -> None:
        """Store ``base``'s snapshot as ``version``'s own, so ``version`` keeps being compared
        with what it matched when a snapshot is inserted between them."""
        path = self._dir(scenario, case) / f"{version}.txt"
        if not path.exists():
            path.write_text(self.read(scenario, case, base), encoding="utf-8")

    # --- the store as a whole: damage and orphans ------------------------------------------------

    def files(self) -> list[Path]:
        """Every file under the store's two folders (anything else under ``snapshots/`` is not its)."""
        folders = [f for f in (self.matrix, self.upgrades) if f.exists()]
        return sorted(p for folder in folders for p in folder.rglob("*") if not p.is_dir())

    def key_of(self, path: Path) -> Key | None:
        """The key a file under the store is the snapshot of, None where no snapshot belongs there
        (another name or depth, a version that is no final release)."""
        area, *parts = path.relative_to(self.root).parts
        if path.suffix != ".txt" or len(parts) not in (3, 4):
            return None
        scenario, case = parts[:2]
        if area == UPGRADES and len(parts) == 3:
            writer, sep, reader = path.stem.partition(PAIR_NAME.format("", ""))
            if sep and versions.is_final(writer) and versions.is_final(reader):
                return Key(scenario, case, reader, writer=writer)
        elif area == MATRIX and versions.is_final(path.stem):
            if len(parts) == 3:
                return Key(scenario, case, path.stem)
            python = re.fullmatch(INTERPRETER_DIR.format(r"(3\.\d{1,2})"), parts[2])
            if python is not None:
                return Key(scenario, case, path.stem, python[1])
        return None

    def validate(self) -> None:
        """Refuse a damaged store before any run: every file must be a snapshot this store wrote,
        where its key's file belongs, starting with its outcome and detail lines."""
        for path in self.files():
            rel = self.name(path)
            hint = repair_hint(rel)
            if self.key_of(path) is None:
                area = path.relative_to(self.root).parts[0]
                raise SnapshotCorrupt(f"{rel} is not where {LAYOUTS[area]}; {hint}")
            lines = self._read(path).split("\n", 3)
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

    def orphan_files(self, cases: Known, upgrade_cases: Known | None = None) -> list[Path]:
        """Every stored file of a (scenario, case) no scenario defines: a bug case's not in ``cases``
        (an interpreter's own files too), an upgrade pair's not in ``upgrade_cases`` (None: the
        upgrades' files are not judged, for a caller that knows only the bug cases)."""
        known = {MATRIX: cases, UPGRADES: upgrade_cases}
        out = []
        for path in self.files():
            parts = path.relative_to(self.root).parts
            judged = known[parts[0]]
            # A file of a case folder's (its own or an interpreter's): one directly under a folder
            # is no case's, and validate refuses it.
            if len(parts) >= 4 and path.suffix == ".txt" and judged is not None and parts[1:3] not in judged:
                out.append(path)
        return out

    def orphans(self, cases: Known, upgrade_cases: Known | None = None) -> list[str]:
        """The case folders of ``orphan_files`` from the store's root (``matrix/<scenario>/<case>``):
        nobody checks them."""
        return sorted({"/".join(p.relative_to(self.root).parts[:3]) for p in self.orphan_files(cases, upgrade_cases)})

    def remove_orphan(self, path: Path, cases: Known, upgrade_cases: Known | None = None) -> None:
        """Delete ``path``, one of ``orphan_files``, and the folders it leaves empty; any other file is
        refused: a snapshot of a defined case is never deleted."""
        if path not in self.orphan_files(cases, upgrade_cases):
            raise ValueError(f"{path} is no orphaned snapshot: refused to delete it")
        path.unlink()
        for folder in path.parents:
            if folder in (self.matrix, self.upgrades) or not folder.is_relative_to(self.root) or any(folder.iterdir()):
                break
            folder.rmdir()
