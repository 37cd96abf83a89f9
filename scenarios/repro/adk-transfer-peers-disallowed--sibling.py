"""google-adk #3850: disallow_transfer_to_peers=True does not stop a transfer to a sibling.

https://github.com/google/adk-python/issues/3850. Tree: root -> (agent_a, agent_b). Scripted
models: root transfers to agent_a; agent_a, which has disallow_transfer_to_peers=True, calls
transfer_to_agent(agent_name="agent_b"), its sibling. The script prints the events and whether
agent_b's model was called.

reproduced: agent_b ran (its model answered) although agent_a forbids peer transfers;
fixed: agent_b never ran (the framework refused the transfer, by raising on every fixed
release). Exit 0 fixed, 3 reproduced, 125 cannot judge.
"""

import asyncio
import sys


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class Scripted(BaseLlm):
        script: list = []  # noqa: RUF012  # a pydantic field: each instance gets its own copy
        calls: int = 0

        async def generate_content_async(self, llm_request, stream=False):
            self.calls += 1
            yield LlmResponse(content=types.Content(role="model", parts=[self.script.pop(0)]))

    def transfer(name):
        return types.Part(function_call=types.FunctionCall(name="transfer_to_agent", args={"agent_name": name}))

    model_b = Scripted(model="b", script=[types.Part(text="agent_b answered")])
    agent_a = LlmAgent(
        name="agent_a",
        model=Scripted(model="a", script=[transfer("agent_b")]),
        description="Handles account questions.",
        disallow_transfer_to_peers=True,
    )
    agent_b = LlmAgent(name="agent_b", model=model_b, description="Exports data.")
    root = LlmAgent(name="root", model=Scripted(model="r", script=[transfer("agent_a")]), sub_agents=[agent_a, agent_b])
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=root, session_service=sessions)
    session = await sessions.create_session(app_name="repro", user_id="u")
    question = types.Content(role="user", parts=[types.Part(text="Please export my data.")])
    ended = "completed"
    try:
        async for event in runner.run_async(user_id="u", session_id=session.id, new_message=question):
            for part in event.content.parts if event.content and event.content.parts else []:
                shown = part.text or (
                    part.function_call and f"call {part.function_call.name}({part.function_call.args})"
                )
                print(f"{event.author}: {shown or '<response>'}")
    except Exception as exc:  # the fixed releases refuse by raising
        ended = f"{type(exc).__name__}: {exc}"
    print(f"run ended: {ended}")
    figures = f"agent_b's model called {model_b.calls} time(s); run ended: {ended}"
    if model_b.calls == 1 and ended == "completed":
        print(f"verdict: reproduced ({figures})")
        return 3
    if model_b.calls == 0 and ended != "completed":
        print(f"verdict: fixed ({figures})")
        return 0
    print(f"verdict: cannot judge ({figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
