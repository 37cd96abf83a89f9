# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a session_input_callback that repeats a history item has the repeat stored as new input.

Upstream: https://github.com/openai/openai-agents-python/issues/4069, fixed by
https://github.com/openai/openai-agents-python/pull/4181 (superseding #4072). With a session, a
RunConfig.session_input_callback(history, new_items) builds the model's input; the runner then persists
only the items that did not come from history. When the callback returned an existing history item more
than once, every extra occurrence was classified as new-turn input and written to the session again, so
stored history grew every turn. Expected: only genuinely new items are persisted.

A scripted model (a Model that answers with text) and the framework's own Runner.run over a real
SQLiteSession(":memory:"). Two turns; after each, the stored items are counted and listed.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import os
import sys
from collections import Counter

# callback: what session_input_callback returns on each turn ("repeat-first": history, then history's
# first item again, then the new items; "plain": history then new items); inputs: the user's message per turn.
CASES = {
    "repeated-history-item": dict(callback="repeat-first", inputs=["Hi", "And again?"]),
    # A new user message equal in content to one in history is genuinely new and must be stored: a fix that
    # drops input by content would go too far.
    "new-input-equal-to-history": dict(callback="plain", inputs=["Hi", "Hi"]),
    # The callback returns history and the new items once each: two items stored per turn.
    "control-history-plus-new": dict(callback="plain", inputs=["Hi", "And again?"]),
}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, callback, inputs):
    """Run each turn over one SQLiteSession; say what is stored after each; return what judge reads."""
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Model, ModelResponse, RunConfig, Runner, Usage, set_tracing_disabled
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    try:
        from agents import SQLiteSession
    except ImportError as exc:
        raise NotApplicable(f"no SQLiteSession: {exc}") from exc
    if "session_input_callback" not in {f.name for f in dataclasses.fields(RunConfig)}:
        raise NotApplicable("RunConfig has no session_input_callback")
    set_tracing_disabled(True)
    turn = {"n": 0}

    def model_response(output):
        names = {f.name for f in dataclasses.fields(ModelResponse)}
        id_field = "response_id" if "response_id" in names else "referenceable_id"
        return ModelResponse(output=output, usage=Usage(), **{id_field: None})

    class ScriptedModel(Model):
        """Answers each turn with 'answer N'."""

        async def get_response(self, *args, **kwargs):
            turn["n"] += 1
            text = f"answer {turn['n']}"
            content = [ResponseOutputText(type="output_text", text=text, annotations=[])]
            message = ResponseOutputMessage(id=f"msg_{turn['n']}", type="message", role="assistant",
                                            status="completed", content=content)  # fmt: skip
            return model_response([message])

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError("the cases do not stream")

    def session_input_callback(history, new_items):
        if callback == "repeat-first" and history:
            return [*history, history[0], *new_items]
        return [*history, *new_items]

    def text_of(item):
        content = item.get("content")
        if isinstance(content, list):
            content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
        return f"{item.get('role')}: {content}"

    agent = Agent(name="assistant", model=ScriptedModel())
    session = SQLiteSession("case", ":memory:")
    stored = []
    try:
        for n, message in enumerate(inputs, 1):
            config = RunConfig(session_input_callback=session_input_callback)
            result = await Runner.run(agent, message, session=session, run_config=config)
            items = [text_of(item) for item in await session.get_items()]
            stored.append(items)
            say(f"turn {n}: user {message!r}, answered {result.final_output!r}; stored {len(items)}: {items}")
    finally:
        session.close()
    return dict(callback=callback, inputs=inputs, stored=stored)


def judge(facts):
    """(outcome, detail): after each turn the session holds exactly the user messages and answers so far."""
    stored = facts["stored"]
    expected = []
    for n, message in enumerate(facts["inputs"], 1):
        expected.append([*(expected[-1] if expected else []), f"user: {message}", f"assistant: answer {n}"])
    figures = f"stored per turn {[len(items) for items in stored]}, expected {[len(items) for items in expected]}"
    if stored == expected:
        return "fixed", figures
    if len(stored) != len(expected) or stored[0] != expected[0]:
        return "unexpected", f"{figures}: {stored}"
    extra, missing = Counter(stored[-1]) - Counter(expected[-1]), Counter(expected[-1]) - Counter(stored[-1])
    first = expected[0][0]
    if facts["callback"] == "repeat-first":
        # The thread's symptom: the repeated history item is stored again as new input.
        if extra == Counter([first]) and not missing:
            return "reproduced", f"{figures}: {first!r} stored again as new input"
        return "unexpected", f"{figures}: {stored}"
    new_input = f"user: {facts['inputs'][-1]}"
    if missing == Counter([new_input]) and not extra:
        return "reproduced", f"{figures}: the new input {new_input!r} was not stored"
    if extra == Counter(expected[0]) and not missing:
        return "reproduced", f"{figures}: the history was stored again as new input"
    return "unexpected", f"{figures}: {stored}"


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
