"""openai-agents specifics: a scripted fake ``Model`` and helpers to describe model input.

Written for this project (the upstream test suite's ``FakeModel`` is not in the released
package). Public API only (``agents.models.interface.Model``, ``agents.items.ModelResponse``,
the ``openai.types.responses`` output items and stream events), so it works on every
openai-agents release from 0.6 on:

- ``Model.get_response`` / ``stream_response`` take their arguments positionally in some
  releases' runners and by keyword in others, so the fake accepts ``*args, **kwargs`` and
  reads ``input`` from either;
- ``ModelResponse`` gained ``request_id`` (0.10) and ``raw_usage`` (0.20); the fake passes
  only the fields the installed dataclass declares;
- streamed runs: every release's runner builds the turn's ``ModelResponse`` from the
  ``ResponseCompletedEvent`` it receives (``agents/run.py`` before 0.12,
  ``agents/run_internal/run_loop.py`` after), and newer ones also collect the items of
  ``ResponseOutputItemDoneEvent``; the fake yields created, item added/done per output item,
  then completed.

Tracing export is switched off on import (``agents.set_tracing_disabled(True)``), on top of
the ``OPENAI_AGENTS_DISABLE_TRACING=1`` the runner sets, so no trace reaches the network even
when ``agents`` was imported before the environment variable was set.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import AsyncIterator, Iterable
from typing import Any

import agents
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseCreatedEvent,
    ResponseFunctionToolCall,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
)

from harness.timeline import Placeholders, quote

SCRIPTED_MODEL_NAME = "scripted-model"


def disable_tracing() -> None:
    """Switch off trace export process-wide, where the release has the switch."""
    setter = getattr(agents, "set_tracing_disabled", None)
    if callable(setter):
        setter(True)


disable_tracing()


class ScriptExhausted(AssertionError):
    """The run asked the fake model for more turns than the scenario scripted."""


# --- scripted output items -------------------------------------------------------------


def text_message(text: str, id: str = "msg-1") -> ResponseOutputMessage:
    """An assistant message output item with the given text and message id."""
    return ResponseOutputMessage(
        id=id,
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def handoff_tool_name(target: Any) -> str:
    """The tool name of a handoff to ``target`` (an Agent, a Handoff, or a tool name)."""
    if isinstance(target, str):
        return target
    if hasattr(target, "tool_name"):  # a Handoff object
        return target.tool_name
    from agents.handoffs import Handoff

    return Handoff.default_tool_name(target)


def handoff_call(
    target: Any, call_id: str = "call-1", id: str | None = None, arguments: str = "{}"
) -> ResponseFunctionToolCall:
    """A function call output item that hands off to ``target`` (``transfer_to_<name>``).

    Give each call of a run its own ``call_id``: recent releases treat a reused one as a replay.
    """
    return ResponseFunctionToolCall(
        id=id if id is not None else f"fc-{call_id}",
        call_id=call_id,
        type="function_call",
        name=handoff_tool_name(target),
        arguments=arguments,
        status="completed",
    )


def function_call(
    name: str, arguments: dict[str, Any] | None = None, call_id: str = "call-1"
) -> ResponseFunctionToolCall:
    """A function call output item for a plain function tool.

    Give each call of a run its own ``call_id``: recent releases treat a reused one as a replay.
    """
    return ResponseFunctionToolCall(
        id=f"fc-{call_id}",
        call_id=call_id,
        type="function_call",
        name=name,
        arguments=json.dumps(arguments or {}, sort_keys=True),
        status="completed",
    )


# --- the fake model ----------------------------------------------------------------------


_MODEL_RESPONSE_FIELDS = {f.name for f in dataclasses.fields(ModelResponse)}


def _model_response(output: list[Any], response_id: str) -> ModelResponse:
    # request_id (0.10+) and raw_usage (0.20+) keep their defaults where they exist.
    kwargs: dict[str, Any] = {"output": output, "usage": Usage(), "response_id": response_id}
    return ModelResponse(**{k: v for k, v in kwargs.items() if k in _MODEL_RESPONSE_FIELDS})


def _response(output: list[Any], response_id: str, status: str) -> Response:
    return Response(
        id=response_id,
        created_at=0,
        model=SCRIPTED_MODEL_NAME,
        object="response",
        output=output,
        tool_choice="auto",
        tools=[],
        top_p=None,
        parallel_tool_calls=False,
        status=status,
        usage=None,
    )


def _event(cls: type, sequence_number: int, **fields: Any) -> Any:
    # ``sequence_number`` is required by recent openai releases and unknown to none of the
    # ones the matrix resolves; pass it only where the event model declares it.
    if "sequence_number" in getattr(cls, "model_fields", {}):
        fields["sequence_number"] = sequence_number
    return cls(**fields)


def _input_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    # (system_instructions, input, model_settings, tools, output_schema, handoffs, tracing, *, ...)
    if "input" in kwargs:
        return kwargs["input"]
    if len(args) >= 2:
        return args[1]
    raise TypeError("ScriptedModel: the runner called the model without an input argument")


def _instructions_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if "system_instructions" in kwargs:
        return kwargs["system_instructions"]
    return args[0] if args else None


class ScriptedModel(Model):
    """A ``Model`` that replays scripted turns in order and records what each turn received.

    Each turn is a list of output items (see :func:`text_message`, :func:`handoff_call`).
    ``inputs[n]`` is a deep copy of the input of turn ``n + 1``, taken when the call is made.

    Usage: ``ScriptedModel("A", [[text_message("A: msg"), handoff_call(agent_b)]])``.
    """

    def __init__(self, name: str = "scripted", turns: Iterable[Iterable[Any]] = ()) -> None:
        self.name = name
        self.turns: list[list[Any]] = [list(t) for t in turns]
        self.inputs: list[Any] = []
        self.instructions: list[Any] = []
        self.streamed: list[bool] = []

    def add_turn(self, *items: Any) -> ScriptedModel:
        self.turns.append(list(items))
        return self

    @property
    def last_input(self) -> Any:
        if not self.inputs:
            raise AssertionError(f"ScriptedModel {self.name!r} was never called")
        return self.inputs[-1]

    def _next_turn(self, args: tuple[Any, ...], kwargs: dict[str, Any], streamed: bool) -> tuple[int, list[Any]]:
        # Copy the input: the runner keeps mutating its lists after the call returns.
        self.inputs.append(copy.deepcopy(_input_of(args, kwargs)))
        self.instructions.append(copy.deepcopy(_instructions_of(args, kwargs)))
        self.streamed.append(streamed)
        turn = len(self.inputs)
        if turn > len(self.turns):
            raise ScriptExhausted(
                f"ScriptedModel {self.name!r}: the run asked for model turn {turn}, but the scenario "
                f"scripted only {len(self.turns)}; add a turn to the script or check why the agent looped"
            )
        return turn, [item.model_copy(deep=True) for item in self.turns[turn - 1]]

    def _response_id(self, turn: int) -> str:
        return f"resp-{self.name}-{turn}"

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        turn, output = self._next_turn(args, kwargs, streamed=False)
        return _model_response(output, self._response_id(turn))

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        # Record the call eagerly (like get_response), then stream the scripted turn.
        turn, output = self._next_turn(args, kwargs, streamed=True)
        return self._stream(turn, output)

    async def _stream(self, turn: int, output: list[Any]) -> AsyncIterator[Any]:
        response_id = self._response_id(turn)
        seq = 0
        yield _event(
            ResponseCreatedEvent, seq, type="response.created", response=_response([], response_id, "in_progress")
        )
        for index, item in enumerate(output):
            seq += 1
            yield _event(
                ResponseOutputItemAddedEvent, seq, type="response.output_item.added", item=item, output_index=index
            )
            seq += 1
            yield _event(
                ResponseOutputItemDoneEvent, seq, type="response.output_item.done", item=item, output_index=index
            )
        seq += 1
        yield _event(
            ResponseCompletedEvent, seq, type="response.completed", response=_response(output, response_id, "completed")
        )


# --- describing model input --------------------------------------------------------------


def _get(item: Any, key: str) -> Any:
    if isinstance(item, dict):
        return item.get(key)
    return getattr(item, key, None)


def content_text(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a content list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    texts = []
    for part in content:
        text = _get(part, "text")
        if text is None:
            text = _get(part, "refusal")
        texts.append(str(text) if text is not None else f"<{_get(part, 'type') or 'part'}>")
    return "".join(texts)


def as_input_list(model_input: Any) -> list[Any]:
    """The model input as a list of items (a bare string input is one user message)."""
    if isinstance(model_input, str):
        return [{"role": "user", "content": model_input}]
    return list(model_input)


def describe_item(item: Any, ids: Placeholders) -> str:
    """One input item, normalised: ``role 'text' [id]``, a function call, or its output."""
    kind = _get(item, "type")
    role = _get(item, "role")
    if kind == "function_call":
        return f"function_call {ids('call', _get(item, 'call_id'))} {_get(item, 'name')}({_get(item, 'arguments')})"
    if kind == "function_call_output":
        return f"function_call_output {ids('call', _get(item, 'call_id'))} -> {quote(_get(item, 'output'))}"
    if role is not None:
        line = f"{role} {quote(content_text(_get(item, 'content')))}"
        if _get(item, "id") is not None:
            line += f" [{ids('msg', _get(item, 'id'))}]"
        return line
    return f"{kind or 'item'} {quote(json.dumps(item, sort_keys=True, default=str))}"
