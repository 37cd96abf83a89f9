# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: an output guardrail tripwire drops a tool that already ran from the session.

Upstream: https://github.com/openai/openai-agents-python/pull/4148 (its description holds the
repro). When a tool's result is the final output (`tool_use_behavior="stop_on_first_tool"`,
`StopAtTools`), the tool has run by the time the output guardrails see that output. If one trips,
`Runner.run_streamed` saved nothing of the turn (`_finalize_streamed_final_output` in
`agents/run_internal/run_loop.py` saved only after the guardrails passed): the session kept the
user's message, the call and output of a side effect that did happen were gone, and the next run
may repeat it. The fix keeps the tool records and drops the rejected output only (later releases
store the output with its text replaced by a notice, which counts as fixed).

A `Model` subclass calls book_flight once; an output guardrail always trips; the session is
`SQLiteSession` on a file in a temporary folder, read back through a second `SQLiteSession`.
Prints how the run ended, its item events (streamed), the tool's calls and every stored item.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import os
import sys
import tempfile

CASES = {
    "stop-on-first-tool-streamed": dict(streamed=True, behavior="stop_on_first_tool"),
    "stop-at-tools-streamed": dict(streamed=True, behavior="stop_at_tools"),
    "stop-on-first-tool": dict(streamed=False, behavior="stop_on_first_tool"),
}
USER_TEXT, CALL_ID, TOOL_RESULT = "Book me a flight to Paris.", "call-book", "booked flight PA-1"
EXPECTED = [["user", USER_TEXT], ["function_call", CALL_ID], ["function_call_output", CALL_ID]]


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def shape(item):
    """What the verdict compares: the item's kind and what identifies it (not a tool output's text)."""
    kind = item.get("type") or "message"
    if kind in ("function_call", "function_call_output"):
        return [kind, item.get("call_id")]
    content = item.get("content")
    text = content if isinstance(content, str) else "".join(part.get("text", "") for part in content or [])
    return [item.get("role") or kind, text]


async def observe(say, streamed, behavior):
    """The model calls the tool, the tool's result is the final output, the guardrail trips."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, GuardrailFunctionOutput, OutputGuardrail, Runner, function_tool

    try:
        from agents.agent import StopAtTools  # a TypedDict from 0.0.4 (tool_use_behavior); exported by `agents` later
    except ImportError as exc:
        raise NotApplicable("agents.agent has no StopAtTools (tool_use_behavior)") from exc
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
    def book_flight(city: str) -> str:
        """Book a flight."""
        calls.append(city)
        return TOOL_RESULT

    async def block(context, agent, output):
        return GuardrailFunctionOutput(output_info={"blocked": str(output)}, tripwire_triggered=True)

    call = rt.ResponseFunctionToolCall(id="fc-1", call_id=CALL_ID, type="function_call", name="book_flight",
                                       arguments='{"city": "Paris"}')  # fmt: skip

    class Scripted(Model):
        """One turn: call book_flight(city="Paris")."""

        async def get_response(self, *args, **kwargs):
            return ModelResponse(output=[call], usage=Usage(), response_id=None)

        async def stream_response(self, *args, **kwargs):
            response = rt.Response(
                id="resp-1", created_at=0, model="m", object="response", output=[call], tool_choice="auto",
                tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield rt.ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    stop = behavior if behavior == "stop_on_first_tool" else StopAtTools(stop_at_tool_names=["book_flight"])
    guardrail = OutputGuardrail(guardrail_function=block, name="block_booking_confirmation")
    agent = Agent(name="Booking", model=Scripted(), tools=[book_flight], tool_use_behavior=stop,
                  output_guardrails=[guardrail])  # fmt: skip
    raised, events = None, []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.db")
        session, reader = SQLiteSession("session-1", path), SQLiteSession("session-1", path)
        try:
            if streamed:
                # The tripwire is raised from the stream itself.
                async for event in Runner.run_streamed(agent, USER_TEXT, session=session).stream_events():
                    events += [event.name] if event.type == "run_item_stream_event" else []
            else:
                await Runner.run(agent, USER_TEXT, session=session)
        except Exception as exc:  # the tripwire is the expected ending; anything else is a fact too
            raised = type(exc).__name__
        stored = list(await reader.get_items())
        session.close()
        reader.close()
    say(f"{'run_streamed' if streamed else 'run'} ended with {raised or 'no exception'}")
    if streamed:
        say(f"item events: {', '.join(events) or 'none'}")
    say(f"book_flight called {len(calls)} time(s): {', '.join(calls)}")
    say(f"session file: {len(stored)} items")
    for n, item in enumerate(stored, 1):
        say(f"  {n}. {' '.join(shape(item))}" + (f" -> {item['output']!r}" if "output" in item else ""))
    outputs = [item.get("output") for item in stored if shape(item)[0] == "function_call_output"]
    return dict(raised=raised, tool_runs=len(calls), stored=[shape(item) for item in stored], outputs=outputs)


def judge(facts):
    """(outcome, detail): after the tripwire the session must keep the user's message, the call and its output."""
    stored = facts["stored"]
    if facts["raised"] != "OutputGuardrailTripwireTriggered":
        return (
            "unexpected",
            f"the run ended with {facts['raised'] or 'no exception'}, expected OutputGuardrailTripwireTriggered",
        )
    if facts["tool_runs"] != 1:
        return "unexpected", f"the tool ran {facts['tool_runs']} times, expected once before the guardrail"
    if stored == EXPECTED:
        output = facts["outputs"][0]
        how = "its output" if output == TOOL_RESULT else f"its output (text withheld: {output!r})"
        return (
            "fixed",
            f"the tripwire fired after the tool ran; the session keeps the user's message, {CALL_ID} and {how}",
        )
    if stored == EXPECTED[:1]:
        return "reproduced", (
            "the tool ran once but after the tripwire the session holds 1 item (the user's message): "
            f"the function_call and output of {CALL_ID} are lost"
        )
    if not stored:
        return "unexpected", "after the tripwire the session holds nothing, not even the user's message"
    return "unexpected", f"after the tripwire the session holds {len(stored)} items: {stored}"


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
