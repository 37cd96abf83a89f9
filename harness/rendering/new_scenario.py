"""``python -m harness new <scenario-id> --framework NAME``: a new scenario module from a template.

The new module runs, but says ``error`` with what is left to do until its author replaces
every ``TODO``: it cannot pass vacuously. Its module level holds plain data only, so
``python -m harness list`` keeps working where the framework is not installed; it imports
every proof kind (``AsInstalled``, ``InProcess``, ``Release``) and ``NotApplicable``, and
shows two cases: the bug, and a control that must hold on every release.

The template's words ``__ID__``, ``__FRAMEWORK__``, ``__ADAPTER__`` and ``__CASE__`` are
replaced when the module is written.
"""

from __future__ import annotations

from pathlib import Path

from harness.runtime import frameworks, registry
from harness.runtime.scenario import ID_RE, ScenarioError

HEADER = '''"""__FRAMEWORK__: TODO one line: the symptom, as the bug report states it.

TODO the story: what the reporter did, what happened, what should have happened; the
upstream links; what the timeline records and how the oracles read it; which real releases
reproduce and which are fixed (`python -m harness releases __FRAMEWORK__ --at DATE` names the
release current when the bug was reported), and how you confirmed it outside the harness.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, InProcess, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

# Module level holds plain data only (strings, numbers, dicts). Anything built with the
# framework, or with harness/__ADAPTER__.py (which imports it), lives inside a function, so
# `python -m harness list` works where __FRAMEWORK__ is not installed.
QUESTION = "TODO what the user says"


'''

REPLAY = {
    "google-adk": '''def _script(variant: str) -> list:
    """The scripted model turns of a case (harness/runtime/fakes/adk.py: adk.text(...),
    adk.calls((name, args), ...))."""
    from harness.runtime.fakes import adk

    return [
        # TODO the model turns that lead the agent into the bug, e.g.
        # adk.calls(("get_weather", {"city": "Paris"})), adk.text("It is sunny."),
    ]


async def replay(*, variant: str) -> Observation:
    """TODO: replay the bug through google-adk's public API; ``variant`` tells the cases apart."""
    from harness.runtime.fakes import adk

    llm = adk.ScriptedLlm(model="scripted", script=_script(variant))  # adk.UncalledLlm: a model that must not be called
    # Raise NotApplicable when the release lacks the API the case needs, quoting what is missing:
    #     if "TODO" not in RunConfig.model_fields: raise NotApplicable("RunConfig has no TODO field")
    # Then, typically:
    #     from google.adk.agents import LlmAgent
    #     session = await adk.run_agent(LlmAgent(name="agent", model=llm, instruction="TODO"), QUESTION)
    #     ids = Placeholders()
    #     timeline = [*adk.session_timeline(session.events, ids), adk.state_line(session.state),
    #                 adk.model_calls_line(llm)]
    #     return Observation(timeline=timeline, facts={...what the oracles read...})
    raise NotImplementedError(
        "scenario __ID__ is a template: write replay() (run an agent on `llm` with adk.run_agent and "
        "return Observation(timeline=adk.session_timeline(session.events, Placeholders()), facts=...)), "
        "then the oracles, the proofs and the links"
    )
''',
    "openai-agents": '''def _turns(variant: str) -> list:
    """The scripted model turns of a case (harness/runtime/fakes/openai_agents.py: a turn is a list of output items)."""
    from harness.runtime.fakes import openai_agents as oa

    return [
        # TODO the model turns that lead the run into the bug, e.g.
        # [oa.function_call("get_weather", {"city": "Paris"}, call_id="call-1")],
        # [oa.text_message("It is sunny.")],
    ]


async def replay(*, variant: str) -> Observation:
    """TODO: replay the bug through openai-agents' public API; ``variant`` tells the cases apart."""
    from harness.runtime.fakes import openai_agents as oa

    model = oa.ScriptedModel("scripted", _turns(variant))
    # Raise NotApplicable when the release lacks the API the case needs, quoting what is missing.
    # Then, typically:
    #     from agents import Agent, Runner
    #     tool = oa.RecordingTool("get_weather", {"city": "string"}, result="sunny")
    #     result = await Runner.run(Agent(name="agent", model=model, tools=[tool.tool]), input=QUESTION)
    #     (streamed: result = Runner.run_streamed(...); events = await oa.drain_stream(result))
    #     ids = Placeholders()
    #     timeline = [*oa.item_lines(result.to_input_list(), ids), *tool.call_lines(ids)]
    #     return Observation(timeline=timeline, facts={"calls": len(tool.calls), ...})
    raise NotImplementedError(
        "scenario __ID__ is a template: write replay() (run an Agent on `model` with Runner.run and "
        "return Observation(timeline=oa.item_lines(...), facts=...)), then the oracles, the proofs and the links"
    )
''',
}

FOOTER = '''

def judge(obs: Observation):
    """TODO: the bug's oracle: reproduced when the report's symptom shows, fixed when the expected
    behaviour shows, unexpected otherwise; the figures in a one-line detail."""
    raise NotImplementedError("scenario __ID__: judge() is still the template's")


def judge_control(obs: Observation):
    """TODO: the control's oracle: fixed when the behaviour that must hold on every release holds."""
    raise NotImplementedError("scenario __ID__: judge_control() is still the template's")


# --- builds used to prove the oracles (tests only) ------------------------------------------
# Each case says how a build showing ``reproduced`` and one showing ``fixed`` are obtained:
# - Release("__FRAMEWORK__==X.Y.Z", "why"): a real release that shows it (the honest proof for a
#   bug upstream fixed: the last release with the bug, or the first without it);
# - InProcess("what", patch): ``patch()`` returns a context manager that patches the installed
#   release in this process (the seed PR's fix applied, or the upstream fix reverted);
# - AsInstalled("why"): the release `nox -s tests` pins (noxfile.py TEST_PINS) shows it unpatched.


@contextlib.contextmanager
def _break_control():
    """TODO: break the control's behaviour in process, so its oracle is shown able to fail."""
    raise NotImplementedError("scenario __ID__: _break_control() is still the template's")
    yield


SCENARIO = Scenario(
    id="__ID__",
    framework="__FRAMEWORK__",
    links=("https://github.com/TODO/issues/0",),
    description="TODO the bug, in a sentence or two.",
    expected="TODO the behaviour the bug report expects.",
    cases=(
        Case(
            "__CASE__",
            partial(replay, variant="__CASE__"),
            judge,
            # TODO e.g. {"reproduced": Release("__FRAMEWORK__==X.Y.Z", "the last release with the bug"),
            #            "fixed": AsInstalled("the pinned release has the fix")}
            {"reproduced": AsInstalled("TODO"), "fixed": AsInstalled("TODO")},
            "TODO what this case does",
        ),
        Case(
            "control",
            partial(replay, variant="control"),
            judge_control,
            # A control holds on every release: its reproduced proof breaks it in process.
            {"reproduced": InProcess("TODO how the control is broken", _break_control), "fixed": AsInstalled("TODO")},
            "TODO the behaviour beside the bug that must hold on every release (or delete this case)",
            control=True,
        ),
    ),
)
'''


def module_path(scenario_id: str, directory: Path) -> Path:
    return directory / (scenario_id.replace("-", "_") + ".py")


def render(scenario_id: str, framework_name: str, case: str = "basic") -> str:
    """The template's text for ``scenario_id``."""
    framework = frameworks.get(framework_name)
    adapter = "adk" if framework.name == "google-adk" else "openai_agents"
    text = HEADER + REPLAY[framework.name] + FOOTER
    for word, value in (
        ("__ID__", scenario_id),
        ("__FRAMEWORK__", framework.name),
        ("__ADAPTER__", adapter),
        ("__CASE__", case),
    ):
        text = text.replace(word, value)
    return text


def create(
    scenario_id: str, framework_name: str, directory: Path = registry.SCENARIOS_DIR, case: str = "basic"
) -> Path:
    """Write the template module; raise ScenarioError (one line) for a taken or malformed id."""
    framework = frameworks.get(framework_name)
    if not ID_RE.match(scenario_id):
        raise ScenarioError(
            f"scenario id {scenario_id!r} is malformed: use lower-case words joined by hyphens, "
            f"e.g. {framework.id_prefix}my-bug"
        )
    if not scenario_id.startswith(framework.id_prefix):
        raise ScenarioError(f"scenario id {scenario_id!r} must start with {framework.id_prefix!r} for {framework.name}")
    if case == "control":
        raise ScenarioError("the template's second case is called 'control'; pick another id for the first case")
    existing = registry.discover(directory)
    path = module_path(scenario_id, directory)
    if scenario_id in existing or path.exists():
        raise ScenarioError(f"scenario {scenario_id!r} already exists ({path.name}); pick another id")
    path.write_text(render(scenario_id, framework.name, case))
    return path
