"""google-adk: output_key and the callback's own state write must both land (non-regression).

Bug beside it: https://github.com/google/adk-python/issues/4837 (output_key is not written when
before_agent_callback answers; fix: PR #4838). An LlmAgent with output_key="result" has a
before_agent_callback that sets state["cache_hit"] = True and returns Content("cached answer"),
so the model (a stand-in that must not be called) is skipped. The script prints the session's
events and state.
reproduced: either key is missing (the bug itself, or a fix that replaced the event's
state_delta instead of adding to it). fixed: state holds both "result" and "cache_hit".
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys

CACHED = "cached answer"


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class UncalledLlm(BaseLlm):
        """A model the callback's answer must keep out: a call answers with a telltale text."""

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="(model was called)")]))

    def cache_callback(callback_context):
        callback_context.state["cache_hit"] = True
        return types.Content(parts=[types.Part(text=CACHED)])  # no role, as in the issue

    agent = LlmAgent(
        name="my_agent",
        model=UncalledLlm(model="uncalled"),
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
    if answers != [CACHED]:
        print(f"verdict: cannot judge (the agent answered {answers}, expected only the callback's {CACHED!r})")
        return 125
    figures = f"state['result'] = {state.get('result')!r}, state['cache_hit'] = {state.get('cache_hit')!r}"
    if state.get("result") == CACHED and state.get("cache_hit") is True:
        print(f"verdict: fixed ({figures})")
        return 0
    if state.get("result") in (CACHED, None) and state.get("cache_hit") in (True, None):
        print(f"verdict: reproduced ({figures}; expected both keys)")
        return 3
    print(f"verdict: cannot judge ({figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
