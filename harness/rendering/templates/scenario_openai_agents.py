"""openai-agents: TODO one line: the symptom, as the bug report states it.

TODO the story: what the reporter did, what happened, what should have happened; the
upstream links; what the timeline records and how the oracles read it; which real releases
reproduce and which are fixed (`python -m harness releases openai-agents --at DATE` names the
release current when the bug was reported), and how you confirmed it outside the harness.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import partial

from harness.runtime.outcomes import Verdict, fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, InProcess, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

# Module level holds plain data only (strings, numbers, dicts). Anything built with the
# framework, or with harness/openai_agents.py (which imports it), lives inside a function, so
# `python -m harness list` works where openai-agents is not installed.
QUESTION = "TODO what the user says"


def _turns(variant: str) -> list:
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


def judge(obs: Observation) -> Verdict:
    """TODO: the bug's oracle: reproduced when the report's symptom shows, fixed when the expected
    behaviour shows, unexpected otherwise; the figures in a one-line detail."""
    raise NotImplementedError("scenario __ID__: judge() is still the template's")


def judge_control(obs: Observation) -> Verdict:
    """TODO: the control's oracle: fixed when the behaviour that must hold on every release holds."""
    raise NotImplementedError("scenario __ID__: judge_control() is still the template's")


# --- builds used to prove the oracles (tests only) ------------------------------------------
# Each case says how a build showing ``reproduced`` and one showing ``fixed`` are obtained:
# - Release("openai-agents==X.Y.Z", "why"): a real release that shows it (the honest proof for a
#   bug upstream fixed: the last release with the bug, or the first without it);
# - InProcess("what", patch): ``patch()`` returns a context manager that patches the installed
#   release in this process (the seed PR's fix applied, or the upstream fix reverted);
# - AsInstalled("why"): the release `nox -s tests` pins (noxfile.py TEST_PINS) shows it unpatched.


@contextlib.contextmanager
def _break_control() -> Iterator[None]:
    """TODO: break the control's behaviour in process, so its oracle is shown able to fail."""
    raise NotImplementedError("scenario __ID__: _break_control() is still the template's")
    yield


SCENARIO = Scenario(
    id="__ID__",
    framework="openai-agents",
    links=("https://github.com/TODO/issues/0",),
    description="TODO the bug, in a sentence or two.",
    expected="TODO the behaviour the bug report expects.",
    cases=(
        Case(
            "__CASE__",
            partial(replay, variant="__CASE__"),
            judge,
            # TODO e.g. {"reproduced": Release("openai-agents==X.Y.Z", "the last release with the bug"),
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
