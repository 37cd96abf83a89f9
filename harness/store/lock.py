"""The record's lock: one writer of reports/ at a time, across every process of a checkout.

Every read-merge-write of ``reports/matrix.json`` and ``reports/bisect.json`` happens holding
it, and re-reads the record inside it, so a run that finishes meanwhile keeps its rows. It is
an ``flock`` on ``reports/.record.lock`` (git-ignored), which the kernel releases when its
holder exits, however it exits: a killed run never leaves the record locked. The holder writes
its process id into the file while it holds it (the file is empty otherwise), so a run that has
to wait says which process it waits for.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

LOCK_NAME = ".record.lock"


def _say(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


@contextlib.contextmanager
def locked(reports_dir: Path, log: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the record's lock for the block, waiting for another holder first (said in one line)."""
    reports_dir.mkdir(parents=True, exist_ok=True)
    path = reports_dir / LOCK_NAME
    # Its own open file description: two holders in one process (threads) exclude each other too.
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            (log or _say)(
                f"waiting: process {holder} holds reports/{LOCK_NAME} (it is writing the record); "
                "this run writes its results when it is done"
            )
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)  # released: no process id stays behind (the file is empty between runs)
    finally:
        os.close(fd)  # releases the lock
