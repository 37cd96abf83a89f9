"""Scenario discovery and the scenario contract: every bug folder (scenarios/<id>/: repro.py, bug.py)."""

from __future__ import annotations

import re
import shutil

import pytest

from harness.runtime import registry
from harness.runtime.scenario import ScenarioError
from scratch import write_bug

SCRIPT = """
CASES = {"only-case": {}}


class NotApplicable(Exception):
    pass


async def observe(say):
    say("x")
    return {}


def judge(facts):
    return "fixed", "ok"
"""

GOOD = """
from harness.runtime.declaration import AsInstalled, Bug, CaseRole

BUG = Bug(
    links=("https://example.org/issue/1",),
    description="bug", expected="no bug",
    cases={"only-case": CaseRole("the case", reproduced=AsInstalled(), fixed=AsInstalled())},
)
"""


def test_discovers_every_bug_folder_without_a_list(tmp_path):
    write_bug(tmp_path, "adk-found-one", SCRIPT, GOOD)
    write_bug(tmp_path, "adk-found-two", SCRIPT, GOOD)
    (tmp_path / "_private.py").write_text("raise RuntimeError('not a scenario')")
    (tmp_path / "pytest").mkdir()  # a folder without a bug.py (as scenarios/pytest/) is no bug
    (tmp_path / "pytest" / "test_x.py").write_text("raise RuntimeError('not a scenario')")
    assert sorted(registry.discover(tmp_path)) == ["adk-found-one", "adk-found-two"]


@pytest.mark.parametrize(
    ("scenario_id", "replace", "message"),
    [
        ("adk-broken", ('links=("https://example.org/issue/1",)', "links=()"), "links must list"),
        ("adk-broken", ('description="bug"', 'description=""'), "description is empty"),
        ("adk-broken", ("cases={", "cases={} and {"), "CASES (only-case) are not the declared cases"),
        ("adk-broken", ("reproduced=AsInstalled(), ", "reproduced=None, "), "'reproduced' proof is a NoneType"),
        ("langchain-broken", ("", ""), "the folder's name must start with one of adk-, agents-"),
    ],
)
def test_a_broken_scenario_is_rejected_naming_its_folder_and_problem(tmp_path, scenario_id, replace, message):
    write_bug(tmp_path, scenario_id, SCRIPT, GOOD.replace(*replace))
    with pytest.raises(ScenarioError) as err:
        registry.discover(tmp_path)
    assert scenario_id in str(err.value) and message in str(err.value)


def test_a_declaration_without_a_bug_and_a_bad_id_are_refused(tmp_path):
    """(No two scenarios can share an id: a scenario's id is its folder's name.)"""
    write_bug(tmp_path, "adk-none", SCRIPT, "X = 1")
    with pytest.raises(ScenarioError, match=re.escape("scenario adk-none: bug.py defines no BUG")):
        registry.discover(tmp_path)
    shutil.rmtree(tmp_path / "adk-none")
    write_bug(tmp_path, "adk-Bad_Id", SCRIPT, GOOD)
    with pytest.raises(ScenarioError, match="'adk-Bad_Id' is not lower-case and hyphenated"):
        registry.discover(tmp_path)


BOOM = "raise RuntimeError('boom')"


@pytest.mark.parametrize(
    ("declaration", "script", "named"), [(BOOM, SCRIPT, "bug.py"), (GOOD, BOOM, "repro.py")], ids=["bug.py", "repro.py"]
)
def test_a_file_that_raises_on_import_is_named(tmp_path, declaration, script, named):
    write_bug(tmp_path, "adk-boom", script, declaration)
    with pytest.raises(ScenarioError, match=re.escape(f"adk-boom/{named} failed to import: RuntimeError: boom")):
        registry.discover(tmp_path)


def test_select_unknown_ids_name_the_valid_ones():
    scenarios = registry.discover()
    with pytest.raises(registry.UnknownId, match="unknown scenario 'nope'; valid: adk-"):
        registry.select(scenarios, ["nope"])
    with pytest.raises(
        registry.UnknownId,
        match="unknown case 'nope' for scenario 'adk-retry-same-invocation-id'; valid: resumable-resume",
    ):
        registry.select(scenarios, ["adk-retry-same-invocation-id:nope"])


def test_shipped_scenarios_import_without_their_frameworks():
    """The core and the bugs' declarations load in any environment (framework imports are inside cases)."""
    import subprocess
    import sys

    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def guard(name, *a, **k):\n"
        "    if name.split('.')[0] in ('google', 'agents', 'openai'):\n"
        "        raise ImportError('framework imported at module level: ' + name)\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = guard\n"
        "from harness.runtime import registry\nfrom harness.execution import matrix\nfrom harness.commands import cli\n"
        "print(len(registry.discover()))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=registry.SCENARIOS_DIR.parent
    )
    assert out.returncode == 0, out.stderr
