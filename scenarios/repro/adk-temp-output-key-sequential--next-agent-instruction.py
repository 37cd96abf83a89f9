"""output_key="temp:draft" in a SequentialAgent: the next agent's {temp:draft} template fails.

Bug: https://github.com/google/adk-python/issues/4564 (fix proposed in PR #4618).
A SequentialAgent runs a writer LlmAgent (output_key="temp:draft", a scripted model that
answers with a draft) and then a reviewer whose instruction is "Review this draft: {temp:draft}".
A temp: key should live for the whole invocation, so the reviewer's model is asked with the
draft filled in.

reproduced: the run ends with KeyError 'Context variable not found: `temp:draft`' before the
reviewer's model is called.
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

    asked = []

    class OneReply(BaseLlm):
        reply: str = ""

        async def generate_content_async(self, llm_request, stream=False):
            asked.append(str(llm_request.config.system_instruction).split("\n\n")[0])
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=self.reply)]))

    writer = LlmAgent(
        name="writer", model=OneReply(model="w", reply=DRAFT), instruction="Write a draft.", output_key="temp:draft"
    )
    reviewer = LlmAgent(
        name="reviewer", model=OneReply(model="r", reply="Looks good."), instruction="Review this draft: {temp:draft}"
    )
    pipeline = SequentialAgent(name="pipeline", sub_agents=[writer, reviewer])
    sessions = InMemorySessionService()
    session = await sessions.create_session(app_name="app", user_id="user")
    runner = Runner(app_name="app", agent=pipeline, session_service=sessions)
    message = types.Content(role="user", parts=[types.Part(text="Write the release note.")])
    try:
        async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
            print(f"event {event.author} state_delta={dict(event.actions.state_delta)}")
    except KeyError as exc:
        print(f"run ended with KeyError: {exc}")
        if "temp:draft" in str(exc) and len(asked) == 1:
            print("verdict: reproduced (the {temp:draft} template found nothing; the reviewer was never asked)")
            return 3
        raise
    print(f"system instructions asked: {asked}")
    if asked == ["Write a draft.", f"Review this draft: {DRAFT}"]:
        print("verdict: fixed (the reviewer was asked with the draft filled in)")
        return 0
    print(f"verdict: cannot judge (the models were asked {asked})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
