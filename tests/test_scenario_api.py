"""The scenario API of issue 14: Release proofs and control cases, validated without a framework."""

from __future__ import annotations

import contextlib

import pytest

from harness.execution import proofs
from harness.runtime import proof_runs
from harness.runtime.outcomes import fixed
from harness.runtime.scenario import (
    AsInstalled,
    Case,
    InProcess,
    Observation,
    Release,
    Scenario,
    ScenarioError,
    validate,
)


async def _run():
    return Observation(timeline=["x"])


BREAK = InProcess("broken in process", contextlib.nullcontext)


def scenario(framework: str = "openai-agents", **case_fields) -> Scenario:
    fields = {"proofs": {"reproduced": Release("openai-agents==0.8.0", "before the fix"), "fixed": AsInstalled()}}
    fields.update(case_fields)
    prefix = "agents-" if framework == "openai-agents" else "adk-"
    return Scenario(
        id=f"{prefix}api",
        framework=framework,
        links=("https://example.org/1",),
        description="bug",
        expected="no bug",
        cases=(Case("only", _run, lambda o: fixed("ok"), **fields),),
    )


def test_a_release_proof_names_its_framework_and_version():
    r = Release("openai-agents==0.8.0", "before the fix")
    assert (r.framework, r.version, r.description) == ("openai-agents", "0.8.0", "before the fix")
    assert validate(scenario(), "m").cases[0].proofs["reproduced"] == r


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("google-adk==2.13.0", "is a google-adk release, but the scenario is about openai-agents"),
        ("openai-agents", "a Release names one release: NAME==VERSION"),
        ("openai-agents>=0.8", "a Release names one release: NAME==VERSION"),
        ("langchain==0.1.0", "unknown framework 'langchain'"),
    ],
)
def test_a_release_proof_of_another_framework_or_no_single_release_is_refused(spec, message):
    with pytest.raises(ScenarioError, match="'reproduced' proof") as err:
        validate(scenario(proofs={"reproduced": Release(spec), "fixed": AsInstalled()}), "agents_api")
    assert message in str(err.value) and "agents_api" in str(err.value)


def test_release_framework_spelling_is_normalised():
    validate(scenario(proofs={"reproduced": Release("OpenAI_Agents == 0.8.0"), "fixed": AsInstalled()}), "m")


def test_a_proof_must_be_a_build_kind():
    with pytest.raises(ScenarioError, match="is a str; valid: InProcess, AsInstalled, Release"):
        validate(scenario(proofs={"reproduced": "0.8.0", "fixed": AsInstalled()}), "m")


def test_a_case_is_not_a_control_unless_it_says_so():
    assert scenario().cases[0].control is False


def test_a_control_case_is_proven_able_to_fail_in_process():
    ok = scenario(control=True, proofs={"reproduced": BREAK, "fixed": AsInstalled()})
    assert validate(ok, "m").cases[0].control is True
    for reproduced in (AsInstalled(), Release("openai-agents==0.8.0")):
        with pytest.raises(ScenarioError, match=r"is a control .* must break it in this process"):
            validate(scenario(control=True, proofs={"reproduced": reproduced, "fixed": AsInstalled()}), "m")
    with pytest.raises(ScenarioError, match="does not say how to obtain a build that is reproduced"):
        validate(scenario(control=True, proofs={"fixed": AsInstalled()}), "m")
    with pytest.raises(ScenarioError, match="control must be True or False"):
        validate(scenario(control="yes", proofs={"reproduced": BREAK, "fixed": AsInstalled()}), "m")


def test_run_proof_applies_an_in_process_patch_around_the_case(monkeypatch):
    seen = []

    @contextlib.contextmanager
    def patch():
        seen.append("on")
        yield
        seen.append("off")

    async def run():
        return Observation(timeline=[f"patched={seen == ['on']}"])

    monkeypatch.setattr(proof_runs, "installed_version", lambda framework: "9.9.9")
    s = Scenario(
        id="adk-p",
        framework="google-adk",
        links=("https://example.org/1",),
        description="d",
        expected="e",
        cases=(
            Case(
                "c",
                run,
                lambda o: fixed(o.timeline[0]),
                {"reproduced": InProcess("patch", patch), "fixed": AsInstalled()},
            ),
        ),
    )
    run_ = proofs.run_proof(s, s.cases[0], "reproduced")
    assert (run_.result.detail, seen, run_.where) == (
        "patched=True",
        ["on", "off"],
        "google-adk 9.9.9 (patched in process)",
    )
    run_ = proofs.run_proof(s, s.cases[0], "fixed")
    assert (run_.result.detail, run_.where) == ("patched=False", "google-adk 9.9.9 (as installed)")
    with pytest.raises(KeyError, match="declares no 'unexpected' proof"):
        proofs.run_proof(s, s.cases[0], "unexpected")


def test_run_proof_without_the_framework_installed_is_an_error_result(monkeypatch):
    monkeypatch.setattr(proof_runs, "installed_version", lambda framework: None)
    s = scenario(proofs={"reproduced": BREAK, "fixed": AsInstalled()})
    result = proofs.run_proof(s, s.cases[0], "fixed").result
    assert result.outcome == "error" and "openai-agents is not installed here" in result.detail


def test_edges_are_validated():
    """An Edge (harness/runtime/scenario.py) alters a real observation of the case on one of its builds."""
    from harness.runtime.scenario import Edge

    ok = Edge("unexpected", "three events", lambda obs: obs.facts.update(n=3))
    validate(
        scenario(edges=(ok, Edge("fixed", "on a release", lambda obs: None, Release("openai-agents==0.8.0")))), "m"
    )
    for edges, message in [
        ((Edge("error", "x", lambda obs: None),), "edge 1 expects 'error'; valid: reproduced, fixed, unexpected"),
        ((Edge("fixed", "x", lambda obs: None, Release("google-adk==2.13.0")),), "edge 1 is a google-adk release"),
        ((Edge("fixed", "x", lambda obs: None, "0.8.0"),), "edge 1 runs on a str; valid: InProcess, AsInstalled"),
        ((ok, Edge("fixed", " ", lambda obs: None)), "edge 2 needs a description and an alter function"),
        ((ok, "n=3"), "edge 2 is a str, not an Edge"),
        ([ok], "edges must be a tuple of Edge, got list"),
    ]:
        with pytest.raises(ScenarioError, match="case 'only'") as err:
            validate(scenario(edges=edges), "m")
        assert message in str(err.value)


def test_an_edge_judges_an_altered_copy_of_the_observation(monkeypatch):
    from harness.runtime.outcomes import reproduced, unexpected
    from harness.runtime.scenario import Edge

    async def run():
        return Observation(timeline=["2 events"], facts={"n": 2})

    def judge(obs):
        return reproduced("two") if obs.facts["n"] == 2 else unexpected(f"{obs.facts['n']}")

    edge = Edge("unexpected", "three events", lambda obs: obs.facts.update(n=3))
    s = Scenario(
        id="adk-edge",
        framework="google-adk",
        links=("https://example.org/1",),
        description="b",
        expected="e",
        cases=(Case("only", run, judge, {"reproduced": AsInstalled(), "fixed": AsInstalled()}, edges=(edge,)),),
    )
    monkeypatch.setattr(proof_runs, "installed_version", lambda framework: "2.13.0")
    run_ = proofs.run_edge(s, s.cases[0], edge)
    assert (run_.result.outcome, run_.result.detail) == ("unexpected", "3")
    assert proofs.run_proof(s, s.cases[0], "reproduced").result.outcome == "reproduced"  # the original untouched
