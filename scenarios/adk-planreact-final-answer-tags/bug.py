"""adk-planreact-final-answer-tags: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess


@contextlib.contextmanager
def _splitter(split) -> Iterator[None]:
    """``PlanReActPlanner._split_by_last_pattern`` (private; where the reply is cut) replaced by ``split``."""
    from google.adk.planners import PlanReActPlanner

    original = PlanReActPlanner._split_by_last_pattern
    PlanReActPlanner._split_by_last_pattern = split
    try:
        yield
    finally:
        PlanReActPlanner._split_by_last_pattern = original


def _split_at_first(self, text: str, separator: str) -> tuple[str, str]:
    """The issue's expectation: cut at the first tag, and drop a closing tag from the answer."""
    index = text.find(separator)
    if index == -1:
        return text, ""
    return text[: index + len(separator)], text[index + len(separator) :].replace(separator, "")


def _no_split(self, text: str, separator: str) -> tuple[str, str]:
    """A broken planner: the whole reply is reasoning, the answer always empty."""
    return text, ""


PINNED = AsInstalled("the pinned release (2.13.0): the split is at the last /*FINAL_ANSWER*/ tag")
FIRST_TAG = InProcess(
    "the issue's fix applied in process: split at the first /*FINAL_ANSWER*/ tag, the closing tag dropped",
    lambda: _splitter(_split_at_first),
)
NO_SPLIT = InProcess(
    "the planner broken in process: the whole reply is marked as a thought", lambda: _splitter(_no_split)
)

ANSWER = "Paris is the capital of France."


def _parts(*parts):
    return lambda obs: obs.facts.update(parts=list(parts))


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/3689",
        "https://github.com/google/adk-python/issues/3507",
        "https://github.com/google/adk-python/pull/6709",
    ),
    description=(
        "PlanReActPlanner splits a reply at its last /*FINAL_ANSWER*/ tag, so a reply that closes the answer "
        "with a second tag has the answer marked thought=True: the user sees no answer, and where the history "
        "leaves thought parts out, the next turn's history drops the model's reply altogether (#3507)."
    ),
    expected=(
        "The reasoning is a thought part and the text between the tags is the answer, a part without "
        "`thought` that the next turn's history keeps."
    ),
    claims=Claim(
        still_open=True,
        source="issue #3689 open, no fix PR; PR #6709 (planning tags stripped from the parts, fixes #3378) "
        "touches the same code and leaves the last-tag split",
    ),
    range_notes=(
        "Up to 1.21.0 the history kept thought parts as plain text, so the hidden answer still reached the next "
        "turn (`paired-tags-next-turn` fixed there); from 1.22.0 thought parts are left out of the history and "
        "the answer with them.",
        "From 2.8.0 the planning tags are stripped from the parts (PR #6709's change): the hidden answer "
        "is the same, its thought part reads without the leading /*REASONING*/.",
    ),
    cases={
        "paired-tags": CaseRole(
            "reply `/*REASONING*/ ... /*FINAL_ANSWER*/ answer /*FINAL_ANSWER*/`: the reply event's parts",
            reproduced=PINNED,
            fixed=FIRST_TAG,
            edges=(
                Edge(
                    "unexpected",
                    "the answer shown, and also inside the thought",
                    _parts((True, f"r /*FINAL_ANSWER*/ {ANSWER}"), (False, ANSWER)),
                    FIRST_TAG,
                ),
                Edge(
                    "unexpected",
                    "the answer shown twice",
                    _parts((True, "r"), (False, ANSWER), (False, ANSWER)),
                    FIRST_TAG,
                ),
            ),
        ),
        "paired-tags-next-turn": CaseRole(
            "the same reply, then a second question: the history the model receives on the second turn",
            reproduced=PINNED,
            fixed=FIRST_TAG,
        ),
        "single-tag": CaseRole(
            "control: reply `/*REASONING*/ ... /*FINAL_ANSWER*/ answer` (the planner's own format)",
            reproduced=NO_SPLIT,
            fixed=PINNED,
            control=True,
        ),
        "single-tag-next-turn": CaseRole(
            "control: the single-tag reply, then a second question: the first answer is in the history",
            reproduced=NO_SPLIT,
            fixed=PINNED,
            control=True,
        ),
    },
)
