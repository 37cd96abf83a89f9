"""One real PostgreSQL server per run, for the cases whose backend is ``postgresql``.

The binaries come from the ``pgserver`` wheel (PostgreSQL built for manylinux, installed in
the orchestrator's environment by noxfile.py); this module runs them itself rather than
through pgserver's own manager, so the server is a child of this process, in a temporary
data directory, and goes away with it. PostgreSQL refuses to run as root: as root, the
server runs as ``nobody`` (its data directory is handed to that user), so no system user is
created. It listens on a Unix socket only (``listen_addresses=''``): workers run in a
network namespace without interfaces, and a socket file is still reachable from there.

``server()`` starts it lazily, once, the first time a run needs it; ``stop()`` ends it and
removes the data directory, and runs on every exit path: ``atexit``, a SIGTERM/SIGHUP
handler (which then ends the process as the signal would), and the ``finally`` of the
commands that use it. A server that cannot start is remembered as a failure with the
server's own last log lines, so every case that needs it gets ``error`` with them and every
other case runs.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import importlib.util
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

# The variable a worker reads (harness/runtime/fakes/adk.py ``database_url``): the folder of
# the server's socket. HARNESS_* variables pass the worker environment's allowlist.
SOCKET_ENV = "HARNESS_POSTGRES_SOCKET"
START_TIMEOUT = 60.0
PORT = 5432  # only names the socket file (.s.PGSQL.5432); nothing listens on TCP
USER = "postgres"


class Unavailable(RuntimeError):
    """The server could not start; the message ends with the server's own last lines."""


@dataclass
class Server:
    process: subprocess.Popen
    root: Path  # the temporary folder: data directory, socket folder, log

    @property
    def socket_dir(self) -> str:
        return str(self.root / "socket")


_lock = threading.Lock()
_server: Server | None = None
_failure: str | None = None
_handlers_installed = False


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


def _tail(path: Path, lines: int = 6) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no server log)"
    kept = [line for line in text.splitlines() if line.strip()][-lines:]
    return " | ".join(kept) or "(empty server log)"


def _as_server_user() -> None:
    """In the child: drop root (PostgreSQL refuses it) and die with the parent."""
    with contextlib.suppress(Exception):  # Linux only: PR_SET_PDEATHSIG
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)


def _start() -> Server:
    bin_dir = binaries()
    if not (bin_dir / "postgres").is_file():
        raise Unavailable(f"no postgres binary in {bin_dir}")
    root = Path(tempfile.mkdtemp(prefix="harness-pg-"))
    data, sock, log = root / "data", root / "socket", root / "server.log"
    sock.mkdir()
    if os.geteuid() == 0:
        for p in (root, sock):
            os.chown(p, 65534, 65534)
    os.chmod(root, 0o755)
    os.chmod(sock, 0o777)
    init_log = root / "initdb.log"
    with init_log.open("wb") as out:
        done = subprocess.run(
            [str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"],
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=_as_server_user,
            env={"PATH": os.environ.get("PATH", ""), "LANG": "C", "LC_ALL": "C"},
            timeout=START_TIMEOUT,
        )
    if done.returncode != 0:
        message = f"initdb exited {done.returncode}: {_tail(init_log)}"
        shutil.rmtree(root, ignore_errors=True)
        raise Unavailable(message)
    options = [
        "-c", "listen_addresses=", "-c", f"unix_socket_directories={sock}", "-c", f"port={PORT}",
        "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
        "-c", "max_connections=200", "-c", "TimeZone=UTC",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(bin_dir / "postgres"), "-D", str(data), *options],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=_as_server_user,
            env={"PATH": os.environ.get("PATH", ""), "LANG": "C", "LC_ALL": "C"},
            start_new_session=True,  # a Ctrl-C to the run reaches it only through stop()
        )
    server = Server(process, root)
    deadline = time.monotonic() + START_TIMEOUT
    socket_file = sock / f".s.PGSQL.{PORT}"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            message = f"postgres exited {process.returncode}: {_tail(log)}"
            _remove(server)
            raise Unavailable(message)
        if socket_file.exists() and "ready to accept connections" in log.read_text(errors="replace"):
            return server
        time.sleep(0.05)
    message = f"postgres was not ready in {START_TIMEOUT:.0f} s: {_tail(log)}"
    _terminate(server)
    raise Unavailable(message)


def _terminate(server: Server) -> None:
    process = server.process
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
    _remove(server)


def _remove(server: Server) -> None:
    shutil.rmtree(server.root, ignore_errors=True)


def _on_signal(signum: int, _frame: object) -> None:
    stop()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _install_handlers() -> None:
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True
    atexit.register(stop)
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(signum) in (signal.SIG_DFL, None):
                signal.signal(signum, _on_signal)


def server() -> Server:
    """The run's server, started on first use; Unavailable (every later call too) when it cannot start."""
    global _server, _failure
    with _lock:
        if _server is not None:
            return _server
        if _failure is not None:
            raise Unavailable(_failure)
        _install_handlers()
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
    """End the server and remove its data directory (nothing when none was started)."""
    global _server
    with _lock:
        if _server is not None:
            _terminate(_server)
            _server = None


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
