"""Issue 36, "what the thread says, beside what was measured": each scenario declares the upstream
thread's claim (``claims=Claim(...)`` in its bug.py, harness/runtime/scenario.py ``Claim``) only
where the scenario already states it; the scenario report shows the claim beside the measured
boundaries, and the run's summary lists every disagreement as a finding, not a failure. Before: no report
said what the thread claims, so a thread that reads as open on a fixed release, or names the
wrong release, went unremarked."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from harness.project import PROJECT
from harness.rendering import claims, evidence, summary
from harness.rendering.metadata import ScenarioMetadata
from harness.runtime import registry, reproduction
from harness.runtime.scenario import Claim, ScenarioError
from harness.store.bisect_record import BisectRecord
from harness.store.snapshots import SnapshotStore
from tests.test_reports import SCENARIO, document, result

ROOT = Path(__file__).resolve().parent.parent


def metadata(**claim) -> ScenarioMetadata:
    return dataclasses.replace(SCENARIO, claims=Claim(**claim, source="docstring: test"))


def rows(*pairs: tuple[str, str]):
    return document([result(version, outcome, f"{outcome}\n") for version, outcome in pairs]).results


FIXED_IN_2_9 = rows(("2.7.0", "reproduced"), ("2.8.0", "reproduced"), ("2.9.0", "fixed"), ("2.10.0", "fixed"))


def test_a_claim_that_agrees_is_shown_beside_the_measurement_without_a_finding():
    meta = metadata(fixed_in="2.9.0", pr="#1", pr_state="merged")
    lines = claims.report_lines(meta, FIXED_IN_2_9, BisectRecord())
    assert "| the thread says | fixed in 2.9.0 by PR #1 (merged) (docstring: test) |" in lines
    assert "| measured (bug cases) | first fixed in 2.9.0; newest release run, 2.10.0: does not reproduce |" in lines
    assert not any("disagree" in line for line in lines)
    assert claims.scenario_disagreements(meta, FIXED_IN_2_9, BisectRecord()) == []


@pytest.mark.parametrize(
    ("claim", "finding"),
    [
        ({"fixed_in": "2.10.0"}, "the thread says fixed in 2.10.0; measured: first fixed in 2.9.0"),
        (
            {"introduced_in": "2.7.0"},
            "the thread says introduced in 2.7.0; measured: no measured fixed -> reproduced step",
        ),
        (
            {"still_open": True, "pr": "#2"},
            "the thread says still open; measured: it does not reproduce on 2.10.0, the newest release run",
        ),
    ],
)
def test_a_claim_that_disagrees_is_a_finding_in_the_report_and_the_summary(tmp_path, claim, finding):
    meta = metadata(**claim)
    text = evidence.render(meta, document([result(r.version, r.outcome, r.timeline) for r in FIXED_IN_2_9]))
    assert f"**Claim and measurement disagree** (a finding, not a failure): {finding}." in text
    found = claims.scenario_disagreements(meta, FIXED_IN_2_9, BisectRecord())
    assert found == [f"`adk-demo`: {finding}"]
    page = summary.markdown(FIXED_IN_2_9, ["matrix.json"], SnapshotStore(tmp_path), claim_disagreements=found)
    assert "### 1 place where a thread and the measurement disagree" in page
    assert f"- `adk-demo`: {finding}" in page


def test_no_claim_says_so_and_finds_nothing():
    lines = claims.report_lines(SCENARIO, FIXED_IN_2_9, BisectRecord())
    assert "| the thread says | nothing this repository records |" in lines
    assert claims.scenario_disagreements(SCENARIO, FIXED_IN_2_9, BisectRecord()) == []


def stated(scenario) -> str:
    """What a scenario itself says of its thread: its script's docstring, its declaration's links and
    the claim's quote of the thread (scenarios/<id>/repro.py, bug.py: a script's docstring names no
    release, the record does)."""
    script = ROOT / "scenarios" / scenario.id / reproduction.SCRIPT
    doc = ast.get_docstring(ast.parse(script.read_text())) or ""
    return " ".join([*doc.split(), *scenario.links, scenario.claims.source or "", scenario.claims.quote or ""])


def said(word: str, text: str) -> bool:
    """``word`` in ``text``; a PR or issue number ``#N`` also as the thread's URL (``.../pull/N``)."""
    number = word.removeprefix("#")
    return word in text or (word.startswith("#") and bool(re.search(rf"/(?:pull|issues)/{number}\b", text)))


def test_every_declared_claim_is_stated_in_its_scenarios_docstring():
    """No claim is invented: each PR number and release a claim names (in a bug folder's bug.py) is
    stated by the scenario itself; the scenarios with no claim are named
    (5 of 31 when this was written). Claims are read from the discovered scenarios."""
    scenarios = registry.discover()
    declared = {i: s.claims for i, s in scenarios.items() if not s.claims.empty()}
    for scenario_id, claim in declared.items():
        text = stated(scenarios[scenario_id])
        named = [claim.fixed_in, claim.introduced_in, *(claim.pr or "").replace("/", " ").split()]
        for word in filter(None, named):
            assert said(word, text), (scenario_id, word)
        assert claim.source
    # The scenarios whose threads claim no release, PR or open state (the first five since this was
    # written; agents-chat-fake-id-to-responses: #972 closed as stale and #2293 as needs-more-info,
    # no fix named): named, so a new scenario that forgets its claim fails here.
    assert sorted(set(scenarios) - set(declared)) == [
        "adk-orchestrator-crash-resume",
        "adk-parallel-calls-merge-actions",
        "adk-repeated-tool-call",
        "adk-retry-same-invocation-id",
        "adk-sync-run-model-error",
        "agents-chat-fake-id-to-responses",
    ]


def test_a_bug_folder_declares_its_claim_in_its_declaration(tmp_path):
    """A bug folder's ``bug.py`` sets ``claims=Claim(...)``; a claim that does not say where the
    repository states it is refused in one line."""
    from harness.rendering import new_scenario

    folder = new_scenario.create("adk-one", "google-adk", tmp_path)
    declaration = folder / reproduction.DECLARATION
    text = declaration.read_text()
    line = next(x for x in text.splitlines() if x.strip().startswith("claims=Claim("))
    declaration.write_text(text.replace(line, "    claims=Claim(pr='#7', still_open=True, source='s'),"))
    assert registry.discover(tmp_path)["adk-one"].claims == Claim(pr="#7", still_open=True, source="s")
    other = tmp_path / "other"
    other.mkdir()
    folder = new_scenario.create("adk-two", "google-adk", other)
    declaration = folder / reproduction.DECLARATION
    declaration.write_text(declaration.read_text().replace(line, "    claims=Claim(pr='#7'),"))
    with pytest.raises(ScenarioError, match="say where the repository states"):
        registry.discover(other)


def test_the_reports_show_the_claims_of_the_record():
    """The committed reports carry each scenario's claim beside its measurement (a fresh render
    equals them: tests/test_row_reads.py)."""
    scenario = registry.discover()["agents-reasoning-item-chat-completions"]
    meta = ScenarioMetadata.of(scenario, PROJECT)
    assert meta.claims.fixed_in == "0.2.4"
    text = (ROOT / "reports" / "agents-reasoning-item-chat-completions.md").read_text()
    assert "| the thread says | fixed in 0.2.4 by PR #871 (merged) (" in text
    # The commit bisect found bd527ad57 (#1098) between 0.2.3 and 0.2.4, not the thread's #871 (issue 48).
    assert "| measured (bug cases) | first fixed in 0.2.4 by bd527ad57 (#1098);" in text


def test_a_pr_the_thread_does_not_show_merged_is_never_fixed_by():
    """Issue 45: "The thread says: fixed by PR #5711" where #5711 was closed unmerged."""
    from harness.rendering.claims import claimed_words

    assert (
        claimed_words(Claim(pr="#5711", pr_state="closed unmerged")) == "proposed PR #5711 (closed unmerged) as the fix"
    )
    assert claimed_words(Claim(pr="#7", pr_state="open")) == "proposed PR #7 (open) as the fix"
    assert claimed_words(Claim(pr="#7")) == "names PR #7 (its merge not recorded here) as the fix"
    assert claimed_words(Claim(pr="#7", pr_state="merged")) == "fixed by PR #7 (merged)"
    for state in ("", "open", "closed", "closed unmerged"):
        assert "fixed by" not in claimed_words(Claim(pr="#7", pr_state=state, fixed_in="1.0.0"))


def test_a_fix_between_two_releases_run_is_measured_as_a_range_that_a_claim_inside_agrees_with():
    """Issue 45: with 2.8.0 reproduced, 2.10.0 fixed and 2.9.0 never run, the fix is between the two."""
    sampled = rows(("2.8.0", "reproduced"), ("2.10.0", "fixed"))
    record = BisectRecord({"google-adk": ("2.8.0", "2.9.0", "2.10.0")})
    inside = metadata(fixed_in="2.9.0")
    lines = claims.report_lines(inside, sampled, record)
    assert any("first fixed between 2.8.0 and 2.10.0 (not bisected)" in line for line in lines)
    assert claims.scenario_disagreements(inside, sampled, record) == []
    outside = metadata(fixed_in="2.11.0")
    assert claims.scenario_disagreements(outside, sampled, record) != []
