"""adk-database-compaction-dict: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Explanation, InProcess, Release


@contextlib.contextmanager
def _reloaded(change) -> Iterator[None]:
    """``DatabaseSessionService.get_session`` with ``change`` applied to every session it reads back."""
    from google.adk.sessions import DatabaseSessionService

    original = DatabaseSessionService.get_session

    async def get_session(self, **kwargs):
        session = await original(self, **kwargs)
        if session is not None:
            change(session)
        return session

    DatabaseSessionService.get_session = get_session  # type: ignore[method-assign]
    try:
        yield
    finally:
        DatabaseSessionService.get_session = original  # type: ignore[method-assign]


def _drop_state_deltas(session) -> None:
    for event in session.events:
        if event.actions:
            event.actions.state_delta = {}
    session.state.pop("plan", None)


def _drop_events(session) -> None:
    session.events.clear()


REPORTED = Release("google-adk==1.18.0", "the release of #3487 and #3530: the compaction read back as a dict")
FIRST_FIXED = Release(
    "google-adk==1.22.0",
    "the first 1.x release measured reading it back as an EventCompaction (to_event validates the actions)",
)
PINNED = AsInstalled("the pinned release reads the compaction back as an EventCompaction")
NO_COMPACTION_ON_NODE_PATH = (
    "No compaction is written: on 2.0.0 and 2.1.0 an LlmAgent root runs through the runner's node path "
    "(_run_node_async), which never calls _run_compaction_for_sliding_window (measured in the installed source; "
    "no upstream thread found), so there is nothing to read back."
)

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/3487",
        "https://github.com/google/adk-python/issues/3530",
        "https://github.com/google/adk-python/issues/4047",
        "https://github.com/google/adk-python/issues/4082",
        "https://github.com/google/adk-python/issues/3633",
        "https://github.com/google/adk-python/pull/3490",
        "https://github.com/google/adk-python/pull/3635",
    ),
    description=(
        "With event compaction on, DatabaseSessionService reads a compaction event back with actions.compaction "
        "as a plain dict (StorageEvent.to_event rebuilds the actions with "
        "EventActions().model_copy(update=...model_dump()), #4047), so the next turn, which loads the session, "
        "fails in the request's contents with AttributeError: 'dict' object has no attribute 'start_timestamp'."
    ),
    expected=(
        "The compaction comes back as an EventCompaction and the conversation continues: the next turn's "
        "request holds the summary in place of the turns it folded."
    ),
    requires=("google-adk", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    claims=Claim(
        pr="#3490 / #3635",
        pr_state="closed",
        still_open=True,
        quote="Still present in: v1.21.0 (latest)",
        source="#4047 (tested on 1.19.0, 'still present' on 1.21.0, open); #3487 (1.18.0) closed with no fix named; "
        "#3530 (1.18.0, SQLite), #4082 ('v1.19+') and #3633 open; PRs #3490 (for #3487) and #3635 (for #3633), "
        "both model_validate in to_event, shown closed, no merge shown",
    ),
    range_notes=(
        "Measured: 1.16.0 and 1.17.0 (the first releases with compaction) read the compaction back as an "
        "EventCompaction (to_event passed the stored actions as they were); 1.18.0 to 1.21.0 give a dict "
        "(EventActions().model_copy(update=...model_dump())), on SQLite and PostgreSQL; from 1.22.0 on 1.x it "
        "comes back as an EventCompaction again (1.22.0's installed source adds sessions/schemas/: v0's to_event "
        "rebuilds the actions with EventActions.model_validate, the change PRs #3490 and #3635 proposed, and v1 "
        "stores each event as JSON validated back into an Event). "
        "The threads' 'still present' ends with 1.21.0, the release #4047 names as the latest then.",
        "On 2.x the compaction comes back as an EventCompaction wherever one is written (2.2.0 on); 2.0.0 and "
        "2.1.0 write none for an LlmAgent root (unexpected, explained).",
    ),
    explanations=(
        Explanation("reload*", ">=2.0.0,<2.2.0", NO_COMPACTION_ON_NODE_PATH),
        Explanation("next-turn*", ">=2.0.0,<2.2.0", NO_COMPACTION_ON_NODE_PATH),
    ),
    cases={
        "reload": CaseRole(
            "after one compacted turn, the session read back by a new DatabaseSessionService: "
            "the type of actions.compaction (#4047)",
            reproduced=REPORTED,
            fixed=FIRST_FIXED,
        ),
        "next-turn": CaseRole(
            "the turn after the reload: the AttributeError of #3487/#3530/#4082, or the summary in its request",
            reproduced=REPORTED,
            fixed=FIRST_FIXED,
        ),
        "state-delta-kept": CaseRole(
            "a fix must keep the actions' plain dict fields: a nested state_delta and the state built from it "
            "come back as written",
            reproduced=InProcess("the reloaded events lose their state deltas", lambda: _reloaded(_drop_state_deltas)),
            fixed=PINNED,
            non_regression=True,
        ),
        "no-compaction": CaseRole(
            "control: the same two turns without compaction; the second turn's request holds the first",
            reproduced=InProcess("the reloaded session has no events", lambda: _reloaded(_drop_events)),
            fixed=AsInstalled("every release with DatabaseSessionService keeps the history"),
            control=True,
        ),
    },
)
