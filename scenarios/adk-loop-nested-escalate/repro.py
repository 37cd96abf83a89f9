# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: an escalation inside a nested LoopAgent also ends every LoopAgent above it.

Upstream: https://github.com/google/adk-python/issues/526 and
https://github.com/google/adk-python/issues/2808; PR #535 (open) and PR #6842 (closed):
https://github.com/google/adk-python/pull/535. LoopAgent._run_async_impl
(google/adk/agents/loop_agent.py) yields each event of a sub-agent and stops when
event.actions.escalate is set, whoever raised it: the exit of a loop nested in another loop
(the exit_loop tool, or a custom agent's EventActions(escalate=True)) reaches the outer loop as
the same event and stops it too.

Faked: a BaseLlm that calls exit_loop and answers the tool's response with text, and custom
BaseAgents that count their runs and escalate on a given run. `inner-exit-loop` (#526):
outer(max 2)[inner(max 3)[worker: exit_loop], after_inner]: the outer loop must run twice.
`inner-escalation-checker` (#2808): outer[inner[step, checker escalating every 3rd run],
checker escalating at its 2nd run]: 6 inner steps and 2 outer checks expected. `exit-stops-loop`
(control): Sequential[loop(max 3)[worker: exit_loop], after_loop]: one exit, after_loop once.
Prints each event (author, parts, escalate), then the runs of each agent and the model calls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

CASES = {
    "inner-exit-loop": dict(shape="exit-loop"),
    "inner-escalation-checker": dict(shape="checker"),
    "exit-stops-loop": dict(shape="single"),
}
OUTER_ITERATIONS, INNER_ITERATIONS = 2, 3
INNER_BREAK_EVERY, OUTER_BREAK_AT = 3, 2  # the inner checker escalates every 3rd run, the outer at its 2nd


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, shape):
    """Run the loops on a Runner; say each event, the agents' runs and the model calls."""
    from google.adk.agents import BaseAgent, LlmAgent, LoopAgent, SequentialAgent
    from google.adk.events import Event, EventActions
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.tools import exit_loop
    from google.genai import types

    runs, escalates, model_calls = {}, {}, []

    class ExitLoopModel(BaseLlm):  # calls exit_loop; answers the tool's response with text
        async def generate_content_async(self, llm_request, stream=False):
            model_calls.append(1)
            last = llm_request.contents[-1].parts or [] if llm_request.contents else []
            call = types.Part(function_call=types.FunctionCall(name="exit_loop", args={}))
            part = types.Part(text="Done.") if any(p.function_response for p in last) else call
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    class Counting(BaseAgent):  # counts its runs; escalates where escalate_on(run) says
        async def _run_async_impl(self, ctx):
            runs[self.name] += 1
            n = runs[self.name]
            text = types.Content(role="model", parts=[types.Part(text=f"{self.name} run {n}")])
            actions = EventActions(escalate=escalates[self.name](n) or None)
            yield Event(author=self.name, invocation_id=ctx.invocation_id, content=text, actions=actions)

    def counting(name, escalate_on=lambda n: False):
        runs[name], escalates[name] = 0, escalate_on
        return Counting(name=name)

    worker = LlmAgent(name="worker", model=ExitLoopModel(model="fake"), instruction="Exit.", tools=[exit_loop])
    if shape == "exit-loop":
        inner = LoopAgent(name="inner", max_iterations=INNER_ITERATIONS, sub_agents=[worker])
        root = LoopAgent(name="outer", max_iterations=OUTER_ITERATIONS, sub_agents=[inner, counting("after_inner")])
    elif shape == "checker":
        inner_checker = counting("inner_checker", lambda n: n % INNER_BREAK_EVERY == 0)
        inner = LoopAgent(name="inner", sub_agents=[counting("step"), inner_checker])
        root = LoopAgent(name="outer", sub_agents=[inner, counting("outer_checker", lambda n: n >= OUTER_BREAK_AT)])
    else:  # the control: one loop, exit_loop, a step after it
        loop = LoopAgent(name="loop", max_iterations=INNER_ITERATIONS, sub_agents=[worker])
        root = SequentialAgent(name="pipeline", sub_agents=[loop, counting("after_loop")])
    sessions = InMemorySessionService()
    session = await settled(sessions.create_session(app_name="app", user_id="user"))
    runner = Runner(app_name="app", agent=root, session_service=sessions)
    message = types.Content(role="user", parts=[types.Part(text="Refine the plan.")])
    exit_calls = 0
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        parts = event.content.parts or [] if event.content else []
        exit_calls += sum(1 for p in parts if p.function_call and p.function_call.name == "exit_loop")
        body = " ".join(
            f"call {p.function_call.name}" if p.function_call else
            f"response {p.function_response.name} -> {p.function_response.response}" if p.function_response else
            repr(p.text) for p in parts
        ) or "<no content>"  # fmt: skip
        say(f"{event.author}: {body}" + (" escalate" if event.actions.escalate else ""))
    say("runs: " + (", ".join(f"{name} {n}" for name, n in sorted(runs.items())) or "none"))
    say(f"exit_loop calls: {exit_calls}, model calls: {len(model_calls)}")
    return dict(shape=shape, runs=runs, exit_calls=exit_calls)


def judge(facts):
    """(outcome, detail): each escalation ends the loop it was raised in, and that loop only."""
    runs, calls = facts["runs"], facts["exit_calls"]
    if facts["shape"] == "exit-loop":
        after = runs["after_inner"]
        figures = f"after_inner ran {after} times, exit_loop called {calls} times"
        if after == OUTER_ITERATIONS and calls == OUTER_ITERATIONS:
            return "fixed", f"{figures}: the outer loop ran its {OUTER_ITERATIONS} iterations"
        if after == 0 and calls == 1:
            return "reproduced", f"{figures}: the inner loop's exit_loop ended the outer loop too"
        return "unexpected", f"{figures}, expected {OUTER_ITERATIONS} and {OUTER_ITERATIONS}"
    if facts["shape"] == "checker":
        steps, outer = runs["step"], runs["outer_checker"]
        figures = f"{steps} inner steps, {outer} outer checks"
        if steps == INNER_BREAK_EVERY * OUTER_BREAK_AT and outer == OUTER_BREAK_AT:
            return "fixed", f"{figures}: each escalation ended its own loop"
        if steps == INNER_BREAK_EVERY and outer == 0:
            return "reproduced", f"{figures}: the inner checker's escalation ended the outer loop too"
        return "unexpected", f"{figures}, expected {INNER_BREAK_EVERY * OUTER_BREAK_AT} and {OUTER_BREAK_AT}"
    after = runs["after_loop"]  # the control
    figures = f"exit_loop called {calls} times, after_loop ran {after} times"
    if calls >= 2 and after == 1:
        return "reproduced", f"{figures}: exit_loop did not stop the loop"
    if calls == 1 and after == 1:
        return "fixed", f"{figures}: the loop stopped at its first exit_loop"
    return "unexpected", f"{figures}, expected 1 and 1"


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
