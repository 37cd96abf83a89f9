"""One real PostgreSQL server per run, for the cases whose backend is ``postgresql``.

The binaries come from the ``pgserver`` wheel (PostgreSQL built for manylinux, installed in
the orchestrator's environment by noxfile.py); the harness runs them itself rather than through
pgserver's own manager. It listens on a Unix socket only (``listen_addresses=''``): workers run
in a network namespace without interfaces, and a socket file is still reachable from there.

``server()`` starts it lazily, once, the first time a run needs it, through a supervisor
process of its own (harness/execution/postgres_supervisor.py: the server runs as ``nobody``
when the run is root, from binaries and in a folder that user can reach, see
harness/execution/postgres_files.py). The supervisor ends the server and removes its folder
when this process closes its end of a pipe, which ``stop()`` does and which the kernel does
when this process dies, however it dies (kill -9 included, from whichever thread the server was
started). ``stop()`` runs at the end of the commands that use it and at exit;
``install_signal_handlers()``, called when a command starts (on the main thread), makes SIGTERM,
SIGHUP and SIGINT stop the server and wait for its folder to be gone before the process ends as
the signal would have ended it. A server that cannot start is remembered as a failure with the
server's own last log lines, so every case that needs it gets ``error`` with them and every
other case runs.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

# The variable a worker reads (harness/runtime/reproduction.py sets libpq's PGHOST from it): the folder of
# the server's socket. HARNESS_* variables pass the worker environment's allowlist.
SOCKET_ENV = "HARNESS_POSTGRES_SOCKET"
USER = "postgres"
SUPERVISOR = "harness.execution.postgres_supervisor"
STOP_WAIT = 30.0  # seconds to wait for the supervisor to end the server and remove its folder
ROOT = Path(__file__).resolve().parents[2]  # the project root, where the supervisor's module is found
SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


class Unavailable(RuntimeError):
    """The server could not start; the message ends with the server's own last lines."""


@dataclass
class Server:
    process: subprocess.Popen  # the supervisor
    root: Path  # the run's folder: data directory, socket folder, logs
    server_pid: int  # the postmaster
    lifeline: BinaryIO  # the write end of the supervisor's lifeline; closing it stops the server

    @property
    def socket_dir(self) -> str:
        return str(self.root / "socket")

    def end(self, wait: float = STOP_WAIT) -> bool:
        """Stop the server: see _end."""
        return _end(self.process, self.lifeline, wait)


def _end(supervisor: subprocess.Popen, lifeline: BinaryIO, wait: float = STOP_WAIT) -> bool:
    """Close the lifeline and wait up to ``wait`` seconds for the supervisor to have ended the
    server and removed the folder; whether it did. Takes no lock (a signal handler calls it)."""
    with contextlib.suppress(OSError):
        lifeline.close()
    deadline = time.monotonic() + wait
    while supervisor.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    return supervisor.poll() is not None


_lock = threading.Lock()
_server: Server | None = None
_failure: str | None = None
_closing = False  # a signal arrived: no server starts any more in this process
# The supervisor being started and its lifeline, until it reports (a signal may arrive meanwhile).
_starting: tuple[subprocess.Popen, BinaryIO] | None = None
_at_exit_registered = False
_handlers_installed = False
_previous_handlers: dict[int, object] = {}


def binaries() -> Path:
    """The folder of ``initdb`` and ``postgres`` in the pgserver wheel (not imported: its
    package makes lock files on import)."""
    override = os.environ.get("HARNESS_POSTGRES_BIN")
    if override:
        return Path(override)
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise Unavailable("the pgserver package (PostgreSQL's binaries) is not installed in this environment")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def _start() -> Server:
    global _starting
    bin_dir = binaries()
    if not (bin_dir / "postgres").is_file():
        raise Unavailable(f"no postgres binary in {bin_dir}")
    read_end, write_end = os.pipe()  # both ends close-on-exec: no other child holds the write end
    lifeline = os.fdopen(write_end, "wb", buffering=0)
    python_path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", SUPERVISOR, str(bin_dir), str(read_end)],
            pass_fds=(read_end,),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # it reports on stdout, in one line, whatever happens
            env={**os.environ, "PYTHONPATH": python_path},
            start_new_session=True,  # a Ctrl-C to the run's process group reaches it only through us
        )
    except OSError:
        lifeline.close()
        raise
    finally:
        os.close(read_end)
    _starting = (process, lifeline)
    assert process.stdout is not None
    try:
        with process.stdout:
            line = process.stdout.readline()
    finally:
        _starting = None
    try:
        report = json.loads(line)
    except ValueError:
        report = {"error": f"the server's supervisor ended without a report (exit {process.wait()})"}
    if "error" in report:
        lifeline.close()
        process.wait()
        raise Unavailable(report["error"])
    return Server(process, Path(report["root"]), int(report["pid"]), lifeline)


def server() -> Server:
    """The run's server, started on first use; Unavailable (every later call too) when it cannot start."""
    global _server, _failure, _at_exit_registered
    with _lock:
        if _server is not None:
            return _server
        if _failure is not None:
            raise Unavailable(_failure)
        if _closing:
            raise Unavailable("the run is stopping")
        if not _at_exit_registered:
            _at_exit_registered = True
            atexit.register(stop)
        try:
            _server = _start()
        except Unavailable as exc:
            _failure = str(exc)
            raise
        except (OSError, subprocess.SubprocessError) as exc:
            _failure = f"{type(exc).__name__}: {exc}"
            raise Unavailable(_failure) from exc
        return _server


def stop() -> None:
    """End the server and remove its folder, waiting for both (nothing when none was started)."""
    global _server
    with _lock:
        if _server is not None:
            _server.end()
            _server = None


# What else a handled signal ends before the run does (the upgrade steps' processes and folders,
# harness/execution/upgrades.py): quick calls that take no lock.
_signal_cleanups: list[Callable[[], None]] = []


def on_signal(cleanup: Callable[[], None]) -> None:
    """Also call ``cleanup`` when SIGTERM, SIGHUP or SIGINT ends the run (before the server stops)."""
    _signal_cleanups.append(cleanup)


def _on_signal(signum: int, frame: object) -> None:
    """End what the run started (``on_signal``), stop the server (without the lock: the interrupted
    code may hold it), then end as the signal would have: the handler that was there before, or
    the default action."""
    global _closing
    _closing = True
    for cleanup in list(_signal_cleanups):
        with contextlib.suppress(Exception):
            cleanup()
    running_server, starting = _server, _starting
    if running_server is not None:
        running_server.end()
    elif starting is not None:  # another thread is starting it: the supervisor stops half-way
        _end(*starting)
    previous = _previous_handlers.get(signum, signal.SIG_DFL)
    if callable(previous):
        previous(signum, frame)  # SIGINT's default: KeyboardInterrupt, and the finally blocks run
    else:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


def install_signal_handlers() -> None:
    """Make SIGTERM, SIGHUP and SIGINT stop this process's server first; once, on the main thread
    (a command calls it as it starts, before any thread may start the server)."""
    global _handlers_installed
    if _handlers_installed or threading.current_thread() is not threading.main_thread():
        return
    _handlers_installed = True
    for signum in SIGNALS:
        previous = signal.getsignal(signum)
        if previous != signal.SIG_IGN:  # an ignored signal (nohup) stays ignored
            _previous_handlers[signum] = previous
            signal.signal(signum, _on_signal)


def running() -> Server | None:
    """The server of this process, if one is running (a command stops only a server it started)."""
    return _server


def failure() -> str | None:
    """Why the server could not start in this run, if it was tried and failed."""
    return _failure


def reset() -> None:
    """Forget a failure (tests)."""
    global _failure
    stop()
    _failure = None
