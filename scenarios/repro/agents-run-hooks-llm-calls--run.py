"""RunHooks.on_llm_start / on_llm_end given to Runner.run are never called.

Upstream: https://github.com/openai/openai-agents-python/issues/1612 (fixed by PR #1619).
A scripted Model (no network) calls a function tool, then answers; a RunHooks subclass
passed to Runner.run records every hook.
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
    from agents import Agent, ModelResponse, RunHooks, Runner, function_tool, set_tracing_disabled
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)

    class TwoTurns(Model):
        calls = 0

        async def get_response(self, *args, **kwargs):
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
            fields = {"output": [item], "usage": Usage(), "response_id": f"resp-{TwoTurns.calls}"}
            return ModelResponse(**{k: v for k, v in fields.items() if k in ModelResponse.__dataclass_fields__})

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

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
    await Runner.run(agent, "Look up the opening hours.", hooks=recording)
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
