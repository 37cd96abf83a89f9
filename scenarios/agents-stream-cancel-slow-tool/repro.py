# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: RunResultStreaming.stream_events() cannot be cancelled with asyncio.wait_for while a tool is slow.

Upstream: https://github.com/openai/openai-agents-python/issues/2222 (fix:
https://github.com/openai/openai-agents-python/pull/2226). The reporter waits for each streamed
event with `asyncio.wait_for(anext(events), timeout)`. While a function tool is still running no
event comes, so the timeout fires and cancels the `anext`; `stream_events()` caught that
CancelledError, left its loop and then, in its `finally`, awaited the run's task, that is the tool,
to its end: the caller's `wait_for` returned only when the tool had finished (and with the stream's
end, not a TimeoutError). Expected: the timeout is raised as soon as it fires, and the run stops.

A scripted model (a Model whose streamed turn 1 calls the tool and turn 2 answers) and the
framework's own Runner.run_streamed; the tool sleeps a few seconds and says whether it finished or
was cancelled. The case waits for every event with `wait_for(anext(...), timeout)` and prints what
each wait returned and what the tool had done by then.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import os
import sys

# tool_seconds: how long the tool sleeps; wait_seconds: wait_for's timeout around each anext (None: a
# plain `async for`).
CASES = {
    # The reporter's loop: the tool outlasts the timeout.
    "wait-for-slow-tool": dict(tool_seconds=3.0, wait_seconds=1.0),
    # Every event arrives within the timeout: nothing may be cancelled, the run must answer (a fix
    # that stops the run whenever the consumer waits with a deadline would go too far).
    "wait-for-quick-tool": dict(tool_seconds=0.1, wait_seconds=1.0),
    # No timeout at all: the stream yields every event and ends with the answer on every release.
    "control-plain-iteration": dict(tool_seconds=0.1, wait_seconds=None),
}
QUESTION = "What is the secret key?"
ANSWER = "The secret key is 42."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, tool_seconds, wait_seconds):
    """Stream the run, waiting for each event under ``wait_seconds``; say what each wait returned."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Model, ModelResponse, Runner, Usage, function_tool, set_tracing_disabled
    from openai.types import responses as rt

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint
    tool = {"state": "not started"}

    @function_tool
    async def get_secret_key() -> str:
        """The secret key (slow)."""
        tool["state"] = "running"
        try:
            await asyncio.sleep(tool_seconds)
        except asyncio.CancelledError:
            tool["state"] = "cancelled"
            raise
        tool["state"] = "finished"
        return "42"

    call = rt.ResponseFunctionToolCall(id="fc_1", call_id="call_1", type="function_call", name="get_secret_key",
                                       arguments="{}")  # fmt: skip
    part = rt.ResponseOutputText(type="output_text", text=ANSWER, annotations=[])
    answer = rt.ResponseOutputMessage(id="msg_1", type="message", role="assistant", status="completed", content=[part])
    turns = [[call], [answer]]
    model_calls = []

    def model_response(output):
        """A ModelResponse without an id (the field was `referenceable_id` before it was `response_id`)."""
        names = {f.name for f in dataclasses.fields(ModelResponse)}
        return ModelResponse(
            output=output, usage=Usage(), **{"response_id" if "response_id" in names else "referenceable_id": None}
        )

    class Scripted(Model):
        """Turn 1 calls get_secret_key, turn 2 answers; streamed as one response.completed event each."""

        async def get_response(self, *args, **kwargs):
            model_calls.append("get_response")
            return model_response(turns.pop(0))

        async def stream_response(self, *args, **kwargs):
            model_calls.append("stream_response")
            response = rt.Response(
                id=f"resp_{len(model_calls)}", created_at=0, model="m", object="response", output=turns.pop(0),
                tool_choice="auto", tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield rt.ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    agent = Agent(name="secret_key_agent", model=Scripted(), tools=[get_secret_key])
    result = Runner.run_streamed(agent, input=QUESTION)
    events = result.stream_events().__aiter__()
    waits, ended = [], None
    while ended is None:
        try:
            if wait_seconds is None:
                event = await events.__anext__()
            else:
                event = await asyncio.wait_for(events.__anext__(), wait_seconds)
        except StopAsyncIteration:
            ended = "StopAsyncIteration"
        except (TimeoutError, asyncio.TimeoutError):
            # Before Python 3.11 wait_for raises asyncio.TimeoutError, not the builtin TimeoutError (an alias
            # of it only from 3.11: What's New in Python 3.11, bpo-42413); both are the timeout firing.
            ended = "TimeoutError"
        except Exception as exc:
            ended = f"{type(exc).__name__}: {exc}"
        else:
            name = getattr(event, "name", None) or getattr(getattr(event, "data", None), "type", None)
            waits.append(f"{event.type} {name}")
            say(f"wait {len(waits)}: {event.type} {name}")
            continue
        # Only whether the tool had finished: running or already cancelled is a matter of scheduling.
        when = tool["state"] if tool["state"] in ("not started", "finished") else "unfinished"
        say(f"wait {len(waits) + 1}: {ended} (tool {when})")
    # Let the run go on as far as it would, past the tool's end.
    await asyncio.sleep(tool_seconds + 0.5)
    say(f"afterwards: tool {tool['state']}, {len(model_calls)} model call(s), final_output {result.final_output!r}")
    return dict(
        slow=wait_seconds is not None and tool_seconds > wait_seconds, ended=ended,
        tool_when_returned=when, tool_after=tool["state"],
        model_calls=len(model_calls), final_output=result.final_output, events=len(waits),
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): a wait_for that times out while the tool runs raises TimeoutError at once (the
    tool still running) and the run stops; a stream that keeps up ends with the answer."""
    ended, when, after = facts["ended"], facts["tool_when_returned"], facts["tool_after"]
    figures = (
        f"the wait ended with {ended} while the tool was {when}; afterwards the tool was {after}, "
        f"{facts['model_calls']} model call(s), final_output {facts['final_output']!r}"
    )
    if when == "not started":
        return "unexpected", f"{figures} (the wait ended before the tool ran)"
    if facts["slow"]:
        if when == "finished":
            # The deadline passed while the tool ran, but the wait returned only once the tool was done.
            return "reproduced", figures
        if ended == "TimeoutError" and after == "cancelled" and facts["model_calls"] == 1:
            return "fixed", figures
        return "unexpected", figures
    # The stream kept up (or nothing timed it): it ends with the answer after two model calls.
    if ended == "TimeoutError" or after == "cancelled":
        return "reproduced", f"{figures}, though every event came within the timeout"
    if ended == "StopAsyncIteration" and after == "finished" and facts["model_calls"] == 2:
        return ("fixed", figures) if facts["final_output"] == ANSWER else ("unexpected", figures)
    return "unexpected", figures


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
