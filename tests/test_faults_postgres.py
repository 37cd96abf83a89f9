"""Faults of issue 34 about the PostgreSQL server's lifetime and nox's exit status and signals,
each reproduced as the issue describes it and shown to hold:

- a clone under a 0700 folder, run as root: the server (as ``nobody``) could not reach its
  binaries, so every PostgreSQL case was ``error`` ("PermissionError: ... initdb");
- SIGTERM and SIGHUP of a harness that started the server from a worker thread, and kill -9 of
  any harness, left the server running and its ``harness-pg-*`` folder behind;
- nox turned the harness's 2 (bad input) into 1, and SIGTERM to nox left the harness running.

Every server here is started in a subprocess with a ``TMPDIR`` of the test's own (searchable by
``nobody``), so the folders it makes, and the processes that hold them, are told from those of
other runs on the machine; the checks look for that folder's name, never for any postgres.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from conftest import default_signals
from harness.execution import postgres, postgres_files

ROOT = Path(__file__).resolve().parent.parent

try:
    postgres.binaries()
except postgres.Unavailable as exc:
    pytest.skip(str(exc), allow_module_level=True)


@pytest.fixture
def tmpdir_for_server(tmp_path: Path) -> Path:
    """A TMPDIR the server user can search (pytest's tmp_path is private: 0700 folders)."""
    folder = Path(tempfile.mkdtemp(prefix="harness-fault-pg-", dir="/tmp"))
    os.chmod(folder, 0o755)
    yield folder
    for pid in _processes_mentioning(str(folder)):  # only what this test started (the tests say what is left)
        os.kill(pid, signal.SIGKILL)
    shutil.rmtree(folder, ignore_errors=True)


def _processes_mentioning(text: str) -> list[int]:
    """Live processes whose command line or environment contains ``text``."""
    return list(_command_lines_mentioning(text))


def _command_lines_mentioning(text: str) -> dict[int, str]:
    """Live processes whose command line or environment contains ``text``, each with its command
    line as read in the same pass (a process that is exiting reads as an empty command line a moment
    later, which is how two exiting case workers once failed the SIGTERM test: CI, stop 43)."""
    found = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if (proc / "stat").read_text().rpartition(")")[2].split()[0] == "Z":
                continue
            command_line = (proc / "cmdline").read_bytes()
            blob = command_line + (proc / "environ").read_bytes()
        except OSError:
            continue
        if text.encode() in blob:
            found[int(proc.name)] = command_line.replace(b"\0", b" ").decode(errors="replace")[:200]
    return found


def _alive(pid: int) -> bool:
    from harness.execution.postgres_supervisor import started_at

    return started_at(pid) is not None


def _harness(code: str, tmpdir: Path, **env: str) -> subprocess.Popen:
    """A Python process of the harness's code, with the test's TMPDIR."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmpdir), **env}
    environment.pop(postgres.SOCKET_ENV, None)
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        preexec_fn=default_signals,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=ROOT,
    )


def _pg_folders(tmpdir: Path) -> list[Path]:
    return sorted(tmpdir.glob("harness-pg-*"))


# Starts the server as a command of the harness does: signal handlers installed on the main
# thread at start (harness/commands/cli.py), the server started where the argument says (a matrix
# run starts it from a worker thread), then waits to be stopped.
SERVE = """
    import sys, threading, time
    from harness.execution import postgres
    postgres.install_signal_handlers()
    box = {}
    def start():
        box["server"] = postgres.server()
    if sys.argv[1] == "thread":
        worker = threading.Thread(target=start)
        worker.start()
        worker.join()
    else:
        start()
    s = box["server"]
    print(s.root, s.server_pid, s.process.pid, flush=True)
    time.sleep(300)
"""


def _serve(tmpdir: Path, where: str) -> tuple[subprocess.Popen, Path, int, int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(SERVE), where],
        preexec_fn=default_signals,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmpdir)},
        cwd=ROOT,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.communicate(timeout=30)[1]
    root, server_pid, supervisor_pid = line.split()
    assert Path(root).parent == tmpdir and _alive(int(server_pid))
    return proc, Path(root), int(server_pid), int(supervisor_pid)


@pytest.mark.parametrize("where", ["main", "thread"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_to_the_harness_leaves_no_server_and_no_folder(tmpdir_for_server, signum, where):
    """Fault: SIGTERM and SIGHUP left the server and its folder when a worker thread had started
    it (the handler was installed only on a start from the main thread). Now the handler, installed
    when a command starts, ends the server and waits for its folder to go before the process ends
    as the signal would have ended it."""
    proc, root, server_pid, supervisor_pid = _serve(tmpdir_for_server, where)
    proc.send_signal(signum)
    proc.wait(timeout=60)
    assert proc.returncode == -signum  # it still dies of the signal (SIGINT: KeyboardInterrupt, then so)
    assert not _alive(server_pid) and not _alive(supervisor_pid)
    assert not root.exists() and _pg_folders(tmpdir_for_server) == []


def test_a_signal_while_another_thread_starts_the_server_leaves_nothing(tmpdir_for_server):
    """Fault (found on the way): a SIGTERM that arrived while a worker thread was still starting
    the server ended the harness before the server's supervisor had cleaned up. The handler now
    ends a supervisor that has not reported yet too, and waits for it."""
    bin_dir = tmpdir_for_server / "slow-bin"
    bin_dir.mkdir(mode=0o755)
    (bin_dir / "initdb").write_text("#!/bin/sh\nsleep 60\n")  # an initdb that takes its time
    (bin_dir / "postgres").write_text("#!/bin/sh\nexit 1\n")
    for name in ("initdb", "postgres"):
        os.chmod(bin_dir / name, 0o755)
    proc = _harness(
        """
        import threading
        from harness.execution import postgres
        postgres.install_signal_handlers()
        threading.Thread(target=postgres.server, daemon=True).start()
        threading.Event().wait(300)
        """,
        tmpdir_for_server,
        HARNESS_POSTGRES_BIN=str(bin_dir),
    )
    deadline = time.monotonic() + 60
    while not _processes_mentioning(str(bin_dir / "initdb")):
        assert time.monotonic() < deadline and proc.poll() is None, "initdb did not start"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGTERM
    assert _processes_mentioning(str(tmpdir_for_server)) == []
    assert _pg_folders(tmpdir_for_server) == []


@pytest.mark.parametrize("where", ["main", "thread"])
def test_kill_9_of_the_harness_ends_the_server_within_10_seconds(tmpdir_for_server, where):
    """Fault: after kill -9 of the harness the server ran on, with its folder (the parent-death
    signal was cleared when the server dropped root). Now the supervisor reads the end of its
    lifeline, ends the server and removes the folder."""
    proc, root, server_pid, supervisor_pid = _serve(tmpdir_for_server, where)
    proc.kill()
    proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while (_alive(server_pid) or _alive(supervisor_pid) or root.exists()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(server_pid) and not _alive(supervisor_pid)
    assert not root.exists()


def test_the_next_run_removes_what_a_killed_supervisor_left(tmpdir_for_server):
    """Fault: a killed run's folder stayed for ever. When even the supervisor is killed with -9,
    the server dies with it (a parent-death signal set after its change of user), and the next
    server start removes the folder whose owner is dead; a folder without an owner file (not a
    supervisor's) is left alone."""
    proc, root, server_pid, supervisor_pid = _serve(tmpdir_for_server, "main")
    foreign = tmpdir_for_server / "harness-pg-not-ours"
    foreign.mkdir()
    os.kill(supervisor_pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _alive(server_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(server_pid)
    assert root.is_dir()  # nobody was left to remove it
    proc.kill()
    proc.wait(timeout=10)
    second = _harness(
        """
        from harness.execution import postgres
        s = postgres.server()
        print(s.root, flush=True)
        postgres.stop()
        """,
        tmpdir_for_server,
    )
    out, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    assert not root.exists()
    assert not Path(out.strip()).exists()
    assert _pg_folders(tmpdir_for_server) == [foreign]


def test_commands_install_the_signal_handlers_on_the_main_thread(tmp_path):
    """Fault: the SIGTERM/SIGHUP handler was installed only when the server started on the main
    thread; now every command installs it as it starts (harness/commands/cli.py)."""
    code = """
        import signal
        from harness.commands import cli
        from harness.execution import postgres
        cli.main(["list"])
        print(all(signal.getsignal(s) is postgres._on_signal for s in postgres.SIGNALS))
    """
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        preexec_fn=default_signals,
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, check=True,
    )  # fmt: skip
    assert out.stdout.splitlines()[-1] == "True"


def _private_copy_of_the_binaries(into: Path) -> Path:
    """The pgserver wheel's files the server needs, hard-linked (or copied) below ``into``, as a
    clone's nox environment holds them; the bin folder."""
    site, install = postgres_files._install(postgres.binaries())
    for path in [*postgres_files._needed(postgres.binaries()), install / "bin" / "psql"]:
        target = into / path.relative_to(site)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, target)
        except OSError:
            shutil.copy2(path, target)
    return into / (install / "bin").relative_to(site)


@pytest.mark.skipif(os.geteuid() != 0, reason="the server runs as nobody only when the run is root")
def test_a_clone_under_a_private_folder_gets_a_server(tmpdir_for_server):
    """Fault: from a clone under a 0700 folder, as root, every PostgreSQL case was `error`
    ("PermissionError: ... initdb"): nobody could not reach the binaries in the clone's nox
    environment. Now the server runs from a root-owned copy nobody can reach (made once, keyed by
    content), and a private TMPDIR sends its folder to one nobody can search."""
    private = Path(tempfile.mkdtemp(prefix="harness-fault-private-"))  # 0700, like root's home
    try:
        os.chmod(private, 0o700)
        bin_dir = _private_copy_of_the_binaries(private / "clone" / "site-packages")
        assert not postgres_files.reachable(bin_dir / "initdb", 0o5)
        own_tmp = private / "tmp"  # a private TMPDIR: the data folder must go elsewhere
        own_tmp.mkdir()
        proc = _harness(
            f"""
            import subprocess
            from harness.execution import postgres
            s = postgres.server()
            answer = subprocess.run([{str(bin_dir / "psql")!r}, "-h", s.socket_dir, "-U", "postgres", "-tAc",
                                     "select 40 + 2"], capture_output=True, text=True).stdout.strip()
            print(s.root, answer, flush=True)
            postgres.stop()
            """,
            own_tmp,
            HARNESS_POSTGRES_BIN=str(bin_dir),
        )
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
        root, answer = out.split()
        assert answer == "42"
        assert Path(root).parent in {Path(p) for p in postgres_files.SHARED_TEMP_FOLDERS}
        assert not Path(root).exists()
    finally:
        shutil.rmtree(private, ignore_errors=True)


def test_the_binaries_copy_is_made_once_and_refused_when_someone_else_could_write_it(tmp_path, monkeypatch):
    """The copy for the server user: made once under a folder of its content key, reused on the
    next start (the files are not copied again), and refused, not used, when its folder could be
    written by someone else."""
    if os.geteuid() != 0:
        pytest.skip("the copy is made only when the run is root")
    private = tmp_path / "clone"  # tmp_path is 0700: nobody cannot reach it
    bin_dir = _private_copy_of_the_binaries(private)
    shared = Path(tempfile.mkdtemp(prefix="harness-fault-shared-"))
    try:
        os.chmod(shared, 0o755)
        monkeypatch.setattr(postgres_files, "SHARED_TEMP_FOLDERS", (str(shared),))
        monkeypatch.setenv("TMPDIR", str(tmp_path))
        monkeypatch.setattr("tempfile.tempdir", None)
        started = time.perf_counter()
        first = postgres_files.server_binaries(bin_dir)
        made = time.perf_counter() - started
        assert first.is_relative_to(shared / postgres_files.COPIES)
        assert postgres_files.reachable(first / "initdb", 0o5)
        inode = (first / "postgres").stat().st_ino
        started = time.perf_counter()
        assert postgres_files.server_binaries(bin_dir) == first
        reused = time.perf_counter() - started
        assert (first / "postgres").stat().st_ino == inode  # not copied again
        print(f"copy made in {made:.2f} s, reused in {reused * 1000:.0f} ms")
        os.chmod(shared / postgres_files.COPIES, 0o777)
        with pytest.raises(postgres_files.Unreachable, match="no one else can write"):
            postgres_files.server_binaries(bin_dir)
    finally:
        shutil.rmtree(shared, ignore_errors=True)


# --- nox -------------------------------------------------------------------------------------

NOX = shutil.which("nox")
STAND_IN_NOXFILE = """
import sys
import tempfile
import nox
sys.path.insert(0, {root!r})
from noxfile import run_to_the_end

@nox.session(python=False)
def stand_in(session):
    run_to_the_end(session, sys.executable, "-c", {code!r}, *session.posargs)
"""
# What the stand-in command does: exit with its argument, or on SIGTERM take a second to end,
# then write a marker (nox must wait for it); on SIGINT it says so and runs on (as the harness
# finishes the builds under way).
STAND_IN = """
import signal, sys, time, pathlib
def ending(signum, frame):
    time.sleep(1)
    pathlib.Path(sys.argv[2]).write_text("ended")
    sys.exit(143)
signal.signal(signal.SIGTERM, ending)
signal.signal(signal.SIGINT, lambda signum, frame: print("interrupted", flush=True))
print("ready", flush=True)
if sys.argv[1] != "wait":
    sys.exit(int(sys.argv[1]))
time.sleep(300)
"""


def _nox_stand_in(tmp_path: Path, *args: str) -> subprocess.Popen:
    noxfile = tmp_path / "noxfile.py"
    noxfile.write_text(STAND_IN_NOXFILE.format(root=str(ROOT), code=STAND_IN))
    return subprocess.Popen(
        [NOX, "-f", str(noxfile), "-s", "stand_in", "--", *args],
        preexec_fn=default_signals,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
    )


@pytest.mark.skipif(NOX is None, reason="nox is not installed")
@pytest.mark.parametrize("status", [0, 1, 2])
def test_nox_ends_with_the_commands_own_status(tmp_path, status):
    """Fault: nox turned the harness's 2 (bad input) into its own 1. The sessions that run the
    harness end with its status."""
    proc = _nox_stand_in(tmp_path, str(status), str(tmp_path / "marker"))
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == status, out


@pytest.mark.skipif(NOX is None, reason="nox is not installed")
def test_sigterm_to_nox_reaches_the_command_and_nox_waits_for_it(tmp_path):
    """Fault: SIGTERM to nox ended nox alone; the harness ran on and wrote the record later. Now
    nox passes the signal on and ends only once the command has."""
    marker = tmp_path / "marker"
    proc = _nox_stand_in(tmp_path, "wait", str(marker))
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip() == "ready":
            break
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert marker.read_text() == "ended"  # written a second after the signal: nox waited
    assert proc.returncode == 143


@pytest.mark.skipif(NOX is None, reason="nox is not installed")
def test_ctrl_c_to_nox_reaches_the_command_and_a_second_one_ends_it(tmp_path):
    """Ctrl-C reaches nox alone (the command has a process group of its own): nox passes it on
    and waits; a second one goes on as SIGTERM, which ends a command that was finishing its work."""
    marker = tmp_path / "marker"
    proc = _nox_stand_in(tmp_path, "wait", str(marker))
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip() == "ready":
            break
    proc.send_signal(signal.SIGINT)
    assert proc.stdout.readline().strip() == "interrupted"
    assert proc.poll() is None and not marker.exists()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert marker.read_text() == "ended"
    assert proc.returncode == 143


@pytest.mark.slow
@pytest.mark.skipif(NOX is None, reason="nox is not installed")
def test_nox_matrix_with_bad_input_exits_2():
    """Fault: `nox -s matrix -- --only no-such-id` exited 1 (nox's failure) where the harness
    exits 2 for bad input."""
    proc = subprocess.run([NOX, "-s", "matrix", "--", "--only", "no-such-id"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "error: unknown scenario 'no-such-id'" in proc.stdout + proc.stderr


@pytest.mark.slow
@pytest.mark.skipif(NOX is None, reason="nox is not installed")
def test_sigterm_to_nox_matrix_leaves_no_harness_server_or_folder(tmpdir_for_server, tmp_path):
    """Fault: SIGTERM to `nox -s matrix` left the harness running (it wrote the record 2.5 s
    later). Now nox passes it on and waits: once nox has ended, neither the harness nor the
    PostgreSQL server nor its supervisor is left (every process with the run's TMPDIR but the
    case workers, whose ending is the worker protocol's part of the issue), no server folder, and
    nothing was written."""
    out = tmp_path / "reports"
    proc = subprocess.Popen(
        [NOX, "-s", "matrix", "--", "--rerun", "--cold", "--out", str(out),
         "--only", "adk-database-postgres-aware-datetime", "google-adk==2.13.0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, preexec_fn=default_signals,
        env={**os.environ, "TMPDIR": str(tmpdir_for_server)},
    )  # fmt: skip
    deadline = time.monotonic() + 600
    while not list(tmpdir_for_server.glob("harness-pg-*/socket/.s.PGSQL.*")) and proc.poll() is None:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()[0]
    proc.send_signal(signal.SIGTERM)
    output, _ = proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGTERM, output
    assert _harness_processes_left(str(tmpdir_for_server)) == {}
    assert _pg_folders(tmpdir_for_server) == []
    assert not (out / "matrix.json").exists()


def _harness_processes_left(tmpdir: str, settle: float = 5.0) -> dict[int, str]:
    """The processes with ``tmpdir`` in their environment but the case workers (whose ending is the
    worker protocol's part), after up to ``settle`` seconds for ones already in their exit: a process
    the kernel is tearing down has ended for this test's purpose, but /proc still lists it briefly."""
    deadline = time.monotonic() + settle
    while True:
        left = {
            pid: line for pid, line in _command_lines_mentioning(tmpdir).items() if "harness.runtime.worker" not in line
        }
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


@pytest.mark.skipif(NOX is None, reason="nox is not installed")
def test_a_command_killed_by_sigkill_ends_nox_by_sigkill_with_one_line_and_no_traceback(tmp_path):
    """Issue 49: after the harness was killed by SIGKILL, nox raised `OSError: Invalid argument`
    (signal.signal cannot change SIGKILL's disposition). Now nox says so in one line and ends by
    the same signal."""
    proc = _nox_stand_in(tmp_path, "wait", str(tmp_path / "marker"))
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip() == "ready":
            break
    for child in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split():
        os.kill(int(child), signal.SIGKILL)  # the command nox started
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, out
    assert "Traceback" not in out and "Invalid argument" not in out, out
    assert "ended by SIGKILL" in out
