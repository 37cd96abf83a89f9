# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==1.24.1",
#   "aiosqlite",
#   "sqlalchemy[asyncio]",
#   "asyncpg",
#   "psycopg2-binary",
# ]
# [tool.uv]
# exclude-newer = "2026-02-06T18:55:34Z"
# ///
# adk-database-postgres-aware-datetime:create-and-append-postgresql. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   fixed / fixed: 1.23.0 (2026-01-22T23:26:53Z)
#   reproduced / reproduced: 1.24.0 (2026-02-05T18:29:25Z), 1.24.1 (2026-02-06T18:55:34Z)
#   fixed / fixed: 1.25.0 (2026-02-11T23:22:52Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z),
#     2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z),
#     2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
"""google-adk: DatabaseSessionService.create_session fails on PostgreSQL with an aware datetime.

https://github.com/google/adk-python/issues/4366: the service passes datetime.now(timezone.utc)
for update_time and strips the zone for SQLite only; asyncpg refuses an aware value for a
TIMESTAMP WITHOUT TIME ZONE column ("can't subtract offset-naive and offset-aware datetimes").

The script creates a session, appends one user event and reads it back, on PostgreSQL: a new
database on the server whose Unix socket folder is in HARNESS_POSTGRES_SOCKET (or PGHOST), user
postgres, through asyncpg (psycopg2 on releases whose service is synchronous).
reproduced: create_session or append_event fails with that error. fixed: the event is read back.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no server, another error, no such API).
"""

import asyncio
import inspect
import os
import sys
import uuid

BACKEND = "postgresql"
MARKER = "offset-naive and offset-aware"


async def admin(is_async, host, sql):
    if is_async:
        import asyncpg

        conn = await asyncpg.connect(host=host, user="postgres", database="postgres")
        await conn.execute(sql)
        await conn.close()
    else:
        import psycopg2

        conn = psycopg2.connect(host=host, user="postgres", dbname="postgres")
        conn.autocommit = True
        conn.cursor().execute(sql)
        conn.close()


async def main() -> int:
    from google.adk.events import Event
    from google.adk.sessions import DatabaseSessionService, database_session_service
    from google.genai import types

    is_async = "create_async_engine" in inspect.getsource(database_session_service)
    host = os.environ.get("HARNESS_POSTGRES_SOCKET") or os.environ.get("PGHOST")
    if not host:
        print("verdict: cannot judge (no PostgreSQL server: set HARNESS_POSTGRES_SOCKET or PGHOST)")
        return 125
    name = f"repro_{uuid.uuid4().hex[:12]}"
    await admin(is_async, host, f"CREATE DATABASE {name}")
    driver = "asyncpg" if is_async else "psycopg2"
    service = DatabaseSessionService(db_url=f"postgresql+{driver}://postgres@/{name}?host={host}")
    try:
        try:
            session = await service.create_session(app_name="app", user_id="u")
            part = types.Part(text="hello")
            event = Event(invocation_id="inv-1", author="user", content=types.Content(role="user", parts=[part]))
            await service.append_event(session, event)
        except Exception as exc:
            print(f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}")
            if MARKER in str(exc):
                print("verdict: reproduced (the driver refused an aware datetime)")
                return 3
            print("verdict: cannot judge (another error)")
            return 125
        back = await service.get_session(app_name="app", user_id="u", session_id=session.id)
        print(f"stored events: {len(back.events)}")
        if len(back.events) == 1:
            print("verdict: fixed (session created, its event read back)")
            return 0
        print("verdict: cannot judge (the event was not read back)")
        return 125
    finally:
        disposed = service.db_engine.dispose()
        if inspect.isawaitable(disposed):
            await disposed
        await admin(is_async, host, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # the build lacks the API, or anything else
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
