"""google-adk control: output_key holds the model's answer when before_agent_callback returns None.

Bug beside it: https://github.com/google/adk-python/issues/4837 (output_key is not written when
before_agent_callback answers; fix: PR #4838). Here the callback returns None and a scripted
stand-in model answers once; the normal path must keep writing output_key. The script prints
the session's events and state.
reproduced: state has no "result" (the behaviour beside the bug broke). fixed: state["result"]
holds the model's text.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys

FRESH = "fresh answer from the model"


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """A stand-in model: every call answers FRESH."""

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=FRESH)]))

    def cache_callback(callback_context):
        return None  # a cache miss: the model answers

    agent = LlmAgent(
        name="my_agent",
        model=ScriptedLlm(model="scripted"),
        instruction="Answer questions.",
        output_key="result",
        before_agent_callback=cache_callback,
    )
    sessions = InMemorySessionService()
    runner = Runner(app_name="test", agent=agent, session_service=sessions)
    session = await sessions.create_session(app_name="test", user_id="user1")
    message = types.Content(role="user", parts=[types.Part(text="What is the answer?")])
    async for _ in runner.run_async(user_id="user1", session_id=session.id, new_message=message):
        pass
    session = await sessions.get_session(app_name="test", user_id="user1", session_id=session.id)
    answers = []
    for event in session.events:
        text = "".join(p.text or "" for p in event.content.parts) if event.content and event.content.parts else ""
        print(f"{event.author}: text={text!r} state_delta={dict(event.actions.state_delta or {})}")
        if event.author == "my_agent" and text:
            answers.append(text)
    state = dict(session.state)
    print(f"state: {state}")
    if answers != [FRESH]:
        print(f"verdict: cannot judge (the agent answered {answers}, expected the model's {FRESH!r})")
        return 125
    if state.get("result") == FRESH:
        print(f"verdict: fixed (the model answered; state['result'] = {state['result']!r})")
        return 0
    if "result" not in state:
        print("verdict: reproduced (the model answered, but state has no 'result')")
        return 3
    print(f"verdict: cannot judge (state['result'] = {state['result']!r})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
