"""openai-agents: a JSON ``null`` row in a SQLiteSession is returned as a history item (and ends pop_item).

Upstream: https://github.com/openai/openai-agents-python/issues/4939 ("SQLite sessions accept
JSON scalars as history items", closed) and its fix, PR #4940 ("reject SQLite JSON scalar
items", closed without being merged). ``SQLiteSession`` decodes each stored row with
``json.loads`` and treats only a decoding error as a corrupt row to skip: a row holding valid
JSON that is not an object (``null``, a string, a number, an array) comes back as a history
item. With a ``null`` as the newest row, ``get_items(limit=1)`` returns ``[None]``,
``pop_item()`` deletes that row and returns ``None`` (the documented "the session is empty")
while valid items remain, and ``Runner.run`` on the session sends the model an input list with
``None`` in it (a 400 from a real Responses API).

The replay: a ``SQLiteSession`` on a real file holding a user and an assistant message, plus a
``null`` row written straight into the session's messages table (as a crashed or foreign writer
would leave it), read back through a fresh ``SQLiteSession``. Timeline: what the case's call
returned and what the file holds afterwards (``runner-input``: the model's input items). The
oracle: ``fixed`` when the ``null`` row is passed over like a corrupt row (``get-items-limit``:
``[valid 1]``; ``pop-item``: the assistant message, with only the user message left;
``runner-input``: the two stored messages and the new user message); ``reproduced`` when
``None`` comes back in its place; ``unexpected`` otherwise.

The bug is still present on 0.24.0, the latest release on the index: every case reproduces on
every final release that has ``SQLiteSession`` (0.2.0 on; earlier ones are not applicable), the
bisect finds no boundary. The ``fixed`` proof is PR #4940's change applied in process: after
``json.loads``, a value that is not a dict is handled as the backend already handles a corrupt
row (done here by giving ``agents.memory.sqlite_session`` a ``json`` whose ``loads`` raises
``TypeError`` for a non-object, which every decoding site of the module already catches).
Bisect boundary: 0.1.0 (not applicable) -> 0.2.0 (reproduced), nothing after. Checked outside
the harness with the short scripts in ``scenarios/repro/``: exit 3 on every release of the
matrix from 0.2.0 to 0.24.0, 125 on 0.1.0, and 0 on 0.24.0 with the same change patched in.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Scenario

USER = {"role": "user", "content": "valid 0"}
ASSISTANT = {"role": "assistant", "content": "valid 1"}
NEXT = "next question"


def _insert_null_row(session) -> None:
    """Write a JSON ``null`` as the newest row of the session, straight into its table."""
    import sqlite3

    table = getattr(session, "messages_table", "agent_messages")
    with contextlib.closing(sqlite3.connect(session.db_path)) as conn:
        conn.execute(f"INSERT INTO {table} (session_id, message_data) VALUES (?, ?)", (session.session_id, "null"))
        conn.commit()


def _line(value) -> str:
    import json

    return json.dumps(value, sort_keys=True)


async def replay(*, call: str) -> Observation:
    """Store two messages and a null row, then make the case's call through a fresh session."""
    from agents import Agent, Runner

    from harness.runtime.fakes import agents_sessions
    from harness.runtime.fakes import openai_agents as oa

    with agents_sessions.SessionFile() as store:
        writer = store.open()
        await writer.add_items([dict(USER), dict(ASSISTANT)])
        _insert_null_row(writer)
        session = store.open()
        if call == "get-items-limit":
            returned = list(await session.get_items(limit=1))
            lines = [f"get_items(limit=1) returned {_line(returned)}"]
        elif call == "pop-item":
            returned = await session.pop_item()
            lines = [f"pop_item() returned {_line(returned)}"]
        else:
            model = oa.ScriptedModel("answer", [[oa.text_message("Here you go.")]])
            await Runner.run(Agent(name="Assistant", model=model), NEXT, session=session)
            returned = [None if item is None else oa.to_dict(item) for item in model.last_input]
            lines = [f"model input item {n}: {_line(item)}" for n, item in enumerate(returned, 1)]
        left = list(await store.open().get_items())
    return Observation(
        timeline=[*lines, f"a fresh session then reads {len(left)} items: {_line(left)}"],
        facts={"call": call, "returned": returned, "left": left},
    )


def _without_ids(items: list) -> list:
    """Input items as role/content pairs (the runner may add an id or type to its own items)."""
    return [item if item is None else {"role": item.get("role"), "content": item.get("content")} for item in items]


def judge(obs: Observation):
    f = obs.facts
    returned, left = f["returned"], f["left"]
    if f["call"] == "get-items-limit":
        if returned == [ASSISTANT]:
            return fixed("get_items(limit=1) passed over the null row and returned the newest valid item")
        if returned == [None]:
            return reproduced("get_items(limit=1) returned [None]: the null row counted as the newest item")
    elif f["call"] == "pop-item":
        if returned == ASSISTANT and left == [USER]:
            return fixed("pop_item() dropped the null row and returned the newest valid item; 1 item left")
        if returned is None and len(left) == 2:
            return reproduced(
                f"pop_item() returned None (the 'empty session' answer) while {len(left)} valid items remain"
            )
    else:
        expected = [USER, ASSISTANT, {"role": "user", "content": NEXT}]
        if _without_ids(returned) == expected:
            return fixed(f"the model got the {len(returned)} valid items; the null row was passed over")
        if None in returned and _without_ids([i for i in returned if i is not None]) == expected:
            return reproduced(f"the model's input holds None at position {returned.index(None) + 1} of {len(returned)}")
    return unexpected(f"{f['call']} returned {returned!r}; the file holds {left!r}")


@contextlib.contextmanager
def _pr_4940():
    """PR #4940 in process: a decoded row that is not a JSON object is treated as a corrupt row."""
    import json
    import types

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


BUG = AsInstalled("the pinned release (0.24.0) returns the null row as an item (issue #4939 is not fixed)")
FIX = InProcess("PR #4940's change applied in process: non-object JSON rows are skipped like corrupt rows", _pr_4940)


def _popped_but_three_left(obs: Observation) -> None:
    obs.facts["left"] = [USER, ASSISTANT, None]


def _valid_item_and_null_left(obs: Observation) -> None:
    obs.facts["left"] = [USER, None]


def _two_nulls(obs: Observation) -> None:
    obs.facts["returned"] = [None, None]


def _null_and_a_stray_item(obs: Observation) -> None:
    obs.facts["returned"] = [*obs.facts["returned"], {"role": "user", "content": "stray"}]


SCENARIO = Scenario(
    id="agents-sqlite-session-json-null",
    framework="openai-agents",
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
    cases=(
        Case(
            "get-items-limit",
            partial(replay, call="get-items-limit"),
            judge,
            {"reproduced": BUG, "fixed": FIX},
            "get_items(limit=1) with a null row as the newest (the issue's first line)",
            edges=(Edge("unexpected", "two nulls returned for limit=1", _two_nulls, build=BUG),),
        ),
        Case(
            "pop-item",
            partial(replay, call="pop-item"),
            judge,
            {"reproduced": BUG, "fixed": FIX},
            "pop_item() with a null row as the newest (the issue's second line)",
            edges=(
                Edge("unexpected", "None returned but the null row still stored", _popped_but_three_left, build=BUG),
                Edge(
                    "unexpected",
                    "the valid item returned but the null row left behind",
                    _valid_item_and_null_left,
                    build=FIX,
                ),
            ),
        ),
        Case(
            "runner-input",
            partial(replay, call="runner-input"),
            judge,
            {"reproduced": BUG, "fixed": FIX},
            "Runner.run on the session: what the model receives as input",
            edges=(Edge("unexpected", "None plus an item the session never held", _null_and_a_stray_item, build=BUG),),
        ),
    ),
)
