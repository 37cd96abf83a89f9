# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a sub-agent paused on its second long-running tool never resumes.

Upstream: https://github.com/google/adk-python/issues/5349 (community fix
https://github.com/google/adk-python/pull/5385, closed unmerged). In a resumable App the
orchestrator transfers to a worker with two LongRunningFunctionTools called one after the other.
The client answers each pause with the function response as the next new_message; after the
second answer the runner ends at once: no model call, no answer. The orchestrator's sub-agent
resume branch (google/adk/agents/llm_agent.py `_run_async_impl`) set `end_of_agent` for itself
even when the sub-agent had paused again.

Faked: both agents' models (a `BaseLlm` subclass replaying scripted turns); the tools return
{"status": "pending"}. Prints each run's events (author, parts, transfer, end_of_agent,
`[long-running]` calls) and the worker's model calls per run.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

CASES = {"response-as-new-message": {}}
ANSWER = "booked"
REPLIES = {"pick_slot": {"slot": "9am"}, "confirm_booking": {"confirmed": True}}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say):
    """Transfer to the worker, then answer each long-running call it pauses on, as a new message."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    try:
        from google.adk.apps import App, ResumabilityConfig
        from google.adk.tools import LongRunningFunctionTool
    except ImportError as exc:
        raise NotApplicable(f"no resumable apps in this release: {exc}") from exc

    call = types.Part.from_function_call
    script = {  # each agent's model turns, in order
        "orchestrator": [call(name="transfer_to_agent", args={"agent_name": "worker"})],
        "worker": [call(name="pick_slot", args={"day": "monday"}), call(name="confirm_booking", args={"slot": "9am"})]
        + [types.Part(text=ANSWER)],
    }
    model_calls = {"orchestrator": 0, "worker": 0}

    class ScriptedLlm(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            model_calls[self.model] += 1
            yield LlmResponse(content=types.Content(role="model", parts=[script[self.model].pop(0)]))

    def pick_slot(day: str) -> dict:
        """Asks the user to pick a time slot for the day."""
        return {"status": "pending"}

    def confirm_booking(slot: str) -> dict:
        """Asks the user to confirm the booking of the slot."""
        return {"status": "pending"}

    def describe(p, lro):
        fc, fr = p.function_call, p.function_response
        if fc:
            return f"call {fc.name}({fc.args})" + (" [long-running]" if fc.id in lro else "")
        return f"response {fr.name} -> {fr.response}" if fr else repr(p.text)

    tools = [LongRunningFunctionTool(pick_slot), LongRunningFunctionTool(confirm_booking)]
    worker = LlmAgent(name="worker", model=ScriptedLlm(model="worker"), description="Books slots.", tools=tools)
    root = LlmAgent(name="orchestrator", model=ScriptedLlm(model="orchestrator"), sub_agents=[worker])
    app = App(name="booking", root_agent=root, resumability_config=ResumabilityConfig(is_resumable=True))
    sessions = InMemorySessionService()
    runner = Runner(app=app, session_service=sessions)
    session = await settled(sessions.create_session(app_name="booking", user_id="u"))
    message = types.Content(role="user", parts=[types.Part(text="Book me a slot on Monday.")])
    lro_calls, runs = [], []
    for n in range(1, 4):  # the first message, then up to two resumes
        before, answered = model_calls["worker"], False
        async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            lro = set(event.long_running_tool_ids or ())
            lro_calls += [fc for fc in event.get_function_calls() if fc.id in lro]
            parts = event.content.parts if event.content and event.content.parts else []
            answered |= event.author == "worker" and any(p.text == ANSWER for p in parts)
            body = [describe(p, lro) for p in parts] or ["<no content>"]
            if event.actions.transfer_to_agent:
                body.append(f"transfer_to_agent={event.actions.transfer_to_agent}")
            if getattr(event.actions, "end_of_agent", None):
                body.append("end_of_agent")
            say(f"run {n}: {event.author}: {', '.join(body)}")
        # Paused: the worker's model has not been asked again since its last long-running call.
        paused = len(lro_calls) > n - 1 and model_calls["worker"] == len(lro_calls)
        runs.append(dict(worker_calls=model_calls["worker"] - before, paused=paused, answer=answered))
        say(f"run {n}: worker model calls {model_calls['worker'] - before}, paused {paused}")
        if not paused:
            break
        fc = lro_calls[-1]
        reply = types.FunctionResponse(id=fc.id, name=fc.name, response=REPLIES[fc.name])
        message = types.Content(role="user", parts=[types.Part(function_response=reply)])
    if len(runs) == 1:
        raise NotApplicable(
            "this release does not pause on a long-running tool that returned a value: the worker made "
            f"{model_calls['worker']} model calls in the first run (answered: {runs[0]['answer']}), nothing to resume"
        )
    return dict(runs=runs, worker_calls=model_calls["worker"])


def judge(facts):
    """(outcome, detail): each resume must reach the worker's model, which answers after 3 calls."""
    runs, total = facts["runs"], facts["worker_calls"]
    resumes, answered = runs[1:], any(r["answer"] for r in runs)
    pauses = sum(1 for r in runs if r["paused"])
    for n, run in enumerate(resumes, start=1):
        if run["worker_calls"] == 0:
            return "reproduced", (
                f"resume {n} (after {pauses} pause{'s' if pauses != 1 else ''}) reached no model call: "
                f"the invocation ended; worker model calls {total} of 3, no answer"
            )
    if answered and total == 3 and len(resumes) == 2:
        return (
            "fixed",
            f"both resumes reached the worker's model ({total} worker model calls), which answered {ANSWER!r}",
        )
    return "unexpected", (
        f"{len(resumes)} resumes, {pauses} pauses, worker model calls {total}, answered {answered}; "
        "expected 2 resumes each reaching the worker's model"
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
