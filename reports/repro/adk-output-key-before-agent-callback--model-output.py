# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==2.13.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-23T18:26:35Z"
# ///
# adk-output-key-before-agent-callback:model-output. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   fixed / fixed: 1.6.1 (2025-07-10T00:04:41Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z),
#     2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z),
#     2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
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
