# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a max_turns error handler's final output is not saved to the session by Runner.run.

Upstream: https://github.com/openai/openai-agents-python/pull/4160 (its description holds the repro).
A run given `error_handlers={"max_turns": handler}` whose handler returns
`RunErrorHandlerResult(final_output=..., include_in_history=True)` ends with that output, and the
synthesized assistant message is meant to join the history. `Runner.run` saved it with
`save_result_to_session` while `run_state._current_turn_persisted_item_count` still counted the previous
turn's items, a slice offset into the one-item list it was given: after a tool turn nothing was saved.

A `Model` subclass written here (no network) calls the tool `lookup` in turn 1; `max_turns=1`, so turn 2
exceeds the limit and the handler answers. The session is a `SQLiteSession` on a file in a temporary
folder, read back through a second one. Prints how the run ended, the handler's and the tool's calls,
and every item stored in the session file.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import importlib
import json
import os
import sys
import tempfile

CASES = {
    "run": dict(streamed=False),
    "streamed": dict(streamed=True),
}
QUESTION = "What is the status of ticket 7?"
HANDLER_TEXT = "I ran out of steps; ticket 7 is open."
BEFORE = [["user", QUESTION], ["function_call", "call-lookup"], ["function_call_output", "call-lookup"]]


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def shape(item):
    """A stored item as [type, call id] for a call or its output, else [role, text]."""
    kind = item.get("type") or "message"
    if kind in ("function_call", "function_call_output"):
        return [kind, item.get("call_id")]
    content = item.get("content")
    text = content if isinstance(content, str) else "".join(str(p.get("text", "")) for p in content or [])
    return [item.get("role") or kind, text]


async def observe(say, streamed):
    """One tool turn, then the turn limit; say how the run ended and what the session file holds."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    importlib.import_module("agents")  # no framework at all is an error, not a missing API
    try:
        from agents import RunErrorHandlerResult
    except ImportError as exc:
        raise NotApplicable("agents has no RunErrorHandlerResult (error_handlers)") from exc
    from agents import Agent, ModelResponse, Runner, function_tool
    from agents.memory import SQLiteSession
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import Response, ResponseCompletedEvent, ResponseFunctionToolCall

    call = ResponseFunctionToolCall(
        id="fc-1", call_id="call-lookup", type="function_call", name="lookup", arguments='{"ticket": "7"}',
        status="completed",
    )  # fmt: skip

    class OneToolCall(Model):
        async def get_response(self, *args, **kwargs):
            fields = dict(output=[call], usage=Usage(), response_id="r1", referenceable_id="r1")
            return ModelResponse(**{k: v for k, v in fields.items() if k in ModelResponse.__dataclass_fields__})

        async def stream_response(self, *args, **kwargs):
            response = Response(
                id="r1", created_at=0, model="m", object="response", output=[call], tool_choice="auto", tools=[],
                top_p=None, parallel_tool_calls=False, status="completed", usage=None,
            )  # fmt: skip
            event = dict(type="response.completed", response=response, sequence_number=0)
            yield ResponseCompletedEvent(**{k: v for k, v in event.items() if k in ResponseCompletedEvent.model_fields})

    handled, tool_runs = [], []

    def on_max_turns(data):
        handled.append(type(data.error).__name__)
        return RunErrorHandlerResult(final_output=HANDLER_TEXT, include_in_history=True)

    @function_tool
    def lookup(ticket: str) -> str:
        """Ticket status."""
        tool_runs.append(ticket)
        return "ticket 7: open"

    agent = Agent(name="Support", model=OneToolCall(), tools=[lookup])
    final = raised = None
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.db")
        options = dict(session=SQLiteSession("s", path), max_turns=1, error_handlers={"max_turns": on_max_turns})
        try:
            if streamed:
                result = Runner.run_streamed(agent, QUESTION, **options)
                async for _ in result.stream_events():
                    pass
            else:
                result = await Runner.run(agent, QUESTION, **options)
            final = str(result.final_output)
        except Exception as exc:  # MaxTurnsExceeded where the handler is not applied: an observation
            raised = type(exc).__name__
        stored = [shape(item) for item in await SQLiteSession("s", path).get_items()]
    say(f"{'run_streamed' if streamed else 'run'} ended with {raised or f'final output {final!r}'}")
    say(f"max_turns handler called {len(handled)} times with {handled}")
    say(f"tool lookup ran {len(tool_runs)} times with {tool_runs}")
    say(f"session file holds {len(stored)} items:")
    for n, item in enumerate(stored, 1):
        say(f"  {n}. {json.dumps(item)}")
    return dict(final=final, raised=raised, handled=len(handled), tool_runs=len(tool_runs), stored=stored)


def judge(facts):
    """(outcome, detail): the session must hold the turn's three items, then the handler's message."""
    if facts["raised"] is not None or facts["final"] != HANDLER_TEXT:
        return (
            "unexpected",
            f"the run ended with {facts['raised'] or repr(facts['final'])}, expected the handler's output",
        )
    if facts["handled"] != 1:
        return "unexpected", f"the max_turns handler was called {facts['handled']} times, expected once"
    if facts["tool_runs"] != 1:
        return "unexpected", f"the tool ran {facts['tool_runs']} times, expected once"
    stored = facts["stored"]
    if stored == [*BEFORE, ["assistant", HANDLER_TEXT]]:
        return "fixed", "the session holds the user's message, the call, its output and the handler's message (4 items)"
    if stored == BEFORE:
        return "reproduced", (
            "the run ended with the handler's output but the session holds 3 items: "
            "the handler's assistant message was not saved"
        )
    return "unexpected", f"the session holds {len(stored)} items: {stored}"


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
