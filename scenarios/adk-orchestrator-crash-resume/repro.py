# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a resumed orchestrator replays its log lines and counters, and nothing says so.

Upstream: https://github.com/google/adk-python/issues/7943 (and #6779). A resumable `Workflow`
whose orchestrator node (`@node(rerun_on_resume=True)`, calling `ctx.run_node`) crashes after its
two children finished. On `run_async(invocation_id=..., new_message=None)` ADK answers the children
from the session but re-executes the orchestrator body from the top, so every log line and counter
before the last recorded child result fires twice, and `Context` exposes nothing that tells the
replayed call from the live one. The seed proposes a read-only `Context.is_replaying` and a public
`google.adk.agents.current_context()`, so a `logging.Filter` can drop the replayed records.

No model: the nodes are plain functions. Prints every emission (marked when `is_replaying`, read
through `current_context()`, says so), the first run's outputs and crash, and the resume's outputs.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import importlib
import inspect
import sys

CASES = {"crash-resume": {}}
REPLAYED = ("orchestrator_started", "child_a_finished")  # the emissions before child_b's recorded result


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say):
    """Crash the orchestrator once, resume it; say what fired; return what the verdict reads."""
    importlib.import_module("google.adk")  # no framework at all is an error, not a missing API
    try:
        from google.adk.workflow import START, Workflow, node
    except ImportError as exc:
        raise NotApplicable(f"no workflow API: cannot import google.adk.workflow ({exc})") from exc
    import google.adk.agents as agents
    from google.adk.apps import App, ResumabilityConfig
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    if "invocation_id" not in inspect.signature(Runner.run_async).parameters:
        raise NotApplicable("Runner.run_async has no parameter invocation_id")
    counts, marked, indicator = {}, [], []

    def emit(name, ctx=None):
        """A counter and a log line; with the seed's indicator, whether it says "replaying"."""
        counts[name] = counts.get(name, 0) + 1
        flag, current = getattr(ctx, "is_replaying", None), getattr(agents, "current_context", None)
        seen = ctx is not None and isinstance(flag, bool) and callable(current) and current() is ctx
        indicator.extend([name] if seen else [])
        marked.extend([(name, counts[name])] if seen and flag else [])
        say(f"{name} -> {counts[name]}" + (" [is_replaying]" if seen and flag else ""))

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
    session = await settled(runner.session_service.create_session(app_name="app", user_id="user"))
    names, seen, outputs = {}, {"first": [], "resume": []}, {"first": [], "resume": []}  # per run
    crash = resume_error = None

    async def run(which, **kwargs):
        """One run_async: say its outputs and errors; return its error codes."""
        errors = []
        async for event in runner.run_async(user_id="user", session_id=session.id, **kwargs):
            inv = names.setdefault(event.invocation_id, f"inv-{len(names) + 1}")
            seen[which] += [inv] if inv not in seen[which] else []
            where = (getattr(getattr(event, "node_info", None), "path", None) or event.author).rsplit("/", 1)[-1]
            if getattr(event, "output", None) is not None:
                outputs[which].append(f"{where}={event.output!r}")
                say(f"[{inv}] {which} output {outputs[which][-1]}")
            elif getattr(event, "error_code", None):
                errors.append(event.error_code)
                say(f"[{inv}] {which} error event {event.error_code}: {str(event.error_message)[:120]}")
        return errors

    say("first run")
    try:
        errors = await run("first", new_message=types.Content(role="user", parts=[types.Part(text="go")]))
        crash = f"error event {errors[0]}" if errors else None
    except Exception as exc:  # the simulated crash, where it propagates out of run_async
        crash = f"raised {type(exc).__name__}"
        say(f"first run raised {type(exc).__name__}: {exc}")
    first = next(iter(names), None)
    if first is not None:
        say("resume [inv-1] with run_async(invocation_id=..., new_message=None)")
        try:
            await run("resume", new_message=None, invocation_id=first)
        except Exception as exc:
            resume_error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            say(f"resume raised {resume_error}")
    return dict(
        first_invocation=first and names[first], crash=crash, resume_error=resume_error,
        resumed_invocations=seen["resume"], resumed_outputs=outputs["resume"],
        output_delivered="orchestrator@1='AB'" in outputs["resume"],
        child_runs={c: counts.get(f"{c}_runs", 0) for c in ("child_a", "child_b")},
        emissions={e: counts.get(e, 0) for e in ("orchestrator_started", "child_a_finished", "child_b_finished")},
        indicator=bool(indicator), marked=marked,
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the resume re-runs the orchestrator only; the indicator marks exactly the replay."""
    f = facts
    if f["first_invocation"] is None:
        return "unexpected", "crash not resumable: the first run yielded no event, so no invocation id to resume"
    runs = ", ".join(f"{c} ran {n}x" for c, n in f["child_runs"].items())
    fired = ", ".join(f"{e} {n}x" for e, n in f["emissions"].items())
    figures = f"{runs}; orchestrator emissions {fired}; resumed outputs: {', '.join(f['resumed_outputs']) or 'none'}"
    first, resumed = f["first_invocation"], f["resumed_invocations"]
    children_again = any(n != 1 for n in f["child_runs"].values())
    if f["crash"] is None:
        return "unexpected", f"the first run did not crash (the orchestrator's crash was absorbed); {figures}"
    if f["resume_error"] is not None:
        return "unexpected", f"crash not resumable: the resume raised {f['resume_error']}; {figures}"
    if not resumed:
        return "unexpected", f"the resume of {first} produced nothing (no event, orchestrator not re-run); {figures}"
    if resumed != [first]:
        how = " and re-executed the children" if children_again else ""
        return "unexpected", f"the resume of {first} ran as {', '.join(resumed)}{how}; {figures}"
    if children_again:
        return "unexpected", f"children re-executed on resume instead of answered from the session; {figures}"
    if not f["output_delivered"]:
        return "unexpected", f"the resume did not deliver the orchestrator's output 'AB'; {figures}"
    replayed_twice = all(f["emissions"][e] == 2 for e in REPLAYED)
    if not replayed_twice:
        return "unexpected", f"emissions before the last recorded result did not fire twice; {figures}"
    if not f["indicator"]:
        return "reproduced", f"{figures}; no replay indicator (no Context.is_replaying read through current_context())"
    marks = ", ".join(f"{e} #{n}" for e, n in f["marked"]) or "nothing"
    if f["marked"] == [(e, 2) for e in REPLAYED]:
        return "fixed", f"{figures}; Context.is_replaying marked {marks}"
    return (
        "unexpected",
        f"Context.is_replaying marked {marks}, expected {' and '.join(f'{e} #2' for e in REPLAYED)}; {figures}",
    )


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
