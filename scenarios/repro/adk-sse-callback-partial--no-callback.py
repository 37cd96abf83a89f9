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
