"""adk-database-session-upgrade: what the harness needs beside repro.py (the upgrade bug itself is there)."""

from harness.runtime.upgrade import Claim, Pair, Step, Upgrade, UpgradeCase

UPGRADE = Upgrade(
    links=(
        "https://github.com/google/adk-python/issues/3272",
        "https://github.com/google/adk-python/issues/3681",
        "https://github.com/google/adk-python/issues/1184",
        "https://github.com/google/adk-python/issues/3520",
        "https://github.com/google/adk-python/issues/3343",
    ),
    description=(
        "DatabaseSessionService creates its tables with create_all, which never adds a column to an existing "
        "table: when a release adds columns to its events model (0.2.0: long_running_tool_ids_json and others; "
        "1.14.0: custom_metadata; 1.17.0: usage_metadata, citation_metadata; 1.19.0: input_transcription, "
        "output_transcription), it cannot read or append to a database an older release wrote "
        "('column events.usage_metadata does not exist'). 1.22.0 adds schema versions (a JSON 'v1' schema for new "
        "databases, older ones read as 'v0' through the 1.19 column set) and 1.22.1 the migration command "
        "'adk migrate session', which copies a database into a new one in the latest schema."
    ),
    expected=(
        "A release reads the sessions an older release wrote and appends to them, or its own migration command "
        "brings the database to its schema."
    ),
    requires=("google-adk", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    cases={
        "carry-over": UpgradeCase(
            "the reader gets the writer's session (its event and state), appends one event and gets it again"
        ),
        "migrated": UpgradeCase(
            "the same after the reader's own 'adk migrate session' from the writer's database into a new one",
            readers=">=1.22.1",
        ),
    },
    releases=(
        "0.1.0",
        "0.2.0",
        "0.5.0",
        "1.0.0",
        "1.2.0",
        "1.13.0",
        "1.14.0",
        "1.15.1",
        "1.16.0",
        "1.17.0",
        "1.18.0",
        "1.19.0",
        "1.20.0",
        "1.21.0",
        "1.22.0",
        "1.22.1",
        "1.23.0",
        "1.39.1",
        "2.0.0",
        "2.13.0",
    ),
    pairs=(
        Pair(
            "1.16.0",
            "1.17.0",
            why="#3272: 1.16.1 -> 1.17.0, column events.usage_metadata does not exist "
            "(1.16.1 is not on PyPI: 1.16.0 is the last 1.16)",
        ),
        Pair("1.17.0", "1.19.0", why="#3681: 1.17 -> 1.19, column events.input_transcription does not exist"),
        Pair("0.1.0", "1.2.0", why="#1184: 0.x -> 1.x, events.long_running_tool_ids_json"),
        Pair("1.16.0", "2.13.0", why="#3272's database on the newest release, without the migration: still broken"),
        Pair("1.16.0", "1.22.1", why="#3520/#3343: the first release with 'adk migrate session', on #3272's database"),
        Pair("1.17.0", "1.22.1", why="#3520/#3343: the first release with 'adk migrate session', on #3681's database"),
    ),
    downgrades=(Pair("1.22.0", "1.21.0", why="a v1 (JSON) database read by the last release before schema versions"),),
    proofs=(
        Step("carry-over", "1.16.0", "1.17.0", "reproduced"),
        Step("carry-over", "1.17.0", "1.19.0", "reproduced"),
        Step("carry-over", "0.1.0", "0.2.0", "reproduced"),
        Step("carry-over", "1.16.0", "1.22.1", "reproduced"),
        Step("carry-over", "1.17.0", "1.18.0", "fixed"),
        Step("carry-over", "1.21.0", "1.22.0", "fixed"),
        Step("carry-over", "2.0.0", "2.13.0", "fixed"),
        Step("migrated", "1.16.0", "1.22.1", "fixed"),
        Step("migrated", "1.17.0", "1.22.1", "fixed"),
        Step("migrated", "1.16.0", "2.13.0", "fixed"),
    ),
    range_notes=(
        "migrated has no reproduced proof: every migration measured (1.16.0 and 1.17.0 by 1.22.1, 1.16.0 by "
        "2.13.0, SQLite and PostgreSQL) carries the session over; the case's reproduced side is carry-over's.",
        "migrated-postgresql is not-applicable on 2.13.0 in the builds: the tool strips the driver from the URL "
        "and SQLAlchemy 2.1 then loads psycopg 3, which the builds lack (ModuleNotFoundError); on 1.22.1 "
        "(SQLAlchemy 2.0, psycopg2) it migrates and the reader carries on.",
        "1.22.0 -> 1.21.0 (the downgrade) reads as reproduced: 1.21.0's model has events.author, which the v1 "
        "(JSON) events table 1.22.0 creates lacks.",
    ),
    schema_files=(
        "google/adk/sessions/database_session_service.py",
        "google/adk/sessions/schemas/v0.py",
        "google/adk/sessions/schemas/v1.py",
        "google/adk/sessions/schemas/shared.py",
        "google/adk/sessions/migration/_schema_check_utils.py",
    ),
    # A column of a stored table (SQLAlchemy's declarations, old and new style).
    schema_markers=(r"mapped_column\(|Column\(|Mapped\[",),
    claims=Claim(
        fixed_in="1.22.1",
        introduced_in="0.2.0",
        source="#3520/#3343 ask for a migration; 1.22.1 ships 'adk migrate session' (copies into a new database, "
        "in place refused); without it a pre-1.17 database still fails on 2.13.0",
    ),
)
