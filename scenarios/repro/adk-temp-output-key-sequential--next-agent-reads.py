"""output_key="temp:draft" in a SequentialAgent: the next agent reads nothing under the key.

Bug: https://github.com/google/adk-python/issues/4564 (fix proposed in PR #4618).
A SequentialAgent runs a writer LlmAgent (output_key="temp:draft", a scripted model that
answers with a draft) and then a reviewer whose before_agent_callback reads
state["temp:draft"]. A temp: key should live for the whole invocation.

reproduced: the reviewer's callback reads nothing under "temp:draft".
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

    seen = {}

    def before_reviewer(callback_context):
        seen["reviewer"] = callback_context.state.get("temp:draft", "<missing>")

    writer = LlmAgent(
        name="writer", model=OneReply(model="w", reply=DRAFT), instruction="Write a draft.", output_key="temp:draft"
    )
    reviewer = LlmAgent(
        name="reviewer",
        model=OneReply(model="r", reply="Looks good."),
        instruction="Review the draft.",
        before_agent_callback=before_reviewer,
    )
    pipeline = SequentialAgent(name="pipeline", sub_agents=[writer, reviewer])
    sessions = InMemorySessionService()
    session = await sessions.create_session(app_name="app", user_id="user")
    runner = Runner(app_name="app", agent=pipeline, session_service=sessions)
    message = types.Content(role="user", parts=[types.Part(text="Write the release note.")])
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        text = "".join(p.text or "" for p in (event.content.parts or [])) if event.content else ""
        print(f"event {event.author}: {text!r} state_delta={dict(event.actions.state_delta)}")
    value = seen.get("reviewer")
    print(f"reviewer's before_agent_callback read state['temp:draft'] = {value!r}")
    if value == DRAFT:
        print(f"verdict: fixed (the next agent read {DRAFT!r})")
        return 0
    if value == "<missing>":
        print("verdict: reproduced (the next agent read nothing under 'temp:draft')")
        return 3
    print(f"verdict: cannot judge (the reviewer read {value!r})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
