"""The PostgreSQL server's supervisor: ``python -m harness.execution.postgres_supervisor BIN_DIR FD``.

harness/execution/postgres.py starts it, in a session of its own, when a run first needs the
server. It makes the run's ``harness-pg-*`` folder (data, socket, logs), starts ``initdb`` and
``postgres`` as the server user (``nobody`` when root: PostgreSQL refuses root), prints one JSON
line on its standard output (``{"root": ..., "pid": ...}`` once the server accepts connections, or
``{"error": ...}`` ending with the server's own last lines), then watches file descriptor FD.

FD is the read end of a pipe whose only write end the harness holds and never writes to. It
reaches end of file when the harness asks the server to stop (it closes its end) and when the
harness dies in any way, kill -9 included; the supervisor then shuts the server down fast and
removes the folder. A parent-death signal alone cannot do this: the kernel clears it when a child
changes credentials (setuid to nobody), and it fires when the *thread* that started the child
ends (a matrix run starts the server from a worker thread). The server itself gets a parent-death
signal relative to this single-threaded process, set after its change of credentials, so it dies
with the supervisor even when the supervisor is killed with -9.

Each folder holds an ``owner`` file (the supervisor's pid and start time). Before making one, a
supervisor removes the folders whose owner is dead (a supervisor killed with -9), ending any
server still running in them; folders without an owner file are not its to judge.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harness.execution import postgres_files
from harness.owners import owner_alive, started_at

PREFIX = "harness-pg-"
START_TIMEOUT = 60.0  # seconds for initdb, then for the server to accept connections
STOP_WAIT = 5.0  # seconds of fast shutdown before the server's processes are killed
PORT = 5432  # only names the socket file (.s.PGSQL.5432); nothing listens on TCP
USER = "postgres"
PR_SET_PDEATHSIG = 1
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
_children: list[subprocess.Popen] = []
SUPERVISOR_PID = os.getpid()


class _Stop(Exception):
    """The harness closed the lifeline, or this process got a signal to end."""


class _Failed(Exception):
    """The server could not start; the message ends with its own last lines."""


def _on_signal(_signum: int, _frame: object) -> None:
    raise _Stop


def _tail(path: Path, lines: int = 6) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no server log)"
    kept = [line for line in text.splitlines() if line.strip()][-lines:]
    return " | ".join(kept) or "(empty server log)"


def _report(message: dict) -> None:
    with contextlib.suppress(OSError):  # the harness is gone: nobody to tell
        print(json.dumps(message), flush=True)


def _as_server_user() -> None:
    """In the child, before exec: drop root, then die with the supervisor (in this order: the
    change of credentials clears a parent-death signal set before it)."""
    ids = postgres_files.server_ids()
    if ids is not None:
        os.setgroups([])
        os.setgid(ids[1])
        os.setuid(ids[0])
    if _LIBC is not None:
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != SUPERVISOR_PID:  # the supervisor died before the signal was set
        os._exit(1)


def _spawn(argv: list[str], log: Path, root: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        process = subprocess.Popen(
            argv,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=_as_server_user,  # this process has one thread: preexec_fn is safe
            env={"PATH": os.environ.get("PATH", ""), "LANG": "C", "LC_ALL": "C"},
            cwd=root,  # a folder the server user can reach (the harness's may not be)
            start_new_session=True,  # its own process group: killpg reaches its children too
        )
    _children.append(process)
    return process


def _wait(process: subprocess.Popen, lifeline: int, ready: Callable[[], bool]) -> bool:
    """Until ``process`` ends or ``ready()``; False after START_TIMEOUT; _Stop when the lifeline closes."""
    deadline = time.monotonic() + START_TIMEOUT
    while process.poll() is None and not ready():
        if time.monotonic() > deadline:
            return False
        _watch(lifeline, 0.05)
    return True


def _watch(lifeline: int, timeout: float) -> None:
    readable, _, _ = select.select([lifeline], [], [], timeout)
    if readable and not os.read(lifeline, 4096):
        raise _Stop


def _make_root(base: Path) -> Path:
    root = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base))
    os.chmod(root, 0o755)  # the server user searches it; only this user writes it
    (root / "owner").write_text(json.dumps({"pid": os.getpid(), "started": started_at(os.getpid())}))
    return root


def _start(bin_dir: Path, root: Path, lifeline: int) -> subprocess.Popen:
    binaries = postgres_files.server_binaries(bin_dir)
    data, sock = root / "data", root / "socket"
    data.mkdir(mode=0o700)
    sock.mkdir()
    os.chmod(sock, 0o755)
    ids = postgres_files.server_ids()
    if ids is not None:
        for folder in (data, sock):
            os.chown(folder, *ids)
    init_log = root / "initdb.log"
    initdb = _spawn(
        [str(binaries / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync"],
        init_log,
        root,
    )
    if not _wait(initdb, lifeline, lambda: False):
        raise _Failed(f"initdb did not finish in {START_TIMEOUT:.0f} s: {_tail(init_log)}")
    if initdb.returncode != 0:
        raise _Failed(f"initdb exited {initdb.returncode}: {_tail(init_log)}")
    options = [
        "-c", "listen_addresses=", "-c", f"unix_socket_directories={sock}", "-c", f"port={PORT}",
        "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
        "-c", "max_connections=200", "-c", "TimeZone=UTC",
    ]  # fmt: skip
    log = root / "server.log"
    server = _spawn([str(binaries / "postgres"), "-D", str(data), *options], log, root)
    socket_file = sock / f".s.PGSQL.{PORT}"

    def ready() -> bool:
        return socket_file.exists() and "ready to accept connections" in log.read_text(errors="replace")

    if not _wait(server, lifeline, ready):
        raise _Failed(f"postgres was not ready in {START_TIMEOUT:.0f} s: {_tail(log)}")
    if server.poll() is not None:
        raise _Failed(f"postgres exited {server.returncode}: {_tail(log)}")
    return server


def _shut(process: subprocess.Popen) -> None:
    """Fast shutdown (SIGINT), up to STOP_WAIT seconds, then SIGKILL to whatever is left of its
    process group, while the leader is not yet reaped (so the group's id cannot be another's)."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + STOP_WAIT
    while os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is None:
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def sweep(base: Path) -> list[Path]:
    """Remove the ``harness-pg-*`` folders in ``base`` whose supervisor is dead (ending a server
    still running there); the folders removed."""
    removed = []
    for folder in sorted(base.glob(f"{PREFIX}*")):
        try:
            st = folder.lstat()
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                continue
            owner = json.loads((folder / "owner").read_text())
            pid, started = int(owner["pid"]), owner["started"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not made by a supervisor, or being made right now
        if owner_alive(pid, started):
            continue
        _kill_server_in(folder)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _kill_server_in(folder: Path) -> None:
    """End a server still running on ``folder``'s data (its pid in postmaster.pid, checked against
    its command line), with its process group, and wait up to 5 s for it to be gone."""
    try:
        pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except (OSError, ValueError, IndexError):
        return
    if str(folder / "data") not in command:
        return
    with contextlib.suppress(OSError):
        if os.getpgid(pid) == pid:  # its own process group (_spawn): its children too
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while started_at(pid) is not None and time.monotonic() < deadline:
        time.sleep(0.05)


def main(argv: list[str]) -> int:
    bin_dir, lifeline = Path(argv[0]), int(argv[1])
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    root: Path | None = None
    try:
        base = postgres_files.base_folder()
        sweep(base)
        root = _make_root(base)
        server = _start(bin_dir, root, lifeline)
        _report({"root": str(root), "pid": server.pid})
        while server.poll() is None:
            _watch(lifeline, 1.0)
    except _Stop:
        pass
    except _Failed as exc:
        _report({"error": str(exc)})
    except Exception as exc:  # whatever it was, the harness hears it in one line
        _report({"error": f"{type(exc).__name__}: {exc}"})
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)  # the clean-up runs to its end
        for process in reversed(_children):
            _shut(process)
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
