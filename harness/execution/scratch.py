"""Folders the harness makes in the temporary directory for a run, named after the process that
made them (``harness-<kind>-<pid>-...``): removed on every way out of the code that made them, and,
when that process was killed with SIGKILL, by the next run's ``sweep``."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

PREFIX = "harness-"


def make(kind: str) -> Path:
    """A new folder of this process's ``kind`` (``run``: a worker run's; ``upgrade``: a pair's state)."""
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-{os.getpid()}-"))


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def folder(kind: str) -> Iterator[Path]:
    """A new folder of ``kind`` for the ``with`` block, removed at its end whatever happened."""
    made = make(kind)
    try:
        yield made
    finally:
        remove(made)


def sweep(kind: str) -> list[Path]:
    """Remove the ``kind`` folders of processes that no longer exist (a run killed with SIGKILL); the removed."""
    removed = []
    prefix = f"{PREFIX}{kind}-"
    for found in Path(tempfile.gettempdir()).glob(f"{prefix}*-*"):
        owner = found.name[len(prefix) :].partition("-")[0]
        if owner.isdigit() and int(owner) != os.getpid() and not Path(f"/proc/{owner}").exists():
            remove(found)
            removed.append(found)
    return removed
