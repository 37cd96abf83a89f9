"""google-adk: parallel function calls in one model turn keep only the last call's actions.

Bug: https://github.com/google/adk-python/issues/1938 (also #1971). Merging the calls'
function-response events let each call's EventActions replace the previous ones (fixed by a
deep merge in 1.7.0). A scripted stand-in model asks for set_state(city) and set_state(unit)
in one response, then answers. The script prints the session's events and state.
reproduced: one of the two state writes is lost. fixed: both keys reach the session.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys

CALLS = [("set_state", {"key": "city", "value": "Paris"}), ("set_state", {"key": "unit", "value": "celsius"})]


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

    calls = [types.Part(function_call=types.FunctionCall(name=n, args=a)) for n, a in CALLS]
    root = LlmAgent(
        name="root_agent",
        model=ScriptedLlm(model="r", replies=[calls, [types.Part(text="Saved.")]]),
        instruction="Store what the user says with set_state.",
        tools=[set_state],
    )
    runner = InMemoryRunner(agent=root, app_name="app")
    session = await runner.session_service.create_session(app_name="app", user_id="user")
    message = types.Content(role="user", parts=[types.Part(text="Remember where I live.")])
    async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        pass
    session = await runner.session_service.get_session(app_name="app", user_id="user", session_id=session.id)
    answered_by = None
    for e in session.events:
        print(f"{e.author}: {', '.join(map(describe, e.content.parts))}  state_delta={e.actions.state_delta}")
        if e.author != "user" and any(p.text for p in e.content.parts):
            answered_by = e.author
    state, wanted = dict(session.state), {a["key"]: a["value"] for _, a in CALLS}
    lost = sorted(k for k in wanted if state.get(k) != wanted[k])
    figures = f"state {state}, lost {lost}; final answer by {answered_by}"
    if set(state) - set(wanted) or answered_by != "root_agent":
        print(f"verdict: cannot judge ({figures})")
        return 125
    if not lost:
        print(f"verdict: fixed ({figures}: both writes survived the merge)")
        return 0
    if len(lost) == 1:
        print(f"verdict: reproduced ({figures}: the merge dropped the write of {lost[0]!r})")
        return 3
    print(f"verdict: cannot judge ({figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
