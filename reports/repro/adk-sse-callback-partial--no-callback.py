# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==2.13.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-23T18:26:35Z"
# ///
# adk-sse-callback-partial:no-callback. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   fixed / fixed: 1.6.1 (2025-07-10T00:04:41Z), 1.7.0 (2025-07-16T22:39:55Z),
#     1.39.1 (2026-08-27T21:55:07Z), 2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z),
#     2.2.0 (2026-06-04T22:15:16Z), 2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z),
#     2.5.0 (2026-07-16T20:43:07Z), 2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z),
#     2.8.0 (2026-08-26T23:26:21Z), 2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z),
#     2.11.0 (2026-10-02T00:46:26Z), 2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
"""google-adk #7035 control: with no callback, SSE deltas stay partial and one model event is stored.

https://github.com/google/adk-python/issues/7035 (fix: PR #7036 / #7038). A scripted model
streams three partial deltas then the final text; the agent has no callback (the behaviour
beside the bug, which must hold on every release).
Run with RunConfig(streaming_mode=StreamingMode.SSE), the script counts the events
run_async yields as partial and the model events the session stores.

reproduced (the control broke): the deltas lost their partial flag and the session stores
them as separate final model events; fixed: three partial deltas, and the session stores one model
event, the final text. Exit 0 fixed, 3 reproduced, 125 cannot judge.
"""

import asyncio
import sys

DELTAS = ["Hel", "lo ", "world"]
FINAL = "Hello world"


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.agents.run_config import RunConfig, StreamingMode
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    def reply(text, partial=None):
        return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]), partial=partial)

    class StreamingModel(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            if stream:
                for delta in DELTAS:
                    yield reply(delta, partial=True)
            yield reply(FINAL)

    agent = LlmAgent(name="assistant", model=StreamingModel(model="scripted"))
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=agent, session_service=sessions)
    session = await sessions.create_session(app_name="repro", user_id="u")
    question = types.Content(role="user", parts=[types.Part(text="Say hello.")])
    yielded = []
    async for event in runner.run_async(
        user_id="u",
        session_id=session.id,
        new_message=question,
        run_config=RunConfig(streaming_mode=StreamingMode.SSE),
    ):
        text = "".join(p.text or "" for p in event.content.parts) if event.content and event.content.parts else ""
        yielded.append((bool(event.partial), text))
        print(f"yielded partial={bool(event.partial)!s:5} {text!r}")
    session = await sessions.get_session(app_name="repro", user_id="u", session_id=session.id)
    stored = [
        "".join(p.text or "" for p in e.content.parts)
        for e in session.events
        if e.author == "assistant" and e.content and e.content.parts
    ]
    print(f"session stores {len(stored)} model event(s): {stored}")
    partials = sum(1 for is_partial, _ in yielded if is_partial)
    figures = f"{partials} partial event(s) yielded, {len(stored)} model event(s) stored"
    if partials < len(DELTAS) and len(stored) > 1:
        print(f"verdict: reproduced ({figures}: deltas persisted as final events)")
        return 3
    if partials == len(DELTAS) and stored == [FINAL]:
        print(f"verdict: fixed ({figures})")
        return 0
    print(f"verdict: cannot judge ({figures}: neither the bug nor the fix)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
