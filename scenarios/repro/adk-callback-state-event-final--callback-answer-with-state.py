"""google-adk control: a before_agent_callback that writes state and answers stays a final response.

Bug beside it: https://github.com/google/adk-python/issues/7078 (a state-only callback event is
marked final; fix proposed in PR #7095). This script is the non-regression check for such a fix:
the callback sets state["my_state"] and returns the answer itself, so ADK yields one event with
both content and a state_delta, and the model must not be called.
reproduced: that event is not a final response (a fix that took every event with a state_delta
out of the final responses went too far). fixed: the callback's answer is the only final response.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys

ANSWER = "Here is the answer."


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

    def answer_with_state(callback_context):
        callback_context.state["my_state"] = "hello"
        return types.Content(role="model", parts=[types.Part(text=ANSWER)])

    agent = LlmAgent(
        name="assistant",
        model=UncalledLlm(model="uncalled"),
        instruction="Answer.",
        before_agent_callback=answer_with_state,
    )
    sessions = InMemorySessionService()
    runner = Runner(app_name="app", agent=agent, session_service=sessions)
    session = await sessions.create_session(app_name="app", user_id="user")
    message = types.Content(role="user", parts=[types.Part(text="Tell me something.")])
    finals, texts = [], []
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        parts = event.content.parts if event.content and event.content.parts else []
        text = "".join(p.text or "" for p in parts) or None
        delta = dict(event.actions.state_delta or {})
        final = event.is_final_response()
        print(f"{event.author}: text={text!r} state_delta={delta} is_final_response={final}")
        texts.append(text)
        if final:
            finals.append(text)
    state = (await sessions.get_session(app_name="app", user_id="user", session_id=session.id)).state
    print(f"state: {dict(state)}")
    figures = f"{len(finals)} final responses: {finals}"
    if texts.count(ANSWER) != 1 or state.get("my_state") != "hello":
        print(f"verdict: cannot judge (events {texts}, state {dict(state)})")
        return 125
    if finals == [ANSWER]:
        print(f"verdict: fixed ({figures}; the callback's answer, with its state_delta, is final)")
        return 0
    if not finals:
        print(f"verdict: reproduced ({figures}; the callback's answer carries a state_delta and is not final)")
        return 3
    print(f"verdict: cannot judge ({figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
