"""google-adk: a retry carrying a new state_delta must still be recorded (non-regression, #4506).

Bug: https://github.com/google/adk-python/issues/4506, a retry under the same invocation_id
recorded the user turn twice. Proposed fix: google/adk-python#6685 (skip the append only for
an identical message with an identical state_delta); 2.9.0 shipped a guard on the invocation
alone.

A non-regression case of that fix: a plain app's task queue sends the message under its own
``invocation_id``, then retries it with the same id and text plus a new ``state_delta``, to an
echo agent (no model). The retry still has an effect to persist, so it must be recorded.
``reproduced`` means the fix went too far: the guard dropped the retry and its state_delta
(the 2.9.0 invocation-only guard does); ``fixed``: the state_delta reached the session state.

Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, another behaviour, any error).
"""

import asyncio
import inspect
import sys

APP, USER, TASK_ID = "retry_app", "user-1", "inv-task-retry"
RETRY_DELTA = {"delivery": "retry"}


async def main() -> int:
    from google.adk.agents import BaseAgent
    from google.adk.events import Event
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class EchoAgent(BaseAgent):
        """One model event per invocation, no model call."""

        async def _run_async_impl(self, ctx):
            yield Event(
                invocation_id=ctx.invocation_id,
                author=self.name,
                content=types.Content(role="model", parts=[types.Part(text="ack")]),
            )

    params = inspect.signature(Runner.run_async).parameters
    if "invocation_id" not in params or "state_delta" not in params:
        print("verdict: cannot judge (Runner.run_async has no invocation_id or state_delta parameter)")
        return 125
    sessions = InMemorySessionService()
    runner = Runner(app_name=APP, agent=EchoAgent(name="root_agent"), session_service=sessions)
    session = await sessions.create_session(app_name=APP, user_id=USER)
    message = types.Content(role="user", parts=[types.Part(text="hello")])
    for delta in (None, RETRY_DELTA):  # the delivery, then the queue's retry with a new delta
        async for _event in runner.run_async(
            user_id=USER, session_id=session.id, new_message=message, invocation_id=TASK_ID, state_delta=delta
        ):
            pass

    session = await sessions.get_session(app_name=APP, user_id=USER, session_id=session.id)
    for e in session.events:
        text = e.content.parts[0].text if e.content and e.content.parts else None
        delta = f" state_delta={e.actions.state_delta}" if e.actions.state_delta else ""
        print(f"[{e.invocation_id}] {e.author}: {text!r}{delta}")
    print(f"state: {dict(session.state)}")
    if not any(e.invocation_id == TASK_ID for e in session.events):
        print(f"verdict: cannot judge (run_async ignored invocation_id={TASK_ID!r} on a non-resumable app)")
        return 125
    n = sum(1 for e in session.events if e.author == "user" and e.invocation_id == TASK_ID)
    persisted = session.state.get("delivery") == "retry"
    figures = f"{n} user event{'s' if n != 1 else ''} for {TASK_ID}; the retry's state_delta"
    if persisted and n <= 2:
        print(f"verdict: fixed ({figures} persisted)")
        return 0
    if not persisted and n == 1:
        print(f"verdict: reproduced ({figures} dropped with the retry)")
        return 3
    print(f"verdict: cannot judge ({figures} {'persisted' if persisted else 'dropped'})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
