"""Nested LoopAgents: an escalation that ends the inner loop ends the outer loop too.

Bug: https://github.com/google/adk-python/issues/2808 (also #526; PR #535 open).
As in #2808, with smaller numbers: inner = LoopAgent([step, inner_checker]) where
inner_checker escalates on every 3rd run; outer = LoopAgent([inner, outer_checker]) where
outer_checker escalates on its 2nd run. Each escalation should end its own loop: 6 inner steps
and 2 outer checks.

reproduced: 3 inner steps and no outer check (the inner escalation ended the outer loop).
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys


async def main() -> int:
    from google.adk.agents import BaseAgent, LoopAgent
    from google.adk.events import Event, EventActions
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    runs = {}
    escalate_on = {"inner_checker": lambda n: n % 3 == 0, "outer_checker": lambda n: n >= 2}

    class Counting(BaseAgent):  # counts its runs; escalates when its rule says so
        async def _run_async_impl(self, ctx):
            runs[self.name] = n = runs.get(self.name, 0) + 1
            rule = escalate_on.get(self.name)
            yield Event(
                author=self.name,
                invocation_id=ctx.invocation_id,
                content=types.Content(role="model", parts=[types.Part(text=f"{self.name} {n}")]),
                actions=EventActions(escalate=bool(rule and rule(n))),
            )

    inner = LoopAgent(name="inner", sub_agents=[Counting(name="step"), Counting(name="inner_checker")])
    outer = LoopAgent(name="outer", sub_agents=[inner, Counting(name="outer_checker")])
    sessions = InMemorySessionService()
    session = await sessions.create_session(app_name="app", user_id="user")
    runner = Runner(app_name="app", agent=outer, session_service=sessions)
    message = types.Content(role="user", parts=[types.Part(text="Refine the plan.")])
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        print(f"event {event.author}: escalate={event.actions.escalate}")
        if sum(runs.values()) > 50:
            print("verdict: cannot judge (more than 50 runs: the loops did not stop)")
            return 125
    steps, outer_checks = runs.get("step", 0), runs.get("outer_checker", 0)
    print(f"{steps} inner steps, {outer_checks} outer checks")
    if steps == 6 and outer_checks == 2:
        print("verdict: fixed (each escalation ended its own loop)")
        return 0
    if steps == 3 and outer_checks == 0:
        print("verdict: reproduced (the inner escalation ended the outer loop too)")
        return 3
    print("verdict: cannot judge (expected 6 and 2, or 3 and 0)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
