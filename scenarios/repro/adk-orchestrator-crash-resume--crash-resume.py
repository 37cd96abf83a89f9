"""google-adk: a resumed orchestrator node replays its log lines and counters, and nothing says so.

Bug: https://github.com/google/adk-python/issues/7943 (asks for Context.is_replaying and a public
current_context()). A resumable Workflow's orchestrator node (rerun_on_resume=True) runs two
children with ctx.run_node, then crashes once; run_async(invocation_id=..., new_message=None)
answers the children from the session but re-runs the orchestrator's body from the top.
reproduced: the children ran once and the resume delivers "AB", but the emissions before the last
recorded child result fire twice and nothing tells the replay (no ctx.is_replaying read through
google.adk.agents.current_context()). fixed: that indicator marks exactly those two emissions.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no workflow API, a third behaviour, any error).
"""

import asyncio
import sys

counts, indicator = {}, []  # emission -> times fired; (emission, count, is_replaying) as the body saw it


async def main() -> int:
    import google.adk.agents as agents
    from google.adk.apps import App, ResumabilityConfig
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.workflow import START, Workflow, node
    from google.genai import types

    def emit(name, ctx=None):
        counts[name] = counts.get(name, 0) + 1
        flag, current = getattr(ctx, "is_replaying", None), getattr(agents, "current_context", None)
        seen = ctx is not None and isinstance(flag, bool) and callable(current) and current() is ctx
        indicator.extend([(name, counts[name], flag)] if seen else [])  # what the seed's logging.Filter reads
        print(f"  {name} -> {counts[name]}" + (" [is_replaying]" if seen and flag else ""))

    @node
    def child_a(node_input):
        emit("child_a_runs")
        return "A"

    @node
    def child_b(node_input):
        emit("child_b_runs")
        return node_input + "B"

    async def orchestrator(ctx: agents.Context, node_input):
        emit("orchestrator_started", ctx)
        a = await ctx.run_node(child_a, node_input=node_input)
        emit("child_a_finished", ctx)
        ab = await ctx.run_node(child_b, node_input=a)
        emit("child_b_finished", ctx)
        if counts["orchestrator_started"] == 1:
            raise RuntimeError("simulated crash after the children finished")
        yield ab

    root = Workflow(name="root", edges=[(START, node(rerun_on_resume=True)(orchestrator))])
    app = App(name="app", root_agent=root, resumability_config=ResumabilityConfig(is_resumable=True))
    runner = Runner(app=app, session_service=InMemorySessionService())
    session = await runner.session_service.create_session(app_name="app", user_id="user")
    first = None
    print("first run")
    try:
        go = types.Content(role="user", parts=[types.Part(text="go")])
        async for event in runner.run_async(user_id="user", session_id=session.id, new_message=go):
            first = event.invocation_id
    except Exception as exc:  # the simulated crash
        print(f"  raised {type(exc).__name__}: {exc}")
    print("resume with run_async(invocation_id=..., new_message=None)")
    invocations, outputs = set(), []
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=None, invocation_id=first):
        invocations.add(event.invocation_id)
        outputs += [event.output] if getattr(event, "output", None) is not None else []
    c, same, figures = counts.get, invocations == {first}, f"fired {counts}; resume outputs {outputs}"
    if not (same and c("child_a_runs") == c("child_b_runs") == 1 and outputs[-1:] == ["AB"]):
        print(f"verdict: cannot judge (the resume ran as the crashed invocation: {same}; {figures})")
        return 125
    marked = [(name, n) for name, n, flag in indicator if flag]
    if counts["orchestrator_started"] == counts["child_a_finished"] == 2:
        if not indicator:
            print(f"verdict: reproduced ({figures}; no ctx.is_replaying + current_context() to tell the replay)")
            return 3
        if marked == [("orchestrator_started", 2), ("child_a_finished", 2)]:
            print(f"verdict: fixed ({figures}; is_replaying marked exactly the replayed emissions)")
            return 0
    print(f"verdict: cannot judge ({figures}; is_replaying marked {marked})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
