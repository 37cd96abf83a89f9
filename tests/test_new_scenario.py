"""`harness new`: a template that cannot pass vacuously, and clear refusals of bad ids."""

from __future__ import annotations

import shutil

import pytest

from harness.rendering import new_scenario
from harness.runtime import registry
from harness.runtime.outcomes import ERROR
from harness.runtime.runner import run_case
from harness.runtime.scenario import ScenarioError


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
    assert [(c.id, c.control) for c in scenario.cases] == [("basic", False), ("control", True)]
    for case in scenario.cases:
        result = run_case(scenario, case)
        assert result.outcome == ERROR
        assert f"scenario {scenario_id} is a template: write replay()" in result.detail
    with pytest.raises(NotImplementedError, match="_break_control"), scenario.cases[1].proofs["reproduced"].patch():
        pass
    text = path.read_text()
    assert (
        "from harness.runtime.scenario import AsInstalled, Case, InProcess, NotApplicable, Observation, "
        "Release, Scenario" in text
    )


BLOCK_FRAMEWORKS = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("agents", "openai") or name.startswith(("google.adk", "google.genai")):
            raise ImportError(f"{name} imported at module level")
sys.meta_path.insert(0, Block())
from pathlib import Path
from harness.runtime import registry
print(sorted(registry.discover(Path(sys.argv[1]))))
"""


def test_nothing_at_the_template_module_level_imports_a_framework(tmp_path):
    import subprocess
    import sys

    new_scenario.create("adk-fresh-bug", "google-adk", tmp_path)
    new_scenario.create("agents-fresh-bug", "openai-agents", tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", BLOCK_FRAMEWORKS, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=registry.SCENARIOS_DIR.parent,
    )
    assert out.returncode == 0 and "['adk-fresh-bug', 'agents-fresh-bug']" in out.stdout, out.stderr


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
    def files():  # the check imports the folder's scenarios: Python may leave their bytecode
        return sorted(p.name for p in scenarios_dir.iterdir() if p.name != "__pycache__")

    before = files()
    with pytest.raises((ScenarioError, ValueError)) as err:
        new_scenario.create(scenario_id, framework, scenarios_dir)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert files() == before


def test_no_shipped_scenario_imports_a_framework_at_module_level():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", BLOCK_FRAMEWORKS, str(registry.SCENARIOS_DIR)],
        capture_output=True,
        text=True,
        cwd=registry.SCENARIOS_DIR.parent,
    )
    assert out.returncode == 0 and "adk-retry-same-invocation-id" in out.stdout, out.stderr
