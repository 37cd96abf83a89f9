"""A worker ends with the harness that reads it, even when a case hangs in code nothing interrupts.

The worker leads a process group of its own (a cold one is started so, harness/execution/driver.py;
a warm one's fork makes itself one, harness/runtime/warm.py), and every process a case starts is in
it. ``watch`` forks a small watcher into that group which waits for the reader of the worker's
protocol channel to go away (the driver's end of the pipe or socket closed: the harness exited,
was killed with SIGKILL, or gave up on the run) and then kills the whole group with SIGKILL, and
every descendant of the worker, in whatever session (``kill_tree``, which the driver's kill on a
deadline uses too). The
watcher itself dies with the worker (Linux's parent-death signal), so a worker that ends normally
takes it along. The warm server, which is not in the group, stays (README "Warm workers").
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys

PR_SET_PDEATHSIG = 1  # linux/prctl.h
# Hang-up, error and peer-closed: the events that mean the reader is gone (a pipe's write end
# reports POLLERR; a socket, POLLHUP or POLLRDHUP, or reads as end of file).
_GONE = select.POLLERR | select.POLLHUP | select.POLLNVAL | getattr(select, "POLLRDHUP", 0x2000)


def watch(protocol_fd: int) -> int | None:
    """Fork the watcher of ``protocol_fd`` (Linux, in a process that leads its own group; elsewhere
    nothing: the driver's kill on a deadline still applies) and return its pid, or None. Call it
    before any thread starts."""
    if sys.platform != "linux" or os.getpgid(0) != os.getpid():
        return None
    worker = os.getpid()
    watcher = os.fork()
    if watcher != 0:
        return watcher
    try:  # the watcher: never returns
        _die_with(worker)
        os.closerange(0, protocol_fd)  # hold nothing of the worker's open but the channel
        os.closerange(protocol_fd + 1, 1 << 16)
        _wait_for_the_reader_to_go(protocol_fd)
        kill_tree(worker, spare=os.getpid())  # those in a session of their own too (issue 49)
        os.killpg(0, signal.SIGKILL)  # the worker, its case's processes, and this watcher
    finally:
        os._exit(0)


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s children, as /proc lists them (none where there is no /proc)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(p) for p in f.read().split()]
    return found


def kill_tree(pid: int, spare: int | None = None) -> None:
    """SIGKILL ``pid`` and every descendant of it (but ``spare``), whatever session or process
    group each is in: a killpg misses one that made a session of its own (issue 49). Each is
    stopped as it is found, so it forks no new one while the rest are looked for, and killed
    after its descendants."""
    found: list[int] = []
    todo = [pid]
    while todo:
        current = todo.pop()
        if current in found or current == spare:
            continue
        with contextlib.suppress(OSError):
            os.kill(current, signal.SIGSTOP)
        found.append(current)
        todo += children(current)
    # The deepest first, ``pid`` last: the watcher dies with the worker (its parent-death signal),
    # so the worker's death must not come before the others'.
    for current in reversed(found):
        with contextlib.suppress(OSError):
            os.kill(current, signal.SIGKILL)


def _die_with(parent: int) -> None:
    """SIGKILL this process when ``parent`` exits; exit now if it already has."""
    import ctypes  # only in the watcher: the worker itself never pays for it

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)


def _wait_for_the_reader_to_go(fd: int) -> None:
    poller = select.poll()
    poller.register(fd, select.POLLIN | _GONE)
    while True:
        for _, events in poller.poll():
            if events & _GONE:
                return
            try:  # readable: a socket's end of file (the driver sends nothing after its request)
                if not os.read(fd, 4096):
                    return
            except OSError:
                return
