# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: parallel function calls in one model turn keep only the last call's actions.

Upstream: https://github.com/google/adk-python/issues/1938 (and #1971). When one model response
holds several function calls, ADK merges their function-response events into one
(`merge_parallel_function_response_events`); the merge let each call's `EventActions` replace the
previous ones, so an earlier state write, or an earlier `transfer_to_agent`, is lost. The fix
deep-merges the actions of every call.

A scripted `BaseLlm` answers the root agent with the case's calls in one response, then "Saved.";
a helper agent's answers "Helper here.". Prints the session's events with their actions, the state
and each agent's model calls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

CITY = ("set_state", {"key": "city", "value": "Paris"})
UNIT = ("set_state", {"key": "unit", "value": "celsius"})
TRANSFER = ("transfer_to_agent", {"agent_name": "helper_agent"})
CASES = {
    "two-state-writes": dict(calls=(CITY, UNIT)),
    "state-then-transfer": dict(calls=(CITY, TRANSFER)),
    "transfer-then-state": dict(calls=(TRANSFER, CITY)),
}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, calls):
    """Run one turn whose model response holds `calls`; say the session; return what the verdict reads."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.adk.tools import ToolContext
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """A stand-in model: each call answers with the next list of parts."""

        replies: list
        calls: int = 0

        async def generate_content_async(self, llm_request, stream=False):
            self.calls += 1
            yield LlmResponse(content=types.Content(role="model", parts=self.replies.pop(0)))

    def set_state(key: str, value: str, tool_context: ToolContext) -> dict:
        """Stores a value in the session state under a key."""
        tool_context.state[key] = value
        return {"stored": key}

    def part(p):
        fc, fr = p.function_call, p.function_response
        return (
            f"call {fc.name}({json.dumps(fc.args, sort_keys=True)})"
            if fc
            else f"response {fr.name}"
            if fr
            else repr(p.text)
        )

    transfer = any(name == "transfer_to_agent" for name, _ in calls)
    helper_llm = ScriptedLlm(model="helper", replies=[[types.Part(text="Helper here.")]])
    helper = LlmAgent(name="helper_agent", model=helper_llm, instruction="Help the user.", description="The helper.")
    parts = [types.Part(function_call=types.FunctionCall(name=name, args=args)) for name, args in calls]
    root_llm = ScriptedLlm(model="root", replies=[parts, [types.Part(text="Saved.")]])
    root = LlmAgent(
        name="root_agent",
        model=root_llm,
        instruction="Store what the user says with set_state.",
        tools=[set_state],
        sub_agents=[helper] if transfer else [],
    )
    runner = InMemoryRunner(agent=root, app_name="app")
    session = await settled(runner.session_service.create_session(app_name="app", user_id="user"))
    message = types.Content(role="user", parts=[types.Part(text="Remember where I live.")])
    async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        pass
    session = await settled(runner.session_service.get_session(app_name="app", user_id="user", session_id=session.id))
    answered_by = None
    for e in session.events:
        actions = e.actions.model_dump(exclude_none=True)
        shown = " ".join(
            f"{k}={json.dumps(v, sort_keys=True, default=str)}" for k, v in actions.items() if v not in ({}, [])
        )
        say(f"{e.author}: {', '.join(map(part, e.content.parts))} {shown}".rstrip())
        if e.author != "user" and any(p.text for p in e.content.parts):
            answered_by = e.author
    state = dict(session.state)
    say(f"state {json.dumps(state, sort_keys=True)}")
    say(f"model calls: root_agent {root_llm.calls}, helper_agent {helper_llm.calls}")
    wanted = {args["key"]: args["value"] for name, args in calls if name == "set_state"}
    return dict(state=state, answered_by=answered_by, wanted_state=wanted, transfer=transfer)


def judge(facts):
    """(outcome, detail): every call's effect must survive the merge: each state write, and a requested transfer."""
    state, wanted, answered_by = facts["state"], facts["wanted_state"], facts["answered_by"]
    lost = sorted(k for k, v in wanted.items() if state.get(k) != v)
    kept = sorted(k for k in wanted if k not in lost)
    extra = sorted(k for k in state if k not in wanted)
    figures = f"state keys kept {kept}, lost {lost}; final answer by {answered_by}"
    if extra or answered_by not in ("root_agent", "helper_agent"):
        note = f"; unexpected state keys {extra}" if extra else ""
        return "unexpected", f"{figures}{note}"
    transfer_lost = facts["transfer"] and answered_by != "helper_agent"
    if not lost and not transfer_lost:
        return "fixed", figures
    if len(lost) + transfer_lost == 1:
        what = "the transfer to helper_agent" if transfer_lost else f"the write of {lost[0]!r}"
        return "reproduced", f"{figures}: the merge of the parallel calls' actions dropped {what}"
    want = "helper_agent" if facts["transfer"] else "root_agent"
    return "unexpected", f"{figures}, expected {want} and every key"


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
