"""agents-sqlite-session-json-null: what the harness needs beside repro.py."""

import contextlib
import json
import types

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess

USER = {"role": "user", "content": "valid 0"}
ASSISTANT = {"role": "assistant", "content": "valid 1"}


@contextlib.contextmanager
def _pr_4940():
    """PR #4940 in process: a decoded row that is not a JSON object is treated as a corrupt row
    (`agents.memory.sqlite_session` gets a `json` whose `loads` raises TypeError for a non-object,
    which every decoding site of the module already catches)."""
    from agents.memory import sqlite_session

    def loads(text, *args, **kwargs):
        value = json.loads(text, *args, **kwargs)
        if not isinstance(value, dict):
            raise TypeError(f"session item is a JSON {type(value).__name__}, not an object")
        return value

    original = sqlite_session.json
    sqlite_session.json = types.SimpleNamespace(loads=loads, dumps=json.dumps, JSONDecodeError=json.JSONDecodeError)
    try:
        yield
    finally:
        sqlite_session.json = original


UNFIXED = AsInstalled("the pinned release (0.24.0) returns the null row as an item (issue #4939 is not fixed)")
FIX = InProcess("PR #4940's change applied in process: non-object JSON rows are skipped like corrupt rows", _pr_4940)


def _edge(outcome, description, build, **facts):
    """Observations no build makes, one step across a line of the judge (nox -s mutants)."""
    return Edge(outcome, description, lambda obs: obs.facts.update(facts), build)


def _stray(obs):
    obs.facts["returned"] = [*obs.facts["returned"], {"role": "user", "content": "stray"}]


BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/4939",
        "https://github.com/openai/openai-agents-python/pull/4940",
    ),
    description=(
        "A SQLiteSession row holding valid JSON that is not an object (null) is returned as a history "
        "item: get_items(limit=1) gives [None], pop_item() returns None while valid items remain, and the "
        "runner sends None to the model."
    ),
    expected=(
        "A row that does not decode to a JSON object is passed over like a corrupt row: get_items and "
        "pop_item return the newest valid item, and the model's input holds only valid items."
    ),
    claims=Claim(
        pr="#4940",
        pr_state="closed unmerged",
        source="module docstring: 'its fix, PR #4940 (... closed without being merged)'",
    ),
    cases={
        "get-items-limit": CaseRole(
            "get_items(limit=1) with a null row as the newest (the issue's first line)",
            reproduced=UNFIXED, fixed=FIX,
            edges=(_edge("unexpected", "two nulls returned for limit=1", UNFIXED, returned=[None, None]),),
        ),
        "pop-item": CaseRole(
            "pop_item() with a null row as the newest (the issue's second line)",
            reproduced=UNFIXED, fixed=FIX,
            edges=(
                _edge("unexpected", "None returned but the null row still stored", UNFIXED, left=[USER, ASSISTANT, None]),  # noqa: E501
                _edge("unexpected", "the valid item returned but the null row left behind", FIX, left=[USER, None]),
            ),
        ),
        "runner-input": CaseRole(
            "Runner.run on the session: what the model receives as input",
            reproduced=UNFIXED, fixed=FIX,
            edges=(Edge("unexpected", "None plus an item the session never held", _stray, UNFIXED),),
        ),
    },
)  # fmt: skip
