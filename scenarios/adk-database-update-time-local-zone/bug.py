"""adk-database-update-time-local-zone: what the harness needs beside repro.py."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Release

PINNED = AsInstalled("the pinned release reads and writes UTC on PostgreSQL too")
LAST_SQLITE = Release("google-adk==1.5.0", "the last release that reads SQLite's naive UTC update time as local time")
LAST_POSTGRES = Release("google-adk==2.2.0", "the last release that reads a naive update time as UTC for SQLite only")


def _half_offset(obs):
    obs.facts["offsets"] = {**obs.facts["offsets"], "read back after create": -165}


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/5354",
        "https://github.com/google/adk-python/pull/5355",
        "https://github.com/google/adk-python/pull/4441",
    ),
    description=(
        "On a host outside UTC, DatabaseSessionService on PostgreSQL writes update_time as UTC in "
        "create_session and as local time in append_event, and reads the naive value as local time, so a "
        "session's last_update_time is off by the host's UTC offset."
    ),
    expected="last_update_time is the session's real update time on every backend and host zone.",
    range_notes=(
        "SQLite: reproduced 1.2.0-1.5.0, fixed from 1.6.1 (update_timestamp_tz attaches UTC for the sqlite "
        "dialect only); PostgreSQL: reproduced 1.2.0-2.2.0, fixed from 2.3.0 (get_update_timestamp reads every "
        "naive value as UTC).",
    ),
    requires=("google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    claims=Claim(
        pr="#5355",
        pr_state="closed",
        quote="Extend the existing SQLite UTC-naive convention to PostgreSQL consistently",
        source="PR #5355 thread (shown closed, no merge shown), 'fix(sessions): correct timezone handling for "
        "PostgreSQL in DatabaseSessionService'; issue #5354 shown open",
    ),
    cases={
        "created-then-appended": CaseRole(
            "local zone UTC+05:30: create, read back, append, read back, append through the fresh copy",
            reproduced=LAST_SQLITE,
            fixed=PINNED,
            edges=(
                Edge("unexpected", "an offset that is not the zone's", _half_offset, PINNED),
                Edge(
                    "reproduced",
                    "times right, but the fresh copy's append refused as stale",
                    lambda obs: obs.facts.update(last="refused as stale"),
                    PINNED,
                ),
            ),
            per_backend={"postgresql": {"proofs": {"reproduced": LAST_POSTGRES, "fixed": PINNED}}},
        ),
    },
)
