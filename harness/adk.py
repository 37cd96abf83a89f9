"""google-adk specifics: a scripted fake model and the session timeline.

Public API only (``google.adk.models.BaseLlm``, ``LlmResponse``, session events), so it
works on every google-adk release the scenarios use (1.x and 2.x).
"""

from __future__ import annotations

import copy
import json
from typing import Any, AsyncGenerator

from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.genai import types

from harness.timeline import Placeholders, quote


class ScriptExhausted(AssertionError):
    """The agent asked the fake model for more turns than the scenario scripted."""


def text(reply: str) -> LlmResponse:
    """A scripted model turn that answers with text."""
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=reply)]))


def calls(*function_calls: tuple[str, dict[str, Any]]) -> LlmResponse:
    """A scripted model turn holding one or more function calls, as (name, args) pairs."""
    parts = [
        types.Part(function_call=types.FunctionCall(name=name, args=args)) for name, args in function_calls
    ]
    return LlmResponse(content=types.Content(role="model", parts=parts))


class ScriptedLlm(BaseLlm):
    """A ``BaseLlm`` that replays scripted responses in order and records every request.

    Usage: ``ScriptedLlm(model="scripted", script=[calls(("get_weather", {"city": "Paris"})), text("done")])``.
    """

    script: list[Any] = []
    requests: list[Any] = []

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        # Copy the request: the flow mutates its contents list after the call.
        self.requests.append(copy.deepcopy(llm_request.contents))
        turn = len(self.requests)
        if turn > len(self.script):
            raise ScriptExhausted(
                f"ScriptedLlm: the agent asked for model turn {turn}, but the scenario scripted "
                f"only {len(self.script)}; add a response to the script or check why the agent looped"
            )
        yield self.script[turn - 1].model_copy(deep=True)


def describe_part(part: Any, ids: Placeholders) -> str:
    """One part of an event's content, normalised: text, function call or response."""
    if part.function_call is not None:
        fc = part.function_call
        return f"call {ids('call', fc.id)} {fc.name}({json.dumps(fc.args or {}, sort_keys=True)})"
    if part.function_response is not None:
        fr = part.function_response
        return f"response {ids('call', fr.id)} {fr.name} -> {json.dumps(fr.response, sort_keys=True, default=str)}"
    if part.text is not None:
        return quote(part.text)
    return "<other part>"


def event_line(event: Any, ids: Placeholders) -> str:
    """``[inv-1] author 'text'`` for one session event, with its state delta if any."""
    parts = event.content.parts if event.content and event.content.parts else []
    body = " ".join(describe_part(p, ids) for p in parts) or "<no content>"
    line = f"[{ids('inv', event.invocation_id)}] {event.author} {body}"
    delta = event.actions.state_delta if event.actions else None
    if delta:
        line += f" state_delta={json.dumps(delta, sort_keys=True, default=str)}"
    return line


def session_timeline(events: list[Any], ids: Placeholders) -> list[str]:
    """The session's events, one normalised line each, in order."""
    return [event_line(e, ids) for e in events]


# --- scripted model errors (a model error at turn N) ----------------------------------------


class ScriptedModelError(RuntimeError):
    """The error a scripted model turn raises, as a provider's client would (a 503, a quota)."""


def fails(message: str) -> ScriptedModelError:
    """A scripted model turn that raises instead of answering: ``script=[calls(...), fails("503 UNAVAILABLE")]``.

    Only :class:`FailingScriptedLlm` raises it; the plain ScriptedLlm would try to yield it.
    """
    return ScriptedModelError(message)


class FailingScriptedLlm(ScriptedLlm):
    """A ScriptedLlm whose script may hold :func:`fails` turns: the request is recorded, then raised."""

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        turn = len(self.requests) + 1
        if turn <= len(self.script) and isinstance(self.script[turn - 1], BaseException):
            self.requests.append(copy.deepcopy(llm_request.contents))
            raise self.script[turn - 1]
        async for response in super().generate_content_async(llm_request, stream):
            yield response
