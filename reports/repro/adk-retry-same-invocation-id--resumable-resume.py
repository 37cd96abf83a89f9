# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==2.8.0",
# ]
# [tool.uv]
# exclude-newer = "2026-08-26T23:26:21Z"
# ///
# adk-retry-same-invocation-id:resumable-resume. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   reproduced / reproduced: 1.39.1 (2026-08-27T21:55:07Z), 2.0.0 (2026-05-19T16:17:11Z),
#     2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z), 2.3.0 (2026-06-18T18:47:09Z),
#     2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z), 2.6.3 (2026-08-07T21:18:45Z),
#     2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z)
#   fixed / fixed: 2.9.0 (2026-09-10T22:11:14Z), 2.9.2 (2026-09-18T18:10:47Z),
#     2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z), 2.12.0 (2026-10-13T16:42:59Z),
#     2.13.0 (2026-10-23T18:26:35Z)
"""google-adk: a retry with the same invocation_id records the user turn twice.

Issue: https://github.com/google/adk-python/issues/4506. Proposed fix: google/adk-python#6685
(skip the append only for an identical message with an identical state_delta); 2.9.0 shipped
a guard on the invocation alone.

A resumable App with an echo agent (no model): run a message, then resume that invocation
(``run_async(invocation_id=...)``) with the same message. ``reproduced``: the session holds
two user events for that invocation; ``fixed``: one.

Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, another behaviour, any error).
"""

import asyncio
import inspect
import sys

APP, USER = "retry_app", "user-1"


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
    try:
        from google.adk.apps import App, ResumabilityConfig
    except ImportError as exc:
        print(f"verdict: cannot judge (no resumable apps in this release: {exc})")
        return 125
    app = App(
        name=APP, root_agent=EchoAgent(name="root_agent"), resumability_config=ResumabilityConfig(is_resumable=True)
    )
    sessions = InMemorySessionService()
    runner = Runner(app=app, session_service=sessions)
    session = await sessions.create_session(app_name=APP, user_id=USER)
    message = types.Content(role="user", parts=[types.Part(text="hello")])
    run = runner.run_async(user_id=USER, session_id=session.id, new_message=message)
    invocation_id = [event.invocation_id async for event in run][-1]
    # Resume that invocation with the same message, as a client retrying a resume does.
    resume = runner.run_async(user_id=USER, session_id=session.id, new_message=message, invocation_id=invocation_id)
    async for _event in resume:
        pass

    session = await sessions.get_session(app_name=APP, user_id=USER, session_id=session.id)
    for e in session.events:
        text = e.content.parts[0].text if e.content and e.content.parts else None
        print(f"[{e.invocation_id}] {e.author}: {text!r}")
    n = sum(1 for e in session.events if e.author == "user" and e.invocation_id == invocation_id)
    if n == 2:
        print(f"verdict: reproduced (2 user events for {invocation_id}, expected 1)")
        return 3
    if n == 1:
        print(f"verdict: fixed (1 user event for {invocation_id})")
        return 0
    print(f"verdict: cannot judge ({n} user events for {invocation_id})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
