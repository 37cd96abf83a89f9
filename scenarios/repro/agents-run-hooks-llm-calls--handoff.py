"""RunHooks.on_llm_start / on_llm_end are not called in a run with a handoff.

Upstream: https://github.com/openai/openai-agents-python/issues/1909 (open, stale; the same
cause as #1612, fixed by PR #1619). Agent Triage's scripted Model (no network) hands off to
agent Expert, whose Model answers; a RunHooks subclass passed to Runner.run records every
hook. `reproduced`: the models were called twice but the run hooks got no on_llm_start /
on_llm_end while the other hooks fired. `fixed`: each agent's model call is bracketed by
on_llm_start/on_llm_end. Exit 0 fixed, 3 reproduced, 125 cannot judge.
"""

import asyncio
import os
import sys

os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-no-network")  # some releases build a client

LOG: list[str] = []


HOOKS = ("on_agent_start", "on_agent_end", "on_llm_start", "on_llm_end", "on_handoff")


async def main() -> int:
    from agents import Agent, ModelResponse, RunHooks, Runner, set_tracing_disabled
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)

    def _response(item, n):
        fields = {"output": [item], "usage": Usage(), "response_id": f"resp-{n}"}
        return ModelResponse(**{k: v for k, v in fields.items() if k in ModelResponse.__dataclass_fields__})

    class OneTurn(Model):
        calls = 0

        def __init__(self, item):
            self.item = item

        async def get_response(self, *args, **kwargs):
            OneTurn.calls += 1
            return _response(self.item, OneTurn.calls)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    def _record(name):
        async def hook(self, *args, **kwargs):  # some releases pass the arguments by keyword
            LOG.append(name)

        return hook

    base = getattr(RunHooks, "__origin__", RunHooks)  # RunHooks is RunHooksBase[TContext, Agent]
    if not hasattr(base, "on_llm_start"):
        print("verdict: cannot judge (RunHooksBase has no on_llm_start before 0.2.9)")
        return 125
    recording = type("Recording", (base,), {name: _record(name) for name in HOOKS})()
    text = ResponseOutputText(type="output_text", text="Open 9 to 5.", annotations=[])
    answer = ResponseOutputMessage(id="msg-1", type="message", role="assistant", status="completed", content=[text])
    expert = Agent(name="Expert", model=OneTurn(answer))
    handoff = ResponseFunctionToolCall(
        id="fc-1", call_id="call-1", type="function_call", name="transfer_to_expert", arguments="{}", status="completed"
    )
    agent = Agent(name="Triage", model=OneTurn(handoff), handoffs=[expert])
    await Runner.run(agent, "What are the opening hours?", hooks=recording)
    print("model calls:", OneTurn.calls)
    print("run hooks:", " ".join(LOG))
    llm = LOG.count("on_llm_start"), LOG.count("on_llm_end")
    full = [
        "on_agent_start",
        "on_llm_start",
        "on_llm_end",
        "on_handoff",
        "on_agent_start",
        "on_llm_start",
        "on_llm_end",
        "on_agent_end",
    ]
    if OneTurn.calls == 2 and full == LOG:
        print(f"verdict: fixed (2 model calls, {llm[0]} on_llm_start, {llm[1]} on_llm_end)")
        return 0
    if OneTurn.calls == 2 and [h for h in full if not h.startswith("on_llm")] == LOG:
        print("verdict: reproduced (2 model calls, 0 on_llm_start, 0 on_llm_end)")
        return 3
    print(f"verdict: cannot judge ({OneTurn.calls} model calls, hooks {LOG})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
