"""Issue 34, the worker protocol and the result cache: each fault the issue lists, reproduced.

Every test builds a scratch project (this harness and only its own bug folders, tests/scratch.py)
and runs its cases through harness/execution/driver.py, cold (a new process) or warm (a fork of a warm worker,
harness/runtime/warm.py), in this test environment's Python.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import default_signals
from harness import owners
from harness.execution import environments, pool
from harness.execution.driver import run_worker
from harness.project import Project
from harness.runtime.loaded import KEY as LOADED
from harness.runtime.runner import DETAIL_MAX_CHARS, bounded_detail, error_detail
from harness.store import result_cache
from scratch import HEADER, scratch_project, write_bug

PYTHON = Path(sys.executable)

STRAY = (
    HEADER
    + """
CASES = {"fd1": {"step": "write_fd1"}, "child": {"step": "child_prints"}, "after": {"step": "fine"}}

async def write_fd1(say):
    os.write(1, b"a line on fd 1 that is no protocol\\n")
    say("wrote")

async def child_prints(say):
    subprocess.run([sys.executable, "-c", "print('a child process prints this')"], check=True)
    say("child")
"""
)

CHATTY = (
    HEADER
    + """
CASES = {"chatty": {"step": "chatty"}, "crash": {"step": "crash"}, "after": {"step": "fine"}}

async def chatty(say):
    print("x" * 5_000_000, end="", flush=True)  # megabytes, no newline
    say("printed")

async def crash(say):
    print("crash-marker: the crashing case's own last words", flush=True)
    os._exit(3)
"""
)

HANG = (
    HEADER
    + """
CASES = {"hang": {"step": "hang"}}

async def hang(say):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    marker = ROOT / "hang-marker.json"
    marker.write_text(__import__("json").dumps({"worker": os.getpid(), "child": child.pid}))
    time.sleep(600)  # blocks the event loop: only killing the process stops it
"""
)


@pytest.fixture
def pool_dir(monkeypatch):
    # Short: a Unix socket's path is at most 107 bytes.
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"hf-{os.getpid()}-{time.monotonic_ns() % 10**9}"
    monkeypatch.setenv("HARNESS_POOL_DIR", str(folder))
    yield folder
    pool.stop_all()
    shutil.rmtree(folder, ignore_errors=True)


def warm_member(root: Path) -> tuple[pool.Member, dict[str, str]]:
    env = environments.worker_environment(root)
    member = pool.start(PYTHON, root, env, None, "google-adk", "json")
    assert member is not None, "the warm worker did not start"
    return member, env


def worker_for(root: Path, mode: str, request) -> tuple[pool.Member | None, dict[str, str]]:
    """The warm worker (mode "warm", in a pool folder of the test's own) or none, and the worker
    environment, for ``run_worker`` on the scratch project ``root``."""
    if mode == "warm":
        request.getfixturevalue("pool_dir")
        return warm_member(root)
    return None, environments.worker_environment(root)


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_line_a_case_or_its_child_writes_to_fd_1_is_not_read_as_protocol(tmp_path, mode, request):
    """Fault "One stray line kills a run": a case that writes to file descriptor 1 (os.write) or
    starts a child process that prints made the driver raise JSONDecodeError and lose every result
    of the run, warm or cold. Now results travel on a channel of their own."""
    root = scratch_project(tmp_path, {"adk-stray": STRAY})
    member, env = worker_for(root, mode, request)
    _, results = run_worker(PYTHON, "google-adk", ["adk-stray"], env, root, timeout=30, warm=member)
    assert [(r["case"], r["outcome"], r["detail"]) for r in results] == [
        ("fd1", "fixed", "ok"),
        ("child", "fixed", "ok"),
        ("after", "fixed", "ok"),
    ]


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_megabytes_of_output_then_a_crash_give_a_short_detail_from_the_crashing_case(tmp_path, mode, request):
    """Fault "a case that prints megabytes has its output become the next crashing case's one-line
    detail" (5.2 M characters in the record). Now a crash's detail is the last lines of the output of
    the case that was running, capped."""
    root = scratch_project(tmp_path, {"adk-chatty": CHATTY})
    member, env = worker_for(root, mode, request)
    _, results = run_worker(PYTHON, "google-adk", ["adk-chatty"], env, root, timeout=30, warm=member)
    by_case = {r["case"]: r for r in results}
    assert by_case["chatty"]["outcome"] == by_case["after"]["outcome"] == "fixed"
    crash = by_case["crash"]
    assert crash["outcome"] == "error"
    assert len(crash["detail"]) <= DETAIL_MAX_CHARS, len(crash["detail"])
    assert "worker died (exit 3)" in crash["detail"] and "crash-marker" in crash["detail"]
    assert "xxxxxxxxxx" not in crash["detail"]  # nothing of the case before it


def test_an_exception_detail_is_bounded_and_says_what_was_cut():
    """Fault "a detail is bounded in length": an exception with a megabyte message gave a
    megabyte detail. Now at most a few lines and DETAIL_MAX_CHARS characters, saying how much was cut."""
    try:
        raise ValueError("y" * 1_000_000)
    except ValueError as exc:
        detail = error_detail(exc)
    assert len(detail) <= DETAIL_MAX_CHARS and "\n" not in detail
    assert "cut" in detail and "ValueError" in detail


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


HARNESS = """
import sys
from pathlib import Path
from harness.execution import environments, pool
from harness.execution.driver import run_worker

root = Path(sys.argv[1])
env = environments.worker_environment(root)
member = pool.find(Path(sys.executable), root, env) if sys.argv[2] == "warm" else None
run_worker(Path(sys.executable), "google-adk", ["adk-hang"], env, root, timeout=60, warm=member)
"""


def _hang_started(marker: Path, harness: subprocess.Popen) -> dict[str, int]:
    """The pids the hanging case wrote (its worker's and its child's), once it has started."""
    deadline = time.monotonic() + 60
    while not marker.exists() or not marker.read_text():
        assert time.monotonic() < deadline, "the hanging case never started"
        assert harness.poll() is None, "the harness ended before the case hung"
        time.sleep(0.1)
    return json.loads(marker.read_text())


def _wait_until_gone(pids: dict[str, int], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while any(_running(p) for p in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.1)


def _kill_recorded(marker: Path) -> None:
    """Whatever the hanging case recorded and still runs (a failed test leaves nothing behind)."""
    for pid in json.loads(marker.read_text()).values() if marker.exists() and marker.read_text() else ():
        if _running(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_worker_in_a_hanging_case_ends_with_the_harness(tmp_path, mode, request):
    """Fault "a worker stuck in a hanging case outlives the harness (120 s+ past a 60 s timeout)":
    after kill -9 of the harness, the worker (cold, or the warm worker's forked child) and the child
    process its case started kept running. Now none is running 10 s later; a warm server stays."""
    root = scratch_project(tmp_path, {"adk-hang": HANG})
    member = None
    if mode == "warm":
        request.getfixturevalue("pool_dir")
        member, _ = warm_member(root)
    harness = subprocess.Popen(
        [sys.executable, "-c", HARNESS, str(root), mode], cwd=root, env={**os.environ, "PYTHONPATH": str(root)}
    )
    marker = root / "hang-marker.json"
    try:
        pids = _hang_started(marker, harness)
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait()
        _wait_until_gone(pids, 10)
        left = {name: pid for name, pid in pids.items() if _running(pid)}
        assert not left, f"still running 10 s after the harness was killed: {left}"
        if member is not None:
            assert _running(member.pid), "the warm server itself is meant to outlive a run"
    finally:
        harness.kill()
        _kill_recorded(marker)


CACHED_SCRIPT = """
import sys
from pathlib import Path

CASES = {"look": {}}


class NotApplicable(Exception):
    pass


async def observe(say, **params):
    data = (Path(__file__).resolve().parent / "cache-data.txt").read_text()
    say(f"data {len(data)}")
    return {"data": data}


def judge(facts):
    return "fixed", f"read {len(facts['data'])} characters"
"""

CACHED_DECLARATION = """
from harness.runtime.declaration import AsInstalled, Bug, CaseRole

BUG = Bug(links=("https://example.org",), description="d", expected="e",
          cases={"look": CaseRole("reads its data file", reproduced=AsInstalled(), fixed=AsInstalled())})
"""


def bug_folder(root: Path, scenario_id: str) -> Path:
    return write_bug(
        root / "scenarios", scenario_id, CACHED_SCRIPT, CACHED_DECLARATION, {"cache-data.txt": "data one\n"}
    )


def test_a_cached_result_is_reused_only_while_every_file_its_case_loaded_is_unchanged(tmp_path):
    """Fault "Old results are reused after a change": the cache's hand list of inputs left out
    runtime/fakes/responses_api.py (and agents_sessions.py, handoff_history.py, short_repro.py), so
    editing one reused the old outcome. Now the worker reports the project files its case loaded
    (the harness's modules, its bug folder's script and declaration, a data file it opened) and the
    cache keeps their digests: an edit of any of them re-runs the case, an edit of an unrelated
    module or of another bug's folder does not."""
    root = scratch_project(tmp_path, {})
    folder = bug_folder(root, "adk-cached")
    other = bug_folder(root, "adk-other")
    env_path = tmp_path / "env"
    env_path.mkdir()
    (env_path / "harness-build.json").write_text("{}")
    env = environments.worker_environment(root)

    def recorded() -> dict:
        _, [result] = run_worker(PYTHON, "google-adk", ["adk-cached"], env, root, timeout=30)
        assert LOADED in result, result
        assert result["outcome"] == "fixed", result
        return result_cache.entry(result, result.pop(LOADED), root, env_path)

    entry = recorded()
    files = set(entry["files"])
    for name in (
        "harness/runtime/worker.py",
        "harness/runtime/reproduction.py",
        "scenarios/adk-cached/repro.py",
        "scenarios/adk-cached/bug.py",
        "scenarios/adk-cached/cache-data.txt",
    ):
        assert name in files, f"{name} not among the case's inputs: {sorted(files)}"
    assert "harness/rendering/grid.py" not in files
    assert not {f for f in files if f.startswith("scenarios/adk-other/")}, sorted(files)
    assert result_cache.reusable(entry, root, env_path)

    edit(root / "harness" / "rendering" / "grid.py", "\n# an unrelated edit\n")
    edit(other / "repro.py", "\n# another bug's script\n")
    edit(other / "cache-data.txt", "another bug's data\n")
    assert result_cache.reusable(entry, root, env_path), "an edit of a file the case never loaded re-ran it"
    for path in (
        folder / "cache-data.txt",
        folder / "repro.py",
        folder / "bug.py",
        root / "harness" / "runtime" / "reproduction.py",
    ):
        edit(path, "\n# edited\n")
        assert not result_cache.reusable(entry, root, env_path), f"{path.relative_to(root)} edited, result reused"
        entry = recorded()
        assert result_cache.reusable(entry, root, env_path)
    (env_path / "harness-build.json").write_text('{"rebuilt": true}')
    assert not result_cache.reusable(entry, root, env_path), "a rebuilt environment left the old result in place"


def fake_environment(tmp_path: Path) -> tuple[Path, Path]:
    """A build's environment as the cache sees it: its marker and one installed framework file."""
    env_path = tmp_path / "env"
    module = env_path / "lib" / "python3.11" / "site-packages" / "google" / "adk" / "runners.py"
    module.parent.mkdir(parents=True)
    module.write_text("def run():\n    return 'old'\n")
    (module.parent / "__pycache__").mkdir()
    (module.parent / "__pycache__" / "runners.cpython-311.pyc").write_bytes(b"old bytecode")
    (env_path / "harness-build.json").write_text("{}")
    return env_path, module


def edit(path: Path, text: str) -> None:
    """A new size and stat stamp for ``path``, even within a tick of the file system's clock."""
    path.write_text(path.read_text() + text)
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))


def test_a_framework_file_edited_in_the_environment_re_runs_the_case(tmp_path, monkeypatch):
    """Fault (issue 49): a file of the framework edited inside a build's environment (to try a
    fix in place) gave "0 cases run, 1 unchanged and skipped" with the verdict of before the
    edit: the cache's inputs were the project's files and the environment's marker only. Now the
    files installed in the environment are an input of every case run in it: the run after the
    edit runs the case again; the bytecode Python writes there is no input."""
    from harness.execution import run
    from harness.planning.builds import Build

    root = scratch_project(tmp_path, {})
    bug_folder(root, "adk-cached")
    env_path, module = fake_environment(tmp_path)
    build = Build("google-adk", "google-adk==9.9.9", "google-adk==9.9.9", "9.9.9", True)
    made = environments.Environment(build, env_path, PYTHON, None, reused=True)
    monkeypatch.setattr(environments, "ensure", lambda *args, **kwargs: made)
    case = (SimpleNamespace(id="adk-cached"), SimpleNamespace(id="look", backend="sqlite"))
    settings = run.RunSettings(Project(root), pool="cold", timeout=30)

    def ran() -> int:
        done = run.run_cases(build, [case], settings)  # type: ignore[list-item]
        assert [r.outcome for r in done.results] == ["fixed"], done.results
        return done.ran

    assert ran() == 1
    assert ran() == 0, "nothing changed, yet the case ran again"
    edit(module.parent / "__pycache__" / "runners.cpython-311.pyc", "recompiled")
    assert ran() == 0, "bytecode Python wrote re-ran the case"
    edit(module, "# a fix tried in place\n")
    assert ran() == 1, "a framework file edited in the environment, and the old result was kept"
    assert ran() == 0
    module.unlink()
    assert ran() == 1, "a file removed from the environment, and the old result was kept"


def test_the_environment_digest_is_quick_and_sees_every_installed_file(tmp_path):
    """``environment_digest`` stats the files under lib/ (no read): a changed size, a new mtime,
    a new or removed file each change it; a folder of bytecode does not."""
    env_path, module = fake_environment(tmp_path)
    first = result_cache.environment_digest(env_path)
    assert result_cache.environment_digest(env_path) == first
    (module.parent / "__pycache__" / "other.cpython-311.pyc").write_bytes(b"x")
    assert result_cache.environment_digest(env_path) == first
    os.utime(module, ns=(time.time_ns(), time.time_ns() + 10**9))
    second = result_cache.environment_digest(env_path)
    assert second != first
    (module.parent / "new.py").write_text("")
    assert result_cache.environment_digest(env_path) not in (first, second)


def test_a_warm_worker_is_retired_when_a_file_of_its_environment_changes(tmp_path, pool_dir):
    """Fault (issue 49), the warm pool's part: a warm worker keeps the framework's modules as it
    imported them, so a case re-run after an edit inside the environment would still see the old
    code. A worker whose environment's installed files changed is stale and stopped."""
    root = scratch_project(tmp_path, {})
    env_path, module = fake_environment(tmp_path)
    env = environments.worker_environment(root)
    member = pool.start(PYTHON, root, env, env_path, "google-adk", "json")
    assert member is not None, "the warm worker did not start"
    assert member.stale() is None
    edit(module, "# a fix tried in place\n")
    assert member.stale() == "its environment was rebuilt, or a file installed in it changed"
    again = pool.for_run("auto", PYTHON, root, env, env_path, "google-adk")  # retires it, starts another
    assert again is None or again.pid != member.pid
    deadline = time.monotonic() + 10
    while owners.pid_runs(member.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not owners.pid_runs(member.pid)


def test_a_line_on_the_channel_that_is_not_protocol_is_an_error_of_the_case_under_way(tmp_path, monkeypatch):
    """Fault "One stray line kills a run", at the driver: a line that is not JSON made
    ``json.loads`` raise and the run lose every result. Now it is an ``error`` of the case that
    was running, and the worker restarts for the cases after it."""
    from harness.execution import driver

    runs: list[list[str]] = []
    env_line = json.dumps({"kind": "env", "framework": "google-adk", "version": "1"}) + "\n"

    class Garbled:
        def __init__(self, python, argv, env, cwd, output):
            runs.append(argv)

        def lines(self):
            yield env_line
            if len(runs) == 1:
                yield json.dumps({"kind": "start", "scenario": "s", "case": "a"}) + "\n"
                yield "Traceback (most recent call last): not a protocol line\n"
            else:
                yield json.dumps({"kind": "start", "scenario": "s", "case": "b"}) + "\n"
                result = {"kind": "result", "scenario": "s", "case": "b", "outcome": "fixed", "detail": "ok"}
                yield json.dumps({**result, "timeline": ""}) + "\n"

        def kill(self):
            pass

        def exit_code(self):
            return 0

        def close(self):
            pass

    monkeypatch.setattr(driver, "_ColdRun", Garbled)
    _, results = run_worker(PYTHON, "google-adk", ["s"], {}, tmp_path, timeout=5)
    assert [(r["case"], r["outcome"]) for r in results] == [("a", "error"), ("b", "fixed")]
    assert results[0]["detail"].startswith("not a protocol line from the worker: Traceback")
    assert "--skip" in runs[1] and runs[1][runs[1].index("--skip") + 1] == "s:a"


def test_a_detail_keeps_the_exception_type_whatever_the_checkout_s_path():
    """Issue 49: the detail was cut before paths were stripped, so in a clone whose tests path was
    55 characters long the head's budget went to the path and `ValueError` was cut out (at 38 it
    survived). Here the traceback names a file under a 130-character folder."""
    deep = "/" + "/".join(["a-rather-long-folder-name"] * 5) + "/agent-bug-harness/tests/test_x.py"
    assert len(deep) > 130
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{deep}", line 167, in test_x\n'
        '    raise ValueError("y" * 1_000_000)\n'
        f"ValueError: {'y' * 1_000_000}\n"
    )
    detail = bounded_detail(text)
    assert len(detail) <= DETAIL_MAX_CHARS and "\n" not in detail
    assert "ValueError:" in detail and "cut" in detail and "a-rather-long-folder-name" not in detail
    # A short path and a deep one give the same detail (paths stripped first).
    assert bounded_detail(text.replace(deep, "/t/tests/test_x.py")) == detail


CTRL_C_HARNESS = """
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from harness.commands import cli
from harness.execution import environments, pool
from harness.execution.driver import run_worker

root = Path(sys.argv[1])
env = environments.worker_environment(root)
member = pool.find(Path(sys.executable), root, env) if sys.argv[2] == "warm" else None

def command(args):
    # As the matrix runs builds: in threads, the main thread waiting for them.
    with ThreadPoolExecutor(max_workers=2) as executor:
        list(executor.map(lambda _: run_worker(Path(sys.executable), "google-adk", ["adk-hang"], env, root,
                                               timeout=60, warm=member), [0]))
    return 0

cli.parse = lambda argv: type("Args", (), {"func": staticmethod(command)})()
sys.exit(cli.main([]))
"""


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_first_ctrl_c_says_it_is_stopping_and_ends_the_run_within_seconds(tmp_path, mode, request):
    """Issue 49: Ctrl-C to the harness while a case hung gave 36 s with no "stopping" line, then a
    KeyboardInterrupt traceback. Now one line says it is stopping, the worker runs under way are
    killed at once (none restarted), and the command ends with one line and exit 130."""
    root = scratch_project(tmp_path, {"adk-hang": HANG})
    if mode == "warm":
        request.getfixturevalue("pool_dir")
        warm_member(root)
    harness = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_HARNESS, str(root), mode],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_signals,
    )
    marker = root / "hang-marker.json"
    try:
        pids = _hang_started(marker, harness)
        sent = time.monotonic()
        harness.send_signal(signal.SIGINT)
        _, err = harness.communicate(timeout=30)
        took = time.monotonic() - sent
        assert harness.returncode == 130, err
        assert took < 10, f"{took:.1f} s to stop"
        assert "stopping: ending the 1 worker run(s) under way" in err and "Traceback" not in err, err
        assert err.strip().endswith("interrupted (Ctrl-C): the command stopped"), err
        _wait_until_gone(pids, 10)
        assert not [p for p in pids.values() if _running(p)]
    finally:
        harness.kill()
        _kill_recorded(marker)


CLOSES_FD1 = (
    HEADER
    + """
CASES = {"closes": {"step": "close_fd1"}, "after": {"step": "fine"}}

async def close_fd1(say):
    print("before", flush=True)
    os.close(1)
    say("closed")
"""
)


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_case_that_closes_fd_1_is_an_error_naming_it_not_a_nondeterministic_case(tmp_path, mode, request):
    """Issue 49: a case that closed file descriptor 1 was reported as "not deterministic" (its second
    run, the determinism check, could not print). Now its error says what it did; the next case runs."""
    root = scratch_project(tmp_path, {"adk-closes": CLOSES_FD1})
    member, env = worker_for(root, mode, request)
    _, results = run_worker(PYTHON, "google-adk", ["adk-closes"], env, root, timeout=30, warm=member, repeat=2)
    assert [(r["case"], r["outcome"], r["detail"]) for r in results] == [
        ("closes", "error", "the case closed its process's standard output (fd 1)"),
        ("after", "fixed", "ok"),
    ]
