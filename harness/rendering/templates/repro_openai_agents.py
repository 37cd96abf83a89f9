# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: TODO one line: the symptom, as the bug report states it.

Upstream: https://github.com/openai/openai-agents-python/issues/TODO. TODO the mechanism in a few
lines: what the reporter did, what happened, what should have happened, the framework file it lives in.

A scripted model (a Model that answers each call with the next scripted turn; where the bug lives in a
model adapter, the framework's own model class over an httpx.MockTransport instead) and the framework's
own Runner. Prints TODO (each item the run produced, ...), one line each.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import os
import sys

CASES = {
    "__CASE__": dict(streamed=False),  # TODO the case's parameters
    "control": dict(streamed=True),  # TODO behaviour beside the bug that holds on every release (or delete)
}
QUESTION = "TODO what the user says"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, streamed):
    """Run the agent on the scripted turns; say what the run produced; return what judge reads."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Model, ModelResponse, Runner, Usage, set_tracing_disabled
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    def text(answer):
        content = [ResponseOutputText(type="output_text", text=answer, annotations=[])]
        return [
            ResponseOutputMessage(id="msg_1", type="message", role="assistant", status="completed", content=content)
        ]

    class ScriptedModel(Model):
        """Answers each call with the next scripted turn (a list of output items) and keeps every input."""

        def __init__(self, turns):
            self.turns, self.inputs = turns, []

        async def get_response(self, system_instructions, input, *args, **kwargs):
            self.inputs.append(input)
            return ModelResponse(output=self.turns[len(self.inputs) - 1], usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError("TODO: stream the turn as ResponseCompletedEvent where a case streams")

    model = ScriptedModel([text("TODO the model's answer")])  # TODO the turns of the case
    result = await Runner.run(Agent(name="agent", model=model), input=QUESTION)
    for item in result.new_items:
        say(f"{type(item).__name__}: {getattr(item, 'raw_item', None)!r}"[:200])
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
