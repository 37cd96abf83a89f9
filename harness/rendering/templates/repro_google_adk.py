# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: TODO one line: the symptom, as the bug report states it.

Upstream: https://github.com/google/adk-python/issues/TODO. TODO the mechanism in a few lines: what
the reporter did, what happened, what should have happened, the framework file it lives in.

A scripted model (a BaseLlm that answers each call with the next scripted turn) and the framework's
own runner and session service. Prints TODO (each event the session recorded, ...), one line each.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

CASES = {
    "__CASE__": dict(variant="__CASE__"),  # TODO the case's parameters
    "control": dict(variant="control"),  # TODO behaviour beside the bug that holds on every release (or delete)
}
QUESTION = "TODO what the user says"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself), so
    the script measures the bug's first releases too."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, variant):
    """Run the agent on the scripted turns; say what the session recorded; return what judge reads."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """Answers each model call with the next scripted turn and keeps every request."""

        turns: list = []  # noqa: RUF012 (a pydantic field: each instance gets its own copy)
        requests: list = []  # noqa: RUF012

        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(llm_request)
            yield self.turns[len(self.requests) - 1]

    def text(answer):
        return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=answer)]))

    llm = ScriptedLlm(model="scripted", turns=[text("TODO the model's answer")])  # TODO the turns of `variant`
    runner = InMemoryRunner(agent=LlmAgent(name="agent", model=llm, instruction="TODO"), app_name="app")
    session = await settled(runner.session_service.create_session(app_name="app", user_id="user"))
    message = types.Content(role="user", parts=[types.Part(text=QUESTION)])
    async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        pass
    session = await settled(runner.session_service.get_session(app_name="app", user_id="user", session_id=session.id))
    for event in session.events:
        parts = event.content.parts if event.content and event.content.parts else []
        say(f"event {event.author}: {' | '.join(repr(p.text) for p in parts if p.text)}")
    raise NotImplementedError(
        "scenario __ID__ is a template: make observe() replay the bug and return the facts judge() reads"
    )


def judge(facts):
    """(outcome, detail): TODO "reproduced" when the report's symptom shows, "fixed" when the expected
    behaviour shows, "unexpected" otherwise; the figures in the detail."""
    raise NotImplementedError("scenario __ID__: judge() is still the template's")


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
