"""google-adk: TODO one line: the symptom, as the bug report states it.

TODO the story: what the reporter did, what happened, what should have happened; the
upstream links; what the timeline records and how the oracles read it; which real releases
reproduce and which are fixed (`python -m harness releases google-adk --at DATE` names the
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
# framework, or with harness/adk.py (which imports it), lives inside a function, so
# `python -m harness list` works where google-adk is not installed.
QUESTION = "TODO what the user says"


def _script(variant: str) -> list:
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


def judge(obs: Observation) -> Verdict:
    """TODO: the bug's oracle: reproduced when the report's symptom shows, fixed when the expected
    behaviour shows, unexpected otherwise; the figures in a one-line detail."""
    raise NotImplementedError("scenario __ID__: judge() is still the template's")


def judge_control(obs: Observation) -> Verdict:
    """TODO: the control's oracle: fixed when the behaviour that must hold on every release holds."""
    raise NotImplementedError("scenario __ID__: judge_control() is still the template's")


# --- builds used to prove the oracles (tests only) ------------------------------------------
# Each case says how a build showing ``reproduced`` and one showing ``fixed`` are obtained:
# - Release("google-adk==X.Y.Z", "why"): a real release that shows it (the honest proof for a
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
    framework="google-adk",
    links=("https://github.com/TODO/issues/0",),
    description="TODO the bug, in a sentence or two.",
    expected="TODO the behaviour the bug report expects.",
    cases=(
        Case(
            "__CASE__",
            partial(replay, variant="__CASE__"),
            judge,
            # TODO e.g. {"reproduced": Release("google-adk==X.Y.Z", "the last release with the bug"),
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
