# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a streamed run with a session does not save the tool call and its output.

Upstream: https://github.com/openai/openai-agents-python/issues/2426, fixed by
https://github.com/openai/openai-agents-python/pull/2433. With a session, `Runner.run_streamed`
saved the user's message and the answer, but not the `function_call` and its
`function_call_output` of a turn that ran a tool: the streamed loop
(`agents/run_internal/run_loop.py` `start_streaming`) saved a turn's items on a final output, a
handoff or an interruption, not when the turn ended in `NextStepRunAgain`. The next turn's model
had no record of the call. `Runner.run` always saved them: a control.

A `Model` subclass calls get_weather, then answers; the session is `SQLiteSession` on a file in a
temporary folder, read back through a second `SQLiteSession`. Prints the run's item events (or its
new items), the tool's calls and every stored item.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import json
import os
import sys
import tempfile
from collections import Counter

CASES = {"streamed": dict(streamed=True), "not-streamed": dict(streamed=False)}
USER_TEXT, ANSWER, CALL_ID = "What is the weather in Paris?", "It is sunny in Paris.", "call-weather"
EXPECTED = [
    f"user {USER_TEXT!r}",
    f'function_call {CALL_ID} get_weather({{"city": "Paris"}})',
    f"function_call_output {CALL_ID} -> 'sunny'",
    f"assistant {ANSWER!r}",
]


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def describe(item):
    """One stored item as a line: a message, a function call or its output."""
    kind = item.get("type", "message")
    if kind == "function_call":
        return f"function_call {item['call_id']} {item['name']}({item['arguments']})"
    if kind == "function_call_output":
        return f"function_call_output {item['call_id']} -> {item['output']!r}"
    content = item.get("content")
    text = content if isinstance(content, str) else "".join(part.get("text", "") for part in content or [])
    return f"{item.get('role')} {text!r}" if item.get("role") else f"{kind} {json.dumps(item, sort_keys=True)}"


async def observe(say, streamed):
    """One tool turn and one answer, through a session on a SQLite file."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Runner, function_tool
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    try:
        from agents.memory import SQLiteSession
    except ImportError as exc:
        raise NotApplicable(f"agents.memory has no SQLiteSession: {exc}") from exc
    calls = []

    @function_tool
    def get_weather(city: str) -> str:
        """Weather of a city."""
        calls.append(city)
        return "sunny"

    call = rt.ResponseFunctionToolCall(id="fc-1", call_id=CALL_ID, type="function_call", name="get_weather",
                                       arguments='{"city": "Paris"}')  # fmt: skip
    part = rt.ResponseOutputText(type="output_text", text=ANSWER, annotations=[])
    answer = rt.ResponseOutputMessage(id="msg-1", type="message", role="assistant", status="completed", content=[part])
    turns = [[call], [answer]]

    class Scripted(Model):
        """Turn 1 calls get_weather(city="Paris"), turn 2 answers."""

        async def get_response(self, *args, **kwargs):
            return ModelResponse(output=turns.pop(0), usage=Usage(), response_id=None)

        async def stream_response(self, *args, **kwargs):
            response = rt.Response(
                id=f"resp-{2 - len(turns)}", created_at=0, model="m", object="response", output=turns.pop(0),
                tool_choice="auto", tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield rt.ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    agent = Agent(name="Weather", model=Scripted(), tools=[get_weather])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.db")
        session, reader = SQLiteSession("session-1", path), SQLiteSession("session-1", path)
        if streamed:
            result = Runner.run_streamed(agent, USER_TEXT, session=session)
            names = [e.name async for e in result.stream_events() if e.type == "run_item_stream_event"]
            say(f"run_streamed item events: {', '.join(names)}")
        else:
            result = await Runner.run(agent, USER_TEXT, session=session)
            say(f"run: {len(result.new_items)} new items, final output {result.final_output!r}")
        stored = [describe(item) for item in await reader.get_items()]
        session.close()
        reader.close()
    say(f"get_weather called {len(calls)} time(s): {', '.join(calls)}")
    say(f"session file: {len(stored)} items")
    for n, line in enumerate(stored, 1):
        say(f"  {n}. {line}")
    return dict(stored=stored, tool_runs=len(calls))


def judge(facts):
    """(outcome, detail): the session must hold the message, the call, its output and the answer, in order."""
    stored = facts["stored"]
    kinds = Counter(line.split(" ")[0].replace("user", "message").replace("assistant", "message") for line in stored)
    summary = ", ".join(f"{kind} x{n}" for kind, n in sorted(kinds.items())) or "nothing"
    if facts["tool_runs"] != 1:
        return (
            "unexpected",
            f"the tool ran {facts['tool_runs']} times, expected once; session holds {len(stored)} items",
        )
    if stored == EXPECTED:
        return "fixed", f"session holds the call and its output: {len(stored)} items, {summary}"
    user, call, output, answer = EXPECTED
    # The symptom: the turn's messages are there, the tool turn's items are not (and nothing else is).
    if user in stored and answer in stored and (call not in stored or output not in stored) and len(stored) < 4:
        missing = [name for name, line in (("the function_call", call), ("its output", output)) if line not in stored]
        return "reproduced", (
            f"the tool ran once but the session holds {len(stored)} items ({summary}): "
            f"{' and '.join(missing)} of {CALL_ID} not saved"
        )
    return "unexpected", f"session holds {len(stored)} items ({summary}), expected user, call, output, answer in order"


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
