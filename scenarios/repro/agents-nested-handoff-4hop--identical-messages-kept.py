"""Over-deletion probe of the nested handoff history fix: identical messages must both reach D.

Upstream: https://github.com/openai/openai-agents-python/pull/3791 (the seed fix; see also
issue #2171). Each handoff folds the transcript into one <CONVERSATION HISTORY> message and
also forwards the agent's own message verbatim; the next hop summarised that copy again.

Agents A -> B -> C -> D hand off in turn; A and B say byte-identical text ("same text", one
message id), C says "C: msg"; D answers. Runner.run with RunConfig(nest_handoff_history=True).
reproduced: "same text" reaches D more than twice (the old over-count); fixed: exactly twice
(in the summary or verbatim); fewer means a legitimate message was deleted (exit 125).
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no nest_handoff_history, no summary, ...).
"""

import asyncio
import json
import sys

STREAMED = False
MARKER = "<CONVERSATION HISTORY>"


async def main():
    from agents import Agent, RunConfig, Runner, handoff, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    set_tracing_disabled(True)

    def message(text, msg_id):
        part = rt.ResponseOutputText(type="output_text", text=text, annotations=[])
        return rt.ResponseOutputMessage(id=msg_id, type="message", role="assistant", status="completed", content=[part])

    class Scripted(Model):
        """Replays one turn of output items and records the input it was given."""

        def __init__(self, *output):
            self.output, self.inputs = list(output), []

        async def get_response(self, *args, **kwargs):
            self.inputs.append(kwargs.get("input", args[1] if len(args) > 1 else None))
            return ModelResponse(output=self.output, usage=Usage(), response_id=None)

        async def stream_response(self, *args, **kwargs):
            self.inputs.append(kwargs.get("input", args[1] if len(args) > 1 else None))
            response = rt.Response(
                id="resp-1", created_at=0, model="scripted", object="response", output=self.output,
                tool_choice="auto", tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield rt.ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    d = Agent(name="D", model=Scripted(message("D: final", "msg-D")))
    nxt = d
    for name in ("C", "B", "A"):
        to_next = handoff(nxt)
        call = rt.ResponseFunctionToolCall(
            id=f"fc-{name}", call_id=f"call-{name}", type="function_call", name=to_next.tool_name, arguments="{}"
        )
        said = message("same text", "msg-same") if name in "AB" else message(f"{name}: msg", f"msg-{name}")
        nxt = Agent(name=name, model=Scripted(said, call), handoffs=[to_next])
    config = RunConfig(nest_handoff_history=True)
    if STREAMED:
        result = Runner.run_streamed(nxt, "USERQ", run_config=config)
        async for _ in result.stream_events():
            pass
    else:
        await Runner.run(nxt, "USERQ", run_config=config)
    d_input = d.model.inputs[0]
    summaries = [i["content"] for i in d_input if isinstance(i, dict) and MARKER in str(i.get("content"))]
    print(f"D's input: {len(d_input)} items, {len(summaries)} history summary message(s)")
    if not summaries:
        print("verdict: cannot judge (D received no <CONVERSATION HISTORY> summary)")
        return 125
    for summary in summaries:
        print(summary)
    in_summaries = sum(s.count("same text") for s in summaries)
    everywhere = json.dumps(d_input).count("same text")
    figures = f"'same text' reaches D {everywhere} times ({in_summaries} in summaries), expected 2"
    if everywhere == 2:
        print(f"verdict: fixed ({figures})")
        return 0
    if everywhere > 2:
        print(f"verdict: reproduced ({figures})")
        return 3
    print(f"verdict: cannot judge ({figures}: a legitimate message was deleted)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
