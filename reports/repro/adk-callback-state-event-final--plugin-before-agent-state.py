# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==2.13.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-23T18:26:35Z"
# ///
# adk-callback-state-event-final:plugin-before-agent-state. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 1.6.1 (2025-07-10T00:04:41Z)
#   reproduced / reproduced: 1.7.0 (2025-07-16T22:39:55Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z),
#     2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z),
#     2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
"""google-adk: a plugin's before_agent_callback that only writes state yields an empty "final" event.

Bug: https://github.com/google/adk-python/issues/7078 (earlier #2992; fix proposed in PR #7095).
An LlmAgent with a scripted stand-in model runs on a Runner(plugins=[...]) whose plugin's
before_agent_callback sets state["my_state"] and returns None (plugins exist from 1.7.0). The
script prints every event run_async yields and what the loop ADK's quickstarts teach (stop at
the first is_final_response()) reads.
reproduced: a content-less event carrying the state delta is a final response ahead of the
model's answer, so the loop reads no text. fixed: the answer is the turn's only final response.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys

ANSWER = "Here is the answer."


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.plugins import BasePlugin
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """A stand-in model: every call answers ANSWER."""

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=ANSWER)]))

    class StatePlugin(BasePlugin):
        async def before_agent_callback(self, *, agent, callback_context):
            callback_context.state["my_state"] = "hello"
            return None

    agent = LlmAgent(name="assistant", model=ScriptedLlm(model="scripted"), instruction="Answer.")
    sessions = InMemorySessionService()
    plugins = [StatePlugin(name="state_plugin")]
    runner = Runner(app_name="app", agent=agent, session_service=sessions, plugins=plugins)
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
    loop_reads = finals[0][0] if finals else None
    figures = f"{len(finals)} final responses; the break-at-first-final loop reads {loop_reads!r}"
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
