# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: RunHooks.on_llm_start / on_llm_end passed to the Runner are never called.

Upstream: https://github.com/openai/openai-agents-python/issues/1612, fixed by
https://github.com/openai/openai-agents-python/pull/1619; the same symptom with a handoff:
https://github.com/openai/openai-agents-python/issues/1909. `RunHooksBase` and `AgentHooksBase`
got `on_llm_start` / `on_llm_end`, but the runner (`agents/run.py`) awaited only
`agent.hooks.on_llm_*` around a model call: a `RunHooks` given to `Runner.run(..., hooks=...)` got
on_agent_start, on_tool_start and the rest, never the two LLM hooks.

A `Model` subclass replays two scripted turns (a `lookup` tool call, then the answer; the `handoff`
case: Triage hands off to Expert, which answers); a `RunHooks` subclass records every hook. Prints
the final output, the model calls and the run hooks in call order.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import os
import sys

CASES = {
    "run": dict(flow="single", streamed=False),
    "streamed": dict(flow="single", streamed=True),
    "handoff": dict(flow="handoff", streamed=False),
}
ANSWER = "Open 9 to 5."
LLM_HOOKS = ("on_llm_start", "on_llm_end")


def llm(agent):
    return [(hook, agent) for hook in LLM_HOOKS]


# The lifecycle each flow must show: (hook, agent) in call order.
EXPECTED = {
    "single": [("on_agent_start", "Assistant"), *llm("Assistant"), ("on_tool_start", "Assistant"),
               ("on_tool_end", "Assistant"), *llm("Assistant"), ("on_agent_end", "Assistant")],
    "handoff": [("on_agent_start", "Triage"), *llm("Triage"), ("on_handoff", "Triage -> Expert"),
                ("on_agent_start", "Expert"), *llm("Expert"), ("on_agent_end", "Expert")],
}  # fmt: skip


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, flow, streamed):
    """Run the agent with a recording RunHooks; say the hooks in call order."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, ModelResponse, RunHooks, Runner, function_tool, lifecycle
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    base = getattr(lifecycle, "RunHooksBase", None) or lifecycle.RunHooks
    if not hasattr(base, "on_llm_start"):
        raise NotApplicable(f"agents.lifecycle.{base.__name__} has no on_llm_start (added in 0.2.9)")
    log, calls = [], []

    class Scripted(Model):
        """Replays its turns (one output item each) in order."""

        def __init__(self, *items):
            self.items = list(items)

        async def get_response(self, *args, **kwargs):
            calls.append(1)
            return ModelResponse(output=[self.items.pop(0)], usage=Usage(), response_id=None)

        async def stream_response(self, *args, **kwargs):
            calls.append(1)
            response = rt.Response(
                id=f"resp-{len(calls)}", created_at=0, model="m", object="response", output=[self.items.pop(0)],
                tool_choice="auto", tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            fields = dict(type="response.completed", response=response, sequence_number=0)
            yield rt.ResponseCompletedEvent(
                **{k: v for k, v in fields.items() if k in rt.ResponseCompletedEvent.model_fields}
            )

    class Recording(RunHooks):
        """Records each hook as (name, agent name); the parameter names are the base class's."""

        async def on_agent_start(self, context, agent):
            log.append(("on_agent_start", agent.name))

        async def on_agent_end(self, context, agent, output):
            log.append(("on_agent_end", agent.name))

        async def on_llm_start(self, context, agent, system_prompt, input_items):
            log.append(("on_llm_start", agent.name))

        async def on_llm_end(self, context, agent, response):
            log.append(("on_llm_end", agent.name))

        async def on_tool_start(self, context, agent, tool):
            log.append(("on_tool_start", agent.name))

        async def on_tool_end(self, context, agent, tool, result):
            log.append(("on_tool_end", agent.name))

        async def on_handoff(self, context, from_agent, to_agent):
            log.append(("on_handoff", f"{from_agent.name} -> {to_agent.name}"))

    def call(name, arguments):
        return rt.ResponseFunctionToolCall(id=f"fc-{name}", call_id=f"call-{name}", type="function_call", name=name,
                                           arguments=arguments)  # fmt: skip

    text = rt.ResponseOutputText(type="output_text", text=ANSWER, annotations=[])
    answer = rt.ResponseOutputMessage(id="msg-1", type="message", role="assistant", status="completed", content=[text])
    if flow == "single":
        lookup = function_tool(lambda what: "9 to 5", name_override="lookup")
        agent = Agent(name="Assistant", model=Scripted(call("lookup", '{"what": "hours"}'), answer), tools=[lookup])
    else:
        expert = Agent(name="Expert", model=Scripted(answer))
        agent = Agent(name="Triage", model=Scripted(call("transfer_to_expert", "{}")), handoffs=[expert])
    if streamed:
        result = Runner.run_streamed(agent, "Look up the opening hours.", hooks=Recording())
        async for _ in result.stream_events():
            pass
    else:
        result = await Runner.run(agent, "Look up the opening hours.", hooks=Recording())
    say(f"Runner.{'run_streamed' if streamed else 'run'} final output: {result.final_output!r}")
    say(f"model calls: {len(calls)}")
    for name, agent_name in log:
        say(f"run hook {name} ({agent_name})")
    return dict(flow=flow, hooks=[list(hook) for hook in log], model_calls=len(calls))


def judge(facts):
    """(outcome, detail): every model call must be bracketed by on_llm_start / on_llm_end, in lifecycle order."""
    seen, expected, calls = [tuple(hook) for hook in facts["hooks"]], EXPECTED[facts["flow"]], facts["model_calls"]
    if calls != 2:
        return "unexpected", f"the model was called {calls} times, the script has 2 turns"
    if seen == expected:
        llm_calls = sum(1 for name, _ in seen if name == "on_llm_start")
        return "fixed", (
            f"the run hooks saw on_llm_start/on_llm_end around each of the {llm_calls} model calls, "
            f"in lifecycle order ({len(seen)} hooks)"
        )
    if seen == [hook for hook in expected if hook[0] not in LLM_HOOKS]:
        return "reproduced", (
            f"the model was called {calls} times but the run hooks got no on_llm_start/on_llm_end "
            f"(only {', '.join(sorted({name for name, _ in seen}))})"
        )
    return "unexpected", f"the run hooks saw {len(seen)} hooks, neither lifecycle: {seen}"


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
