"""All-or-nothing writes of a folder's files (the record and its reports, a run folder).

Every file is first written into a temporary folder inside the target (``.tmp-stage-*``, so on
the same file system, git-ignored), then moved into place; the files it replaces are kept aside
(hard links) until every move has succeeded, and put back if one fails. A full disk, a
read-only subfolder or any other failed write therefore ends in one line, with every file as it
was and no temporary file left. Files are written with ``open``, so they get the ordinary mode
the umask gives (0644 under 022), not ``mkstemp``'s 0600.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from types import TracebackType

from harness.errors import UsageError

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
            self._dir = Path(tempfile.mkdtemp(dir=self.folder, prefix=STAGE_PREFIX))
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

    def _commit(self) -> None:
        assert self._dir is not None
        kept: dict[Path, Path] = {}  # final path -> the old file, kept aside until every move succeeded
        done: list[Path] = []
        try:
            for final, staged in self._writes.items():
                final.parent.mkdir(parents=True, exist_ok=True)
                if final.exists():
                    kept[final] = self._keep_aside(final, len(kept))
                os.replace(staged, final)
                done.append(final)
            for path in self._removals:
                if path.exists() and path not in kept:
                    kept[path] = self._keep_aside(path, len(kept))
                    path.unlink()
                    done.append(path)
        except OSError as exc:
            for path in reversed(done):
                with contextlib.suppress(OSError):
                    if path in kept:
                        os.replace(kept[path], path)
                    else:
                        path.unlink()
            raise self._failure(exc) from None

    def _keep_aside(self, path: Path, n: int) -> Path:
        assert self._dir is not None
        aside = self._dir / f"old-{n}-{path.name}"
        try:
            os.link(path, aside)  # no copy: the old file stays whole under a second name
        except OSError:
            shutil.copy2(path, aside)
        return aside

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
