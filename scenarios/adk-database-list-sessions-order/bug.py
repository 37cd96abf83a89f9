"""adk-database-list-sessions-order: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _ignore_the_user() -> Iterator[None]:
    """Breaks the control: list_sessions lists the whole app whatever user it is asked for."""
    from google.adk.sessions import DatabaseSessionService
    from google.adk.sessions.sqlite_session_service import SqliteSessionService

    originals = {cls: cls.list_sessions for cls in (DatabaseSessionService, SqliteSessionService)}

    def whole_app(original):
        async def list_sessions(self, *, app_name, user_id=None):
            return await original(self, app_name=app_name, user_id=None)

        return list_sessions

    for cls, original in originals.items():
        cls.list_sessions = whole_app(original)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for cls, original in originals.items():
            cls.list_sessions = original  # type: ignore[method-assign]


PINNED = AsInstalled("the pinned release orders both services' listings by update_time, user_id, id")
LAST_UNORDERED = Release("google-adk==2.6.3", "the last release whose list_sessions has no ORDER BY")


def _one_service_out_of_order(obs):
    listings = obs.facts["listings"]
    name = next(iter(listings))
    listings[name] = list(reversed(listings[name]))


def _one_session_missing(obs):
    listings = obs.facts["listings"]
    name = next(iter(listings))
    listings[name] = listings[name][1:]


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/6272",
        "https://github.com/google/adk-python/pull/6276",
        "https://github.com/google/adk-python/issues/6431",
        "https://github.com/google/adk-python/pull/6432",
    ),
    description=(
        "DatabaseSessionService.list_sessions() and SqliteSessionService.list_sessions() select the "
        "sessions with no ORDER BY, so the listing comes back in the database's storage order (the primary "
        "key's index on SQLite, the heap on PostgreSQL) and sessions[-1] is not the most recently active one."
    ),
    expected="The listing is ordered by update_time ascending, then user_id, then id (the contract agreed in #6272).",
    requires=("google-adk", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    claims=Claim(
        pr="#6276 / #6432",
        pr_state="closed",
        quote="so the two backends will be consistent once both land.",
        source="#6272 thread (2026-07-28 comment): confirmed unordered on v2.5.0 main; #6431: SqliteSessionService "
        "the same; PRs #6276 (Fixes #6272) and #6432 (Fixes #6431) both shown closed, no merge shown",
    ),
    cases={
        "user-scoped": CaseRole(
            "one user's three sessions, the oldest one's event written first but stamped last",
            reproduced=LAST_UNORDERED,
            fixed=PINNED,
            edges=(
                Edge("reproduced", "one service's listing reversed", _one_service_out_of_order, PINNED),
                Edge("unexpected", "one session missing from a listing", _one_session_missing, PINNED),
            ),
        ),
        "app-wide": CaseRole(
            "the whole app's listing (user_id=None) across two users",
            reproduced=LAST_UNORDERED,
            fixed=PINNED,
        ),
        "user-filter": CaseRole(
            "the other user's listing holds that user's one session only",
            reproduced=InProcess("list_sessions ignores the user it is asked for", _ignore_the_user),
            fixed=AsInstalled("every release lists the user's sessions only"),
            control=True,
        ),
    },
)
