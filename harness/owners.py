"""Whether the process that made a folder still runs: the pid and start time it wrote, checked.

A folder a run makes for itself (a staging of reports, a database server's files) is left behind
when the run is killed; a later run removes it only when its owner is gone. The start time
(clock ticks since boot, /proc/PID/stat field 22) tells the owner from a later process given
the same pid. Stdlib only.
"""

from __future__ import annotations

import os
from pathlib import Path


def started_at(pid: int) -> str | None:
    """A process's start time (clock ticks since boot, /proc/PID/stat field 22), which tells it
    from a later process given the same pid; None when no such process runs (or no /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else fields[19]


def owner_alive(pid: int, started: str | None) -> bool:
    """Whether the process that wrote (``pid``, ``started``) still runs (without /proc, where no
    start time was written: whether any process has its pid, so a live run's folder is never taken)."""
    if started is not None:
        return started_at(pid) == started
    return pid_runs(pid)


def pid_runs(pid: int) -> bool:
    """Whether a process with this pid runs (someone else's counts; a zombie, one that exited and
    waits to be reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True
