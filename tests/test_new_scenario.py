"""`harness new`: a bug folder whose script cannot pass vacuously, and clear refusals of bad ids."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.project import PROJECT
from harness.rendering import new_scenario
from harness.runtime import registry
from harness.runtime.outcomes import ERROR
from harness.runtime.runner import run_case
from harness.runtime.scenario import ScenarioError

EXAMPLE = "agents-usage-requests-without-usage"  # a converted bug, copied beside the new one


@pytest.fixture
def scenarios_dir(tmp_path):
    shutil.copytree(registry.SCENARIOS_DIR / EXAMPLE, tmp_path / EXAMPLE, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


@pytest.mark.parametrize("framework", ["google-adk", "openai-agents"])
def test_the_template_is_a_valid_bug_that_reports_error_until_written(scenarios_dir, framework):
    scenario_id = "adk-fresh-bug" if framework == "google-adk" else "agents-fresh-bug"
    folder = new_scenario.create(scenario_id, framework, scenarios_dir)
    scenario = registry.discover(scenarios_dir)[scenario_id]
    assert sorted(p.name for p in folder.iterdir()) == ["bug.py", "repro.py"]
    assert "TODO" in (folder / "repro.py").read_text() and "TODO" in (folder / "bug.py").read_text()
    assert [(c.id, c.control) for c in scenario.cases] == [("basic", False), ("control", True)]
    for case in scenario.cases:
        result = run_case(scenario, case)
        assert result.outcome == ERROR
        assert f"scenario {scenario_id} is a template" in result.detail
    with pytest.raises(NotImplementedError, match="break_control"), scenario.cases[1].proofs["reproduced"].patch():
        pass
    # The maintainer's command line says the same, exit 125 (git bisect run's "skip").
    run = subprocess.run([sys.executable, str(folder / "repro.py"), "basic"], capture_output=True, text=True)
    assert run.returncode == 125 and "verdict: error: NotImplementedError: scenario" in run.stdout


def test_every_reproduction_ends_with_the_templates_runner_block():
    """The block that runs the cases and maps outcomes to exit codes is the same in every script."""
    block = new_scenario.runner_block()
    for script in sorted(registry.SCENARIOS_DIR.glob("*/repro.py")):
        text = script.read_text()
        assert new_scenario.RUNNER_MARKER in text, script
        assert text[text.index(new_scenario.RUNNER_MARKER) :] == block, f"{script}: the runner block differs"


def database_helpers(scripts: list[Path]) -> tuple[list[str], list[str]]:
    """(the scripts that define ``database`` as the template does, those that define another one)."""
    helper = new_scenario.database_helper()
    same, differing = [], []
    for script in scripts:
        source = new_scenario.function_source(script.read_text(), new_scenario.DATABASE_HELPER)
        if source is not None:
            (same if source == helper else differing).append(script.parent.name)
    return same, differing


def test_every_database_helper_is_the_templates(tmp_path):
    """Issue 47: the google-adk scripts on a database carry one helper, ``database(backend)`` (a fresh
    SQLite file or PostgreSQL database through the release's driver, dropped at the end), byte for byte
    as templates/database_google_adk.py holds it, decorator included; each scenario on PostgreSQL has
    it (none names it otherwise). The check is shown to catch seeded variants: a docstring's words,
    a comment line left out, another yield, no decorator. (The upgrade script's database outlives
    one process: the writer creates it, the reader drops it; it has helpers of its own.)"""
    scripts = sorted([*registry.SCENARIOS_DIR.glob("*/repro.py"), *PROJECT.upgrades.glob("*/repro.py")])
    same, differing = database_helpers(scripts)
    assert differing == [], "database() differs from harness/rendering/templates/database_google_adk.py's"
    on_postgresql = sorted(s.id for s in registry.discover().values() if "postgresql" in s.backends)
    assert same == on_postgresql and len(same) >= 5
    text = (registry.SCENARIOS_DIR / same[0] / "repro.py").read_text()
    helper = new_scenario.database_helper()
    assert helper.startswith("@contextlib.asynccontextmanager\nasync def database(backend):\n") and helper in text
    variants = {
        "docstring": helper.replace("(async or not, as its service)", "(async where the service is)"),
        "comment": "".join(line for line in helper.splitlines(keepends=True) if "# postgresql://" not in line),
        "yield": helper.replace('/sessions.db"', '/sessions.db", None'),
        "decorator": helper.removeprefix("@contextlib.asynccontextmanager\n"),
    }
    for variant, changed in variants.items():
        assert changed != helper, variant
        (tmp_path / variant).mkdir()
        (tmp_path / variant / "repro.py").write_text(text.replace(helper, changed))
    assert database_helpers(sorted(tmp_path.glob("*/repro.py"))) == ([], sorted(variants))


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
        (EXAMPLE, "openai-agents", f"already exists (scenarios/{EXAMPLE})"),
        ("ADK_Bug", "google-adk", "is malformed: use lower-case words joined by hyphens"),
        ("agents-bug", "google-adk", "must start with 'adk-' for google-adk"),
        ("adk-bug", "langchain", "unknown framework 'langchain'"),
    ],
)
def test_bad_ids_are_refused_in_one_line(scenarios_dir, scenario_id, framework, message):
    def files():  # the check imports the folder's scenarios: Python may leave their bytecode
        return sorted(
            str(p.relative_to(scenarios_dir)) for p in scenarios_dir.rglob("*") if "__pycache__" not in str(p)
        )

    before = files()
    with pytest.raises((ScenarioError, ValueError)) as err:
        new_scenario.create(scenario_id, framework, scenarios_dir)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert files() == before


def test_no_shipped_scenario_imports_a_framework_at_module_level():
    out = subprocess.run(
        [sys.executable, "-c", BLOCK_FRAMEWORKS, str(registry.SCENARIOS_DIR)],
        capture_output=True,
        text=True,
        cwd=registry.SCENARIOS_DIR.parent,
    )
    assert out.returncode == 0 and EXAMPLE in out.stdout, out.stderr
