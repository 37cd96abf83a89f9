"""A model call whose response carries no usage block counts as zero requests.

Upstream: https://github.com/openai/openai-agents-python/pull/4290 (Chat Completions, 0.20.0)
and PR #4453 (Responses API, 0.21.1). The adapters built a turn's usage as
`Usage(requests=1, ...) if response.usage else Usage()`, so usage.requests stays 0.

The framework's own model class over a real AsyncOpenAI client (dummy key) whose transport is
an httpx.MockTransport: a two-turn run (a get_weather call, then the answer), both responses
without usage. reproduced: result.context_wrapper.usage.requests < 2 for the 2 requests served.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no usage total, the run failed, ...).
"""

import asyncio
import importlib
import json
import sys

STREAMED = False
ARGS = '{"city": "Paris"}'


text = dict(type="output_text", text="It is sunny.", annotations=[])
SERVED = []


async def main():
    import openai
    from agents import Agent, OpenAIResponsesModel, Runner, function_tool, set_tracing_disabled

    set_tracing_disabled(True)
    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")

    @function_tool
    def get_weather(city: str) -> str:
        return f"sunny in {city}"

    def responses(n, item):
        body = dict(id=f"r{n}", object="response", created_at=0, model="m", status="completed", output=[item],
                    parallel_tool_calls=True, tool_choice="auto", tools=[], usage=None)  # fmt: skip
        return [{"type": "response.completed", "sequence_number": 0, "response": body}] if STREAMED else body

    REPLIES = [
        responses(1, dict(type="function_call", id="fc_1", call_id="call_1", name="get_weather", arguments=ARGS)),
        responses(2, dict(type="message", id="msg_1", role="assistant", status="completed", content=[text])),
    ]

    def server_sent(event):
        if event == "[DONE]":
            return "data: [DONE]\n\n"
        return (f"event: {event['type']}\n" if "type" in event else "") + f"data: {json.dumps(event)}\n\n"

    def handler(request):
        SERVED.append(json.loads(request.content))
        reply = REPLIES[len(SERVED) - 1]
        if not STREAMED:
            return httpx.Response(200, json=reply)
        sse = "".join(server_sent(event) for event in reply)
        return httpx.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    agent = Agent(name="assistant", model=OpenAIResponsesModel(model="m", openai_client=client), tools=[get_weather])
    if STREAMED:
        result = Runner.run_streamed(agent, input="What is the weather in Paris?")
        async for _ in result.stream_events():
            pass
    else:
        result = await Runner.run(agent, input="What is the weather in Paris?")
    usage = result.context_wrapper.usage
    per_turn = [r.usage.requests for r in result.raw_responses]
    print(f"requests served: {len(SERVED)}; final output {result.final_output!r}")
    print(f"per turn usage.requests {per_turn}; run total requests={usage.requests} tokens={usage.total_tokens}")
    figures = f"usage.requests {usage.requests} for {len(SERVED)} requests without usage"
    if len(SERVED) != 2 or usage.total_tokens != 0 or usage.requests > 2:
        print(f"verdict: cannot judge ({figures}, {usage.total_tokens} tokens)")
        return 125
    if usage.requests < 2:
        print(f"verdict: reproduced ({figures})")
        return 3
    print(f"verdict: fixed ({figures})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
