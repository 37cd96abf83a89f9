"""Issue 49, "Each case starts clean and ends whole": what one case changes or starts never
reaches the next, and nothing it started outlives it.

The cases of one build ran in one process (a cold worker, or a warm worker's fork), so a changed
cwd, a thread, a ``builtins`` patch or a module global of one case were seen by the next, a file
it wrote in the temp folder stayed, and a daemon it started in a session of its own outlived the
run. Each test runs scratch bugs (tests/scratch.py, tests/test_faults_worker.py's helpers) through
harness/execution/driver.py, cold and warm, and compares a case's verdict after another case with
its verdict alone.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from harness.execution import driver, environments, pool, scratch
from harness.execution.driver import run_worker
from scratch import HEADER, scratch_project
from tests.test_faults_worker import HARNESS, PYTHON, _running, pool_dir

__all__ = ["pool_dir"]  # the fixture, for the warm runs

MESS = (
    HEADER
    + """
import json, tempfile, threading

CASES = {"mess": {"step": "mess"}, "look": {"step": "look", "verdict": "clean"}, "crash": {"step": "crash"},
         "look-again": {"step": "look", "verdict": "clean"}}
STATE = ROOT / "mess-state.json"  # what the messy cases left, for the test to check afterwards


def _alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _daemon():
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _big_file(name):
    path = Path(tempfile.gettempdir()) / name
    with open(path, "wb") as f:
        for _ in range(100):
            f.write(b"x" * (1 << 20))  # 100 MB
    return path


def _record(**found):
    state = json.loads(STATE.read_text()) if STATE.exists() else {}
    STATE.write_text(json.dumps({**state, **found}))


async def mess(say):
    os.chdir("/")
    threading.Thread(target=time.sleep, args=(300,), name="left-behind").start()  # not a daemon thread
    daemon = _daemon()
    _record(daemon=daemon.pid, file=str(_big_file("left-behind.bin")))
    say("mess made")


async def crash(say):
    daemon = _daemon()
    _record(crash_daemon=daemon.pid, crash_file=str(_big_file("crash-left.bin")))
    os._exit(3)


async def look(say):
    state = json.loads(STATE.read_text()) if STATE.exists() else {}
    daemons = [state[k] for k in ("daemon", "crash_daemon") if k in state and _alive(state[k])]
    files = [state[k] for k in ("file", "crash_file") if k in state and os.path.exists(state[k])]
    seen = [
        f"cwd {'kept' if Path.cwd() == ROOT else 'changed'}",
        f"threads {sorted(t.name for t in threading.enumerate() if t is not threading.main_thread())}",
        f"daemons alive {len(daemons)}",
        f"files left {len(files)}",
        f"temp folder entries {len(os.listdir(tempfile.gettempdir()))}",
    ]
    for line in seen:
        say(line)
    return {"seen": seen}


def clean(facts):
    expected = ["cwd kept", "threads []", "daemons alive 0", "files left 0", "temp folder entries 0"]
    return ("fixed", "clean") if facts["seen"] == expected else ("reproduced", "; ".join(facts["seen"]))
"""
)

PATCH = (
    HEADER
    + """
import builtins, statistics

CASES = {"patch": {"step": "patch"}, "look": {"step": "look", "verdict": "unpatched"}}
MARK = "as imported"


async def patch(say):
    global MARK
    MARK = "set by an earlier case"
    builtins.left_behind = "patched by an earlier case"
    statistics.mean = lambda data: "patched"  # a module attribute another module's code would use
    say("patched")


async def look(say):
    seen = [f"MARK {MARK}", f"builtins {getattr(builtins, 'left_behind', 'unpatched')}",
            f"statistics.mean {statistics.mean([1, 3])}"]
    for line in seen:
        say(line)
    return {"seen": seen}


def unpatched(facts):
    expected = ["MARK as imported", "builtins unpatched", "statistics.mean 2"]
    return ("fixed", "unpatched") if facts["seen"] == expected else ("reproduced", "; ".join(facts["seen"]))
"""
)


def _runner(tmp_path: Path, bugs: dict[str, str], mode: str, request: pytest.FixtureRequest):
    """The scratch project's root, its worker's temp folder, and a function that runs selectors
    there (cold, or in a warm worker of that project) and returns their results by case."""
    root = scratch_project(tmp_path, bugs)
    tmp = tmp_path / "worker-tmp"
    tmp.mkdir()
    env = {**environments.worker_environment(root), "TMPDIR": str(tmp)}
    member = None
    if mode == "warm":
        request.getfixturevalue("pool_dir")
        member = pool.start(PYTHON, root, env, None, "google-adk", "json")  # TMPDIR is the server's
        assert member is not None, "the warm worker did not start"

    def run(*selectors: str) -> dict[str, dict]:
        _, results = run_worker(PYTHON, "google-adk", list(selectors), env, root, timeout=20, warm=member)
        return {r["case"]: r for r in results}

    return root, tmp, run


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_case_that_leaves_a_mess_changes_nothing_for_the_next_and_its_leftovers_go(tmp_path, mode, request):
    """A case that changes the cwd, starts a non-daemon thread and a daemon in a session of its
    own (``start_new_session``) and writes 100 MB into the temp folder: the next case saw the
    cwd, the thread and the daemon (and the run waited for the thread), the daemon outlived the
    run and the file stayed. Now the next case's verdict is its verdict alone; afterwards the
    daemon is gone and so is the file, also after a case that crashed (exit 3, reported as
    before: the worker restarts for the cases after it)."""
    root, tmp, run = _runner(tmp_path, {"adk-mess": MESS}, mode, request)
    alone = run("adk-mess:look")["look"]
    assert (alone["outcome"], alone["detail"]) == ("fixed", "clean"), alone
    state_file = root / "mess-state.json"
    try:
        results = run("adk-mess")
        state = json.loads(state_file.read_text())
        for case in ("look", "look-again"):
            assert (results[case]["outcome"], results[case]["detail"]) == (alone["outcome"], alone["detail"]), results
            assert results[case]["timeline"] == alone["timeline"]
        assert results["crash"]["outcome"] == "error" and "worker died (exit 3)" in results["crash"]["detail"]
        left = {k: state[k] for k in ("daemon", "crash_daemon") if _running(state[k])}
        assert not left, f"a daemon a case started outlived it: {left}"
        assert not Path(state["file"]).exists() and not Path(state["crash_file"]).exists()
        assert not list(tmp.iterdir()), f"left in the worker's temp folder: {list(tmp.iterdir())}"
    finally:
        if state_file.exists():
            for key in ("daemon", "crash_daemon"):
                pid = json.loads(state_file.read_text()).get(key)
                if pid and _running(pid):
                    os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_builtins_patch_or_a_module_global_of_one_case_is_not_seen_by_the_next(tmp_path, mode, request):
    """A case that sets a global of its script, an attribute of ``builtins`` and patches
    ``statistics.mean``: the next case of the run saw all three. Now it gives its verdict alone."""
    _, _, run = _runner(tmp_path, {"adk-patch": PATCH}, mode, request)
    alone = run("adk-patch:look")["look"]
    assert (alone["outcome"], alone["detail"]) == ("fixed", "unpatched"), alone
    after = run("adk-patch")["look"]
    assert (after["outcome"], after["detail"], after["timeline"]) == (
        alone["outcome"],
        alone["detail"],
        alone["timeline"],
    )


HUNG = (
    HEADER
    + """
import json

import tempfile

CASES = {"hang": {"step": "hang"}, "after": {"step": "fine"}}

async def hang(say):
    daemon = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
    (ROOT / "hung-state.json").write_text(json.dumps({"daemon": daemon.pid, "tmp": tempfile.gettempdir()}))
    time.sleep(600)  # blocks the event loop: only the driver's kill on its deadline ends the case
"""
)


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_daemon_of_a_case_killed_on_its_deadline_goes_with_it(tmp_path, mode, request, monkeypatch):
    """A case that starts a daemon in a session of its own and then blocks until the driver kills
    it on its deadline: the kill reached the worker's process group, not the daemon, which
    outlived the run. Now the driver's kill takes every descendant of the worker.

    And its temporary folder: the worker made it in the temporary directory and removed it in a
    ``finally`` that a killed worker never reaches (99 ``/tmp/case-*`` folders were left by the
    test runs of one day). Now it is inside the run's folder, which the driver removes; and the
    first run of a process removes the run folders of a harness killed with SIGKILL."""
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setattr(driver, "_swept_pids", set())
    killed = temp / f"{scratch.PREFIX}{driver.RUN_KIND}-999999999-abc"
    killed.mkdir()
    root = scratch_project(tmp_path, {"adk-hung": HUNG})
    env = environments.worker_environment(root)
    member = None
    if mode == "warm":
        request.getfixturevalue("pool_dir")
        member = pool.start(PYTHON, root, env, None, "google-adk", "json")
        assert member is not None, "the warm worker did not start"
    state = root / "hung-state.json"
    try:
        _, results = run_worker(PYTHON, "google-adk", ["adk-hung"], env, root, timeout=2, case_slack=1, warm=member)
        by_case = {r["case"]: r for r in results}
        assert by_case["hang"]["detail"] == "timed out after 2s (worker killed)", by_case
        assert by_case["after"]["outcome"] == "fixed"
        daemon = json.loads(state.read_text())["daemon"]
        assert not _running(daemon), "the daemon of the killed case outlived it"
        case_temp = Path(json.loads(state.read_text())["tmp"])
        assert case_temp.name.startswith("case-") and not case_temp.exists()
        assert list(temp.iterdir()) == [], "a folder of the run, or of a killed harness's, is left"
    finally:
        if state.exists() and _running(pid := json.loads(state.read_text())["daemon"]):
            os.kill(pid, signal.SIGKILL)


HANG_WITH_DAEMON = (
    HEADER
    + """
import json

CASES = {"hang": {"step": "hang"}}

async def hang(say):
    daemon = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
    marker = ROOT / "hang-marker.json"
    marker.write_text(json.dumps({"worker": os.getpid(), "daemon": daemon.pid}))
    time.sleep(600)
"""
)


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_daemon_of_a_hanging_case_ends_with_the_harness(tmp_path, mode, request):
    """tests/test_faults_worker.py's kill -9 of the harness during a hanging case, whose case also
    started a daemon in a session of its own: the lifeline's killpg missed the daemon. Now it
    kills every descendant of the worker too."""
    root = scratch_project(tmp_path, {"adk-hang": HANG_WITH_DAEMON})
    if mode == "warm":
        request.getfixturevalue("pool_dir")
        env = environments.worker_environment(root)
        assert pool.start(PYTHON, root, env, None, "google-adk", "json") is not None
    harness = subprocess.Popen(
        [sys.executable, "-c", HARNESS, str(root), mode], cwd=root, env={**os.environ, "PYTHONPATH": str(root)}
    )
    marker = root / "hang-marker.json"
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() or not marker.read_text():
            assert time.monotonic() < deadline and harness.poll() is None, "the hanging case never started"
            time.sleep(0.1)
        pids = json.loads(marker.read_text())
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait()
        deadline = time.monotonic() + 10
        while any(_running(p) for p in pids.values()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not {k: p for k, p in pids.items() if _running(p)}, "still running 10 s after the harness was killed"
    finally:
        harness.kill()
        for pid in json.loads(marker.read_text()).values() if marker.exists() and marker.read_text() else ():
            if _running(pid):
                os.kill(pid, signal.SIGKILL)


KILLED = (
    HEADER
    + """
import signal

CASES = {"killed": {"step": "killed"}, "segfault": {"step": "segfault"}, "after": {"step": "fine"}}

async def killed(say):
    os.kill(os.getpid(), signal.SIGKILL)

async def segfault(say):
    os.kill(os.getpid(), signal.SIGSEGV)
"""
)


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_case_killed_by_a_signal_is_reported_as_when_it_killed_its_worker(tmp_path, mode, request):
    """A case whose process dies of a signal (SIGKILL, SIGSEGV) killed its worker, which the
    driver reported as ``worker died (exit -9)`` (``-11``). The case now dies in a process of its
    own; the worker ends with the same signal, so the report is the same, and the cases after it run."""
    _, _, run = _runner(tmp_path, {"adk-killed": KILLED}, mode, request)
    results = run("adk-killed")
    assert results["killed"]["detail"].startswith("worker died (exit -9)"), results["killed"]
    assert results["segfault"]["detail"].startswith("worker died (exit -11)"), results["segfault"]
    assert results["after"]["outcome"] == "fixed"
