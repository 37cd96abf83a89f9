# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.2.10",
# ]
# [tool.uv]
# exclude-newer = "2025-08-29T14:08:33Z"
# ///
# agents-run-hooks-llm-calls:streamed. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 0.2.8 (2025-08-15T23:24:00Z)
#   reproduced / reproduced: 0.2.9 (2025-08-22T02:03:40Z), 0.2.10 (2025-08-29T14:08:33Z)
#   fixed / fixed: 0.2.11 (2025-09-03T22:16:06Z), 0.6.9 (2026-01-20T01:57:01Z),
#     0.7.0 (2026-01-23T00:06:36Z), 0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z),
#     0.10.5 (2026-03-05T20:44:00Z), 0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z),
#     0.13.6 (2026-04-09T04:10:52Z), 0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z),
#     0.16.1 (2026-05-07T11:02:40Z), 0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z),
#     0.19.4 (2026-08-05T02:59:13Z), 0.20.0 (2026-08-11T03:12:50Z), 0.21.1 (2026-08-16T22:29:36Z),
#     0.22.3 (2026-09-17T22:20:45Z), 0.23.1 (2026-10-02T15:42:07Z), 0.24.0 (2026-10-15T02:38:22Z)
"""RunHooks.on_llm_start / on_llm_end given to Runner.run_streamed are never called.

Upstream: https://github.com/openai/openai-agents-python/issues/1612 (fixed by PR #1619).
A scripted Model (no network; it streams one response.completed per turn) calls a function
tool, then answers; a RunHooks subclass passed to Runner.run_streamed records every hook.
`reproduced`: the model was called twice but the run hooks got no on_llm_start/on_llm_end
while the other hooks fired. `fixed`: each model call is bracketed by on_llm_start/on_llm_end.
Exit 0 fixed, 3 reproduced, 125 cannot judge.
"""

import asyncio
import os
import sys

os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-no-network")  # some releases build a client

LOG: list[str] = []
HOOKS = ("on_agent_start", "on_agent_end", "on_llm_start", "on_llm_end", "on_tool_start", "on_tool_end")
FULL = ["on_agent_start", "on_llm_start", "on_llm_end", "on_tool_start", "on_tool_end"]
FULL += ["on_llm_start", "on_llm_end", "on_agent_end"]


async def main() -> int:
    from agents import Agent, RunHooks, Runner, function_tool, set_tracing_disabled
    from agents.models.interface import Model
    from openai.types.responses import (
        Response,
        ResponseCompletedEvent,
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    set_tracing_disabled(True)

    class TwoTurns(Model):
        calls = 0

        async def get_response(self, *args, **kwargs):
            raise NotImplementedError

        async def stream_response(self, *args, **kwargs):
            TwoTurns.calls += 1
            if TwoTurns.calls == 1:
                item = ResponseFunctionToolCall(
                    id="fc-1", call_id="call-1", type="function_call", name="lookup", arguments='{"what": "hours"}'
                )
            else:
                text = ResponseOutputText(type="output_text", text="Open 9 to 5.", annotations=[])
                item = ResponseOutputMessage(
                    id="m-1", type="message", role="assistant", status="completed", content=[text]
                )
            response = Response(
                id=f"resp-{TwoTurns.calls}", created_at=0, model="scripted", object="response", output=[item],
                tool_choice="auto", tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            fields = {"type": "response.completed", "response": response, "sequence_number": 0}
            yield ResponseCompletedEvent(
                **{k: v for k, v in fields.items() if k in ResponseCompletedEvent.model_fields}
            )

    @function_tool
    def lookup(what: str) -> str:
        """Look something up."""
        return "9 to 5"

    def _record(name):
        async def hook(self, *args, **kwargs):  # some releases pass the arguments by keyword
            LOG.append(name)

        return hook

    base = getattr(RunHooks, "__origin__", RunHooks)  # RunHooks is RunHooksBase[TContext, Agent]
    if not hasattr(base, "on_llm_start"):
        print("verdict: cannot judge (RunHooksBase has no on_llm_start before 0.2.9)")
        return 125
    recording = type("Recording", (base,), {name: _record(name) for name in HOOKS})()
    agent = Agent(name="Assistant", model=TwoTurns(), tools=[lookup])
    result = Runner.run_streamed(agent, "Look up the opening hours.", hooks=recording)
    async for _ in result.stream_events():
        pass
    print("model calls:", TwoTurns.calls)
    print("run hooks:", " ".join(LOG))
    llm = LOG.count("on_llm_start"), LOG.count("on_llm_end")
    if TwoTurns.calls == 2 and LOG == FULL:
        print(f"verdict: fixed (2 model calls, {llm[0]} on_llm_start, {llm[1]} on_llm_end)")
        return 0
    if TwoTurns.calls == 2 and [h for h in FULL if not h.startswith("on_llm")] == LOG:
        print("verdict: reproduced (2 model calls, 0 on_llm_start, 0 on_llm_end)")
        return 3
    print(f"verdict: cannot judge ({TwoTurns.calls} model calls, hooks {LOG})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
