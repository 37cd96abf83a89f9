# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==1.26.0",
# ]
# [tool.uv]
# exclude-newer = "2026-02-26T23:39:16Z"
# ///
# adk-temp-output-key-sequential:after-callback-reads. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   reproduced / reproduced: 1.26.0 (2026-02-26T23:39:16Z)
#   fixed / fixed: 1.27.1 (2026-03-13T23:09:06Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z),
#     2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z),
#     2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
"""output_key="temp:draft": the writer's own after_agent_callback reads nothing under the key.

Bug: https://github.com/google/adk-python/issues/3047 (same cause as #4564; PR #4501, #4618).
A SequentialAgent runs a writer LlmAgent (output_key="temp:draft", a scripted model that
answers with a draft) whose after_agent_callback reads state["temp:draft"], then a reviewer.
A temp: key should live for the whole invocation.

reproduced: the writer's after_agent_callback reads nothing under "temp:draft".
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

    def after_writer(callback_context):
        seen["writer"] = callback_context.state.get("temp:draft", "<missing>")

    writer = LlmAgent(
        name="writer",
        model=OneReply(model="w", reply=DRAFT),
        instruction="Write a draft.",
        output_key="temp:draft",
        after_agent_callback=after_writer,
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
        text = "".join(p.text or "" for p in (event.content.parts or [])) if event.content else ""
        print(f"event {event.author}: {text!r} state_delta={dict(event.actions.state_delta)}")
    value = seen.get("writer")
    print(f"writer's after_agent_callback read state['temp:draft'] = {value!r}")
    if value == DRAFT:
        print(f"verdict: fixed (the after_agent_callback read {DRAFT!r})")
        return 0
    if value == "<missing>":
        print("verdict: reproduced (the after_agent_callback read nothing under 'temp:draft')")
        return 3
    print(f"verdict: cannot judge (the callback read {value!r})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
