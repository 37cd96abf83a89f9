"""adk-database-stale-session-interleave: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release


@contextlib.contextmanager
def _refuse_every_append_after_the_first():
    """Breaks the control: a check that treats every session as stale once it has events."""
    from google.adk.sessions import DatabaseSessionService

    original = DatabaseSessionService.append_event

    async def append_event(self, session, event):
        if session.events and event.author == "user":
            raise ValueError("Please check if it is a stale session. (refused by the proof's broken check)")
        return await original(self, session, event)

    DatabaseSessionService.append_event = append_event
    try:
        yield
    finally:
        DatabaseSessionService.append_event = original


RELOAD_AND_CONTINUE = Release(
    "google-adk==1.27.5", "the last release whose append_event reloads a stale session and writes"
)
BROKEN_CHECK = InProcess(
    "a stale check that refuses a fresh session's user turn once the session has events",
    _refuse_every_append_after_the_first,
)
PINNED_REFUSES = AsInstalled("the pinned release refuses a stale write (the revision-marker check, 1.28 on)")
PINNED_HOLDS = AsInstalled("the pinned release stores both sequential turns")


def _accepted(server):
    """An alteration: `server`'s run ended without an exception, whatever the store holds."""
    return lambda obs: obs.facts["runs"].update({server: None})


def _a_failed_otherwise(obs):
    obs.facts["runs"]["A"] = dict(type="ValueError", value_error=True, text="database is locked")


BUG = Bug(
    explanations=(
        Explanation(
            "*-postgresql",
            ">=1.24.0,<1.25.0",
            "On PostgreSQL, 1.24.0's and 1.24.1's create_session fails before either run starts: it passes an "
            "aware datetime that asyncpg refuses for a TIMESTAMP WITHOUT TIME ZONE column. That is "
            "another bug, google-adk #4366 (adk-database-postgres-aware-datetime: reproduced on "
            "1.24.0-1.24.1, fixed in 1.25.0), so this bug cannot be observed there.",
        ),
    ),
    links=(
        "https://github.com/google/adk-python/issues/4751",
        "https://github.com/google/adk-python/pull/4752",
    ),
    description=(
        "DatabaseSessionService.append_event on a stale session reloads it and writes instead of "
        "refusing, so two concurrent run_async calls on one session interleave their events."
    ),
    expected=(
        "A write through a stale session object is refused with the stale-session error; the stored "
        "trajectory keeps each invocation's events together."
    ),
    range_notes=(
        "1.2.0 reproduces by another mechanism: append_event stamps `update_time` only for a state "
        "delta there (until commit d83ee1a6), so the stale check never fires and the stale writer's events go "
        "in silently; 1.20.0 refuses, as expected; 1.24.0-1.27.5 reload and write (the thread's bug).",
    ),
    # SQLAlchemy: with google-adk in 1.x, its ``db`` extra in 2.x; ``asyncio`` brings greenlet (SQLAlchemy 2.1
    # no longer does). PostgreSQL drivers: asyncpg for the async service (1.19 on), psycopg2 before.
    requires=("google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    claims=Claim(
        pr="#4752",
        introduced_in="1.24.0",
        quote="ADK 1.24 changed `DatabaseSessionService.append_event()` from raising `ValueError` on stale sessions",
        source="issue #4751 thread (closed): ADK <=1.23 raises, from 1.24.0 it reloads; PR #4752's thread "
        "not in the searched index (searched: 'adk-python pull 4752 stale session ...', "
        "'4752 raise instead of reload'); repro.py docstring calls it closed unmerged",
    ),
    cases={
        "concurrent-runs": CaseRole(
            "server A's tool waits while server B runs a turn on the same session; then A writes",
            reproduced=RELOAD_AND_CONTINUE,
            fixed=PINNED_REFUSES,
            edges=(
                Edge(
                    "unexpected", "server A's write accepted, yet the store holds AABB", _accepted("A"), PINNED_REFUSES
                ),
                Edge(
                    "unexpected",
                    "server A fails with a ValueError that is not the stale-session error",
                    _a_failed_otherwise,
                    PINNED_REFUSES,
                ),
            ),
        ),
        "stale-append-event": CaseRole(
            "server B loads the session, server A appends, server B appends through its stale object",
            reproduced=RELOAD_AND_CONTINUE,
            fixed=PINNED_REFUSES,
            edges=(
                Edge(
                    "unexpected",
                    "server B's append accepted, yet the store holds only A's event",
                    _accepted("B"),
                    PINNED_REFUSES,
                ),
            ),
        ),
        "sequential-control": CaseRole(
            "control: one server, two turns one after the other; both stored, no refusal",
            reproduced=BROKEN_CHECK,
            fixed=PINNED_HOLDS,
            control=True,
            edges=(
                Edge(
                    "reproduced",
                    "both turns complete, but stored interleaved",
                    lambda obs: obs.facts.update(order="AABBAA"),
                    PINNED_HOLDS,
                ),
            ),
        ),
    },
)
