"""google-adk: a repeated identical tool call runs the tool again.

Issue: https://github.com/google/adk-python/issues/3940. Fix proposed in google/adk-python#7193:
an opt-in ``RunConfig(dedupe_tool_calls=True)`` makes identical calls within one invocation
share one execution, each still answered.

A scripted model answers with one response holding get_weather(city='Paris') twice (the flow
runs the two calls concurrently; the tool is slow), then answers. The run uses
``dedupe_tool_calls=True`` where RunConfig has the field. ``reproduced``: the tool ran twice for
the two identical calls; ``fixed``: it ran once and both calls got a function response.

Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, another behaviour, any error).
"""

import asyncio
import json
import sys

TURNS = [[{"city": "Paris"}, {"city": "Paris"}], "It is sunny in Paris."]
executions = []


async def main() -> int:
    from google.adk.agents import LlmAgent, RunConfig
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """Plays TURNS in order: a list of get_weather arguments (one call each), or the answer."""

        async def generate_content_async(self, llm_request, stream=False):
            turn = TURNS.pop(0)
            if isinstance(turn, str):
                parts = [types.Part(text=turn)]
            else:
                parts = [types.Part(function_call=types.FunctionCall(name="get_weather", args=a)) for a in turn]
            yield LlmResponse(content=types.Content(role="model", parts=parts))

    async def get_weather(city: str, unit: str = "C") -> dict:
        """Returns the current weather in a city."""
        executions.append({"city": city, "unit": unit})
        await asyncio.sleep(0.05)  # a slow tool
        return {"city": city, "unit": unit, "forecast": "sunny"}

    agent = LlmAgent(name="weather_agent", model=ScriptedLlm(model="scripted"), tools=[get_weather])
    dedupe = "dedupe_tool_calls" in RunConfig.model_fields
    config = RunConfig(dedupe_tool_calls=True) if dedupe else RunConfig()
    print(f"RunConfig dedupe_tool_calls: {'True' if dedupe else 'absent in this release'}")
    sessions = InMemorySessionService()
    runner = Runner(app_name="weather_app", agent=agent, session_service=sessions)
    session = await sessions.create_session(app_name="weather_app", user_id="u")
    message = types.Content(role="user", parts=[types.Part(text="What is the weather in Paris?")])
    calls, answered = [], set()
    async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message, run_config=config):
        for fc in event.get_function_calls():
            calls.append((fc.id, json.dumps(fc.args, sort_keys=True)))
            print(f"{event.author}: call get_weather({fc.args})")
        for fr in event.get_function_responses():
            answered.add(fr.id)
            print(f"{event.author}: response {fr.response}")
        if event.content and event.content.parts and event.content.parts[0].text:
            print(f"{event.author}: {event.content.parts[0].text!r}")
    runs = f"{len(executions)} time{'s' if len(executions) != 1 else ''}"
    figures = f"get_weather executed {runs} for {len(calls)} identical calls"
    if len(calls) != 2 or len({args for _, args in calls}) != 1:
        print(f"verdict: cannot judge (calls {[args for _, args in calls]}, expected 2 identical calls)")
        return 125
    if len(executions) == 2:
        print(f"verdict: reproduced ({figures}, expected 1)")
        return 3
    if len(executions) == 1 and answered >= {call_id for call_id, _ in calls}:
        print(f"verdict: fixed ({figures}; both calls answered)")
        return 0
    print(f"verdict: cannot judge ({figures}; {len(answered)} calls answered)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
