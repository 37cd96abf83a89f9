"""With nest_handoff_history, a 4-hop handoff chain repeats earlier messages in the summary.

Upstream: https://github.com/openai/openai-agents-python/pull/3791 (the seed fix; see also
issue #2171). Each handoff folds the transcript into one <CONVERSATION HISTORY> message and
also forwards the agent's own message verbatim; the next hop summarised that copy again.

Agents A -> B -> C -> D, each scripted to say "<name>: msg" and hand off; D answers.
Runner.run_streamed (events consumed) with RunConfig(nest_handoff_history=True); the script reads D's model input.
reproduced: D's summary lists an earlier agent's message more than once (A's and B's twice).
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no nest_handoff_history, no summary, ...).
"""

import asyncio
import json
import sys

STREAMED = True
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
        nxt = Agent(name=name, model=Scripted(message(f"{name}: msg", f"msg-{name}"), call), handoffs=[to_next])
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
    verbatim = json.dumps([i for i in d_input if not (isinstance(i, dict) and MARKER in str(i.get("content")))])
    repeated, reach = [], []
    for text in ("A: msg", "B: msg", "C: msg"):
        per_summary = [s.count(text) for s in summaries]
        repeated += [f"{text!r} x{n}" for n in per_summary if n > 1]
        reach.append((text, sum(per_summary), verbatim.count(text)))
    if repeated:
        print(f"verdict: reproduced (D's history summary repeats earlier messages: {', '.join(repeated)})")
        return 3
    figures = ", ".join(f"{t!r} {n} summary record(s) + {v} verbatim" for t, n, v in reach)
    if all(n <= 1 and n + v >= 1 for _, n, v in reach):
        print(f"verdict: fixed (no summary repeats a message; {figures})")
        return 0
    print(f"verdict: cannot judge (a message lost or in two summaries: {figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
