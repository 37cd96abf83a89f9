"""With nest_handoff_history, a chain of handoffs must not repeat earlier messages in the summary.

openai/openai-agents-python#3791 (see also #2171): each handoff folds the transcript into one
<CONVERSATION HISTORY> message and also forwarded the agent's own message verbatim, so before
0.19.0 the next hop summarised that copy again: on A -> B -> C -> D, D's summary lists A's and
B's messages twice. Written as tests/ tests are, with the suite's FakeModel idiom
(tests/fake_model.py, cut to what this test uses: the releases before 0.21.0 have no
agents.testing) and the helpers of tests/test_responses.py.
"""

from typing import Any

import pytest
from agents import Agent, RunConfig, Runner, handoff
from agents.items import ModelResponse, TResponseOutputItem
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

HISTORY_MARKER = "<CONVERSATION HISTORY>"


class FakeModel(Model):
    """Replays one list of output items per turn and keeps the first turn's input."""

    def __init__(self) -> None:
        self.turn_outputs: list[list[TResponseOutputItem]] = []
        self.first_turn_args: dict[str, Any] | None = None

    def set_next_output(self, output: list[TResponseOutputItem]) -> None:
        self.turn_outputs.append(output)

    async def get_response(self, system_instructions, input, *args, **kwargs) -> ModelResponse:
        if self.first_turn_args is None:
            self.first_turn_args = {"system_instructions": system_instructions, "input": input}
        return ModelResponse(output=self.turn_outputs.pop(0), usage=Usage(), response_id="resp-789")

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError


def get_text_message(content: str, item_id: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id=item_id,
        type="message",
        role="assistant",
        content=[ResponseOutputText(text=content, type="output_text", annotations=[])],
        status="completed",
    )


def get_handoff_tool_call(tool_name: str, call_id: str) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        id=f"fc-{call_id}", call_id=call_id, type="function_call", name=tool_name, arguments="{}"
    )


@pytest.mark.asyncio
async def test_nested_handoff_history_summary_does_not_repeat_messages_over_four_hops():
    model_d = FakeModel()
    model_d.set_next_output([get_text_message("D: final", "msg-D")])
    agent_d = Agent(name="D", model=model_d)
    next_agent = agent_d
    for name in ("C", "B", "A"):
        to_next = handoff(next_agent)
        model = FakeModel()
        # Ids unique per hop: releases from 0.24.0 refuse a call_id reused for another invocation.
        model.set_next_output(
            [get_text_message(f"{name}: msg", f"msg-{name}"), get_handoff_tool_call(to_next.tool_name, f"call-{name}")]
        )
        next_agent = Agent(name=name, model=model, handoffs=[to_next])

    await Runner.run(next_agent, "USERQ", run_config=RunConfig(nest_handoff_history=True))

    assert model_d.first_turn_args is not None
    summaries = [
        str(item["content"])
        for item in model_d.first_turn_args["input"]
        if isinstance(item, dict) and HISTORY_MARKER in str(item.get("content"))
    ]
    assert summaries, "D received no conversation history summary"
    for text in ("A: msg", "B: msg", "C: msg"):
        assert all(summary.count(text) <= 1 for summary in summaries), f"{text!r} repeated: {summaries}"
        assert text in str(model_d.first_turn_args["input"]), f"{text!r} never reached D"
