"""harness/runtime/fakes/openai_agents.py helpers on the pinned openai-agents release: the streamed events of the
scripted model, the recording tool, item lines and counts."""

from __future__ import annotations

import pytest

from conftest import installed
from harness.runtime.timeline import Placeholders

pytestmark = pytest.mark.skipif(installed("openai-agents") is None, reason="openai-agents not installed")

TEXT_STREAM = [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.delta",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
]
CALL_STREAM = [
    "response.output_item.added",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.output_item.done",
]


def test_the_stream_sends_what_a_real_responses_stream_sends():
    from harness.runtime.fakes import openai_agents as oa

    events = oa.stream_events_for([oa.text_message("It is sunny."), oa.function_call("get", {"a": 1})], "resp-1")
    assert [e.type for e in events] == TEXT_STREAM + CALL_STREAM + ["response.completed"]
    assert [getattr(e, "sequence_number", n) for n, e in enumerate(events)] == list(range(len(events)))
    assert "".join(e.delta for e in events if e.type == "response.output_text.delta") == "It is sunny."
    added = events[2].item
    assert (added.status, added.content, events[3].part.text) == ("in_progress", [], "")
    assert events[-1].response.output[0].content[0].text == "It is sunny."
    assert events[11].delta == '{"a": 1}' and events[11].item_id == "fc-call-1"


def test_every_text_streams_in_several_deltas():
    from harness.runtime.fakes import openai_agents as oa

    for text in ("ok", "two words", " lead and trail  ", "x"):
        chunks = oa.text_chunks(text)
        assert "".join(chunks) == text and (len(chunks) >= 2 or len(text) < 2)


async def test_a_streamed_run_emits_the_deltas_and_the_tool_calls_a_recording_tool_saw():
    from agents import Agent, Runner

    from harness.runtime.fakes import openai_agents as oa

    weather = oa.RecordingTool("get_weather", {"city": "string"}, result={"forecast": "sunny"})
    model = oa.ScriptedModel(
        "m",
        [
            [oa.function_call("get_weather", {"city": "Paris"}, call_id="call-7")],
            [oa.text_message("It is sunny in Paris.")],
        ],
    )
    agent = Agent(name="a", model=model, tools=[weather.tool])
    result = Runner.run_streamed(agent, input="weather?")
    events = await oa.drain_stream(result)
    ids = Placeholders()
    assert oa.run_item_names(events) == ["tool_called", "tool_output", "message_output_created"]
    assert "".join(oa.text_deltas(events)) == "It is sunny in Paris." and len(oa.text_deltas(events)) == 5
    assert oa.raw_event_types(events).count("response.completed") == 2
    assert weather.calls == [oa.ToolCall("call-7", {"city": "Paris"})]
    assert weather.call_lines(ids) == ['tool get_weather ran for call-1 with {"city": "Paris"}']
    items = result.to_input_list()
    assert oa.item_lines(items, ids) == [
        "1. user 'weather?'",
        '2. function_call call-1 get_weather({"city": "Paris"})',
        '3. function_call_output call-1 -> \'{"forecast": "sunny"}\'',
        "4. assistant 'It is sunny in Paris.' [msg-1]",
    ]
    assert oa.counts_by_type(items) == {"function_call": 1, "function_call_output": 1, "message": 2}
    assert oa.counts_by_call_id(result.new_items, ids) == {"call-1": {"function_call": 1, "function_call_output": 1}}
    assert oa.counts_line("items", oa.counts_by_type(result.new_items)).startswith('items {"function_call": 1')


def test_to_dict_takes_sdk_objects_dataclasses_and_dicts():
    from harness.runtime.fakes import openai_agents as oa

    message = oa.text_message("hi", "msg-9")
    assert oa.to_dict(message)["id"] == "msg-9"
    assert oa.to_dict(oa.ToolCall("c", {"a": 1})) == {"call_id": "c", "arguments": {"a": 1}}
    d = {"role": "user", "content": "x"}
    assert oa.to_dict(d) == d and oa.to_dict(d) is not d
    assert oa.to_dict("text") == "text"


async def test_a_session_file_is_read_back_with_its_lines_and_the_item_events_line_names_the_stream():
    from agents import Agent, Runner

    from harness.runtime.fakes import agents_sessions
    from harness.runtime.fakes import openai_agents as oa

    model = oa.ScriptedModel("m", [[oa.text_message("Hello there.", "msg-2")]])
    ids = Placeholders()
    ids.keep("msg-2")
    with agents_sessions.SessionFile() as store:
        result = Runner.run_streamed(Agent(name="a", model=model), "hi", session=store.open())
        events = await oa.drain_stream(result)
        stored, lines = await store.read_back(ids)
    assert [oa.item_type(item) for item in stored] == ["message", "message"]
    assert lines == ["session file holds 2 items:", "  1. user 'hi'", "  2. assistant 'Hello there.' [msg-2]"]
    assert oa.session_file_lines([], ids) == ["session file holds 0 items:"]
    assert oa.item_events_line(events) == "item events: message_output_created"
    assert oa.item_events_line([], "run_streamed item events") == "run_streamed item events: (none)"
