# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: an LlmAgent's `output_key` is not written when `before_agent_callback` answers.

Upstream: https://github.com/google/adk-python/issues/4837, PR https://github.com/google/adk-python/pull/4838.
An `LlmAgent(output_key="result")` whose `before_agent_callback` returns `types.Content` (a cache
hit) shows the callback's text as its answer but never writes `session.state["result"]`: LlmAgent
saves its output in `__maybe_save_output_to_state` (google/adk/agents/llm_agent.py), and the
callback's event, built by BaseAgent's `_handle_before_agent_callback`, never passes through it.

The thread's agent on an InMemorySessionService; its model a `BaseLlm` stand-in that answers
"fresh answer from the model" (and must not be called when the callback answers). Cases:
`callback-content` (the thread's), `callback-state-and-content` (the callback also sets
state["cache_hit"]: both keys must land), `model-output` (control: the callback returns None, the
model answers). Prints the session's events, the state and the model calls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

CASES = {
    "callback-content": dict(answer=True),
    "callback-state-and-content": dict(answer=True, write_state=True),
    "model-output": dict(answer=False),
}
CACHED = "cached answer"  # the thread's callback text
FRESH = "fresh answer from the model"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, answer, write_state=False):
    """Run the thread's agent once; say the session; return what the verdict reads."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class StandInLlm(BaseLlm):
        """Counts its calls; each answers with FRESH."""

        calls: int = 0

        async def generate_content_async(self, llm_request, stream=False):
            self.calls += 1
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=FRESH)]))

    def cache_callback(callback_context):
        if write_state:
            callback_context.state["cache_hit"] = True
        return types.Content(parts=[types.Part(text=CACHED)]) if answer else None  # no role, as in the thread

    llm = StandInLlm(model="stand-in")
    agent = LlmAgent(
        name="my_agent",
        model=llm,
        instruction="Answer questions.",
        output_key="result",
        before_agent_callback=cache_callback,
    )
    sessions = InMemorySessionService()
    runner = Runner(app_name="test", agent=agent, session_service=sessions)
    session = await settled(sessions.create_session(app_name="test", user_id="user1"))
    message = types.Content(role="user", parts=[types.Part(text="What is the answer?")])
    async for _ in runner.run_async(user_id="user1", session_id=session.id, new_message=message):
        pass
    session = await settled(sessions.get_session(app_name="test", user_id="user1", session_id=session.id))
    answers = []
    for event in session.events:
        text = "".join(p.text or "" for p in event.content.parts) if event.content and event.content.parts else ""
        role = event.content.role if event.content else None
        delta = json.dumps(dict(event.actions.state_delta or {}), sort_keys=True, default=str)
        say(f"{event.author} ({role}) {text!r} state_delta={delta}")
        if event.author == "my_agent" and text:
            answers.append(text)
    state = dict(session.state)
    say(f"state {json.dumps(state, sort_keys=True, default=str)}")
    say(f"model calls: {llm.calls}")
    return dict(state=state, answers=answers, model_calls=llm.calls, callback_answers=answer, write_state=write_state)


def judge(facts):
    """(outcome, detail): state["result"] holds the answer shown; the callback's own key is kept."""
    state, calls = facts["state"], facts["model_calls"]
    expected, expected_calls = (CACHED, 0) if facts["callback_answers"] else (FRESH, 1)
    if facts["answers"] != [expected] or calls != expected_calls:
        return "unexpected", (
            f"the agent answered {facts['answers']} after {calls} model call{'s' if calls != 1 else ''}, "
            f"expected [{expected!r}] after {expected_calls}"
        )
    result = f"state['result'] = {state['result']!r}" if "result" in state else "state has no 'result'"
    if facts["write_state"]:
        own = f"state['cache_hit'] = {state['cache_hit']!r}" if "cache_hit" in state else "state has no 'cache_hit'"
        figures = f"{result}, {own}"
        if state.get("result") == CACHED and state.get("cache_hit") is True:
            return "fixed", figures
        if state.get("result") in (CACHED, None) and state.get("cache_hit") in (True, None):
            return "reproduced", f"{figures}; expected both 'result' and 'cache_hit'"
        return "unexpected", figures
    who = f"the callback answered {CACHED!r}" if facts["callback_answers"] else "the model answered"
    if state.get("result") == expected:
        return "fixed", f"{who}; {result}"
    return ("reproduced" if "result" not in state else "unexpected"), f"{who}, but {result}"


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
