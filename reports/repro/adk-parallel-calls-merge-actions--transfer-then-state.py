# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==1.6.1",
# ]
# [tool.uv]
# exclude-newer = "2025-07-10T00:04:41Z"
# ///
# adk-parallel-calls-merge-actions:transfer-then-state. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   reproduced / reproduced: 1.6.1 (2025-07-10T00:04:41Z)
#   fixed / fixed: 1.7.0 (2025-07-16T22:39:55Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z),
#     2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z),
#     2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
"""google-adk: parallel function calls in one model turn keep only the last call's actions.

Bug: https://github.com/google/adk-python/issues/1938 (also #1971). Merging the calls'
function-response events let each call's EventActions replace the previous ones (fixed by a
deep merge in 1.7.0). A scripted stand-in model asks for transfer_to_agent(helper_agent)
and then set_state(city) in one response. The script prints the session's events and state.
reproduced: the transfer is lost (the state call's transfer_to_agent=None replaced it), so
root_agent answers itself. fixed: the write reaches the session and helper_agent answers.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys

CALLS = [("transfer_to_agent", {"agent_name": "helper_agent"}), ("set_state", {"key": "city", "value": "Paris"})]


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.adk.tools import ToolContext
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """A stand-in model: each call answers with the next list of parts."""

        replies: list

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=self.replies.pop(0)))

    def set_state(key: str, value: str, tool_context: ToolContext) -> dict:
        """Stores a value in the session state under a key."""
        tool_context.state[key] = value
        return {"stored": key}

    def describe(p):
        fc, fr = p.function_call, p.function_response
        return f"call {fc.name}({fc.args})" if fc else f"response {fr.name}" if fr else repr(p.text)

    transfer = any(n == "transfer_to_agent" for n, _ in CALLS)
    helper = LlmAgent(name="helper_agent", model=ScriptedLlm(model="h", replies=[[types.Part(text="Helper here.")]]))
    calls = [types.Part(function_call=types.FunctionCall(name=n, args=a)) for n, a in CALLS]
    root = LlmAgent(
        name="root_agent",
        model=ScriptedLlm(model="r", replies=[calls, [types.Part(text="Saved.")]]),
        instruction="Store what the user says with set_state.",
        tools=[set_state],
        sub_agents=[helper] if transfer else [],
    )
    runner = InMemoryRunner(agent=root, app_name="app")
    session = await runner.session_service.create_session(app_name="app", user_id="user")
    message = types.Content(role="user", parts=[types.Part(text="Remember where I live.")])
    async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        pass
    session = await runner.session_service.get_session(app_name="app", user_id="user", session_id=session.id)
    answered_by = None
    for e in session.events:
        actions = f"state_delta={e.actions.state_delta} transfer_to_agent={e.actions.transfer_to_agent}"
        print(f"{e.author}: {', '.join(map(describe, e.content.parts))}  {actions}")
        if e.author != "user" and any(p.text for p in e.content.parts):
            answered_by = e.author
    state, wanted = dict(session.state), {a["key"]: a["value"] for n, a in CALLS if n == "set_state"}
    lost = sorted(k for k in wanted if state.get(k) != wanted[k])
    transfer_lost = transfer and answered_by != "helper_agent"
    figures = f"state {state}, lost {lost}; final answer by {answered_by}"
    if set(state) - set(wanted) or answered_by not in ("root_agent", "helper_agent"):
        print(f"verdict: cannot judge ({figures})")
        return 125
    if not lost and not transfer_lost:
        print(f"verdict: fixed ({figures}: every call's effect survived the merge)")
        return 0
    if len(lost) + transfer_lost == 1:
        what = "the transfer to helper_agent" if transfer_lost else f"the write of {lost[0]!r}"
        print(f"verdict: reproduced ({figures}: the merge dropped {what})")
        return 3
    print(f"verdict: cannot judge ({figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
