"""Control for #4564: a temp: output_key is never persisted in the stored session state.

Bug: https://github.com/google/adk-python/issues/4564 (fix proposed in PR #4618).
A SequentialAgent runs a writer LlmAgent (output_key="temp:draft", a scripted model that
answers with a draft) and a reviewer; the session is then read back from the
InMemorySessionService. Whatever a release does within the invocation, the stored state must
hold no temp: key.

reproduced (the control broke): the stored session state holds "temp:draft".
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys

DRAFT = "Draft: ship on Friday."


async def main() -> int:
    from google.adk.agents import LlmAgent, SequentialAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class OneReply(BaseLlm):
        reply: str = ""

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=self.reply)]))

    writer = LlmAgent(
        name="writer", model=OneReply(model="w", reply=DRAFT), instruction="Write a draft.", output_key="temp:draft"
    )
    reviewer = LlmAgent(
        name="reviewer", model=OneReply(model="r", reply="Looks good."), instruction="Review the draft."
    )
    pipeline = SequentialAgent(name="pipeline", sub_agents=[writer, reviewer])
    sessions = InMemorySessionService()
    session = await sessions.create_session(app_name="app", user_id="user")
    runner = Runner(app_name="app", agent=pipeline, session_service=sessions)
    message = types.Content(role="user", parts=[types.Part(text="Write the release note.")])
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        print(f"event {event.author} state_delta={dict(event.actions.state_delta)}")
    stored = await sessions.get_session(app_name="app", user_id="user", session_id=session.id)
    state = dict(stored.state)
    print(f"stored state: {state}")
    temp_keys = sorted(k for k in state if k.startswith("temp:"))
    if not temp_keys:
        print("verdict: fixed (the stored session state holds no temp: key)")
        return 0
    if temp_keys == ["temp:draft"]:
        print(f"verdict: reproduced (the stored session state holds 'temp:draft' = {state['temp:draft']!r})")
        return 3
    print(f"verdict: cannot judge (stored temp: keys {temp_keys})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
