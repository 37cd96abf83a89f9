"""google-adk: new text under the same invocation_id must still be recorded (non-regression, #4506).

Bug: https://github.com/google/adk-python/issues/4506, a retry under the same invocation_id
recorded the user turn twice. Proposed fix: google/adk-python#6685 (skip the append only for
an identical message with an identical state_delta); 2.9.0 shipped a guard on the invocation
alone.

A non-regression case of that fix: a plain app sends 'hello' under the caller's own
``invocation_id``, then 'hello again' under the same id, to an echo agent (no model). The
second message is new text, not a duplicate, so it must be recorded. ``reproduced`` means the
fix went too far: the guard dropped the different message (the 2.9.0 invocation-only guard
does); ``fixed``: both messages are in the session.

Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, another behaviour, any error).
"""

import asyncio
import inspect
import sys

APP, USER, TASK_ID = "retry_app", "user-1", "inv-task-retry"


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

    if "invocation_id" not in inspect.signature(Runner.run_async).parameters:
        print("verdict: cannot judge (Runner.run_async has no invocation_id parameter)")
        return 125
    sessions = InMemorySessionService()
    runner = Runner(app_name=APP, agent=EchoAgent(name="root_agent"), session_service=sessions)
    session = await sessions.create_session(app_name=APP, user_id=USER)
    for text in ("hello", "hello again"):  # two different messages under one invocation id
        message = types.Content(role="user", parts=[types.Part(text=text)])
        async for _event in runner.run_async(
            user_id=USER, session_id=session.id, new_message=message, invocation_id=TASK_ID
        ):
            pass

    session = await sessions.get_session(app_name=APP, user_id=USER, session_id=session.id)
    for e in session.events:
        text = e.content.parts[0].text if e.content and e.content.parts else None
        print(f"[{e.invocation_id}] {e.author}: {text!r}")
    if not any(e.invocation_id == TASK_ID for e in session.events):
        print(f"verdict: cannot judge (run_async ignored invocation_id={TASK_ID!r} on a non-resumable app)")
        return 125
    texts = [e.content.parts[0].text for e in session.events if e.author == "user" and e.invocation_id == TASK_ID]
    if texts == ["hello", "hello again"]:
        print(f"verdict: fixed (both messages recorded for {TASK_ID}: {texts})")
        return 0
    if texts == ["hello"]:
        print(f"verdict: reproduced (the different message was dropped: {texts} for {TASK_ID}, expected 2)")
        return 3
    print(f"verdict: cannot judge (user events for {TASK_ID}: {texts})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
