# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: run_streamed's `tool_called` event carries a tool call with empty arguments.

Upstream: https://github.com/openai/openai-agents-python/issues/1629 (fix:
https://github.com/openai/openai-agents-python/pull/1636). PR #1300 made `Runner.run_streamed` emit
the `tool_called` run-item event as soon as the model's stream announced the call, on
`response.output_item.added`; at that point the function call's `arguments` is still "" (the
arguments arrive afterwards as deltas, complete in `response.output_item.done`), so every consumer
of the event saw a call without arguments. The fix emits it on `response.output_item.done`.

A scripted streaming model (a Model whose stream_response yields the raw Responses events a real
stream has: output_item.added with empty arguments, an arguments delta, output_item.done with the
full arguments, response.completed) and the framework's own Runner. Prints every stream event, in
order, with the arguments each `tool_called` event carries.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import os
import sys

CASES = {
    "streamed": dict(streamed=True),
    # Runner.run: the ToolCallItem the run records carries the full arguments on every release.
    "control-not-streamed": dict(streamed=False),
}
QUESTION = "What is the weather in Paris?"
ARGS = '{"city": "Paris"}'
ANSWER = "It is sunny in Paris."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, streamed):
    """Run the two scripted turns; say the events (or items) in order; return the tool calls' arguments."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Model, ModelResponse, Runner, Usage, function_tool, set_tracing_disabled
    from openai.types.responses import (
        Response,
        ResponseCompletedEvent,
        ResponseFunctionCallArgumentsDeltaEvent,
        ResponseFunctionToolCall,
        ResponseOutputItemAddedEvent,
        ResponseOutputItemDoneEvent,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    def call(arguments):
        return ResponseFunctionToolCall.model_construct(
            type="function_call", id="fc_1", call_id="call_1", name="get_weather", arguments=arguments,
            status="completed",
        )  # fmt: skip

    def message():
        text = ResponseOutputText.model_construct(type="output_text", text=ANSWER, annotations=[])
        return ResponseOutputMessage.model_construct(
            id="msg_1", type="message", role="assistant", status="completed", content=[text]
        )

    def completed(n, output):
        response = Response.model_construct(
            id=f"resp_{n}", object="response", created_at=0, model="m", status="completed", output=output,
            parallel_tool_calls=True, tool_choice="auto", tools=[], usage=None,
        )  # fmt: skip
        return ResponseCompletedEvent.model_construct(type="response.completed", response=response, sequence_number=9)

    def stream_of(n):
        """The raw events of turn n, as the Responses API streams them."""
        if n == 1:
            return [
                ResponseOutputItemAddedEvent.model_construct(
                    type="response.output_item.added", item=call(""), output_index=0, sequence_number=1
                ),
                ResponseFunctionCallArgumentsDeltaEvent.model_construct(
                    type="response.function_call_arguments.delta",
                    item_id="fc_1",
                    output_index=0,
                    delta=ARGS,
                    sequence_number=2,
                ),
                ResponseOutputItemDoneEvent.model_construct(
                    type="response.output_item.done", item=call(ARGS), output_index=0, sequence_number=3
                ),
                completed(1, [call(ARGS)]),
            ]
        return [completed(2, [message()])]

    def model_response(output):
        """A ModelResponse without an id (the field was `referenceable_id` before it was `response_id`)."""
        names = {f.name for f in dataclasses.fields(ModelResponse)}
        id_field = "response_id" if "response_id" in names else "referenceable_id"
        return ModelResponse(output=output, usage=Usage(), **{id_field: None})

    class ScriptedModel(Model):
        """Answers call n with turn n: a get_weather call, then the answer."""

        def __init__(self):
            self.calls = 0

        async def get_response(self, *args, **kwargs):
            self.calls += 1
            output = [call(ARGS)] if self.calls == 1 else [message()]
            return model_response(output)

        async def stream_response(self, *args, **kwargs):
            self.calls += 1
            for event in stream_of(self.calls):
                yield event

    @function_tool
    def get_weather(city: str) -> str:
        return f"sunny in {city}"

    agent = Agent(name="assistant", model=ScriptedModel(), tools=[get_weather])
    called = []
    if streamed:
        result = Runner.run_streamed(agent, input=QUESTION)
        async for event in result.stream_events():
            if event.type == "raw_response_event":
                say(f"raw {event.data.type}")
            elif event.type == "run_item_stream_event":
                raw = getattr(event.item, "raw_item", None)
                arguments = getattr(raw, "arguments", None)
                if event.name == "tool_called":
                    called.append(arguments)
                say(f"run item {event.name}" + (f": arguments {arguments!r}" if arguments is not None else ""))
            else:
                say(f"{event.type}")
    else:
        result = await Runner.run(agent, input=QUESTION)
        for item in result.new_items:
            arguments = getattr(getattr(item, "raw_item", None), "arguments", None)
            if type(item).__name__ == "ToolCallItem":
                called.append(arguments)
            say(f"item {type(item).__name__}" + (f": arguments {arguments!r}" if arguments is not None else ""))
    say(f"run finished: final_output {result.final_output!r}")
    return dict(called=called, final_output=result.final_output)


def judge(facts):
    """(outcome, detail): the one tool call is reported once, with its full arguments."""
    called = facts["called"]
    figures = f"{len(called)} tool_called item(s), arguments {called}"
    if facts["final_output"] != ANSWER:
        return "unexpected", f"{figures}; the run ended with {facts['final_output']!r}"
    if "" in called:
        return "reproduced", f"{figures}: the call was reported without its arguments"
    return ("fixed", figures) if called == [ARGS] else ("unexpected", figures)


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
