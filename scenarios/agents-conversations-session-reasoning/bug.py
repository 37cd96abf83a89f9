"""agents-conversations-session-reasoning: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


def _patched_add_items(keep):
    """OpenAIConversationsSession.add_items sends only the items ``keep`` accepts, in order."""

    @contextlib.contextmanager
    def patch() -> Iterator[None]:
        from agents.memory import openai_conversations_session as module

        cls = module.OpenAIConversationsSession
        original = cls.add_items

        async def add_items(self, items):
            return await original(self, keep(list(items)))

        cls.add_items = add_items  # type: ignore[method-assign]
        try:
            yield
        finally:
            cls.add_items = original  # type: ignore[method-assign]

    return patch


def _without_empty_reasoning(items):
    """The thread's fix (a): no reasoning item with an empty summary and no encrypted_content is sent."""
    return [
        item
        for item in items
        if not (
            isinstance(item, dict)
            and item.get("type") == "reasoning"
            and not item.get("summary")
            and not item.get("encrypted_content")
        )
    ]


def _up_to_reasoning(items):
    """A fix gone too far: a reasoning item and everything after it (the answer) is dropped."""
    kept = []
    for item in items:
        if isinstance(item, dict) and item.get("type") == "reasoning":
            break
        kept.append(item)
    return kept


def _only_reasoning(items):
    """What the control must never show: the answer is not sent."""
    return [item for item in items if not (isinstance(item, dict) and item.get("role") == "assistant")]


THREAD_FIX = InProcess(
    "the thread's suggestion (a), 'the SDK should not emit empty-shell reasoning items into add_items', applied "
    "in OpenAIConversationsSession.add_items",
    _patched_add_items(_without_empty_reasoning),
)
UNFIXED = AsInstalled("the pinned release (0.24.0) still sends the reasoning item, with its id (PR #3352)")
EDGES = (
    Edge("unexpected", "the run ended with another answer", lambda obs: obs.facts.update(final_output="Bye.")),
    Edge("unexpected", "the user input was sent twice", lambda obs: obs.facts.update(user_sent=2)),
    Edge("unexpected", "the answer was never sent", lambda obs: obs.facts.update(answer_sent=0)),
)
ANSWER_EDGES = (
    Edge("unexpected", "the answer was sent twice", lambda obs: obs.facts.update(answer_sent=2)),
    Edge("unexpected", "the user input was never sent", lambda obs: obs.facts.update(user_sent=0)),
)

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/1709",
        "https://github.com/openai/openai-agents-python/issues/3268",
        "https://github.com/openai/openai-agents-python/pull/3352",
    ),
    description=(
        "A run on an OpenAIConversationsSession with a reasoning model persists the turn through "
        "conversations.items.create with the model's reasoning item, an empty summary and no encrypted_content "
        "(with its rs_ id, or without an id), and the Conversations API answers 400 'Invalid item'."
    ),
    expected=(
        "The turn is persisted (the user's input and the answer) without the reasoning item the API rejects."
    ),
    claims=Claim(
        still_open=True,
        quote="It turns out to be due to sending reasoning contents, which the conversation API does not like.",
        source="issue #1709 (open; reported on v0.2.11 with {'id': 'rs_...', 'summary': [], 'type': 'reasoning'}; "
        "reopened by a comment on v0.15.2 quoting {'summary': [], 'type': 'reasoning'} 'despite the prior fixes in "
        "#1883, #3026, and the recent #3127'). PR #3352 (merged, for the duplicate #3268) keeps reasoning ids and "
        "drops only reasoning items with neither id nor encrypted_content",
    ),
    range_notes=(
        "The verdict reads the item both of the thread's rejected payloads share (a reasoning item with an empty "
        "summary and no encrypted_content), not the API's validation, which the fake does not guess. PR #3352's "
        "reading (a reasoning item that keeps its id is accepted) is the maintainers', in #3268; the reporter's "
        "rejected payload on 0.2.11 carried its id.",
    ),
    cases={
        "reasoning-empty-summary": CaseRole(
            "the model replies with a reasoning item (id rs_1, empty summary) and the answer: what "
            "conversations.items.create receives",
            reproduced=Release("openai-agents==0.2.11", "the reporter's release (issue #1709)"),
            fixed=THREAD_FIX,
            edges=EDGES,
        ),
        "answer-persisted": CaseRole(
            "the same run: the user's input and the answer must still be persisted once each (a fix that drops "
            "the reasoning item must not drop the answer after it)",
            reproduced=InProcess("add_items drops a reasoning item and everything after it",
                                 _patched_add_items(_up_to_reasoning)),
            fixed=UNFIXED,
            non_regression=True,
            edges=ANSWER_EDGES,
        ),
        "control-no-reasoning": CaseRole(
            "the model replies with the answer only: the user's input and the answer are persisted on every release",
            reproduced=InProcess("add_items drops the assistant's answer", _patched_add_items(_only_reasoning)),
            fixed=AsInstalled("the pinned release persists a plain turn"),
            control=True,
        ),
    },
)  # fmt: skip
