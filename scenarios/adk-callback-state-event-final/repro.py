# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: an agent callback that only writes state yields an empty event marked as final.

Upstream: https://github.com/google/adk-python/issues/7078 (reported earlier as
https://github.com/google/adk-python/issues/2992; the after-callback path: issues/772). A
before_agent_callback that changes state and returns None makes BaseAgent yield an extra event with
no content that carries the state delta (_handle_agent_callbacks, google/adk/agents/base_agent.py).
Its is_final_response() is True (google/adk/events/event.py), so the loop the documentation teaches
(`if event.is_final_response(): text = ...; break`) stops there and the user gets no answer. The
fix proposed in PR #7095 (open): https://github.com/google/adk-python/pull/7095: an event with no
content and no output but a non-empty state_delta is not a final response.

Faked: a BaseLlm that answers "Here is the answer.". `before-agent-state` (#2992's reproduction),
`after-agent-state` and `plugin-before-agent-state` (a plugin's before_agent_callback, on a
Runner(plugins=[...])): the callback sets state["my_state"] and returns None; the answer must be the
turn's only final response. `callback-answer-with-state` (control): a before_agent_callback that
writes state and returns the answer itself: that one event must stay a final response. Prints every
event run_async yields ([final] where is_final_response()), what a break-at-first-final loop reads,
the session state and the model's calls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import gc
import inspect
import json
import sys
import warnings

CASES = {
    "before-agent-state": dict(callback="before"),
    "after-agent-state": dict(callback="after"),
    "plugin-before-agent-state": dict(callback="plugin"),
    "callback-answer-with-state": dict(callback="before", answer=True),
}
ANSWER = "Here is the answer."
STATE_KEY, STATE_VALUE = "my_state", "hello"  # #2992's


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, callback, answer=False):
    """Ask once; say every event run_async yields and what a break-at-first-final loop reads."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    model_calls = []

    class AnsweringModel(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            model_calls.append(1)
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=ANSWER)]))

    def write_state(callback_context):  # returns None, or (answer) the answer itself
        callback_context.state[STATE_KEY] = STATE_VALUE
        return types.Content(role="model", parts=[types.Part(text=ANSWER)]) if answer else None

    extra = {}
    if callback == "plugin":
        if "plugins" not in inspect.signature(Runner.__init__).parameters:
            raise NotApplicable("Runner() takes no plugins in this release")
        from google.adk.plugins import BasePlugin

        class StatePlugin(BasePlugin):
            async def before_agent_callback(self, *, agent, callback_context):
                return write_state(callback_context)

        extra["plugins"] = [StatePlugin(name="state_plugin")]
    callbacks = {f"{callback}_agent_callback": write_state} if callback != "plugin" else {}
    agent = LlmAgent(name="assistant", model=AnsweringModel(model="fake"), instruction="Answer.", **callbacks)
    sessions = InMemorySessionService()
    runner = Runner(app_name="app", agent=agent, session_service=sessions, **extra)
    session = await settled(sessions.create_session(app_name="app", user_id="user"))
    message = types.Content(role="user", parts=[types.Part(text="Tell me something.")])
    yielded = []
    # A callback the runner called and never awaited would leave the state unwritten silently.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
            parts = event.content.parts if event.content else None
            text = "".join(p.text or "" for p in parts) if parts else None
            delta = dict(event.actions.state_delta or {}) if event.actions else {}
            yielded.append(dict(final=event.is_final_response(), text=text, delta=delta))
            final = "[final] " if yielded[-1]["final"] else ""
            say(f"{final}{event.author}: text {text!r} state_delta {json.dumps(delta, sort_keys=True)}")
        gc.collect()
    unawaited = [str(w.message) for w in caught if "was never awaited" in str(w.message)]
    loop_text = next((e["text"] for e in yielded if e["final"]), None)  # #2992's loop: break at the first final
    state = dict((await settled(sessions.get_session(app_name="app", user_id="user", session_id=session.id))).state)
    say(f"break-at-first-final loop reads: {loop_text!r}")
    say(f"state {json.dumps(state, sort_keys=True)}; model calls: {len(model_calls)}")
    return dict(answer=answer, yielded=yielded, loop_text=loop_text, state=state, unawaited=unawaited)


def judge(facts):
    """(outcome, detail): the answer is the turn's only final response; a state-only final event is the bug."""
    finals = [e for e in facts["yielded"] if e["final"]]
    empty = [e for e in finals if not e["text"]]
    answered = sum(e["text"] == ANSWER for e in facts["yielded"])
    figures = (
        f"{len(finals)} final response{'s' if len(finals) != 1 else ''} ({len(empty)} without content); "
        f"the break-at-first-final loop reads {facts['loop_text']!r}"
    )
    if answered != 1 or facts["state"].get(STATE_KEY) != STATE_VALUE:
        return "unexpected", f"{figures}; the answer was yielded {answered} times, state {json.dumps(facts['state'])}"
    if facts["unawaited"]:
        return "unexpected", figures + "; " + "; ".join(facts["unawaited"])
    if len(finals) == 1 and finals[0]["text"] == ANSWER:
        return "fixed", figures
    if facts["answer"]:  # the control: the callback's own answer carries the state_delta
        if not finals:
            return (
                "reproduced",
                figures + ": the callback's answer, which carries a state_delta, is not a final response",
            )
        return "unexpected", figures
    if empty and all(e["delta"] and not e["text"] for e in empty) and len(finals) == len(empty) + 1:
        return "reproduced", figures + ", expected 1 final response, the answer"
    return "unexpected", figures


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
