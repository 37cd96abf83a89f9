"""The runner turns every failure into data: timeouts, crashes, network use, refusals."""

from __future__ import annotations

import asyncio
import logging
import socket

from harness.runtime.outcomes import fixed
from harness.runtime.runner import run_case, strip_paths
from harness.runtime.scenario import AsInstalled, Case, NotApplicable, Observation, Scenario

PROOFS = {"reproduced": AsInstalled(), "fixed": AsInstalled()}


def scenario_of(run):
    case = Case("c", run, lambda obs: fixed("ok"), PROOFS)
    return Scenario("adk-test", "google-adk", ("https://example.org",), "d", "e", (case,)), case


def test_a_hanging_case_is_an_error_after_its_timeout():
    async def hang():
        await asyncio.sleep(60)

    s, c = scenario_of(hang)
    result = run_case(s, c, timeout=0.2)
    assert (result.outcome, result.detail) == ("error", "timed out after 0.2s")


def test_a_crash_is_an_error_with_its_last_lines():
    async def crash():
        raise RuntimeError("broken fake: script ran out")

    s, c = scenario_of(crash)
    result = run_case(s, c)
    assert result.outcome == "error"
    assert result.detail.endswith("RuntimeError: broken fake: script ran out")
    assert "/" not in result.detail.split("|")[-1]


def test_network_access_is_an_error_naming_the_destination():
    async def call_home():
        socket.create_connection(("api.openai.com", 443), timeout=1)

    s, c = scenario_of(call_home)
    result = run_case(s, c)
    assert result.outcome == "error"
    assert "network access blocked: connect to api.openai.com:443" in result.detail


def test_the_network_guard_is_lifted_after_the_case():
    async def ok():
        return Observation(timeline=[])

    s, c = scenario_of(ok)
    run_case(s, c)
    assert socket.create_connection.__module__ == "socket"


def test_a_refusal_is_not_applicable_with_the_message():
    async def refuse():
        raise NotApplicable("RunConfig has no field nest_handoff_history")

    s, c = scenario_of(refuse)
    result = run_case(s, c)
    assert (result.outcome, result.detail) == ("not-applicable", "RunConfig has no field nest_handoff_history")


def test_logging_handlers_a_case_leaves_behind_are_removed():
    before = list(logging.getLogger().handlers)

    async def leak():
        logging.getLogger().addHandler(logging.StreamHandler())
        return Observation(timeline=[])

    s, c = scenario_of(leak)
    run_case(s, c)
    assert logging.getLogger().handlers == before


def test_an_oracle_that_crashes_is_an_error_not_a_verdict():
    async def ok():
        return Observation(timeline=["a"])

    case = Case("c", ok, lambda obs: 1 / 0, PROOFS)
    s = Scenario("adk-test", "google-adk", ("https://example.org",), "d", "e", (case,))
    result = run_case(s, case)
    assert result.outcome == "error" and result.detail.startswith("oracle failed:")


def test_machine_paths_are_stripped_from_details():
    text = 'File "/root/.venv/lib/python3.11/site-packages/google/adk/runners.py", line 3 /work/x/y.py'
    assert strip_paths(text) == 'File "google/adk/runners.py", line 3 y.py'


def test_a_case_whose_framework_import_fails_is_an_error_and_the_next_case_is_unaffected():
    async def broken_import():
        import google.adk.no_such_module  # noqa: F401

    async def ok():
        return Observation(timeline=["ok"])

    s, c = scenario_of(broken_import)
    assert run_case(s, c).outcome == "error"
    s, c = scenario_of(ok)
    assert run_case(s, c).outcome == "fixed"


def test_environment_and_event_loop_leaks_do_not_reach_the_next_case():
    import os

    async def leak():
        os.environ["OPENAI_API_KEY"] = "sk-leaked"
        asyncio.get_running_loop().create_task(asyncio.sleep(3600))  # a task left running
        return Observation(timeline=[])

    async def inspect():
        # Not the leaked key, and no blank one either: a standalone run has none (issue 45).
        assert "OPENAI_API_KEY" not in os.environ
        assert [t for t in asyncio.all_tasks() if "sleep" in repr(t.get_coro())] == []  # a fresh loop
        return Observation(timeline=["clean"])

    s, c = scenario_of(leak)
    run_case(s, c)
    s, c = scenario_of(inspect)
    result = run_case(s, c)
    assert result.outcome == "fixed", result.detail
    assert "sk-leaked" not in os.environ.get("OPENAI_API_KEY", "")


def test_a_case_that_flickers_between_runs_in_one_worker_is_an_error():
    from harness.runtime.worker import repeated

    counter = iter(range(100))

    async def flicker():
        return Observation(timeline=[f"call {next(counter)}"])

    s, c = scenario_of(flicker)
    result = repeated(s, c, timeout=10, runs=2)
    assert result.outcome == "error"
    assert result.detail.startswith("not deterministic: 2 different results in 2 runs in one process")

    async def steady():
        return Observation(timeline=["same"])

    s, c = scenario_of(steady)
    assert repeated(s, c, timeout=10, runs=2).outcome == "fixed"
