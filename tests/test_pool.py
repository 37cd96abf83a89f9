"""Warm workers (harness/execution/pool.py, harness/runtime/warm.py): the same results as cold ones,
never stale, no leaks.

Each test keeps its pool in its own folder (HARNESS_POOL_DIR) and stops it at the end. The
workers run in this test environment's Python (the pinned releases of `nox -s tests`).
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from conftest import installed, keyword_cases
from harness import owners
from harness.execution import environments, pool
from harness.execution.driver import run_worker
from harness.runtime import registry
from harness.runtime import warm as pool_warm
from harness.runtime.result import CaseResult
from harness.store.snapshots import SnapshotStore, render
from scratch import HEADER
from scratch import scratch_project as bugs_project
from test_driver import MODULE as DRIVER_MODULE

ROOT = Path(__file__).resolve().parent.parent
PYTHON = Path(sys.executable)
STORE = SnapshotStore(ROOT / "snapshots")


@pytest.fixture
def pool_dir(tmp_path_factory, monkeypatch):
    # Short: a Unix socket's path is at most 107 bytes.
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"hp-{os.getpid()}-{time.monotonic_ns() % 10**9}"
    monkeypatch.setenv("HARNESS_POOL_DIR", str(folder))
    yield folder
    pool.stop_all()
    shutil.rmtree(folder, ignore_errors=True)


def scratch_project(tmp_path: Path, bugs: dict[str, str]) -> Path:
    """A project root with this harness, only the given bugs (tests/scratch.py) and what PROBE imports."""
    root = bugs_project(tmp_path, bugs)
    (root / "harness" / "probe_helper.py").write_text("VALUE = 1\n")  # what PROBE reads
    (root / "scenarios" / "_probe_shared.py").write_text('SHARED = ""\n')  # a scenario helper PROBE imports
    return root


def start(root: Path, framework: str = "openai-agents") -> tuple[pool.Member, dict[str, str]]:
    env = environments.worker_environment(root)
    member = pool.start(PYTHON, root, env, None, framework, "agents" if framework == "openai-agents" else "json")
    assert member is not None, "the warm worker did not start"
    return member, env


@pytest.mark.every_case
@pytest.mark.parametrize("framework", ["google-adk", "openai-agents"])
def test_a_warm_run_gives_the_matrix_s_results_byte_for_byte_for_every_case(framework, pool_dir, request):
    """Each case run twice through a warm worker (the second run also has what the first taught
    the worker to preload) gives its stored snapshot on the pinned release: the outcome, detail and
    timeline a cold worker of the matrix gave, which is every field of a result on the wire
    (harness/runtime/result.py). Until issue 51 this test ran every case cold once more to compare
    with (about 30 s of each framework's 78 s); tests/test_scenarios.py compares the same snapshots
    with the cases run in this process. The worker's environment record is a cold worker's."""
    pairs = keyword_cases(request.config, registry.select(registry.discover(), []))
    selectors = [f"{s.id}:{c.id}" for s, c in pairs if s.framework == framework]
    if not selectors:
        pytest.skip(f"no case of {framework} selected")
    version = installed(framework)
    stored = {}
    for s, c in pairs:
        if s.framework == framework:
            base = STORE.nearest(s.id, c.id, version)
            assert base is not None, f"no snapshot of {s.id}:{c.id} at or before {version}: run the matrix"
            stored[f"{s.id}:{c.id}"] = STORE.read(s.id, c.id, base)
    env = environments.worker_environment(ROOT)
    cold_env, [cold] = run_worker(PYTHON, framework, selectors[:1], env, ROOT, timeout=60)  # for its environment
    assert render(CaseResult.from_dict(cold)) == stored[selectors[0]]
    from harness.runtime import frameworks

    member = pool.start(PYTHON, ROOT, env, None, framework, frameworks.get(framework).entry_module)
    assert member is not None
    for _ in range(2):
        warm_env, warm = run_worker(PYTHON, framework, selectors, env, ROOT, timeout=60, warm=member)
        assert len(warm) == len(selectors)
        got = {f"{r['scenario']}:{r['case']}": render(CaseResult.from_dict(r)) for r in warm}
        differ = [k for k in selectors if got.get(k) != stored[k]]
        assert not differ, "\n".join(
            difflib.unified_diff(stored[differ[0]].splitlines(True), got.get(differ[0], "").splitlines(True))
        )
        assert warm_env == cold_env


def _results(raw: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "loaded"} for r in raw]


PROBE = (
    HEADER
    + """
from harness import probe_helper
from scenarios._probe_shared import SHARED

CASES = {"look": {"step": "look", "verdict": "judged"}}
VERDICT = "reproduced"

async def look(say):
    import agents, json
    leaked = [name for name, mod in (("agents", agents), ("json", json)) if hasattr(mod, "_probe_mark")]
    agents._probe_mark = json._probe_mark = True  # state a case leaves behind in modules it imported
    say(f"helper {probe_helper.VALUE}{SHARED}")
    say(f"leaked {leaked}")
    return {"leaked": leaked}

def judged(facts):
    return VERDICT, ("leaked " + ", ".join(facts["leaked"]) if facts["leaked"] else "clean")
"""
)


def test_an_edited_scenario_or_harness_module_is_rejudged_and_no_state_leaks(tmp_path, pool_dir):
    root = scratch_project(tmp_path, {"agents-pool-probe": PROBE})
    member, env = start(root)

    def run() -> dict:
        _, results = run_worker(PYTHON, "openai-agents", ["agents-pool-probe"], env, root, timeout=30, warm=member)
        (result,) = results
        return result

    first = run()
    assert (first["outcome"], first["detail"], first["timeline"]) == ("reproduced", "clean", "helper 1\nleaked []\n")
    second = run()  # the first run marked `agents` and `json`; the next fork never sees it
    assert second == first
    time.sleep(pool_warm.LEARN_AFTER + 1)  # the worker now holds the project modules the runs imported
    module = root / "scenarios" / "agents-pool-probe" / "repro.py"
    module.write_text(module.read_text().replace('VERDICT = "reproduced"', 'VERDICT = "fixed"'))
    (root / "harness" / "probe_helper.py").write_text("VALUE = 2\n")
    third = run()
    assert (third["outcome"], third["timeline"]) == ("fixed", "helper 2\nleaked []\n")
    module.write_text(module.read_text().replace('VERDICT = "fixed"', 'VERDICT = "reproduced"'))
    assert run()["outcome"] == "reproduced"  # the bug's script alone
    (root / "harness" / "probe_helper.py").write_text("VALUE = 3\n")
    assert run()["timeline"] == "helper 3\nleaked []\n"  # a harness module alone
    time.sleep(pool_warm.LEARN_AFTER + 1)
    (root / "scenarios" / "_probe_shared.py").write_text('SHARED = "+"\n')
    assert run()["timeline"] == "helper 3+\nleaked []\n"  # a module the scenario imports from scenarios/
    assert pool.find(PYTHON, root, env) is not None  # the same worker answered all three
    assert pool.find(PYTHON, root, env).pid == member.pid


def test_a_changed_environment_or_warm_module_retires_the_worker(tmp_path, pool_dir):
    root = scratch_project(tmp_path, {"agents-pool-probe": PROBE})
    env_dir = tmp_path / "env"
    env_dir.mkdir()
    (env_dir / "harness-build.json").write_text("{}")
    env = environments.worker_environment(root)
    member = pool.start(PYTHON, root, env, env_dir, "openai-agents", "agents")
    assert member is not None and pool.find(PYTHON, root, env) is not None
    (env_dir / "harness-build.json").unlink()
    (env_dir / "harness-build.json").write_text("{}")  # rebuilt: same content, a new file
    assert pool.find(PYTHON, root, env) is None
    assert not pool.members()  # stopped, not left running

    member = pool.start(PYTHON, root, env, env_dir, "openai-agents", "agents")
    assert member is not None
    warm_module = root / "harness" / "runtime" / "warm.py"
    warm_module.write_text(warm_module.read_text() + "\n# changed\n")
    assert pool.find(PYTHON, root, env) is None
    # The worker watches its files too: it exits by itself within a second or two.
    member = pool.start(PYTHON, root, env, env_dir, "openai-agents", "agents")
    assert member is not None
    os.utime(env_dir / "harness-build.json", ns=(1, 1))
    deadline = time.monotonic() + 10
    while owners.pid_runs(member.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not owners.pid_runs(member.pid)
    # Without --warm, a run restarts a worker that a change retired (the user had one there).
    again = pool.for_run("auto", PYTHON, root, env, env_dir, "openai-agents")
    assert again is not None and again.pid != member.pid
    assert pool.for_run("cold", PYTHON, root, env, env_dir, "openai-agents") is None


def test_every_worker_a_change_retired_is_replaced_whatever_lists_the_pool_first(tmp_path, pool_dir):
    """Issue 49: warm.py rewritten (a `git checkout`) ends every worker of the checkout; the next run
    replaced the first build's and, since starting it listed the pool (``_make_room``) and the
    listing removed the files of the dead ones, ran every other build cold from then on."""
    root = scratch_project(tmp_path, {"agents-pool-probe": PROBE})
    env = environments.worker_environment(root)
    envs = []
    for name in ("env-a", "env-b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "harness-build.json").write_text("{}")
        envs.append(tmp_path / name)
    # Two environments' workers (one Python here, so the process environment tells them apart).
    keyed = [{**env, "HARNESS_TEST_ENV": e.name} for e in envs]
    started = [pool.start(PYTHON, root, k, e, "openai-agents", "agents") for k, e in zip(keyed, envs, strict=True)]
    assert all(m is not None for m in started)
    warm_module = root / "harness" / "runtime" / "warm.py"
    warm_module.write_text(warm_module.read_text() + "\n# a checkout rewrote it\n")
    deadline = time.monotonic() + 10
    while any(owners.pid_runs(m.pid) for m in started if m) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(owners.pid_runs(m.pid) for m in started if m)
    assert pool.members() == []  # what the first replacement's start (or a summary line) does first
    again = [pool.for_run("auto", PYTHON, root, k, e, "openai-agents") for k, e in zip(keyed, envs, strict=True)]
    assert all(m is not None for m in again), "a worker retired by the change was not replaced"


# tests/test_driver.py's scenario (a case that hangs in sync code, one that kills its process).
HANGS = DRIVER_MODULE


def test_a_hung_or_dying_case_in_a_warm_worker_is_reported_as_a_cold_one_is(tmp_path, pool_dir):
    root = scratch_project(tmp_path, {"adk-isolation": HANGS})
    env = environments.worker_environment(root)
    kwargs = {"timeout": 1.0, "grace": 120.0, "case_slack": 2.0}
    _, cold = run_worker(PYTHON, "google-adk", ["adk-isolation"], env, root, **kwargs)
    member, _ = start(root, "google-adk")
    _, warm = run_worker(PYTHON, "google-adk", ["adk-isolation"], env, root, warm=member, **kwargs)
    assert _results(warm) == _results(cold)  # ``loaded``: the cache's inputs, more modules in a warm fork
    assert [r["outcome"] for r in warm] == ["fixed", "error", "error", "fixed"]
    assert "worker died (exit 3)" in warm[2]["detail"] and "timed out" in warm[1]["detail"]
    assert pool.find(PYTHON, root, env) is not None  # the worker itself survives its children


TWO_CASES = (
    HEADER
    + """
CASES = {"first": {"step": "fine", "verdict": "one"}, "second": {"step": "fine", "verdict": "two"}}

def one(facts):
    return "fixed", "one"

def two(facts):
    return "fixed", "two"
"""
)


def test_a_child_lost_between_cases_with_its_worker_leaves_no_case_unreported(tmp_path, monkeypatch):
    """The worker stopped (evicted, SIGTERM) without sending the exit code of a child that was
    killed after its first case: the case it never started runs cold, not "reported nothing"."""
    import subprocess

    from harness.execution import driver

    root = scratch_project(tmp_path, {"adk-two": TWO_CASES})
    env = environments.worker_environment(root)
    _, cold = run_worker(PYTHON, "google-adk", ["adk-two"], env, root, timeout=30)
    assert [r["case"] for r in cold] == ["first", "second"]
    # What such a run's socket carries: the child's lines up to its first result, then no exit code.
    argv = ["--framework", "google-adk", "--timeout", "30", "--only", "adk-two", "--skip"]
    printed = subprocess.run(
        [str(PYTHON), "-m", "harness.runtime.worker", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        check=True,
    ).stdout.splitlines(keepends=True)
    first_result = next(n for n, line in enumerate(printed) if '"kind": "result"' in line)
    forks = []

    class LostAfterTheFirstCase:
        def __init__(self, member, argv, stderr_path, env):
            forks.append(argv)

        def lines(self):  # as WarmRun.lines gives them: the pid and exit frames taken out
            yield from printed[: first_result + 1]

        def kill(self):
            raise AssertionError("nothing timed out")

        def exit_code(self):
            return None

        def close(self):
            pass

    monkeypatch.setattr(driver, "WarmRun", LostAfterTheFirstCase)
    _, results = run_worker(PYTHON, "google-adk", ["adk-two"], env, root, timeout=30, warm=object())
    assert json.dumps(results, sort_keys=True) == json.dumps(cold, sort_keys=True)
    assert len(forks) == 1  # the restart went cold: the worker is gone


def test_memory_is_reported_and_kept_within_the_budget(tmp_path, pool_dir):
    root = scratch_project(tmp_path, {"agents-pool-probe": PROBE})
    env_a = {**environments.worker_environment(root), "LANG": "C.UTF-8"}
    env_b = {**env_a, "LANG": "C"}  # another key: a second worker
    a = pool.start(PYTHON, root, env_a, None, "openai-agents", "agents")
    assert a is not None and a.rss_mb() > 10
    lines = pool.describe()
    assert "1 warm workers" in lines[-1] and f"pid {a.pid:>7}" in lines[0] and " MB " in lines[0]
    b = pool.start(PYTHON, root, env_b, None, "openai-agents", "agents", budget_mb=a.rss_mb() * 1.5)
    assert b is not None
    assert [m.pid for m in pool.members()] == [b.pid]  # a (least recently used) made room for b
    assert pool.stop_all() == 1 and not pool.members()


def test_a_worker_that_cannot_fork_safely_is_refused_once_and_runs_go_cold(tmp_path, pool_dir):
    root = scratch_project(tmp_path, {"agents-pool-probe": PROBE})
    (root / "harness" / "thready.py").write_text(
        "import threading, time\nthreading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    )
    env = environments.worker_environment(root)
    assert pool.start(PYTHON, root, env, None, "openai-agents", "harness.thready") is None
    refused = list(pool.pool_dir().glob("*.refused"))
    assert len(refused) == 1 and "threads after importing" in refused[0].read_text()
    started = time.monotonic()
    assert pool.start(PYTHON, root, env, None, "openai-agents", "harness.thready") is None
    assert time.monotonic() - started < 1  # remembered: no second attempt
    _, results = run_worker(PYTHON, "openai-agents", ["agents-pool-probe"], env, root, timeout=30, warm=None)
    assert results[0]["outcome"] == "reproduced"


def test_a_worker_exits_after_its_idle_period(tmp_path, pool_dir):
    root = scratch_project(tmp_path, {"agents-pool-probe": PROBE})
    env = environments.worker_environment(root)
    member = pool.start(PYTHON, root, env, None, "openai-agents", "json", idle=1.0)
    assert member is not None
    deadline = time.monotonic() + 10
    while owners.pid_runs(member.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not owners.pid_runs(member.pid) and not pool.members()
    # Nothing of it stays in the pool folder, its log neither (they piled up, one per worker key).
    assert list(pool.pool_dir().iterdir()) == []
    # Gone for idleness, not retired by a change: a run without --warm does not bring it back.
    assert pool.for_run("auto", PYTHON, root, env, None, "openai-agents") is None


def test_sigterm_stops_a_worker_at_once(tmp_path, pool_dir):
    """Right after a run the worker waits on its select for up to LEARN_AFTER (1.5 s) before
    preloading what the run imported. A SIGTERM then ended it only when that wait ran out (Python
    retries a select a signal interrupted, PEP 475), and after the interpreter's teardown: pool.stop
    waited its 3 s for most of the upgrade axis's workers. It wakes the select and exits at once."""
    root = scratch_project(tmp_path, {"agents-pool-probe": PROBE})
    member, env = start(root)
    _, results = run_worker(PYTHON, "openai-agents", ["agents-pool-probe"], env, root, timeout=30, warm=member)
    assert [r["outcome"] for r in results] == ["reproduced"]
    sent = time.monotonic()
    os.kill(member.pid, signal.SIGTERM)
    deadline = sent + 10
    while owners.pid_runs(member.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    took = time.monotonic() - sent
    assert not owners.pid_runs(member.pid)
    assert took < 0.8, f"the worker took {took:.2f}s to end after SIGTERM"
    assert list(pool.pool_dir().iterdir()) == []  # its socket, file and log gone with it


def test_a_worker_started_for_a_run_ends_when_its_command_was_killed(tmp_path, pool_dir):
    """A worker a matrix run starts for its own upgrade axis (``run``: the command's pid) is stopped
    by that command on its way out; a SIGKILL there runs nothing, and the worker stayed for its idle
    period (15 minutes). It sees its command gone and ends, its files with it; one started to stay
    (``--warm``: no command) does not."""
    import subprocess

    root = scratch_project(tmp_path, {"agents-pool-probe": PROBE})
    env = environments.worker_environment(root)
    command = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        member = pool.start(PYTHON, root, env, None, "openai-agents", "agents", run=command.pid)
        assert member is not None and member.run == command.pid
        command.kill()
        command.wait()
        deadline = time.monotonic() + 15
        while owners.pid_runs(member.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not owners.pid_runs(member.pid), "the worker outlived the command it was started for"
        assert list(pool.pool_dir().iterdir()) == []
    finally:
        command.kill()
    stays, _ = start(root)
    time.sleep(pool_warm.LEARN_AFTER + 1)
    assert owners.pid_runs(stays.pid)


def test_a_pool_folder_others_can_write_is_not_used_and_said_so_once(tmp_path, monkeypatch, capsys):
    from harness.commands import cli

    folder = tmp_path / "shared-pool"
    folder.mkdir()
    folder.chmod(0o777)  # another user could put a socket here that answers with made-up results
    monkeypatch.setenv("HARNESS_POOL_DIR", str(folder))
    monkeypatch.setattr(pool, "_warned_unsafe", False)
    env = environments.worker_environment(ROOT)
    assert pool.for_run("warm", PYTHON, ROOT, env, None, "google-adk") is None
    assert pool.members() == [] and pool.summary().startswith("warm pool: 0 workers")
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1 and "is not this user's own private folder" in warning
    assert "runs go cold" in warning
    assert list(folder.iterdir()) == []  # nothing started, nothing written
    assert cli.main(["pool", "status"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: pool folder ") and err.count("\n") == 1
    folder.chmod(0o700)
    assert pool.usable() and cli.main(["pool", "status"]) == 0


def test_workers_belong_to_their_checkout(tmp_path, pool_dir, monkeypatch, capsys):
    """Issue 30: two checkouts side by side; `pool status|stop` and the summary see only their own."""
    import argparse

    from harness import project
    from harness.commands import pool as pool_command

    first = scratch_project(tmp_path / "a", {"agents-pool-probe": PROBE})
    second = scratch_project(tmp_path / "b", {"agents-pool-probe": PROBE})
    a, _ = start(first)
    b, _ = start(second)
    assert [m.pid for m in pool.members(first)] == [a.pid] and [m.pid for m in pool.members(second)] == [b.pid]
    assert sorted(m.pid for m in pool.members()) == sorted([a.pid, b.pid])
    assert pool.summary(first).startswith("warm pool: 1 workers")
    lines = pool.describe(first)
    assert f"pid {a.pid:>7}" in lines[0] and str(b.pid) not in "\n".join(lines)
    assert lines[-2].startswith(f"1 warm workers of this checkout ({first.resolve()})")
    assert lines[-1].startswith("1 more of other checkouts")

    monkeypatch.setattr(project, "PROJECT", project.Project(first))
    assert pool_command.run(argparse.Namespace(action="status", all=True)) == 0
    listed = capsys.readouterr().out
    assert f"pid {a.pid:>7}" in listed and f"pid {b.pid:>7}" in listed
    assert pool_command.run(argparse.Namespace(action="stop", all=False)) == 0
    assert capsys.readouterr().out == "stopped 1 warm workers of this checkout\n"
    assert not pool.members(first) and [m.pid for m in pool.members()] == [b.pid]  # the other checkout's runs on
