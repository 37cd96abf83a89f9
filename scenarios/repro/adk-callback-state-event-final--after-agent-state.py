"""google-adk: an after_agent_callback that only writes state yields an empty "final" event.

Bug: https://github.com/google/adk-python/issues/7078 (the after-callback path: #772; fix
proposed in PR #7095). An LlmAgent with a scripted stand-in model has an after_agent_callback
that sets state["my_state"] and returns None. The script prints every event run_async yields.
reproduced: after the model's answer comes a content-less event carrying the state delta, also
a final response, so the turn's last "final response" has no text. fixed: the answer is the
turn's only final response.
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

    class ScriptedLlm(BaseLlm):
        """A stand-in model: every call answers ANSWER."""

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=ANSWER)]))

    def write_state(callback_context):
        callback_context.state["my_state"] = "hello"
        return None

    agent = LlmAgent(
        name="assistant", model=ScriptedLlm(model="scripted"), instruction="Answer.", after_agent_callback=write_state
    )
    sessions = InMemorySessionService()
    runner = Runner(app_name="app", agent=agent, session_service=sessions)
    session = await sessions.create_session(app_name="app", user_id="user")
    message = types.Content(role="user", parts=[types.Part(text="Tell me something.")])
    finals, answers = [], 0
    async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        parts = event.content.parts if event.content and event.content.parts else []
        text = "".join(p.text or "" for p in parts) or None
        delta = dict(event.actions.state_delta or {})
        final = event.is_final_response()
        print(f"{event.author}: text={text!r} state_delta={delta} is_final_response={final}")
        answers += text == ANSWER
        if final:
            finals.append((text, delta))
    state = (await sessions.get_session(app_name="app", user_id="user", session_id=session.id)).state
    figures = f"{len(finals)} final responses; the last one holds {finals[-1][0] if finals else None!r}"
    print(f"state: {dict(state)}")
    if answers != 1 or state.get("my_state") != "hello":
        print(f"verdict: cannot judge (answer yielded {answers} times, state {dict(state)})")
        return 125
    if len(finals) == 1 and finals[0][0] == ANSWER:
        print(f"verdict: fixed ({figures})")
        return 0
    extra = [f for f in finals if f[0] != ANSWER]
    if extra and all(t is None and d for t, d in extra) and len(finals) == len(extra) + 1:
        print(f"verdict: reproduced ({figures}: {len(extra)} content-less state event(s) marked final)")
        return 3
    print(f"verdict: cannot judge ({figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
