# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a resumable Workflow's review -> revise HITL loop deadlocks on the third resume with
"Replay divergence detected: Timed out waiting for sequence key 'HITL@1' to be unblocked."

Upstream: https://github.com/google/adk-python/issues/7027 (fix PR #7028; sibling #6497 / PR #6498).
The review node is the HITL reference's loop body (a counter in state, a unique interrupt id per round,
`Event(output=response, route=..., state=...)`); the reviewer answers approved=False, False, True. Each
resume replays the loop from its start: `ReplayManager._scan_sequence` orders the nodes to fast-forward
by their terminal events, and for a node seen before it moves the node to the end. From the resume that
fast-forwards the first round, `Workflow._maybe_reemit_replayed_output` re-emits HITL@1's output at that
point of the session; a Revise that only routes (no output) is not re-emitted, so the next resume's
sequence puts Revise@1 before HITL@1, the barrier opens on Revise@1, which can only run after HITL@1,
and HITL@1 waits out the barrier's 15 s (workflow/utils/_replay_manager.py, _replay_sequence_barrier.py).

Public FunctionNodes, an App with resumability on, one Runner and an InMemorySessionService; no model.
Cases: `route-back` (the bug: Revise records its draft in state and routes back to review);
`output-back` (a control: Revise returns its draft as its output, so it is re-emitted too and the order
holds); `one-rejection` (a fix could go too far: one rejection then approval; every node of the loop
runs once per round, the replayed ones are fast-forwarded, not run again). Prints each turn's answer and
the events the runner yielded (requests, outputs, routes) and what each node function did.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import json
import sys
import warnings

CASES = {
    "route-back": dict(revise="route", answers=(False, False, True), check="deadlock"),
    "output-back": dict(revise="output", answers=(False, False, True), check="control"),
    "one-rejection": dict(revise="route", answers=(False, True), check="runs-once"),
}
DIVERGENCE = "Replay divergence detected"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, revise, answers, check):
    """Run the loop, answering each review request in turn; say each turn's events; return the facts."""
    warnings.filterwarnings("ignore", message=r"\[EXPERIMENTAL\]")
    # Outside the try: a missing framework is an error of the run, not a release without the feature.
    from google.adk.runners import Runner

    try:
        from google.adk.events.request_input import RequestInput
        from google.adk.workflow import FunctionNode, Workflow
    except ImportError as exc:
        raise NotApplicable(f"no Workflow / RequestInput ({exc})") from None
    from google.adk.apps.app import App, ResumabilityConfig
    from google.adk.events.event import Event
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    ran = []  # what each node function did, in order: the genuine runs (a fast-forward calls no function)

    async def review(ctx, node_input):
        """The HITL reference's loop body ("HITL in Loops (Unique interrupt_id)")."""
        review_count = ctx.state.get("review_count", 0)
        interrupt_id = f"review_{review_count}"
        response = ctx.resume_inputs.get(interrupt_id)
        if response:
            ran.append(f"HITL answered {interrupt_id}")
            route = "approved" if response.get("approved") else "rejected"
            yield Event(output=response, route=route, state={"review_count": review_count + 1})
            return
        ran.append(f"HITL asked {interrupt_id}")
        yield RequestInput(interrupt_id=interrupt_id, message="Approve this plan?")

    async def revise_routes(ctx, node_input):
        """Record the revised draft in state and route back to the review; no output."""
        draft = f"draft v{ctx.state.get('review_count')}"
        ran.append(f"Revise wrote {draft}")
        yield Event(state={"draft": draft}, route="review")

    async def revise_outputs(ctx, node_input):
        """Return the revised draft as the node's output."""
        draft = f"draft v{ctx.state.get('review_count')}"
        ran.append(f"Revise wrote {draft}")
        yield Event(output=draft, state={"draft": draft})

    def publish(node_input):
        ran.append("Publish")
        return "published"

    hitl = FunctionNode(func=review, name="HITL", rerun_on_resume=True)
    publisher = FunctionNode(func=publish, name="Publish")
    if revise == "route":
        reviser = FunctionNode(func=revise_routes, name="Revise")
        back = (reviser, {"review": hitl})
    else:
        reviser = FunctionNode(func=revise_outputs, name="Revise")
        back = (reviser, hitl)
    workflow = Workflow(
        name="plan_review", edges=[("START", hitl), (hitl, {"rejected": reviser, "approved": publisher}), back]
    )
    app = App(name="repro", root_agent=workflow, resumability_config=ResumabilityConfig(is_resumable=True))
    sessions = InMemorySessionService()
    runner = Runner(app=app, session_service=sessions)
    session = await sessions.create_session(app_name="repro", user_id="u")

    message = types.Content(role="user", parts=[types.Part(text="Draft a plan.")])
    turns, error, pending = [], None, None
    for turn, answer in enumerate((None, *answers), start=1):
        if turn > 1:
            if pending is None:
                break
            reply = types.FunctionResponse(id=pending, name="adk_request_input", response={"approved": answer})
            message = types.Content(role="user", parts=[types.Part(function_response=reply)])
        say(f"turn {turn}: " + ("the request" if answer is None else f"answer {pending} approved={answer}"))
        pending, start = None, len(ran)
        try:
            async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message):
                shown = describe(event)
                if shown:  # the workflow's checkpoint events (node states, no content) are left out
                    say(f"  {shown}")
                for part in event.content.parts if event.content and event.content.parts else []:
                    if part.function_call and part.function_call.name == "adk_request_input":
                        pending = part.function_call.id
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            say(f"  raised {error}")
        say(f"  node functions: {', '.join(ran[start:]) or '(none)'}")
        turns.append(dict(answer=answer, asked=pending, error=error))
        if error:
            break
    say(f"pending request: {pending}")
    return dict(check=check, answers=list(answers), turns=turns, ran=ran, error=error, pending=pending)


def describe(event):
    """One line: the event's node path, and its request, output and route; "" when it has none of them."""
    info = getattr(event, "node_info", None)
    shown = []
    for part in event.content.parts if event.content and event.content.parts else []:
        if part.function_call:
            shown.append(f"call {part.function_call.name} id={part.function_call.id}")
        elif part.text:
            shown.append(repr(part.text))
    if getattr(event, "output", None) is not None:
        shown.append(f"output={json.dumps(event.output, sort_keys=True)}")
    route = getattr(event.actions, "route", None) if event.actions else None
    if route is not None:
        shown.append(f"route={route}")
    if event.actions and event.actions.state_delta:
        shown.append(f"state_delta={json.dumps(dict(event.actions.state_delta), sort_keys=True)}")
    if event.actions and getattr(event.actions, "end_of_agent", None):
        shown.append("end_of_agent")
    if not shown and event.error_code is None:
        return ""
    if event.error_code is not None:
        shown.append(f"error_code={event.error_code} {event.error_message}")
    return f"{(info.path if info else None) or event.author}: " + " ".join(shown)


def expected_runs(answers):
    """The node functions a loop with these answers runs, each once: ask, answer, then revise or publish."""
    runs = []
    for n, approved in enumerate(answers):
        runs += [f"HITL asked review_{n}", f"HITL answered review_{n}"]
        runs.append("Publish" if approved else f"Revise wrote draft v{n + 1}")
    return runs


def judge(facts):
    """(outcome, detail): the loop completes with each node function run once a round (fixed); #7027's
    replay divergence on the third resume, waiting on HITL@1 (route-back: reproduced); any replay divergence
    (the control: reproduced); a node function of a fast-forwarded round run again (one-rejection, a fix gone
    too far: reproduced)."""
    check, answers, turns, ran, error = facts["check"], facts["answers"], facts["turns"], facts["ran"], facts["error"]
    wanted = expected_runs(answers)
    figures = f"{len(turns) - 1} of {len(answers)} answers taken, node functions: {', '.join(ran)}"
    again = sorted({run for run in ran if ran.count(run) > 1})
    if error is None and check == "runs-once" and again and set(ran) <= set(wanted):
        return "reproduced", f"a replay ran {', '.join(again)} again; {figures}, pending request {facts['pending']}"
    if error is None:
        if facts["pending"] is not None:
            return "unexpected", f"the loop stopped at request {facts['pending']}; {figures}"
        if ran == wanted:
            return "fixed", f"the loop completed: {figures}"
        return "unexpected", f"{figures}; expected {', '.join(wanted)}"
    stuck = len(turns) - 1  # the answer whose resume raised
    if DIVERGENCE in error and check == "control":
        return "reproduced", f"resume {stuck} raised {error}; {figures}"
    if DIVERGENCE in error and check == "deadlock" and stuck == 3 and "'HITL@1'" in error and ran == wanted[:7]:
        return "reproduced", f"the third resume (answer {answers[stuck - 1]}) raised {error}; {figures}"
    return "unexpected", f"resume {stuck} raised {error}; {figures}"


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
