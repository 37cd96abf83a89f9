# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: retrying `run_async` with the same invocation_id records the user turn twice.

Upstream: https://github.com/google/adk-python/issues/4506 (seed fix:
https://github.com/google/adk-python/pull/6685; https://github.com/google/adk-python/pull/4526).
`Runner._append_new_message_to_session` appended the user event with no check for an earlier one
in the same invocation: resuming a resumable app, or a task queue's retry on a plain app (a
caller-supplied invocation_id), left two identical user events, replayed to the model as history.
The seed PR skips only the same content with the same state_delta: a retry with a new delta or
new text must still be recorded (there `reproduced` means a guard that is too broad).

Faked: the agent (a `BaseAgent` echoing "ack", no model). Prints the session's events
(`[invocation] author (role) 'text' state_delta={...}`) after both deliveries and the state of
the retry's delta key.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

FIRST_TEXT, RETRY_TEXT = "hello", "hello again"
TASK_ID = "inv-task-retry"  # the task queue's own id
RETRY_DELTA = {"delivery": "retry"}
CASES = {
    "resumable-resume": dict(resumable=True),
    "non-resumable-retry": dict(resumable=False),
    "retry-new-state-delta": dict(resumable=False, retry_delta=RETRY_DELTA),
    "retry-different-message": dict(resumable=False, retry_text=RETRY_TEXT),
}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, resumable, retry_text=FIRST_TEXT, retry_delta=None):
    """Deliver a message, then deliver it again under the same invocation id."""
    from google.adk.agents import BaseAgent
    from google.adk.events import Event
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class EchoAgent(BaseAgent):
        async def _run_async_impl(self, ctx):
            content = types.Content(role="model", parts=[types.Part(text="ack")])
            yield Event(invocation_id=ctx.invocation_id, author=self.name, content=content)

    params = inspect.signature(Runner.run_async).parameters
    missing = [n for n in ("invocation_id", *(["state_delta"] if retry_delta else [])) if n not in params]
    if missing:
        raise NotApplicable(f"Runner.run_async has no parameter {', '.join(missing)}")
    sessions = InMemorySessionService()
    if resumable:
        try:
            from google.adk.apps import App, ResumabilityConfig
        except ImportError as exc:
            raise NotApplicable(f"no resumable apps in this release: {exc}") from exc
        config = ResumabilityConfig(is_resumable=True)
        app = App(name="retry_app", root_agent=EchoAgent(name="root_agent"), resumability_config=config)
        runner = Runner(app=app, session_service=sessions)
    else:
        runner = Runner(app_name="retry_app", agent=EchoAgent(name="root_agent"), session_service=sessions)
    session = await sessions.create_session(app_name="retry_app", user_id="u")

    async def deliver(text, invocation_id, state_delta=None):
        extra = {k: v for k, v in dict(invocation_id=invocation_id, state_delta=state_delta).items() if v is not None}
        message = types.Content(role="user", parts=[types.Part(text=text)])
        try:
            events = [
                e async for e in runner.run_async(user_id="u", session_id=session.id, new_message=message, **extra)
            ]
        except (ValueError, NotImplementedError) as exc:  # "invocation_id is only supported for resumable apps"
            if "support" in str(exc).lower() or "resum" in str(exc).lower():
                raise NotApplicable(f"google-adk refused the retry: {type(exc).__name__}: {exc}") from exc
            raise
        return events[-1].invocation_id if events else None

    first_id = await deliver(FIRST_TEXT, None if resumable else TASK_ID)
    retry_id = first_id if resumable else TASK_ID
    await deliver(retry_text, retry_id, retry_delta)
    session = await sessions.get_session(app_name="retry_app", user_id="u", session_id=session.id)
    if not resumable and not any(e.invocation_id == TASK_ID for e in session.events):
        raise NotApplicable(  # 1.x gives a non-resumable app's invocation a fresh id: no path 2
            "Runner.run_async ignores the caller's invocation_id on a non-resumable app: "
            f"{len({e.invocation_id for e in session.events})} invocations recorded, none with {TASK_ID!r}"
        )
    for e in session.events:
        text = " ".join(repr(p.text) for p in e.content.parts) if e.content and e.content.parts else "<no content>"
        delta = f" state_delta={json.dumps(e.actions.state_delta)}" if e.actions.state_delta else ""
        say(f"[{e.invocation_id}] {e.author} ({e.content.role if e.content else None}) {text}{delta}")
    state = {k: session.state.get(k) for k in RETRY_DELTA}
    say(f"state {json.dumps(state)}")
    return dict(
        invocation=TASK_ID if retry_id == TASK_ID else "the resumed invocation",
        user_texts=[
            "".join(p.text or "" for p in e.content.parts)
            for e in session.events
            if e.author == "user" and e.invocation_id == retry_id and e.content
        ],
        delta_persisted=state == RETRY_DELTA,
        kind="delta" if retry_delta else "text" if retry_text != FIRST_TEXT else "duplicate",
    )


def judge(facts):
    """(outcome, detail): the same message once; a new state_delta persisted; new text recorded."""
    texts, inv = facts["user_texts"], facts["invocation"]
    n = len(texts)
    events = f"{n} user event{'s' if n != 1 else ''} for {inv}"
    if facts["kind"] == "duplicate":
        if n in (1, 2):
            return ("fixed" if n == 1 else "reproduced"), f"{events}, expected 1"
        return "unexpected", f"{events}, expected 1 (neither the duplicate nor the single event)"
    if facts["kind"] == "delta":
        persisted = facts["delta_persisted"]
        figures = f"{events}; retry's state_delta {'persisted' if persisted else 'dropped'}"
        if persisted and n <= 2:
            return "fixed", figures
        if not persisted and n == 1:
            return "reproduced", f"{figures} (the guard dropped a delta left to persist)"
        return "unexpected", figures
    if texts == [FIRST_TEXT, RETRY_TEXT]:
        return "fixed", f"both messages recorded for {inv}: {texts}"
    if texts == [FIRST_TEXT]:
        return "reproduced", f"the retry's different message was dropped: {texts} for {inv}, expected 2 messages"
    return "unexpected", f"user events for {inv}: {texts}, expected [{FIRST_TEXT!r}, {RETRY_TEXT!r}]"


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
