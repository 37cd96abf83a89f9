"""harness/runtime/fakes/openai_http.py on the pinned openai-agents release: the framework's own model classes
(OpenAIChatCompletionsModel, OpenAIResponsesModel) over a real AsyncOpenAI client whose transport
is the scripted fake server, plain and streamed, with the network blocked throughout."""

from __future__ import annotations

import json

import pytest

from conftest import installed
from harness.runtime import netguard
from harness.runtime.timeline import Placeholders

pytestmark = pytest.mark.skipif(installed("openai-agents") is None, reason="openai-agents not installed")

QUESTION = "Weather in Paris?"


def _agent(model):
    from agents import Agent

    from harness.runtime.fakes.openai_agents import RecordingTool

    weather = RecordingTool("get_weather", {"city": "string"}, result=lambda args: f"sunny in {args['city']}")
    return Agent(name="a", model=model, tools=[weather.tool]), weather


async def _run(agent, streamed: bool):
    from agents import Runner

    from harness.runtime.fakes.openai_agents import drain_stream

    with netguard.blocked():  # MockTransport never opens a socket; this proves it
        if streamed:
            result = Runner.run_streamed(agent, input=QUESTION)
            events = await drain_stream(result)
            return result, events
        return await Runner.run(agent, input=QUESTION), []


def test_the_client_is_built_on_the_http_library_openai_imports():
    import openai

    from harness.runtime.fakes import openai_http as oh

    major = int(openai.__version__.split(".")[0])
    assert oh.http_module().__name__ == ("httpx2" if major >= 3 else "httpx")
    client = oh.FakeOpenAI().client()
    assert str(client.base_url) == oh.BASE_URL + "/" and client.api_key == oh.API_KEY and client.max_retries == 0


def test_server_sent_events_are_written_as_the_apis_send_them():
    from harness.runtime.fakes import openai_http as oh

    assert oh.sse([{"a": 1}, "[DONE]"]) == b'data: {"a": 1}\n\ndata: [DONE]\n\n'
    assert oh.sse([{"type": "response.created"}], named=True) == (
        b'event: response.created\ndata: {"type": "response.created"}\n\n'
    )
    chunks = oh.chat_chunks(
        "Hi there", tool_calls=[oh.tool_call("f", {"x": 1}, "c1")], usage=oh.usage(3, 4), args_piece=3
    )
    deltas = [c["choices"][0]["delta"] for c in chunks if c["choices"]]
    assert deltas[0] == {"role": "assistant", "content": ""} and deltas[1] == {"content": "Hi there"}
    assert deltas[2]["tool_calls"][0]["id"] == "c1" and deltas[2]["tool_calls"][0]["function"]["arguments"] == ""
    assert "".join(d["tool_calls"][0]["function"]["arguments"] for d in deltas[3:-1]) == '{"x": 1}'
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["total_tokens"] == 7


async def test_chat_completions_plain():
    from harness.runtime.fakes import openai_http as oh

    fake = oh.FakeOpenAI()
    fake.add(
        oh.chat_reply(
            oh.chat_completion(
                tool_calls=[oh.tool_call("get_weather", {"city": "Paris"}, "call-1")], usage=oh.usage(10, 5)
            )
        ),
        oh.chat_reply(oh.chat_completion("It is sunny.", id="chatcmpl-2", usage=oh.usage(20, 3))),
    )
    agent, weather = _agent(fake.chat_model())
    result, _ = await _run(agent, streamed=False)
    fake.check()
    assert result.final_output == "It is sunny." and [c.arguments for c in weather.calls] == [{"city": "Paris"}]
    assert [(r.method, r.path, r.streamed) for r in fake.requests] == [("POST", "chat/completions", False)] * 2
    first, _second = fake.bodies
    assert first["model"] == oh.CHAT_MODEL and first["messages"] == [{"role": "user", "content": QUESTION}]
    assert [t["function"]["name"] for t in first["tools"]] == ["get_weather"]
    ids = Placeholders()
    assert oh.describe_request(fake.requests[1], ids) == [
        "POST chat/completions (plain), 3 messages:",
        "  user 'Weather in Paris?'",
        '  assistant tool_calls=[call-1 get_weather({"city": "Paris"})]',
        "  tool call-1 'sunny in Paris'",
    ]
    usage = result.context_wrapper.usage
    assert (usage.requests, usage.input_tokens, usage.output_tokens) == (2, 30, 8)


async def test_chat_completions_streamed():
    from harness.runtime.fakes import openai_http as oh
    from harness.runtime.fakes.openai_agents import text_deltas

    fake = oh.FakeOpenAI()
    call = oh.tool_call("get_weather", {"city": "Paris"}, "call-1")
    fake.add(
        oh.chat_stream_reply(oh.chat_chunks(tool_calls=[call], usage=oh.usage(10, 5), args_piece=4)),
        oh.chat_stream_reply(oh.chat_chunks(["It ", "is ", "sunny."], id="chatcmpl-2", usage=oh.usage(20, 3))),
    )
    agent, weather = _agent(fake.chat_model())
    result, events = await _run(agent, streamed=True)
    fake.check()
    assert result.final_output == "It is sunny." and len(weather.calls) == 1
    assert text_deltas(events) == ["It ", "is ", "sunny."]
    assert all(r.streamed for r in fake.requests) and len(fake.requests) == 2
    messages = fake.bodies[1]["messages"]
    assert messages[1]["tool_calls"][0]["function"]["arguments"] == '{"city": "Paris"}'  # assembled from 4 pieces
    usage = result.context_wrapper.usage
    assert (usage.requests, usage.input_tokens, usage.output_tokens) == (2, 30, 8)


async def test_responses_plain():
    from harness.runtime.fakes import openai_http as oh
    from harness.runtime.fakes import responses_api as ra

    fake = oh.FakeOpenAI()
    fake.add(
        oh.responses_reply(
            ra.response(
                [ra.output_function_call("get_weather", {"city": "Paris"}, "call-1")], usage=ra.response_usage(10, 5)
            )
        ),
        oh.responses_reply(
            ra.response([ra.output_message("It is sunny.")], id="resp-2", usage=ra.response_usage(20, 3))
        ),
    )
    agent, weather = _agent(fake.responses_model())
    result, _ = await _run(agent, streamed=False)
    fake.check()
    assert result.final_output == "It is sunny." and len(weather.calls) == 1
    assert [(r.path, r.streamed) for r in fake.requests] == [("responses", False)] * 2
    ids = Placeholders()
    assert oh.describe_request(fake.requests[1], ids) == [
        "POST responses (plain), 3 input items:",
        "  user 'Weather in Paris?'",
        '  function_call call-1 get_weather({"city": "Paris"})',
        "  function_call_output call-1 -> 'sunny in Paris'",
    ]
    assert fake.bodies[0]["model"] == oh.RESPONSES_MODEL
    usage = result.context_wrapper.usage
    assert (usage.requests, usage.input_tokens, usage.output_tokens) == (2, 30, 8)


async def test_responses_streamed():
    from harness.runtime.fakes import openai_http as oh
    from harness.runtime.fakes import responses_api as ra
    from harness.runtime.fakes.openai_agents import raw_event_types, text_deltas

    fake = oh.FakeOpenAI()
    reasoning = ra.output_reasoning("Look it up.")
    call = ra.output_function_call("get_weather", {"city": "Paris"}, "call-1")
    fake.add(
        oh.responses_stream_reply(ra.response_events([reasoning, call], usage=ra.response_usage(10, 5))),
        oh.responses_stream_reply(
            ra.response_events(
                [ra.output_message("It is sunny.")], id="resp-2", usage=ra.response_usage(20, 3), text_piece=4
            )
        ),
    )
    agent, _ = _agent(fake.responses_model())
    result, events = await _run(agent, streamed=True)
    fake.check()
    assert result.final_output == "It is sunny."
    assert text_deltas(events) == ["It i", "s su", "nny."]
    assert raw_event_types(events).count("response.reasoning_summary_text.delta") == 1
    assert [item.type for item in result.new_items] == [
        "reasoning_item",
        "tool_call_item",
        "tool_call_output_item",
        "message_output_item",
    ]
    second = fake.bodies[1]
    assert second["stream"] is True and [i.get("type") for i in second["input"]][1:] == [
        "reasoning",
        "function_call",
        "function_call_output",
    ]
    usage = result.context_wrapper.usage
    assert (usage.requests, usage.input_tokens, usage.output_tokens) == (2, 30, 8)


async def test_an_unscripted_request_is_the_fakes_error_not_a_result():
    from agents import Runner
    from openai import InternalServerError  # the fake answers what was not scripted with a 500

    from harness.runtime.fakes import openai_http as oh
    from harness.runtime.fakes import responses_api as ra

    fake = oh.FakeOpenAI().add(oh.responses_reply(ra.response([ra.output_message("hi")])))
    agent, _ = _agent(fake.chat_model())  # the script answers /responses, the model asks /chat/completions
    with netguard.blocked(), pytest.raises(InternalServerError):
        await Runner.run(agent, input=QUESTION)
    assert fake.problems == ["request 1 went to chat/completions, the script expected responses"]
    with pytest.raises(oh.FakeServerError, match="the script expected responses"):
        fake.check()

    exhausted = oh.FakeOpenAI()
    with netguard.blocked(), pytest.raises(InternalServerError):
        await Runner.run(_agent(exhausted.chat_model())[0], input=QUESTION)
    assert exhausted.problems == ["request 1 (POST chat/completions) but the scenario scripted 0 replies"]


def test_payload_builders_are_json():
    from harness.runtime.fakes import openai_http as oh
    from harness.runtime.fakes import responses_api as ra

    payloads = [
        oh.chat_completion("x", reasoning_content="r", usage=oh.usage(1, 2)),
        ra.response([ra.output_message("x"), ra.output_reasoning("r"), ra.output_function_call("f")]),
        ra.response_events([ra.output_message("x"), ra.output_function_call("f")]),
    ]
    for payload in payloads:
        assert json.loads(json.dumps(payload)) == payload
    events = payloads[2]
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    assert events[-1]["type"] == "response.completed" and len(events[-1]["response"]["output"]) == 2


async def test_an_error_reply_reaches_the_caller_as_the_apis_error():
    import openai
    from agents import Runner

    from harness.runtime.fakes import openai_http as oh

    fake = oh.FakeOpenAI().add(oh.error_reply(400, "bad tool call", path="chat/completions"))
    agent, _ = _agent(fake.chat_model())
    with netguard.blocked(), pytest.raises(openai.BadRequestError, match="bad tool call"):
        await Runner.run(agent, input=QUESTION)
    fake.check()  # answered as scripted: not the fake's problem
    assert len(fake.requests) == 1
