"""`harness new`: a template that cannot pass vacuously, and clear refusals of bad ids."""

from __future__ import annotations

import shutil

import pytest

from harness import new_scenario, registry
from harness.outcomes import ERROR
from harness.runner import run_case
from harness.scenario import ScenarioError


@pytest.fixture
def scenarios_dir(tmp_path):
    shutil.copy(registry.SCENARIOS_DIR / "adk_retry_same_invocation_id.py", tmp_path)
    return tmp_path


@pytest.mark.parametrize("framework", ["google-adk", "openai-agents"])
def test_the_template_is_a_valid_scenario_that_reports_error_until_written(scenarios_dir, framework):
    scenario_id = "adk-fresh-bug" if framework == "google-adk" else "agents-fresh-bug"
    path = new_scenario.create(scenario_id, framework, scenarios_dir)
    scenario = registry.discover(scenarios_dir)[scenario_id]
    assert path.name == scenario_id.replace("-", "_") + ".py" and "TODO" in path.read_text()
    result = run_case(scenario, scenario.cases[0])
    assert result.outcome == ERROR
    assert f"scenario {scenario_id} is a template: write replay()" in result.detail


@pytest.mark.parametrize(
    ("scenario_id", "framework", "message"),
    [
        ("adk-retry-same-invocation-id", "google-adk", "already exists (adk_retry_same_invocation_id.py)"),
        ("ADK_Bug", "google-adk", "is malformed: use lower-case words joined by hyphens"),
        ("agents-bug", "google-adk", "must start with 'adk-' for google-adk"),
        ("adk-bug", "langchain", "unknown framework 'langchain'"),
    ],
)
def test_bad_ids_are_refused_in_one_line(scenarios_dir, scenario_id, framework, message):
    before = sorted(p.name for p in scenarios_dir.iterdir())
    with pytest.raises((ScenarioError, ValueError)) as err:
        new_scenario.create(scenario_id, framework, scenarios_dir)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert sorted(p.name for p in scenarios_dir.iterdir()) == before
