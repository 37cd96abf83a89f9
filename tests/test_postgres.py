"""The PostgreSQL server of the ``-postgresql`` cases (harness/execution/postgres.py): it starts,
a case runs on it, and it leaves no process and no data directory behind, on a normal exit, on
SIGTERM mid-run, and when it cannot start (the failure names the server's own last lines).

Each lifecycle check runs in a subprocess of its own, so the server of this test process
(tests/conftest.py) is not the one stopped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from harness.execution import postgres
from harness.runtime import registry
from harness.runtime.runner import run_case

ROOT = Path(__file__).resolve().parent.parent

try:
    postgres.binaries()
except postgres.Unavailable as exc:
    pytest.skip(str(exc), allow_module_level=True)


def _python(code: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(postgres.SOCKET_ENV, None)
    env.update(kwargs.pop("env", {}))
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code) if code.startswith("\n") else code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        **kwargs,
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purpose (its parent, the killed subprocess, is gone too).
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


START = """\
import sys, subprocess
from harness.execution import postgres
s = postgres.server()
out = subprocess.run([str(postgres.binaries() / "psql"), "-h", s.socket_dir, "-U", "postgres", "-tAc",
                      "select 40 + 2"], capture_output=True, text=True)
print(s.root, s.server_pid, out.stdout.strip(), flush=True)
"""


def test_server_starts_answers_and_is_removed_at_exit():
    proc = _python(START + "\npostgres.stop()\nprint('stopped', flush=True)\n")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    root, pid, answer = out.splitlines()[0].split()
    assert answer == "42"
    assert out.splitlines()[1] == "stopped"
    assert not _alive(int(pid))
    assert not Path(root).exists()


def test_atexit_stops_a_server_nobody_stopped():
    proc = _python(START)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    root, pid, _ = out.split()
    assert not _alive(int(pid))
    assert not Path(root).exists()


def test_sigterm_mid_run_leaves_no_server_and_no_data_directory():
    """With the handlers a command installs (harness/commands/cli.py): the server is gone, and its
    folder, by the time the process has died of the signal."""
    proc = _python(
        START.replace("s = postgres.server()", "postgres.install_signal_handlers()\ns = postgres.server()")
        + "\nimport time\ntime.sleep(120)\n"
    )
    assert proc.stdout is not None
    root, pid, answer = proc.stdout.readline().split()
    assert answer == "42" and _alive(int(pid)) and Path(root).is_dir()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGTERM  # the handler stops the server, then dies of the signal
    assert not _alive(int(pid))
    assert not Path(root).exists()


def test_a_server_that_cannot_start_says_why_in_its_own_words():
    """A stale lock, a missing binary: the error ends with the server's last lines."""
    bin_dir = Path(tempfile.mkdtemp(prefix="harness-fake-pg-"))
    try:
        os.chmod(bin_dir, 0o755)
        (bin_dir / "initdb").write_text('#!/bin/sh\nmkdir -p "$2"\n')
        (bin_dir / "postgres").write_text(
            "#!/bin/sh\necho 'FATAL:  lock file \"postmaster.pid\" already exists'\nexit 1\n"
        )
        for name in ("initdb", "postgres"):
            os.chmod(bin_dir / name, 0o755)
        code = """
            import tempfile, os
            from harness.execution import postgres
            for attempt in range(2):  # the second call gives the remembered failure at once
                try:
                    postgres.server()
                except postgres.Unavailable as exc:
                    print(exc, flush=True)
            print(sorted(n for n in os.listdir(tempfile.gettempdir()) if n.startswith("harness-pg-")))
        """
        # A TMPDIR of its own (searchable by nobody): other runs' folders are not in it.
        proc = _python(code, env={"HARNESS_POSTGRES_BIN": str(bin_dir), "TMPDIR": str(bin_dir)})
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        first, second, leftover = out.splitlines()
        assert first.startswith("postgres exited 1: ")
        assert 'lock file "postmaster.pid" already exists' in first
        assert second == first
        assert leftover == "[]"
    finally:
        for name in ("initdb", "postgres"):
            (bin_dir / name).unlink(missing_ok=True)
        bin_dir.rmdir()


def test_a_case_runs_on_the_server_in_a_database_of_its_own():
    """One -postgresql case, in this process, on the server tests/conftest.py started."""
    if not os.environ.get(postgres.SOCKET_ENV):
        pytest.skip("no PostgreSQL server in this test process")
    pytest.importorskip("google.adk")
    pytest.importorskip("asyncpg")
    scenario = registry.discover()["adk-database-stale-session-interleave"]
    case = scenario.case("stale-append-event-postgresql")
    assert case.backend == "postgresql"
    before = _databases()
    result = run_case(scenario, case)
    assert result.outcome == "fixed", result.detail
    assert _databases() == before  # the case's database was dropped


def _databases() -> list[str]:
    out = subprocess.run(
        [str(postgres.binaries() / "psql"), "-h", os.environ[postgres.SOCKET_ENV], "-U", "postgres", "-tAc",
         "select datname from pg_database order by 1"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return out.stdout.split()


def test_backends_expand_each_case_beside_its_sqlite_twin():
    scenario = registry.discover()["adk-database-stale-session-interleave"]
    ids = [(c.id, c.backend) for c in scenario.cases]
    assert ids[:2] == [("concurrent-runs", "sqlite"), ("concurrent-runs-postgresql", "postgresql")]
    assert len(ids) == 6
