"""Responses API payloads for the fake OpenAI server (harness/runtime/fakes/openai_http.py):
output items, the ``response`` object, and the events of its stream in the API's order. Plain
dicts, as the wire carries them; ``openai_http`` re-exports them (``oh.response_events``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

RESPONSES_MODEL = "fake-responses-model"
CREATED = 1700000000  # a fixed timestamp, so payloads (and what the SDK echoes) never vary


def pieces(text: str, size: int) -> list[str]:
    """``text`` in pieces of ``size`` characters (at least one piece)."""
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


# --- Responses API payloads ------------------------------------------------------------------


def output_message(text: str, id: str = "msg-1") -> dict[str, Any]:
    """An assistant ``message`` output item."""
    return {
        "id": id,
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": [], "logprobs": []}],
    }


def output_function_call(
    name: str, arguments: dict[str, Any] | str | None = None, call_id: str = "call-1", id: str | None = None
) -> dict[str, Any]:
    """A ``function_call`` output item."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments or {}, sort_keys=True)
    return {
        "id": id if id is not None else f"fc-{call_id}",
        "type": "function_call",
        "call_id": call_id,
        "name": name,
        "arguments": args,
        "status": "completed",
    }


def output_reasoning(summary: str | None = None, id: str = "rs-1") -> dict[str, Any]:
    """A ``reasoning`` output item with one summary part (or none)."""
    parts = [] if summary is None else [{"type": "summary_text", "text": summary}]
    return {"id": id, "type": "reasoning", "summary": parts}


def response_usage(
    input_tokens: int = 0, output_tokens: int = 0, cached: int = 0, reasoning: int = 0
) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input_tokens + output_tokens,
    }


def response(
    output: Sequence[dict[str, Any]] = (),
    *,
    usage: dict[str, Any] | None = None,
    id: str = "resp-1",
    model: str = RESPONSES_MODEL,
    status: str = "completed",
) -> dict[str, Any]:
    """A ``response`` object."""
    return {
        "id": id,
        "object": "response",
        "created_at": CREATED,
        "model": model,
        "status": status,
        "output": [dict(item) for item in output],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "top_p": 1.0,
        "temperature": 1.0,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "metadata": {},
        "usage": usage,
    }


def _text_part(
    emit: Callable[..., None],
    at: dict[str, Any],
    names: tuple[str, str, str],
    number: int,
    part: dict[str, Any],
    deltas: list[str],
    **extra: Any,
) -> None:
    """A text part's events: ``<part>.added`` (empty), ``<text>.delta`` per piece, ``<text>.done``,
    ``<part>.done``; ``names`` is (part event, text event, index key): a message's content part
    or a reasoning item's summary part."""
    part_event, text_event, index_key = names
    where = {**at, index_key: number}
    emit(f"response.{part_event}.added", **where, part={**part, "text": ""})
    for piece in deltas:
        emit(f"response.{text_event}.delta", **where, delta=piece, **extra)
    emit(f"response.{text_event}.done", **where, text=part.get("text", ""), **extra)
    emit(f"response.{part_event}.done", **where, part=part)


def response_events(
    output: Sequence[dict[str, Any]],
    *,
    usage: dict[str, Any] | None = None,
    id: str = "resp-1",
    model: str = RESPONSES_MODEL,
    text_piece: int = 0,
) -> list[dict[str, Any]]:
    """The events a Responses API stream sends for ``output``, in the API's order.

    ``response.created``, then per item ``output_item.added``, its content as deltas
    (message text in pieces of ``text_piece`` characters, 0 meaning one delta; function call
    arguments; reasoning summary text) and ``output_item.done``, then ``response.completed``
    carrying the whole response. Every event has its ``sequence_number``.
    """
    events: list[dict[str, Any]] = []

    def emit(kind: str, **fields: Any) -> None:
        events.append({"type": kind, "sequence_number": len(events), **fields})

    emit("response.created", response=response((), id=id, model=model, status="in_progress"))
    emit("response.in_progress", response=response((), id=id, model=model, status="in_progress"))
    for index, item in enumerate(output):
        item_id = item.get("id")
        kind = item["type"]
        at = {"item_id": item_id, "output_index": index}
        if kind == "message":
            emit(
                "response.output_item.added", output_index=index, item={**item, "status": "in_progress", "content": []}
            )
            for c, part in enumerate(item["content"]):
                text = part.get("text", "")
                deltas = pieces(text, text_piece) if text_piece else [text]
                _text_part(emit, at, ("content_part", "output_text", "content_index"), c, part, deltas, logprobs=[])
        elif kind == "function_call":
            emit(
                "response.output_item.added",
                output_index=index,
                item={**item, "status": "in_progress", "arguments": ""},
            )
            emit("response.function_call_arguments.delta", **at, delta=item["arguments"])
            emit("response.function_call_arguments.done", **at, arguments=item["arguments"], name=item["name"])
        elif kind == "reasoning":
            emit("response.output_item.added", output_index=index, item={**item, "summary": []})
            for s, part in enumerate(item.get("summary", [])):
                names = ("reasoning_summary_part", "reasoning_summary_text", "summary_index")
                _text_part(emit, at, names, s, part, [part["text"]])
        else:
            emit("response.output_item.added", output_index=index, item=item)
        emit("response.output_item.done", output_index=index, item=item)
    emit("response.completed", response=response(output, usage=usage, id=id, model=model))
    return events
