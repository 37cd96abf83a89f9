"""A fake OpenAI server at the HTTP layer, for openai-agents' own model classes.

The scripted ``Model`` of ``harness/runtime/fakes/openai_agents.py`` replaces the framework's model
adapter, so it cannot show a bug that lives in one: ``OpenAIChatCompletionsModel`` turning
items into Chat Completions messages (``agents/models/chatcmpl_converter.py``), its stream
handler assembling chunks (``chatcmpl_stream_handler.py``), ``OpenAIResponsesModel``
building a request. This module keeps those real: a real ``openai.AsyncOpenAI`` client
(dummy key, base URL ``http://fake.invalid/v1``, no retries) whose ``http_client`` is an
``AsyncClient`` over a ``MockTransport``. The transport answers each request with the next
scripted reply, plain JSON or server-sent events, and records every request (method, path,
JSON body). Nothing reaches a socket: ``MockTransport`` never opens one (and the harness's
network guard would refuse it).

``FakeOpenAI`` is the server; ``chat_model()`` and ``responses_model()`` give the
framework's model classes over it. Builders make the payloads as plain JSON (so they do not
depend on the installed ``openai`` types): ``chat_completion`` / ``chat_chunks`` for Chat
Completions, ``response`` / ``response_events`` and the ``output_*`` items for the
Responses API.

The HTTP library: ``openai`` 1.x and 2.x are built on ``httpx``; 3.x on ``httpx2`` (its
fork with the same ``AsyncClient`` / ``MockTransport`` / ``Response`` API), and releases of
openai-agents from 0.21 resolve to it with no ``httpx`` installed. The fake uses whichever
module the installed ``openai`` imports (``openai._base_client``), so the client accepts the
``http_client`` and no other HTTP package is needed. The same two-turn tool-call run (both
model classes, plain and streamed) was run on all 86 openai-agents environments built so far,
0.0.2 .. 0.24.0, that is openai 1.66 .. 1.109 and 2.5 .. 2.53 (httpx), 3.1 .. 3.31 (httpx2),
and on 3.57 in ``nox -s tests`` (tests/test_openai_http.py). It finished on 83; on the other
three the release itself failed, not the fake (0.0.2 and 0.0.3 read a streamed usage chunk as
Responses usage; 0.2.5 with openai 1.99.3 raises ``Cannot instantiate typing.Union``,
openai-agents#1401).

Framework-specific: only scenarios import it, inside their case functions; the harness core
never does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import agents

from harness.runtime.fakes.responses_api import CREATED, RESPONSES_MODEL, pieces

BASE_URL = "http://fake.invalid/v1"
API_KEY = "sk-fake-harness-key"  # a dummy: nothing is sent anywhere
CHAT_MODEL = "fake-chat-model"

# Trace export must stay off whatever imported ``agents`` first (see harness/runtime/fakes/openai_agents.py).
_set_tracing_disabled = getattr(agents, "set_tracing_disabled", None)
if callable(_set_tracing_disabled):
    _set_tracing_disabled(True)


def http_module() -> ModuleType:
    """The HTTP library the installed ``openai`` is built on: ``httpx2`` (3.x) or ``httpx``."""
    from openai import _base_client

    for name in ("httpx2", "httpx"):
        module = getattr(_base_client, name, None)
        if isinstance(module, ModuleType) and hasattr(module, "MockTransport"):
            return module
    raise RuntimeError("openai._base_client imports neither httpx2 nor httpx; the fake does not know this openai")


class FakeServerError(AssertionError):
    """The fake was asked for something the scenario did not script (a broken fake, not a result)."""


# --- replies ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """One scripted HTTP answer: a JSON body, or server-sent events.

    ``path`` (``chat/completions``, ``responses``), when given, is the path the request must
    have; ``stream`` says whether the request must ask for a stream (``None``: either).
    """

    status: int = 200
    body: Any = None  # JSON reply
    events: tuple[Any, ...] | None = None  # SSE reply: dicts (JSON data) or "[DONE]"
    named_events: bool = False  # write an ``event: <type>`` line (the Responses API does)
    path: str | None = None
    stream: bool | None = None

    def content(self) -> tuple[bytes, dict[str, str]]:
        if self.events is None:
            return json.dumps(self.body).encode(), {"content-type": "application/json"}
        return sse(self.events, named=self.named_events), {"content-type": "text/event-stream"}


def sse(events: Iterable[Any], named: bool = False) -> bytes:
    """Server-sent events: ``data: <json>`` per event (``event: <type>`` first when ``named``)."""
    out = []
    for event in events:
        if isinstance(event, str):
            out.append(f"data: {event}\n\n")
            continue
        head = f"event: {event['type']}\n" if named and "type" in event else ""
        out.append(f"{head}data: {json.dumps(event)}\n\n")
    return "".join(out).encode()


def chat_reply(completion: dict[str, Any]) -> Reply:
    """A non-streamed Chat Completions answer (see :func:`chat_completion`)."""
    return Reply(body=completion, path="chat/completions", stream=False)


def chat_stream_reply(chunks: Sequence[dict[str, Any]], done: bool = True) -> Reply:
    """A streamed Chat Completions answer: the chunks, then ``data: [DONE]`` as the API ends it."""
    return Reply(events=(*chunks, *(["[DONE]"] if done else [])), path="chat/completions", stream=True)


def responses_reply(resp: dict[str, Any]) -> Reply:
    """A non-streamed Responses API answer (see :func:`response`)."""
    return Reply(body=resp, path="responses", stream=False)


def responses_stream_reply(events: Sequence[dict[str, Any]]) -> Reply:
    """A streamed Responses API answer: named events, no ``[DONE]`` (see :func:`response_events`)."""
    return Reply(events=tuple(events), named_events=True, path="responses", stream=True)


def error_reply(status: int, message: str, path: str | None = None) -> Reply:
    """An API error answer (``{"error": {...}}``), as the API sends for a rejected request."""
    return Reply(status=status, body={"error": {"message": message, "type": "invalid_request_error"}}, path=path)


# --- the server ------------------------------------------------------------------------------


@dataclass
class Request:
    """One request the client sent: method, path below the base URL, JSON body (or None)."""

    method: str
    path: str
    body: Any

    @property
    def streamed(self) -> bool:
        return isinstance(self.body, dict) and bool(self.body.get("stream"))


@dataclass
class FakeOpenAI:
    """Scripted OpenAI server: answers request N with ``replies[N]``; records each request.

    A request the script did not foresee (one too many, a wrong path, a stream where a JSON
    reply was scripted) is answered 500 and recorded in ``problems``; call :meth:`check` (or
    :meth:`cause`) so a broken script surfaces as itself rather than as the SDK's error.
    """

    replies: list[Reply] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def add(self, *replies: Reply) -> FakeOpenAI:
        self.replies.extend(replies)
        return self

    # the transport's handler
    def _handle(self, request: Any) -> Any:
        http = http_module()
        raw = request.content
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode(errors="replace")
        url_path = request.url.path
        base_path = "/v1/"
        path = url_path[len(base_path) :] if url_path.startswith(base_path) else url_path
        recorded = Request(request.method, path, body)
        self.requests.append(recorded)
        n = len(self.requests)
        problem = None
        if n > len(self.replies):
            problem = f"request {n} ({request.method} {path}) but the scenario scripted {len(self.replies)} replies"
        else:
            reply = self.replies[n - 1]
            if reply.path is not None and reply.path != path:
                problem = f"request {n} went to {path}, the script expected {reply.path}"
            elif reply.stream is not None and reply.stream != recorded.streamed:
                want = "a streamed" if reply.stream else "a plain"
                problem = f"request {n} ({path}) stream={recorded.streamed}, the script has {want} reply"
        if problem is not None:
            self.problems.append(problem)
            err = {"error": {"message": f"fake server: {problem}", "type": "fake_server_error"}}
            return http.Response(500, json=err)
        content, headers = reply.content()
        return http.Response(reply.status, content=content, headers=headers)

    # clients and models
    def http_client(self) -> Any:
        http = http_module()
        return http.AsyncClient(transport=http.MockTransport(self._handle), base_url=BASE_URL)

    def client(self) -> Any:
        """A real ``openai.AsyncOpenAI`` over this server (dummy key, no retries)."""
        from openai import AsyncOpenAI

        return AsyncOpenAI(api_key=API_KEY, base_url=BASE_URL, max_retries=0, http_client=self.http_client())

    def chat_model(self, model: str = CHAT_MODEL) -> Any:
        """The framework's ``OpenAIChatCompletionsModel`` over this server."""
        from agents import OpenAIChatCompletionsModel

        return OpenAIChatCompletionsModel(model=model, openai_client=self.client())

    def responses_model(self, model: str = RESPONSES_MODEL) -> Any:
        """The framework's ``OpenAIResponsesModel`` over this server."""
        from agents import OpenAIResponsesModel

        return OpenAIResponsesModel(model=model, openai_client=self.client())

    # reading back
    @property
    def bodies(self) -> list[Any]:
        return [r.body for r in self.requests]

    def cause(self) -> FakeServerError | None:
        """The fake's own first problem as an exception, or None if it answered as scripted."""
        return FakeServerError("; ".join(self.problems)) if self.problems else None

    def check(self) -> None:
        """Raise :class:`FakeServerError` if any request was not answered as scripted."""
        cause = self.cause()
        if cause is not None:
            raise cause


# --- Chat Completions payloads -----------------------------------------------------------------


def tool_call(name: str, arguments: dict[str, Any] | str | None = None, call_id: str = "call-1") -> dict[str, Any]:
    """One entry of a Chat Completions message's ``tool_calls``."""
    args = arguments if isinstance(arguments, str) else json.dumps(arguments or {}, sort_keys=True)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def usage(prompt_tokens: int = 0, completion_tokens: int = 0, **details: Any) -> dict[str, Any]:
    """A Chat Completions ``usage`` object (``details``: e.g. ``completion_tokens_details={...}``)."""
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
        **details,
    }


def chat_completion(
    content: str | None = None,
    *,
    tool_calls: Sequence[dict[str, Any]] = (),
    reasoning_content: str | None = None,
    usage: dict[str, Any] | None = None,
    id: str = "chatcmpl-1",
    model: str = CHAT_MODEL,
    finish_reason: str | None = None,
) -> dict[str, Any]:
    """A ``chat.completion`` object with one choice.

    ``reasoning_content`` is the non-standard field DeepSeek-style providers add to the
    message (the SDK's Chat Completions path reads it into a reasoning item).
    """
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = list(tool_calls)
    if reasoning_content is not None:
        message["reasoning_content"] = reasoning_content
    body: dict[str, Any] = {
        "id": id,
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop"),
                "logprobs": None,
            }
        ],
    }
    if usage is not None:
        body["usage"] = usage
    return body


def chat_chunk(
    delta: dict[str, Any] | None = None,
    *,
    finish_reason: str | None = None,
    usage: dict[str, Any] | None = None,
    id: str = "chatcmpl-1",
    model: str = CHAT_MODEL,
) -> dict[str, Any]:
    """One ``chat.completion.chunk``: a choice with ``delta``, or (``delta=None``) no choice,
    as the final usage chunk of ``stream_options={"include_usage": True}`` has."""
    chunk: dict[str, Any] = {"id": id, "object": "chat.completion.chunk", "created": CREATED, "model": model}
    if delta is None:
        chunk["choices"] = []
    else:
        chunk["choices"] = [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}]
    if usage is not None:
        chunk["usage"] = usage
    else:
        chunk["usage"] = None
    return chunk


def chat_chunks(
    content: str | Sequence[str] | None = None,
    *,
    tool_calls: Sequence[dict[str, Any]] = (),
    reasoning_content: str | Sequence[str] | None = None,
    usage: dict[str, Any] | None = None,
    args_piece: int = 8,
    id: str = "chatcmpl-1",
    model: str = CHAT_MODEL,
    finish_reason: str | None = None,
    role_content: str | None = "",
) -> list[dict[str, Any]]:
    """The chunks a Chat Completions stream sends for one answer, in the API's order.

    A first chunk with the role (and ``"content": ""``, as the OpenAI API sends it; other
    providers send the role alone: ``role_content=None``), then ``reasoning_content`` deltas, ``content`` deltas (a
    string is one delta; a sequence, one delta per piece), each tool call as a chunk with its
    id and name and then chunks of ``args_piece`` characters of arguments (indexed, with no
    id, as the API streams them), a chunk with the finish reason, and, when ``usage`` is
    given, the final usage chunk with no choices.
    """
    first: dict[str, Any] = {"role": "assistant"}
    if role_content is not None:
        first["content"] = role_content
    out = [chat_chunk(first, id=id, model=model)]
    if reasoning_content is not None:
        for piece in [reasoning_content] if isinstance(reasoning_content, str) else reasoning_content:
            out.append(chat_chunk({"reasoning_content": piece}, id=id, model=model))
    if content is not None:
        for piece in [content] if isinstance(content, str) else content:
            out.append(chat_chunk({"content": piece}, id=id, model=model))
    for index, call in enumerate(tool_calls):
        fn = call["function"]
        head = {"index": index, "id": call["id"], "type": "function", "function": {"name": fn["name"], "arguments": ""}}
        out.append(chat_chunk({"tool_calls": [head]}, id=id, model=model))
        for piece in pieces(fn["arguments"], args_piece):
            out.append(
                chat_chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}, id=id, model=model)
            )
    reason = finish_reason or ("tool_calls" if tool_calls else "stop")
    out.append(chat_chunk({}, finish_reason=reason, id=id, model=model))
    if usage is not None:
        out.append(chat_chunk(None, usage=usage, id=id, model=model))
    return out


# --- describing what the client sent -----------------------------------------------------------


def _text_of(content: Any) -> str | None:
    """A message's content as text (parts joined), or None when it has none."""
    if content is None:
        return None
    if isinstance(content, str):
        return content
    texts = []
    for part in content:
        if isinstance(part, dict):
            texts.append(str(part.get("text", part.get("refusal", f"<{part.get('type', 'part')}>"))))
        else:
            texts.append(str(part))
    return "".join(texts)


def describe_chat_message(message: Any, ids: Any) -> str:
    """One Chat Completions request message on one line.

    ``user 'text'``; ``assistant 'text' tool_calls=[call-1 name(args)]`` (no text when the
    content is null, ``''`` when it is an empty string); ``tool call-1 'output'``; keys the
    line does not show otherwise (``reasoning_content``, ...) as ``key=value``. ``ids`` is a
    :class:`harness.timeline.Placeholders` for call ids.
    """
    from harness.runtime.timeline import quote

    if not isinstance(message, dict):
        return f"<not a message: {quote(message)}>"
    role = message.get("role", "?")
    parts = [str(role)]
    if role == "tool":
        parts.append(ids("call", message.get("tool_call_id")))
    text = _text_of(message.get("content"))
    if text is not None:
        parts.append(quote(text))
    calls = message.get("tool_calls")
    if calls:
        shown = []
        for call in calls:
            fn = call.get("function", {}) if isinstance(call, dict) else {}
            shown.append(f"{ids('call', call.get('id'))} {fn.get('name')}({fn.get('arguments')})")
        parts.append(f"tool_calls=[{', '.join(shown)}]")
    for key in sorted(message):
        if key not in ("role", "content", "tool_calls", "tool_call_id"):
            value = message[key] if isinstance(message[key], str) else json.dumps(message[key], sort_keys=True)
            parts.append(f"{key}={quote(value, 60)}")
    return " ".join(parts)


def describe_request(request: Request, ids: Any) -> list[str]:
    """A recorded request as timeline lines: a header, then one line per message or input item."""
    body = request.body if isinstance(request.body, dict) else {}
    mode = "streamed" if request.streamed else "plain"
    if request.path == "chat/completions":
        messages = body.get("messages") or []
        lines = [f"{request.method} {request.path} ({mode}), {len(messages)} messages:"]
        lines += [f"  {describe_chat_message(m, ids)}" for m in messages]
        return lines
    if request.path == "responses":
        from harness.runtime.fakes.openai_agents import as_input_list, describe_item

        items = as_input_list(body.get("input") or [])
        lines = [f"{request.method} {request.path} ({mode}), {len(items)} input items:"]
        lines += [f"  {describe_item(item, ids)}" for item in items]
        return lines
    return [f"{request.method} {request.path} ({mode})"]


def run_item_lines(items: Iterable[Any], ids: Any, indent: str = "") -> list[str]:
    """Numbered lines for a run's items (``result.new_items``): a reasoning item as
    ``reasoning 'summary text'`` (its ids and provider data vary by release), every other item
    as :func:`harness.openai_agents.item_lines` writes it."""
    from harness.runtime.fakes.openai_agents import describe_item, raw_item
    from harness.runtime.timeline import quote

    lines = []
    for n, item in enumerate(items, 1):
        raw = raw_item(item)
        if isinstance(raw, dict) and raw.get("type") == "reasoning":
            texts = [part.get("text", "") for part in raw.get("summary") or [] if isinstance(part, dict)]
            texts += [part.get("text", "") for part in raw.get("content") or [] if isinstance(part, dict)]
            lines.append(f"{indent}{n}. reasoning {quote(' '.join(t for t in texts if t))}")
        else:
            lines.append(f"{indent}{n}. {describe_item(raw, ids)}")
    return lines
