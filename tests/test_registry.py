"""Scenario discovery and the scenario contract."""

from __future__ import annotations

import textwrap

import pytest

from harness.runtime import registry
from harness.runtime.scenario import ScenarioError

GOOD = """
from harness.runtime.outcomes import fixed
from harness.runtime.scenario import AsInstalled, Case, Observation, Scenario

async def run():
    return Observation(timeline=["x"])

SCENARIO = Scenario(
    id={id!r}, framework="google-adk", links=("https://example.org/issue/1",),
    description="bug", expected="no bug",
    cases=(Case("only-case", run, lambda o: fixed("ok"), {{"reproduced": AsInstalled(), "fixed": AsInstalled()}}),),
)
"""


def write(tmp_path, name, text):
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))


def test_discovers_every_module_without_a_list(tmp_path):
    write(tmp_path, "adk_one", GOOD.format(id="adk-one"))
    write(tmp_path, "adk_two", GOOD.format(id="adk-two"))
    write(tmp_path, "_private", "raise RuntimeError('not a scenario')")
    assert sorted(registry.discover(tmp_path)) == ["adk-one", "adk-two"]


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (('links=("https://example.org/issue/1",)', "links=()"), "links must list"),
        (('description="bug"', 'description=""'), "description is empty"),
        (("cases=(Case(", "cases=() and (Case("), "it has no cases"),
        (('{"reproduced": AsInstalled(), ', "{"), "does not say how to obtain a build that is reproduced"),
        (('framework="google-adk"', 'framework="langchain"'), "unknown framework 'langchain'"),
    ],
)
def test_a_broken_scenario_is_rejected_naming_module_and_problem(tmp_path, replace, message):
    text = GOOD.format(id="adk-broken").replace(*replace)
    write(tmp_path, "adk_broken", text)
    with pytest.raises(ScenarioError) as err:
        registry.discover(tmp_path)
    assert "adk_broken" in str(err.value) and message in str(err.value)


def test_missing_scenario_and_bad_id_and_duplicates(tmp_path):
    write(tmp_path, "adk_none", "X = 1")
    with pytest.raises(ScenarioError, match="adk_none: it defines no SCENARIO"):
        registry.discover(tmp_path)
    (tmp_path / "adk_none.py").unlink()
    write(tmp_path, "adk_bad", GOOD.format(id="Bad_Id"))
    with pytest.raises(ScenarioError, match="not lower-case and hyphenated"):
        registry.discover(tmp_path)
    (tmp_path / "adk_bad.py").unlink()
    write(tmp_path, "adk_a", GOOD.format(id="adk-same"))
    write(tmp_path, "adk_b", GOOD.format(id="adk-same"))
    with pytest.raises(ScenarioError, match="already used by module adk_a"):
        registry.discover(tmp_path)


def test_a_module_that_raises_on_import_is_named(tmp_path):
    write(tmp_path, "adk_boom", "raise RuntimeError('boom')")
    with pytest.raises(ScenarioError, match="adk_boom failed to import: RuntimeError: boom"):
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
    """The core and scenario modules load in any environment (framework imports are inside cases)."""
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
