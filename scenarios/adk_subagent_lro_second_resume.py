"""google-adk: a sub-agent paused on its second long-running tool never resumes.

Symptom (google/adk-python#5349, filed on 1.30.0: "bug present in 1.27.0-1.30.0, worked in
1.26.0"): a resumable App whose orchestrator ``LlmAgent`` transfers to a sub-agent with two
``LongRunningFunctionTool``s called one after the other. The client answers the first tool
with a function response, and the sub-agent resumes; it calls the second tool and pauses
again; the client answers that one too, and the runner ends at once: no model call, no
answer, the agent "silently stops". The thread traces it to the orchestrator's
sub-agent-resume branch (google/adk/agents/llm_agent.py ``_run_async_impl``): after resuming
the sub-agent it set ``end_of_agent=True`` for itself even when the sub-agent had paused
again, so the next resume found the orchestrator finished and returned. Community PRs #5365,
#5384, #5385 and #5386 (closed unmerged) make that branch track whether the sub-agent paused;
the 2.x ``LlmAgent`` has that tracking (``should_pause`` in the branch).

The case (``response-as-new-message``): orchestrator -> ``transfer_to_agent(worker)``; the
worker calls ``pick_slot`` then ``confirm_booking``, both long-running and returning
``{"status": "pending"}`` as ADK's long-running tool docs and the thread's tools do; each
pause is answered by sending the function response as the next ``new_message`` (no
``invocation_id``), as the thread's client does. Scripted models throughout.

Timeline: each run (the first message, then each resume), its events (author, parts,
transfer and end-of-agent actions, ``[long-running]`` calls), and the model calls of the
orchestrator and the worker after it. Oracle: ``fixed`` when every pause was resumed into a
worker model call and the worker answered (3 worker model calls, 'booked'); ``reproduced``
when a resume after a pause produced no worker model call (the invocation ended instead).
``NotApplicable`` on releases with no resumable apps, and on releases that do not pause on a
long-running tool that returned a value (2.x: the worker answers within the first run, so
there is nothing to resume).

What the harness found: 1.26.0 resumes both pauses; from 1.27.0 the second resume ends the
invocation, through 1.39.1, the last 1.x release (still open there). Checked outside the
harness: the 1.27.0 Runner sends a function response that answers an earlier call back into
that call's invocation, so the stale ``end_of_agent`` of the orchestrator is replayed; with
the 2.x branch's pause tracking applied in process to 1.39.1, both resumes reach the model.
Resuming with ``run_async(invocation_id=...)`` instead fails on every 1.x release with
resumable apps (1.16.0-1.39.1) the same way, and the pause tracking fixes it too; that variant
is not a case here because no release shows it fixed (2.x does not pause on these tools).
"""

from __future__ import annotations

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import Case, Edge, NotApplicable, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

APP = "lro_booking_app"
USER = "user-1"
ANSWER = "booked"
CLIENT_RESPONSES = {"pick_slot": {"slot": "9am"}, "confirm_booking": {"confirmed": True}}
MAX_RESUMES = 2
PENDING = {"status": "pending"}  # what each long-running tool returns when called


def _api():
    try:
        from google.adk.apps import App, ResumabilityConfig
    except ImportError as exc:
        raise NotApplicable(f"no resumable apps in this release: {exc}") from exc
    from google.adk.runners import Runner
    from google.adk.tools import LongRunningFunctionTool

    return App, ResumabilityConfig, Runner, LongRunningFunctionTool


def _tools(result):
    """The worker's two long-running tools; ``result`` is what each returns when called."""

    def pick_slot(day: str) -> dict:
        """Asks the user to pick a time slot for the day."""
        return result

    def confirm_booking(slot: str) -> dict:
        """Asks the user to confirm the booking of the slot."""
        return result

    # Real annotations (this module's future import would make them strings).
    pick_slot.__annotations__ = {"day": str, "return": dict}
    confirm_booking.__annotations__ = {"slot": str, "return": dict}
    return pick_slot, confirm_booking


def _event_line(e, ids: Placeholders) -> str:
    from harness.runtime.fakes.adk import describe_part

    parts = e.content.parts if e.content and e.content.parts else []
    lro = set(e.long_running_tool_ids or ())
    body = []
    for p in parts:
        text = describe_part(p, ids)
        if p.function_call is not None and p.function_call.id in lro:
            text += " [long-running]"
        body.append(text)
    actions = e.actions
    if actions is not None and actions.transfer_to_agent:
        body.append(f"transfer_to_agent={actions.transfer_to_agent}")
    if actions is not None and getattr(actions, "end_of_agent", None):
        body.append("end_of_agent")
    return f"  {e.author} " + (" ".join(body) or "<no content>")


async def replay() -> Observation:
    """Transfer to the worker, then answer each long-running call it pauses on, as a new message."""
    from google.adk.agents import LlmAgent
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    from harness.runtime.fakes.adk import ScriptedLlm, calls, text

    App, ResumabilityConfig, Runner, LongRunningFunctionTool = _api()
    pick_slot, confirm_booking = _tools(PENDING)
    worker_llm = ScriptedLlm(
        model="scripted-worker",
        script=[calls(("pick_slot", {"day": "monday"})), calls(("confirm_booking", {"slot": "9am"})), text(ANSWER)],
        requests=[],
    )
    orchestrator_llm = ScriptedLlm(
        model="scripted-orchestrator", script=[calls(("transfer_to_agent", {"agent_name": "worker"}))], requests=[]
    )
    worker = LlmAgent(
        name="worker",
        model=worker_llm,
        instruction="Book a slot.",
        description="Books appointments.",
        tools=[LongRunningFunctionTool(pick_slot), LongRunningFunctionTool(confirm_booking)],
    )
    orchestrator = LlmAgent(
        name="orchestrator", model=orchestrator_llm, instruction="Route bookings.", sub_agents=[worker]
    )
    app = App(name=APP, root_agent=orchestrator, resumability_config=ResumabilityConfig(is_resumable=True))
    sessions = InMemorySessionService()
    runner = Runner(app=app, session_service=sessions)
    session = await sessions.create_session(app_name=APP, user_id=USER)

    ids = Placeholders()
    timeline: list[str] = []
    runs: list[dict] = []
    answered: set[str] = set()
    lro_calls: list = []  # (invocation_id, function call), in the order the worker made them
    message = types.Content(role="user", parts=[types.Part(text="Book me a slot on Monday.")])
    label = "run 1: user 'Book me a slot on Monday.'"

    while True:
        worker_calls_before = len(worker_llm.requests)
        events = []
        async for event in runner.run_async(user_id=USER, session_id=session.id, new_message=message):
            events.append(event)
        for e in events:
            for p in e.content.parts if e.content and e.content.parts else []:
                fc = p.function_call
                if fc is not None and fc.id in set(e.long_running_tool_ids or ()) and fc.id not in answered:
                    lro_calls.append((e.invocation_id, fc))
        timeline.append(f"{label} -> {len(events)} event{'s' if len(events) != 1 else ''}")
        timeline += [_event_line(e, ids) for e in events]
        timeline.append(
            f"  model calls so far: orchestrator {len(orchestrator_llm.requests)}, worker {len(worker_llm.requests)}"
        )
        pending = [(inv, fc) for inv, fc in lro_calls if fc.id not in answered]
        # Paused: a long-running call is unanswered and the worker's model has not been asked
        # again since the worker made it.
        paused = bool(pending) and len(worker_llm.requests) == len(lro_calls)
        runs.append(
            {
                "worker_calls": len(worker_llm.requests) - worker_calls_before,
                "paused": paused,
                "answer": any(
                    e.author == "worker" and e.content and any((p.text or "") == ANSWER for p in e.content.parts or [])
                    for e in events
                ),
            }
        )
        if not paused or len(runs) > MAX_RESUMES:
            break
        invocation_id, fc = pending[0]  # the paused call's invocation: shown, not passed
        answered.add(fc.id)
        message = types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(id=fc.id, name=fc.name, response=CLIENT_RESPONSES[fc.name])
                )
            ],
        )
        label = (
            f"resume {len(runs)}: function response {fc.name} -> {CLIENT_RESPONSES[fc.name]} as a new message "
            f"(the call was made in {ids('inv', invocation_id)})"
        )

    if not runs[0]["paused"] and len(runs) == 1:
        raise NotApplicable(
            "this release does not pause on a long-running tool that returned a value: the worker made "
            f"{len(worker_llm.requests)} model calls in the first run (answered: {runs[0]['answer']}), "
            "nothing to resume"
        )
    return Observation(
        timeline=timeline,
        facts={"runs": runs, "worker_calls": len(worker_llm.requests)},
    )


def judge(obs: Observation):
    runs = obs.facts["runs"]
    total = obs.facts["worker_calls"]
    resumes = runs[1:]
    answered = any(r["answer"] for r in runs)
    pauses = sum(1 for r in runs if r["paused"])
    for n, run in enumerate(resumes, start=1):
        if run["worker_calls"] == 0:
            return reproduced(
                f"resume {n} (after {pauses} pause{'s' if pauses != 1 else ''}) reached no model call: the invocation "
                f"ended; worker model calls {total} of 3, no answer"
            )
    if answered and total == 3 and len(resumes) == 2:
        return fixed(f"both resumes reached the worker's model ({total} worker model calls), which answered {ANSWER!r}")
    return unexpected(
        f"{len(resumes)} resumes, {pauses} pauses, worker model calls {total}, answered {answered}; "
        "expected 2 resumes each reaching the worker's model"
    )


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _fourth_worker_call(obs: Observation) -> None:
    obs.facts["worker_calls"] = 4


SCENARIO = Scenario(
    id="adk-subagent-lro-second-resume",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/5349",
        "https://github.com/google/adk-python/pull/5385",
    ),
    description=(
        "In a resumable app, a sub-agent reached by transfer_to_agent that pauses on a second "
        "long-running tool is never resumed: the user's function response ends the invocation "
        "with no model call."
    ),
    expected=(
        "Every resume with the paused call's function response reaches the sub-agent's model, which goes on to answer."
    ),
    cases=(
        Case(
            "response-as-new-message",
            replay,
            judge,
            {
                "reproduced": Release(
                    "google-adk==1.27.0", "the first release whose second resume ends the invocation"
                ),
                "fixed": Release("google-adk==1.26.0", "the last release where both resumes reach the worker's model"),
            },
            "pending-status tools; each function response is sent as a new message, as the thread's client does",
            # 2.x does not pause here (not-applicable), so the edge alters what 1.26.0 does.
            edges=(
                Edge(
                    "unexpected",
                    "both resumes reach the worker's model and it answers, but after 4 calls, not 3",
                    _fourth_worker_call,
                    Release("google-adk==1.26.0"),
                ),
            ),
        ),
    ),
)
