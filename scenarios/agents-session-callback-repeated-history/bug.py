"""agents-session-callback-repeated-history: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import sys
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


def _content(item):
    """An input item's role and text (what a content match compares)."""
    return item.get("role"), str(item.get("content"))


@contextlib.contextmanager
def _persisted(change) -> Iterator[None]:
    """prepare_input_with_session with ``change(history, appended)`` deciding the items it says to persist."""
    import agents.run_internal.session_persistence as persistence

    original = persistence.prepare_input_with_session

    async def prepare_input_with_session(input, session, *args, **kwargs):
        history = list(await session.get_items()) if session is not None else []
        prepared, appended = await original(input, session, *args, **kwargs)
        return prepared, change(history, appended)

    modules = [
        module
        for name, module in list(sys.modules.items())
        if name.startswith("agents") and getattr(module, "prepare_input_with_session", None) is original
    ]
    for module in modules:
        module.prepare_input_with_session = prepare_input_with_session
    try:
        yield
    finally:
        for module in modules:
            module.prepare_input_with_session = original


@contextlib.contextmanager
def drop_input_equal_to_history() -> Iterator[None]:
    """A fix gone too far: new input equal in content to a history item is not persisted."""
    with _persisted(
        lambda history, appended: [
            item for item in appended if _content(item) not in {_content(old) for old in history}
        ]
    ):
        yield


@contextlib.contextmanager
def persist_history_again() -> Iterator[None]:
    """The whole history is persisted again with the new input (what the control must never show)."""
    with _persisted(lambda history, appended: [*history, *appended]):
        yield


def stored(turns):
    """An edge's alteration: the session held these items after each turn."""
    return lambda obs: obs.facts.update(stored=turns)


FIRST = ["user: Hi", "assistant: answer 1"]
REPEAT_EDGES = (
    Edge("unexpected", "turn 1 stored otherwise", stored([["user: Hi"], [*FIRST, "user: And again?",
                                                                         "assistant: answer 2"]])),
    Edge("unexpected", "one turn only", stored([FIRST])),
    Edge("unexpected", "the repeat stored twice", stored([FIRST, [*FIRST, "user: Hi", "user: Hi", "user: And again?",
                                                                  "assistant: answer 2"]])),
    Edge("unexpected", "the answer repeated instead", stored([FIRST, [*FIRST, "assistant: answer 1",
                                                                      "user: And again?", "assistant: answer 2"]])),
    Edge("unexpected", "the repeat stored, the new input lost", stored([FIRST, [*FIRST, "user: Hi",
                                                                                "assistant: answer 2"]])),
)  # fmt: skip
EQUAL_EDGES = (
    Edge("unexpected", "the answer lost instead", stored([FIRST, [*FIRST, "user: Hi"]])),
    Edge("unexpected", "the new input stored twice", stored([FIRST, [*FIRST, "user: Hi", "user: Hi",
                                                                     "assistant: answer 2"]])),
)  # fmt: skip
CONTROL_EDGES = (
    Edge("unexpected", "only the answer stored again", stored([FIRST, [*FIRST, "assistant: answer 1",
                                                                       "user: And again?", "assistant: answer 2"]])),
    Edge("unexpected", "history stored again and the new input lost",
         stored([FIRST, [*FIRST, *FIRST, "assistant: answer 2"]])),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/4069",
        "https://github.com/openai/openai-agents-python/pull/4181",
        "https://github.com/openai/openai-agents-python/pull/4072",
    ),
    description=(
        "With a session, a RunConfig.session_input_callback that returns an existing history item more than once "
        "has every extra occurrence classified as new-turn input and persisted again, so stored history grows "
        "every turn."
    ),
    expected=(
        "Only genuinely new items are persisted: a repeated history item is not stored again, a new input equal "
        "in content to a history item still is, and a callback returning history plus new items stores only the "
        "new items."
    ),
    claims=Claim(
        pr="#4181",
        pr_state="merged",
        quote="If a `session_input_callback` emits an existing history item **more than once**, every extra "
        "occurrence is classified as new-turn input and written back into the session store.",
        source="issue #4069 (filed 2026-07-31); PR #4181 'fix(memory): preserve repeated history provenance' "
        "(merged, 'This pull request resolves #4069', supersedes #4072, closed unmerged). The thread names no "
        "release for the fix or for the bug's start",
    ),
    cases={
        "repeated-history-item": CaseRole(
            "the callback returns history, history's first item again, then the new input: two turns store 2 + 2",
            reproduced=Release("openai-agents==0.19.1", "the reporter's release (current on 2026-07-31)"),
            fixed=Release("openai-agents==0.19.4", "the first release with PR #4181"),
            edges=REPEAT_EDGES,
        ),
        "new-input-equal-to-history": CaseRole(
            "the second user message equals the first in content: it is new input and is stored",
            reproduced=InProcess("new input equal in content to a history item is not persisted",
                                 drop_input_equal_to_history),
            fixed=AsInstalled("the pinned release persists it"),
            non_regression=True, edges=EQUAL_EDGES,
        ),
        "control-history-plus-new": CaseRole(
            "the callback returns history then the new input once each: two items stored per turn",
            reproduced=InProcess("the history is persisted again with the new input", persist_history_again),
            fixed=AsInstalled("the pinned release persists only the new input"),
            control=True, edges=CONTROL_EDGES,
        ),
    },
)  # fmt: skip
