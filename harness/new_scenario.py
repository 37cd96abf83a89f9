"""``python -m harness new <scenario-id> --framework NAME``: a new scenario module from a template.

The new module runs, but says ``error`` with what is left to do until its author replaces
every ``TODO``: it cannot pass vacuously.
"""

from __future__ import annotations

from pathlib import Path

from harness import frameworks, registry
from harness.scenario import ID_RE, ScenarioError

HEADER = '''"""{framework}: TODO one line: the symptom, as the bug report states it.

TODO the story: what the reporter did, what happened, what should have happened; the
upstream links; what the timeline below records and how the oracle reads it.
"""

from __future__ import annotations

from harness.outcomes import fixed, reproduced, unexpected
from harness.scenario import AsInstalled, Case, Observation, Scenario
from harness.timeline import Placeholders

# Scripted model replies, as data (see harness/{adapter}.py for the helpers).
SCRIPT = [
    # TODO the model turns that lead the agent into the bug
]

TODO = "TODO"


'''

REPLAY = {
    "google-adk": '''async def replay() -> Observation:
    """TODO: replay the bug through google-adk's public API."""
    from harness import adk

    model = adk.ScriptedLlm(model="scripted", script=list(SCRIPT))
    raise NotImplementedError(
        "scenario {id} is a template: write replay() (run an agent on `model` with a Runner and "
        "return Observation(timeline=adk.session_timeline(session.events, Placeholders()), facts=...)), "
        "then judge(), the proofs and the links"
    )
''',
    "openai-agents": '''async def replay() -> Observation:
    """TODO: replay the bug through openai-agents' public API."""
    from harness import openai_agents

    model = openai_agents.ScriptedModel(turns=SCRIPT)
    raise NotImplementedError(
        "scenario {id} is a template: write replay() (run an Agent on `model` with Runner.run and "
        "return Observation(timeline=[...], facts=...)), then judge(), the proofs and the links"
    )
''',
}

FOOTER = '''

def judge(obs: Observation):
    """TODO: turn the facts into reproduced / fixed / unexpected, with the figures in the detail."""
    raise NotImplementedError("scenario {id}: judge() is still the template's")


SCENARIO = Scenario(
    id="{id}",
    framework="{framework}",
    links=("https://github.com/TODO/issues/0",),
    description="TODO the bug, in a sentence or two.",
    expected="TODO the behaviour the bug report expects.",
    cases=(
        Case(
            "{case}",
            replay,
            judge,
            # TODO: how a build with the bug and one without it are obtained (InProcess patch or release).
            {{"reproduced": AsInstalled("TODO"), "fixed": AsInstalled("TODO")}},
            "TODO what this case does",
        ),
    ),
)
'''


def module_path(scenario_id: str, directory: Path) -> Path:
    return directory / (scenario_id.replace("-", "_") + ".py")


def create(scenario_id: str, framework_name: str, directory: Path = registry.SCENARIOS_DIR, case: str = "basic") -> Path:
    """Write the template module; raise ScenarioError (one line) for a taken or malformed id."""
    framework = frameworks.get(framework_name)
    if not ID_RE.match(scenario_id):
        raise ScenarioError(f"scenario id {scenario_id!r} is malformed: use lower-case words joined by hyphens, "
                            f"e.g. {framework.id_prefix}my-bug")
    if not scenario_id.startswith(framework.id_prefix):
        raise ScenarioError(f"scenario id {scenario_id!r} must start with {framework.id_prefix!r} for {framework.name}")
    existing = registry.discover(directory)
    path = module_path(scenario_id, directory)
    if scenario_id in existing or path.exists():
        raise ScenarioError(f"scenario {scenario_id!r} already exists ({path.name}); pick another id")
    adapter = "adk" if framework.name == "google-adk" else "openai_agents"
    text = (HEADER.format(framework=framework.name, adapter=adapter)
            + REPLAY[framework.name].replace("{id}", scenario_id)
            + FOOTER.format(id=scenario_id, framework=framework.name, case=case))
    path.write_text(text)
    return path
