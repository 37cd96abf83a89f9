"""google-adk: a sub-agent paused on its second long-running tool never resumes.

Symptom (google/adk-python#5349): a resumable App whose orchestrator ``LlmAgent`` transfers
to a sub-agent with two ``LongRunningFunctionTool``s called one after the other. The user
answers the first tool (``run_async(invocation_id=..., new_message=<function response>)``)
and the sub-agent resumes; it calls the second tool and pauses again; the user answers that
one too, and the runner ends at once: no model call, no answer, the agent "silently stops".
The thread traces it to the orchestrator's sub-agent-resume branch
(google/adk/agents/llm_agent.py ``_run_async_impl``): after resuming the sub-agent it set
``end_of_agent=True`` for itself even when the sub-agent had paused again, so the next
resume found the orchestrator "finished" and returned. Community PRs #5365, #5384, #5385 and
#5386 (closed unmerged) track whether the sub-agent paused; the 2.x ``LlmAgent`` does
(``should_pause`` in that branch), and 2.x runs agents through its workflow runtime.

Cases (orchestrator -> ``transfer_to_agent(worker)``; worker: ``pick_slot`` then
``confirm_booking``, both long-running; each pause answered with a function response
under the paused invocation's id; scripted models throughout):

- ``pending-status-tools``: the tools return ``{"status": "pending"}``, as ADK's
  long-running tool docs and the thread do. Releases that do not pause on a long-running
  tool that returned a value (the worker answers within the first run) raise
  ``NotApplicable``: the case has nothing to resume there.
- ``no-result-tools``: the tools return ``None``: the only response is the client's.

Timeline: each run (the first message, then each resume), its events (author, parts,
transfer and end-of-agent actions, ``[long-running]`` calls), and the model calls of the
orchestrator and the worker after it. Oracle: ``fixed`` when every pause was resumed into a
worker model call and the worker answered (3 worker model calls, 'booked'); ``reproduced``
when a resume after a pause produced no worker model call (the invocation ended instead).
"""

from __future__ import annotations

import inspect

from harness.outcomes import fixed, reproduced, unexpected
from harness.scenario import AsInstalled, Case, InProcess, NotApplicable, Observation, Scenario
from harness.timeline import Placeholders, quote

APP = "lro_booking_app"
USER = "user-1"
ANSWER = "booked"
CLIENT_RESPONSES = {"pick_slot": {"slot": "9am"}, "confirm_booking": {"confirmed": True}}
MAX_RESUMES = 2


def _api():
    try:
        from google.adk.apps import App, ResumabilityConfig
    except ImportError as exc:
        raise NotApplicable(f"no resumable apps in this release: {exc}") from exc
    from google.adk.runners import Runner
    from google.adk.tools import LongRunningFunctionTool

    if "invocation_id" not in inspect.signature(Runner.run_async).parameters:
        raise NotApplicable("Runner.run_async has no parameter invocation_id")
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
    from harness.adk import describe_part

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


async def replay(*, tool_result, pass_invocation_id: bool = True) -> Observation:
    """Transfer to the worker, then answer each long-running call it pauses on."""
    from google.adk.agents import LlmAgent
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    from harness.adk import ScriptedLlm, calls, text

    App, ResumabilityConfig, Runner, LongRunningFunctionTool = _api()
    pick_slot, confirm_booking = _tools(tool_result)
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
    invocation_id = None
    label = "run 1: user 'Book me a slot on Monday.'"

    while True:
        worker_calls_before = len(worker_llm.requests)
        kwargs = {"invocation_id": invocation_id} if invocation_id and pass_invocation_id else {}
        events = []
        async for event in runner.run_async(user_id=USER, session_id=session.id, new_message=message, **kwargs):
            events.append(event)
        for e in events:
            for p in e.content.parts if e.content and e.content.parts else []:
                fc = p.function_call
                if fc is not None and fc.id in set(e.long_running_tool_ids or ()) and fc.id not in answered:
                    lro_calls.append((e.invocation_id, fc))
        timeline.append(f"{label} -> {len(events)} events")
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
        invocation_id, fc = pending[0]
        answered.add(fc.id)
        message = types.Content(
            role="user",
            parts=[types.Part(function_response=types.FunctionResponse(id=fc.id, name=fc.name, response=CLIENT_RESPONSES[fc.name]))],
        )
        under = f"under {ids('inv', invocation_id)}" if pass_invocation_id else "as a new message (no invocation_id)"
        label = f"resume {len(runs)}: function response {fc.name} -> {CLIENT_RESPONSES[fc.name]} {under}"

    if tool_result is not None and not runs[0]["paused"] and len(runs) == 1:
        raise NotApplicable(
            "this release does not pause on a long-running tool that returned a value: the worker made "
            f"{len(worker_llm.requests)} model calls in the first run (answered: {runs[0]['answer']}), nothing to resume"
        )
    return Observation(
        timeline=timeline,
        facts={"runs": runs, "worker_calls": len(worker_llm.requests), "tool_result": tool_result},
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


# --- builds that prove the oracles (tests only) ------------------------------------------


def _premature_end_of_agent():
    """The orchestrator's sub-agent-resume branch before the fix: it ends itself even when
    the sub-agent paused again (google/adk/agents/llm_agent.py ``_run_async_impl``, 1.27-1.39)."""
    import contextlib

    from google.adk.agents import LlmAgent
    from google.adk.agents.base_agent import BaseAgentState

    original = LlmAgent._run_async_impl

    async def _run_async_impl(self, ctx):
        agent_state = self._load_agent_state(ctx, BaseAgentState)
        if agent_state is not None and (agent_to_transfer := self._get_subagent_to_resume(ctx)):
            async for event in agent_to_transfer.run_async(ctx):
                yield event
            ctx.set_agent_state(self.name, end_of_agent=True)
            yield self._create_agent_state_event(ctx)
            return
        async for event in original(self, ctx):
            yield event

    @contextlib.contextmanager
    def patch():
        LlmAgent._run_async_impl = _run_async_impl
        try:
            yield
        finally:
            LlmAgent._run_async_impl = original

    return patch()


PINNED = AsInstalled("the pinned release resumes the sub-agent after both pauses")
PREMATURE_END = InProcess(
    "the orchestrator's sub-agent-resume branch as in 1.27-1.39 (end_of_agent after any resume)",
    _premature_end_of_agent,
)

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
        "Every resume with the paused call's function response reaches the sub-agent's model, "
        "which goes on to answer."
    ),
    cases=(
        Case(
            "pending-status-tools",
            lambda: replay(tool_result={"status": "pending"}),
            judge,
            {"reproduced": PREMATURE_END, "fixed": PINNED},
            "the long-running tools return {'status': 'pending'} (the thread's and ADK docs' pattern)",
        ),
        Case(
            "response-as-new-message",
            lambda: replay(tool_result={"status": "pending"}, pass_invocation_id=False),
            judge,
            {"reproduced": PREMATURE_END, "fixed": PINNED},
            "pending-status tools; each function response is sent as a new message, without invocation_id",
        ),
        Case(
            "no-result-tools",
            lambda: replay(tool_result=None),
            judge,
            {"reproduced": PREMATURE_END, "fixed": PINNED},
            "the long-running tools return None: the client's function response is the only one",
        ),
    ),
)
