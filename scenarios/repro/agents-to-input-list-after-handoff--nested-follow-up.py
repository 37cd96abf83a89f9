"""to_input_list() after a nested handoff repeats the items its history summary records.

Upstream: https://github.com/openai/openai-agents-python/issues/2258, addressed by PR #2667
(to_input_list(mode="normalized"), 0.12.2); PR #2272 (0.7.0) made nesting opt-in. Agent One calls
starter_tool then hands off to Agent Two, which calls finisher_tool and answers (scripted models).
Runner.run with RunConfig(nest_handoff_history=True); the history for a follow-up run is
to_input_list(mode="normalized") where the release has it, else to_input_list(). Each of the run's
8 items is counted in the summary records and the items. reproduced: every item is there and some
twice; fixed: each exactly once. Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no
nest_handoff_history, a lost item, ...).
"""

import asyncio
import inspect
import json
import re
import sys
from collections import Counter

NESTED = True
USER_TEXT, ANSWER = "Kick off the two-agent workflow.", "All done."
CALL_IDS = ("call-starter", "call-handoff", "call-finisher")


async def main():  # returns the exit code and the verdict
    from agents import Agent, RunConfig, Runner, function_tool, handoff, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    set_tracing_disabled(True)
    starter_tool = function_tool(lambda: "starter response", name_override="starter_tool")
    finisher_tool = function_tool(lambda: "finished", name_override="finisher_tool")

    def call(name, cid):
        return rt.ResponseFunctionToolCall(id=f"fc-{cid}", call_id=cid, type="function_call", name=name, arguments="{}")

    class Scripted(Model):  # one scripted turn (its output items) per call
        def __init__(self, *turns):
            self.turns = list(turns)

        async def get_response(self, *args, **kwargs):
            return ModelResponse(output=self.turns.pop(0), usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    def key(text):  # which of the run's 8 items a summary record or an input item (as text) is
        ids = [i for i in CALL_IDS if i in text]
        if ids and "function_call" in text:
            return f"{'output' if 'function_call_output' in text else 'call'} {ids[0]}"
        return "user message" if USER_TEXT in text else "answer" if ANSWER in text else f"other {text[:50]}"

    part = rt.ResponseOutputText(type="output_text", text=ANSWER, annotations=[])
    msg = rt.ResponseOutputMessage(id="msg-final", type="message", role="assistant", status="completed", content=[part])
    two_model = Scripted([call("finisher_tool", "call-finisher")], [msg])
    to_two = handoff(Agent(name="Agent Two", model=two_model, tools=[finisher_tool]))
    one_model = Scripted([call("starter_tool", "call-starter")], [call(to_two.tool_name, "call-handoff")])
    one = Agent(name="Agent One", model=one_model, tools=[starter_tool], handoffs=[to_two])
    config = RunConfig(nest_handoff_history=True) if NESTED else RunConfig()
    result = await Runner.run(one, [{"role": "user", "content": USER_TEXT}], run_config=config)
    normalized = NESTED and "mode" in inspect.signature(result.to_input_list).parameters
    items = result.to_input_list(mode="normalized") if normalized else result.to_input_list()
    print(f"to_input_list({'mode=normalized' if normalized else ''}): {len(items)} items")
    seen = Counter()
    for item in items:
        content = item.get("content") if isinstance(item, dict) else None
        if isinstance(content, str) and "<CONVERSATION HISTORY>" in content:
            body = content.split("<CONVERSATION HISTORY>")[1].split("</CONVERSATION HISTORY>")[0]
            records, prefix = re.split(r"\n(?=\d+\. )", body.strip()), "    "
            print(f"  summary with {len(records)} records:")
        else:
            records, prefix = [json.dumps(item, default=str)], "  item: "
        for record in records:
            print(f"{prefix}{record[:110]}")
            seen[key(record)] += 1
    expected = ["user message", "answer"] + [f"{k} {i}" for i in CALL_IDS for k in ("call", "output")]
    figures = ", ".join(f"{k} x{seen[k]}" for k in expected if seen[k] != 1) or "each item once"
    if set(seen) != set(expected):
        return 125, f"cannot judge (items missing or extra: {sorted(set(seen) ^ set(expected))})"
    if all(n == 1 for n in seen.values()):
        return 0, "fixed (the follow-up history holds each of the run's 8 items once)"
    return 3, f"reproduced (the follow-up history repeats the run's items: {figures})"


if __name__ == "__main__":
    try:
        code, verdict = asyncio.run(main())
    except Exception as exc:
        code, verdict = 125, f"cannot judge (error: {type(exc).__name__}: {exc})"
    print(f"verdict: {verdict}")
    sys.exit(code)
