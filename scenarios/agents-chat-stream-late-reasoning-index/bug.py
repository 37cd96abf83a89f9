"""agents-chat-stream-late-reasoning-index: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess

# The reference fix wraps `ChatCmplStreamHandler.handle_stream`: an item's slot is the next free one when it is
# first announced, every event of the item carries it, response.completed's output is ordered by slot.


def _slot_key(item):
    kind = getattr(item, "type", None)
    return ("function_call", getattr(item, "call_id", None)) if kind == "function_call" else (kind,)


def _event_key(event, calls_by_index):
    kind = getattr(event, "type", "")
    if kind.startswith("response.reasoning"):
        return ("reasoning",)
    if kind.startswith(("response.output_text", "response.content_part", "response.refusal")):
        return ("message",)
    if kind.startswith("response.function_call_arguments"):
        return calls_by_index.get(event.output_index)
    return None


@contextlib.contextmanager
def _slot_per_item():
    from agents.models.chatcmpl_stream_handler import ChatCmplStreamHandler

    original = ChatCmplStreamHandler.__dict__["handle_stream"]
    inner = original.__func__

    async def handle_stream(cls, *args, **kwargs):
        slots, calls_by_index = {}, {}
        async for event in inner(cls, *args, **kwargs):
            kind = getattr(event, "type", "")
            if kind in ("response.output_item.added", "response.output_item.done"):
                key = _slot_key(event.item)
                if key[0] == "function_call":
                    calls_by_index.setdefault(event.output_index, key)
                event.output_index = slots.setdefault(key, len(slots))
            elif kind == "response.completed":
                response = event.response.model_copy()
                response.output = sorted(event.response.output, key=lambda i: slots.get(_slot_key(i), len(slots)))
                event.response = response
            elif hasattr(event, "output_index"):
                key = _event_key(event, calls_by_index)
                if key is not None:
                    event.output_index = slots.setdefault(key, len(slots))
            yield event

    ChatCmplStreamHandler.handle_stream = classmethod(handle_stream)
    try:
        yield
    finally:
        ChatCmplStreamHandler.handle_stream = original


@contextlib.contextmanager
def _message_slot_ignores_reasoning():
    from agents.models.chatcmpl_stream_handler import _StreamOutputLayout

    original = _StreamOutputLayout.__dict__["_reasoning_output_count"]
    # The assistant message and the function calls are placed as if no reasoning item came
    # before them: the misalignment #3109 / #3176 fixed, put back for the control's proof.
    _StreamOutputLayout._reasoning_output_count = staticmethod(lambda state: 0)
    try:
        yield
    finally:
        _StreamOutputLayout._reasoning_output_count = original


REFERENCE_FIX = InProcess(
    "0.24.0 with ChatCmplStreamHandler.handle_stream wrapped: each item gets the next free output slot "
    "when first announced, response.completed ordered by slot (reference fix, not #5042's code)",
    _slot_per_item,
)
AS_INSTALLED_BUG = AsInstalled("the pinned release (0.24.0, the latest) still announces a late reasoning item at 0")
BROKEN_CONTROL = InProcess(
    "0.24.0 with _StreamOutputLayout placing the message and calls as if no reasoning came first (#3109 put back)",
    _message_slot_ignores_reasoning,
)


# Observations no build makes, one step across the judge's lines (nox -s mutants).
def _without_first(what):
    """An alteration: the stream lacks the first output_item.<what> event."""
    return lambda obs: obs.facts["announced"].remove(next(a for a in obs.facts["announced"] if a[0] == what))


def _closed_elsewhere(obs):
    announced = obs.facts["announced"]
    n, (what, _, key) = next((n, a) for n, a in enumerate(announced) if a[0] == "done")
    announced[n] = (what, len(obs.facts["completed"]), key)


EDGES = (
    Edge("unexpected", "an item of the completed output was never announced", _without_first("added"), REFERENCE_FIX),
    Edge("unexpected", "an item twice in the completed output",
         lambda obs: obs.facts["completed"].append(obs.facts["completed"][0]), REFERENCE_FIX),
    Edge("reproduced", "an item closed at another index than its position", _closed_elsewhere, REFERENCE_FIX),
    Edge("reproduced", "an item announced twice at its own index: two announcements at one output_index",
         lambda obs: obs.facts["announced"].append(next(a for a in obs.facts["announced"] if a[0] == "added")),
         REFERENCE_FIX),
    # The judge checks the closings there are; an item never closed is not one of its figures.
    Edge("fixed", "an item announced at its position but never closed", _without_first("done"), REFERENCE_FIX),
    Edge("unexpected", "the indexes agree, but get_weather ran three times",
         lambda obs: obs.facts.update(tool_calls=3), REFERENCE_FIX),
)  # fmt: skip

BUG = Bug(
    explanations=(
        Explanation(
            "*",
            "==0.2.0",
            "Another bug of 0.2.0: the Chat Completions stream handler overwrites each tool call's "
            "call_id with the empty id of its later chunks (regression of PR #990, fixed by PR #999 "
            "in 0.2.1), so both calls end with call_id \"\" and the judge cannot tell them apart; the "
            "slot-0 bug itself is present underneath.",
        ),
        Explanation(
            "reasoning-first",
            ">=0.2.1,<0.2.4",
            "Turn 1's indexes are right; the second turn then fails converting the reasoning item "
            "back into a Chat Completions message (the same UserError on 0.2.1 and 0.2.3): another bug, "
            "openai/openai-agents-python#1004 (agents-reasoning-item-chat-completions: measured reproduced "
            "on 0.2.0 and 0.2.3, fixed in 0.2.4).",
        ),
        Explanation(
            "reasoning-first",
            "==0.2.5",
            "openai-agents 0.2.5 cannot build a Chat Completions tool-call message with the openai "
            "package it resolves (openai 1.99.2, published hours before it, made "
            "ChatCompletionMessageToolCallParam a Union: \"TypeError: Cannot instantiate typing.Union\""
            " before any request): an incompatibility with a dependency, "
            "openai/openai-agents-python#1417 (PR #1415 raised the floor to openai>=1.99.2; 0.2.6 "
            "works); with openai==1.99.1 the release gives the neighbouring releases' verdicts.",
        ),
    ),
    links=(
        "https://github.com/openai/openai-agents-python/issues/5041",
        "https://github.com/openai/openai-agents-python/pull/5042",
        "https://github.com/openai/openai-agents-python/pull/3176",
    ),
    description=(
        "On OpenAIChatCompletionsModel streams, a reasoning_content delta that arrives after text "
        "or a tool call is announced at output_index 0, which another item already holds, and "
        "response.completed puts it first: announced indexes and completed positions disagree."
    ),
    expected=(
        "Every output item is announced once, at the index that is its position in "
        "response.completed output, and closed at that index, whatever order the deltas come in."
    ),
    claims=Claim(
        pr="#5042",
        pr_state="closed",
        quote="`_StreamOutputLayout` now allocates the reasoning slot lazily via `reasoning_output_index()`",
        source="PR #5042 thread (Fixes #5041) shown closed, not merged in the index; issue #5041 shown closed; "
        "the fetched mirror (to v0.22.0, 2026-08-19) predates both",
    ),
    cases={
        "reasoning-after-text": CaseRole(
            "chunks: text, reasoning_content, two tool calls (the issue's order)",
            reproduced=AS_INSTALLED_BUG, fixed=REFERENCE_FIX, edges=EDGES,
        ),
        "reasoning-after-tool-call": CaseRole(
            "chunks: a tool call, reasoning_content, a second tool call",
            reproduced=AS_INSTALLED_BUG, fixed=REFERENCE_FIX,
        ),
        "reasoning-first": CaseRole(
            "control: reasoning_content, text, two tool calls: the order the handler expects",
            reproduced=BROKEN_CONTROL, fixed=AsInstalled("the pinned release (0.24.0)"), control=True,
        ),
    },
)  # fmt: skip
