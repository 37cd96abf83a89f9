"""openai-agents specifics: a scripted fake ``Model`` and helpers to describe model input.

Written for this project (the upstream test suite's ``FakeModel`` is not in the released
package). Public API only (``agents.models.interface.Model``, ``agents.items.ModelResponse``,
the ``openai.types.responses`` output items and stream events), so it works on every
openai-agents release from 0.6 on, and as far as the scenarios reach back (``Runner.run``
from 0.0.2, streamed runs from 0.2.0, checked by the session scenarios):

- ``Model.get_response`` / ``stream_response`` take their arguments positionally in some
  releases' runners and by keyword in others, so the fake accepts ``*args, **kwargs`` and
  reads ``input`` from either;
- ``ModelResponse`` gained ``request_id`` (0.10) and ``raw_usage`` (0.20), and called
  ``response_id`` ``referenceable_id`` before 0.0.10; the fake passes only the fields the
  installed dataclass declares;
- streamed runs: every release's runner builds the turn's ``ModelResponse`` from the
  ``ResponseCompletedEvent`` it receives (``agents/run.py`` before 0.12,
  ``agents/run_internal/run_loop.py`` after), and newer ones also collect the items of
  ``ResponseOutputItemDoneEvent``. The fake streams what a real Responses stream sends for
  its items (:func:`stream_events_for`): ``response.created``, ``response.in_progress``; per
  output item ``output_item.added``, for a message's text parts ``content_part.added``,
  several ``output_text.delta`` (one per word), ``output_text.done``, ``content_part.done``,
  for a function call ``function_call_arguments.delta``/``.done``; ``output_item.done``; then
  ``response.completed``. Event fields are passed only where the installed ``openai`` event
  model declares them (``sequence_number``, ``logprobs`` and ``name`` came in later releases).

Helpers the scenarios share: :class:`RecordingTool` (a function tool that records its
calls), :func:`drain_stream` / :func:`run_item_names` / :func:`text_deltas` (what a streamed
run emitted), :func:`item_lines` (numbered item lines), :func:`counts_by_type` /
:func:`counts_by_call_id`, :func:`to_dict` (SDK object to dict), :class:`SessionFile` (a
``SQLiteSession`` on a real file, read back through a fresh session), and the readers of
nested handoff history summaries (:func:`read_nested_history`, :func:`history_item_key`).

Tracing export is switched off on import (``agents.set_tracing_disabled(True)``), on top of
the ``OPENAI_AGENTS_DISABLE_TRACING=1`` the runner sets, so no trace reaches the network even
when ``agents`` was imported before the environment variable was set.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from typing import Any

import agents
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseFunctionToolCall,
    ResponseInProgressEvent,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
)

from harness.runtime.timeline import Placeholders, quote

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
    # request_id (0.10+) and raw_usage (0.20+) keep their defaults where they exist;
    # 0.0.2-0.0.9 named response_id ``referenceable_id`` (a required field).
    kwargs: dict[str, Any] = {
        "output": output,
        "usage": Usage(),
        "response_id": response_id,
        "referenceable_id": response_id,
    }
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
    # ``sequence_number`` (and ``logprobs`` of the text events, ``name`` of
    # function_call_arguments.done) are required by recent openai releases and unknown to
    # older ones; pass each field only where the event model declares it.
    declared = getattr(cls, "model_fields", {})
    fields["sequence_number"] = sequence_number
    return cls(**{k: v for k, v in fields.items() if k in declared})


def text_chunks(text: str) -> list[str]:
    """How the fake streams a text: one delta per word (with its leading space), at least two."""
    pieces = re.findall(r"\s*\S+\s*$|\s*\S+", text) or [text]
    if len(pieces) == 1 and len(text) > 1:
        pieces = [text[: len(text) // 2], text[len(text) // 2 :]]
    return pieces


def _item_events(item: Any, index: int) -> list[tuple[type, dict[str, Any]]]:
    """The stream events of one output item, as a real Responses stream sends them."""
    item_id = getattr(item, "id", None)
    kind = getattr(item, "type", None)
    if kind == "message":
        added_item = item.model_copy(update={"status": "in_progress", "content": []}, deep=True)
    elif kind == "function_call":
        added_item = item.model_copy(update={"status": "in_progress", "arguments": ""}, deep=True)
    else:
        added_item = item.model_copy(deep=True)
    events: list[tuple[type, dict[str, Any]]] = [
        (
            ResponseOutputItemAddedEvent,
            {"type": "response.output_item.added", "item": added_item, "output_index": index},
        )
    ]
    at = {"item_id": item_id, "output_index": index}
    if kind == "message":
        for c, part in enumerate(item.content):
            part_at = {**at, "content_index": c}
            is_text = getattr(part, "type", None) == "output_text"
            empty = part.model_copy(update={"text": ""}, deep=True) if is_text else part.model_copy(deep=True)
            events.append(
                (ResponseContentPartAddedEvent, {"type": "response.content_part.added", "part": empty, **part_at})
            )
            if is_text:
                events += [
                    (
                        ResponseTextDeltaEvent,
                        {"type": "response.output_text.delta", "delta": d, "logprobs": [], **part_at},
                    )
                    for d in text_chunks(part.text)
                ]
                events.append(
                    (
                        ResponseTextDoneEvent,
                        {"type": "response.output_text.done", "text": part.text, "logprobs": [], **part_at},
                    )
                )
            events.append(
                (
                    ResponseContentPartDoneEvent,
                    {"type": "response.content_part.done", "part": part.model_copy(deep=True), **part_at},
                )
            )
    elif kind == "function_call":
        events += [
            (
                ResponseFunctionCallArgumentsDeltaEvent,
                {"type": "response.function_call_arguments.delta", "delta": item.arguments, **at},
            ),
            (
                ResponseFunctionCallArgumentsDoneEvent,
                {"type": "response.function_call_arguments.done", "arguments": item.arguments, "name": item.name, **at},
            ),
        ]
    events.append(
        (
            ResponseOutputItemDoneEvent,
            {"type": "response.output_item.done", "item": item.model_copy(deep=True), "output_index": index},
        )
    )
    return events


def stream_events_for(output: list[Any], response_id: str) -> list[Any]:
    """Every event of a Responses stream whose completed response holds ``output``, numbered in order."""
    specs: list[tuple[type, dict[str, Any]]] = [
        (ResponseCreatedEvent, {"type": "response.created", "response": _response([], response_id, "in_progress")}),
        (
            ResponseInProgressEvent,
            {"type": "response.in_progress", "response": _response([], response_id, "in_progress")},
        ),
    ]
    for index, item in enumerate(output):
        specs += _item_events(item, index)
    specs.append(
        (
            ResponseCompletedEvent,
            {"type": "response.completed", "response": _response(output, response_id, "completed")},
        )
    )
    return [_event(cls, seq, **fields) for seq, (cls, fields) in enumerate(specs)]


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
        for event in stream_events_for(output, self._response_id(turn)):
            yield event


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


# --- objects, items and counts ------------------------------------------------------------


def to_dict(obj: Any) -> Any:
    """An SDK object as a plain dict (pydantic models: the fields that were set; dataclasses:
    every field); a dict is copied; anything else is returned as it is."""
    if isinstance(obj, dict):
        return copy.deepcopy(obj)
    if hasattr(obj, "model_dump"):
        return obj.model_dump(exclude_unset=True)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.asdict(obj)
    return obj


def raw_item(item: Any) -> Any:
    """A run item's raw item as a dict (``RunItem.raw_item``); an input item as a dict."""
    return to_dict(getattr(item, "raw_item", item))


def item_type(item: Any) -> str:
    """An item's ``type``; a message input item without one (``{"role": ..., "content": ...}``) is ``message``."""
    data = raw_item(item)
    kind = _get(data, "type")
    if kind is None and _get(data, "role") is not None:
        return "message"
    return str(kind or type(item).__name__)


def item_lines(items: Iterable[Any], ids: Placeholders, indent: str = "") -> list[str]:
    """``1. user 'hi'``, ``2. function_call call-1 get({...})``: one numbered line per item, in order.

    Run items (``result.new_items``), input items (``result.to_input_list()``, session
    items) and SDK objects alike.
    """
    return [f"{indent}{n}. {describe_item(raw_item(item), ids)}" for n, item in enumerate(items, 1)]


def session_file_lines(items: Iterable[Any], ids: Placeholders) -> list[str]:
    """``session file holds 2 items:`` then one numbered, indented line per stored item.

    How the session scenarios show what a ``SessionFile`` kept (``store.stored_items()``).
    """
    items = list(items)
    return [f"session file holds {len(items)} items:", *item_lines(items, ids, indent="  ")]


def counts_by_type(items: Iterable[Any]) -> dict[str, int]:
    """How many items of each type, by type name, sorted."""
    counts = Counter(item_type(item) for item in items)
    return dict(sorted(counts.items()))


def counts_by_call_id(items: Iterable[Any], ids: Placeholders | None = None) -> dict[str, dict[str, int]]:
    """For each call id (as a placeholder when ``ids`` is given): how many items of each type carry it.

    A call answered once reads ``{"function_call": 1, "function_call_output": 1}``; a
    duplicated one shows a 2. Items without a call id are not counted.
    """
    counts: dict[str, Counter] = {}
    for item in items:
        call_id = _get(raw_item(item), "call_id")
        if call_id is None:
            continue
        key = ids("call", call_id) if ids is not None else str(call_id)
        counts.setdefault(key, Counter())[item_type(item)] += 1
    return {k: dict(sorted(v.items())) for k, v in counts.items()}


def counts_line(label: str, counts: dict[str, Any]) -> str:
    """``label {...}``: a counts mapping on one timeline line."""
    return f"{label} {json.dumps(counts, sort_keys=True)}"


# --- streamed runs -------------------------------------------------------------------------


async def drain_stream(result: Any) -> list[Any]:
    """Consume ``result.stream_events()`` of a ``Runner.run_streamed`` result; every event, in order."""
    return [event async for event in result.stream_events()]


def run_item_names(events: Iterable[Any]) -> list[str]:
    """The names of the ``run_item_stream_event`` events (``tool_called``, ``tool_output``, ...), in order."""
    return [event.name for event in events if getattr(event, "type", None) == "run_item_stream_event"]


def item_events_line(events: Iterable[Any], label: str = "item events") -> str:
    """``item events: tool_called, tool_output`` (:func:`run_item_names`), or ``(none)``."""
    return f"{label}: {', '.join(run_item_names(events)) or '(none)'}"


def raw_event_types(events: Iterable[Any]) -> list[str]:
    """The types of the raw model stream events (``response.output_text.delta``, ...), in order."""
    return [event.data.type for event in events if getattr(event, "type", None) == "raw_response_event"]


def text_deltas(events: Iterable[Any]) -> list[str]:
    """The text deltas the raw model stream carried, in order."""
    return [
        event.data.delta
        for event in events
        if getattr(event, "type", None) == "raw_response_event"
        and getattr(event.data, "type", None) == "response.output_text.delta"
    ]


# --- tools ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ToolCall:
    """One call of a :class:`RecordingTool`: the call id the runner gave, and the arguments."""

    call_id: str | None
    arguments: dict[str, Any]


class RecordingTool:
    """A function tool that records every call and answers with ``result``.

    ``parameters`` maps each argument to its JSON type (``{"city": "string"}``), all required.
    ``result`` is the answer, or a function of the arguments returning it (a non-string
    answer is sent as JSON). Give ``tool.tool`` to the Agent; read ``tool.calls``.

    Usage: ``weather = RecordingTool("get_weather", {"city": "string"}, result="sunny")``.
    """

    def __init__(
        self,
        name: str,
        parameters: dict[str, str] | None = None,
        result: Any = "ok",
        description: str = "",
    ) -> None:
        from agents import FunctionTool

        self.name = name
        self.result = result
        self.calls: list[ToolCall] = []
        params = dict(parameters or {})
        schema = {
            "type": "object",
            "properties": {p: {"type": t} for p, t in params.items()},
            "required": list(params),
            "additionalProperties": False,
        }
        self.tool = FunctionTool(
            name=name,
            description=description or f"The scenario's {name} tool.",
            params_json_schema=schema,
            on_invoke_tool=self._invoke,
            strict_json_schema=True,
        )

    async def _invoke(self, context: Any, arguments: str) -> str:
        args = json.loads(arguments) if arguments else {}
        # ToolContext.tool_call_id (every release from 0.6); None where the context lacks it.
        self.calls.append(ToolCall(getattr(context, "tool_call_id", None), args))
        answer: Any = self.result(args) if callable(self.result) else self.result
        return answer if isinstance(answer, str) else json.dumps(answer, sort_keys=True)

    def call_lines(self, ids: Placeholders) -> list[str]:
        """``tool get_weather ran for call-1 with {"city": "Paris"}``, one line per call, in order."""
        return [
            f"tool {self.name} ran for {ids('call', c.call_id)} with {json.dumps(c.arguments, sort_keys=True)}"
            for c in self.calls
        ]
