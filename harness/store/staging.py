"""All-or-nothing writes of a folder's files (the record and its reports, a run folder).

Every file is first written into a temporary folder inside the target (``.tmp-stage-*``, so on
the same file system, git-ignored), then moved into place; the files it replaces are kept aside
(hard links) until every move has succeeded, and put back if one fails. A full disk, a
read-only subfolder or any other failed write therefore ends in one line, with every file as it
was and no temporary file left. Files are written with ``open``, so they get the ordinary mode
the umask gives (0644 under 022), not ``mkstemp``'s 0600.

A process killed while it moves the files cannot put them back, so the moves follow a journal
(``commit.json`` in the staging folder, written and synced before the first move): every
staged -> final pair and every removal. The staging folder's name holds its owner (pid and
start time, harness/owners.py); ``recover`` (run before every staging of the folder and every
read of the record) finishes the journal of an owner that is gone: the moves it had not made
yet are made, so the folder holds the whole new set, never half of two. A failed move renames
the journal ``rollback.json`` before the old files are put back, and ``recover`` finishes that
the same way: the whole old set. A staging folder whose owner is gone is then removed, so a
killed run leaves no ``.tmp-stage-*`` behind past the next run or read.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from types import TracebackType

from harness.errors import UsageError
from harness.owners import owner_alive, started_at

STAGE_PREFIX = ".tmp-stage-"


class ReportsNotWritable(UsageError, OSError):
    """A folder of reports could not be written (one line: what failed, and that nothing changed)."""


def check_writable(folder: Path) -> None:
    """Fail before any work when ``folder`` cannot be written (bad input leaves it untouched)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".tmp-probe-"):
            pass
    except OSError as exc:
        raise ReportsNotWritable(f"reports directory {folder.name}/ is not writable: {exc.strerror}") from None


COMMIT = "commit.json"  # the journal of a commit under way (in its staging folder)
ROLLBACK = "rollback.json"  # the same journal, renamed once a move failed: the old files go back
UNOWNED_AGE = 3600.0  # seconds: a staging folder without an owner in its name older than this is a leftover


def _owner_of(name: str) -> tuple[int, str | None] | None:
    """The (pid, start time) a staging folder's name holds; None for a name of before issue 49."""
    head = name[len(STAGE_PREFIX) :].partition("-")[0]
    pid, dot, started = head.partition(".")
    if not (dot and pid.isdigit()):
        return None
    return int(pid), (started if started.isdigit() else None)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _apply(folder: Path, stage: Path, journal: dict, forward: bool) -> None:
    """Make a journal's moves (``forward``), or put back the files they replace; either way
    every step already made is skipped, so a journal can be finished any number of times."""
    kept = journal["kept"]
    for staged, final in journal["writes"]:
        target = folder / final
        if forward:
            if (stage / staged).exists():  # else already moved
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.replace(stage / staged, target)
                except FileNotFoundError:
                    if (stage / staged).exists():
                        raise
                    # else another reader finishing the same journal moved it first
        elif final in kept:
            _put_back(stage / kept[final], target)
        elif not (stage / staged).exists():  # a new file that was moved in
            target.unlink(missing_ok=True)
    for final in journal["removals"]:
        if forward:
            (folder / final).unlink(missing_ok=True)
        else:
            _put_back(stage / kept[final], folder / final)


def _put_back(aside: Path, target: Path) -> None:
    """The old file at ``target`` again, unless it still is (not moved yet) or was put back."""
    with contextlib.suppress(FileNotFoundError):
        if not (target.exists() and os.path.samefile(aside, target)):
            os.replace(aside, target)


def recover(folder: Path) -> list[Path]:
    """Finish the commits that runs killed while moving their files into ``folder`` left (a
    staging folder whose owner is gone, with a journal), and remove every staging folder whose
    owner is gone: the staging folders finished or removed. A live run's folder is left alone."""
    finished: list[Path] = []
    try:
        stages = sorted(p for p in folder.iterdir() if p.name.startswith(STAGE_PREFIX) and p.is_dir())
    except OSError:
        return finished
    for stage in stages:
        owner = _owner_of(stage.name)
        if owner is None:
            # Named before issue 49 (no owner): gone when older than any staging lives (a staging
            # lasts one rendering of the reports); these hid up to 6.8 MB each under .gitignore.
            with contextlib.suppress(OSError):
                if time.time() - stage.stat().st_mtime > UNOWNED_AGE:
                    shutil.rmtree(stage, ignore_errors=True)
                    finished.append(stage)
            continue
        if owner_alive(*owner):
            continue
        for name, forward in ((COMMIT, True), (ROLLBACK, False)):
            try:
                journal = json.loads((stage / name).read_text())
            except (OSError, ValueError):
                continue  # none (a journal half written is ``.tmp``: its run moved nothing)
            try:
                _apply(folder, stage, journal, forward)
                (stage / name).unlink(missing_ok=True)
            except OSError as exc:
                raise ReportsNotWritable(
                    f"{folder.name}/ holds a commit a killed run left half made, and it could not be "
                    f"finished ({exc.strerror or exc}: {exc.filename}); make the folder writable and run again"
                ) from None
            break
        # Its owner is gone (killed while it staged, or after its commit): nothing in it is wanted (issue 49).
        shutil.rmtree(stage, ignore_errors=True)
        finished.append(stage)
    return finished


class Staging:
    """Files to write into ``folder`` and files to remove from it, all or none (a context manager:
    the changes take effect when the block ends without an exception)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._dir: Path | None = None
        self._writes: dict[Path, Path] = {}  # final path -> its staged copy, in the order written
        self._removals: list[Path] = []

    def __enter__(self) -> Staging:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._failure(exc) from None
        recover(self.folder)
        try:
            # The owner in the name, so that a later run can tell a killed run's folder (issue 49).
            pid = os.getpid()
            owner = f"{pid}.{started_at(pid) or 'x'}-"
            self._dir = Path(tempfile.mkdtemp(dir=self.folder, prefix=STAGE_PREFIX + owner))
        except OSError as exc:
            raise self._failure(exc) from None
        return self

    def write(self, path: Path, text: str) -> None:
        """Stage ``text`` as the new content of ``path`` (a later write of the same path wins)."""
        assert self._dir is not None, "Staging is used as a context manager"
        staged = self._dir / f"{len(self._writes)}-{path.name}"
        with open(staged, "w", encoding="utf-8") as f:
            f.write(text)
        self._writes.pop(path, None)
        self._writes[path] = staged

    def read(self, path: Path) -> str | None:
        """The text ``path`` will hold: the staged one, else the file's own (None when there is none)."""
        source = self._writes.get(path, path)
        try:
            return source.read_text(encoding="utf-8")
        except OSError:
            return None

    def remove(self, path: Path) -> None:
        """Stage the removal of ``path``."""
        self._removals.append(path)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if error is None:
                self._commit()
            elif isinstance(error, OSError) and not isinstance(error, UsageError):
                raise self._failure(error) from None
        finally:
            if self._dir is not None:
                shutil.rmtree(self._dir, ignore_errors=True)

    def _relative(self, path: Path) -> str:
        return path.relative_to(self.folder).as_posix()

    def _commit(self) -> None:
        assert self._dir is not None
        stage = self._dir
        kept: dict[str, str] = {}  # final -> the old file, kept aside until every move succeeded
        removals = [p for p in dict.fromkeys(self._removals) if p not in self._writes and p.exists()]
        try:
            for final in (*self._writes, *removals):
                if final.exists():
                    kept[self._relative(final)] = self._keep_aside(final, len(kept))
            journal = {
                "writes": [[staged.name, self._relative(final)] for final, staged in self._writes.items()],
                "removals": [self._relative(p) for p in removals],
                "kept": kept,
            }
            # Every staged file and the journal on disk before the first move: the journal is
            # what a later run finishes when this one is killed mid-way (issue 49).
            for staged in self._writes.values():
                _fsync(staged)
            (stage / f"{COMMIT}.tmp").write_text(json.dumps(journal))
            _fsync(stage / f"{COMMIT}.tmp")
            os.replace(stage / f"{COMMIT}.tmp", stage / COMMIT)
            _fsync(stage)
        except OSError as exc:
            raise self._failure(exc) from None
        try:
            _apply(self.folder, stage, journal, forward=True)
        except OSError as exc:
            # Renamed, not rewritten (a full disk cannot refuse it): killed while the old files go
            # back, a later run puts the rest back too (issue 49).
            with contextlib.suppress(OSError):
                os.replace(stage / COMMIT, stage / ROLLBACK)
            with contextlib.suppress(OSError):
                _apply(self.folder, stage, journal, forward=False)
                (stage / ROLLBACK).unlink()
            raise self._failure(exc) from None
        (stage / COMMIT).unlink()  # done: nothing left to finish, whatever becomes of the folder

    def _keep_aside(self, path: Path, n: int) -> str:
        assert self._dir is not None
        aside = self._dir / f"old-{n}-{path.name}"
        try:
            os.link(path, aside)  # no copy: the old file stays whole under a second name
        except OSError:
            shutil.copy2(path, aside)
        return aside.name

    def _failure(self, exc: OSError) -> ReportsNotWritable:
        where = Path(exc.filename) if exc.filename else self.folder
        try:
            shown = where.relative_to(self.folder.parent).as_posix()
        except ValueError:
            shown = where.name
        if self._dir is not None and shown.startswith(f"{self.folder.name}/{STAGE_PREFIX}"):
            shown = f"{self.folder.name}/ (a temporary file)"
        return ReportsNotWritable(
            f"{self.folder.name}/ could not be written ({exc.strerror or exc}: {shown}); every file is as it was"
        )


def write_file(path: Path, text: str) -> None:
    """One file, all or nothing, with an ordinary mode."""
    with Staging(path.parent) as stage:
        stage.write(path, text)
