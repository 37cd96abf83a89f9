"""adk-database-postgres-aware-datetime: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _aware_create_time():
    """The bug on any backend: create_session hands the driver an aware datetime where it wants
    a naive one, as asyncpg answered on PostgreSQL (used for SQLite, where the bug never shows)."""
    from google.adk.sessions import DatabaseSessionService

    original = DatabaseSessionService.create_session

    async def create_session(self, *args, **kwargs):
        raise ValueError(
            "invalid input for query argument $5: datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc) "
            "(can't subtract offset-naive and offset-aware datetimes) (raised by the proof's patch)"
        )

    DatabaseSessionService.create_session = create_session
    try:
        yield
    finally:
        DatabaseSessionService.create_session = original


AWARE_ON_SQLITE = InProcess("create_session fails as asyncpg fails it on PostgreSQL", _aware_create_time)
LAST_AWARE = Release("google-adk==1.24.1", "the last release that strips the time zone for SQLite only")
PINNED = AsInstalled("the pinned release strips the time zone for PostgreSQL too")


def _other_error(obs):
    obs.facts["errors"] = {"create_session": "connection refused"}
    obs.facts["steps"] = {"create_session": "OSError: connection refused"}


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/4366",
        "https://github.com/google/adk-python/pull/4365",
        "https://github.com/google/adk-python/pull/4388",
    ),
    description=(
        "DatabaseSessionService.create_session passes an aware datetime (datetime.now(timezone.utc)) for the "
        "session's update_time and strips the zone for SQLite only, so on PostgreSQL through asyncpg every "
        "create_session fails with 'can't subtract offset-naive and offset-aware datetimes'."
    ),
    expected="create_session and append_event work on PostgreSQL as on SQLite.",
    range_notes=(
        "Only PostgreSQL through asyncpg: reproduced on 1.24.0-1.24.1 (create_session strips the time zone "
        "for SQLite only), fixed from 1.25.0 (and for PostgreSQL); SQLite holds on every release.",
    ),
    requires=("google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    claims=Claim(introduced_in="1.22.1", source='module docstring: the thread\'s "1.22.1+"'),
    cases={
        "create-and-append": CaseRole(
            "create a session, append a user event, read it back",
            reproduced=LAST_AWARE,
            fixed=PINNED,
            edges=(
                Edge("unexpected", "create_session fails with another error", _other_error, PINNED),
                Edge(
                    "unexpected",
                    "the session is created but its event is lost",
                    lambda obs: obs.facts.update(stored=[]),
                    PINNED,
                ),
            ),
            per_backend={"sqlite": {"control": True, "proofs": {"reproduced": AWARE_ON_SQLITE, "fixed": PINNED}}},
        ),
    },
)
