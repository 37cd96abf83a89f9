"""agents-reasoning-item-chat-completions: what the harness needs beside repro.py."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, Release

BUGGY = Release("openai-agents==0.2.3", "the last release before #1098 (items_to_messages has no reasoning branch)")
FIXED = AsInstalled("the pinned release (0.24.0) skips the reasoning item when it builds the next request")


def _sent_as_user(role):
    """An alteration: the messages with ``role`` reach the model as user messages."""

    def alter(obs):
        for message in obs.facts["last_messages"]:
            if isinstance(message, dict) and message.get("role") == role:
                message["role"] = "user"

    return alter


BUG = Bug(
    explanations=(
        Explanation(
            "*",
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
        "https://github.com/openai/openai-agents-python/issues/1004",
        "https://github.com/openai/openai-agents-python/issues/1164",
        "https://github.com/openai/openai-agents-python/issues/1165",
        "https://github.com/openai/openai-agents-python/pull/871",
        "https://github.com/openai/openai-agents-python/pull/1098",
        "https://github.com/openai/openai-agents-python/issues/1401",
    ),
    description=(
        "On OpenAIChatCompletionsModel, a reasoning model's reasoning_content becomes a reasoning "
        "item; when it is handed back as input (the turn after a tool call, or the next run), "
        "Converter.items_to_messages raises 'Unhandled item type or structure' and no request is sent."
    ),
    expected=(
        "The reasoning item is dropped (or replayed as reasoning_content) when the next request is "
        "built; the turn after the tool call is sent with the tool result and the run finishes."
    ),
    claims=Claim(
        fixed_in="0.2.4",
        pr="#871",
        pr_state="merged",
        source='issue #1004: the thread says "fixed in #871, released as 0.2.4"',
    ),
    cases={
        "tool-call-then-turn": CaseRole(
            "Runner.run: turn 1 sends reasoning_content and a tool call, turn 2 must be sent",
            reproduced=BUGGY, fixed=FIXED,
            edges=(
                Edge("unexpected", "the converter's refusal, but of another item type", lambda obs: obs.facts.update(
                    error="UserError: Unhandled item type or structure: {'type': 'web_search_call'}")),
                Edge("unexpected", "turn 2 sent, but the tool result in a user message", _sent_as_user("tool")),
            ),
        ),
        "tool-call-then-turn-streamed": CaseRole(
            "the same through Runner.run_streamed over server-sent events (the thread's traceback)",
            reproduced=BUGGY, fixed=FIXED,
        ),
        "next-run-input-list": CaseRole(
            "#1164: run 1 answers with reasoning_content; run 2 gets result.to_input_list() plus a question",
            reproduced=BUGGY, fixed=FIXED,
            edges=(Edge("unexpected", "run 2 sent, but run 1's answer in a user message", _sent_as_user("assistant")),),
        ),
    },
)  # fmt: skip
