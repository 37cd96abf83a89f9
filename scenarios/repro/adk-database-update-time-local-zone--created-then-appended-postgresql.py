"""google-adk: on PostgreSQL, a session's last_update_time is off by the host's UTC offset.

https://github.com/google/adk-python/issues/5354: create_session writes update_time as UTC wall
time, append_event as local wall time, and the naive value is read back as UTC for SQLite only.

The script sets the process's zone to UTC+05:30 (TZ=Asia/Kolkata), then creates a session, reads it
back through a second service, appends an event, reads it back, and appends through that fresh
copy, on PostgreSQL: a new database on the server whose Unix socket folder is in
HARNESS_POSTGRES_SOCKET (or PGHOST), user postgres, server TimeZone UTC; asyncpg (psycopg2 on
releases whose service is synchronous). reproduced: a last_update_time 330 minutes off the clock,
or the fresh copy refused as stale. fixed: every one within a minute and the append accepted.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no server, another error, no such API).
"""

import asyncio
import inspect
import os
import sys
import time
import uuid

os.environ["TZ"] = "Asia/Kolkata"
time.tzset()


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


def event(text):
    from google.adk.events import Event
    from google.genai import types

    return Event(invocation_id=text, author="user", content=types.Content(role="user", parts=[types.Part(text=text)]))


async def main() -> int:
    from google.adk.sessions import DatabaseSessionService, database_session_service

    is_async = "create_async_engine" in inspect.getsource(database_session_service)
    host = os.environ.get("HARNESS_POSTGRES_SOCKET") or os.environ.get("PGHOST")
    if not host:
        print("verdict: cannot judge (no PostgreSQL server: set HARNESS_POSTGRES_SOCKET or PGHOST)")
        return 125
    name = f"repro_{uuid.uuid4().hex[:12]}"
    await admin(is_async, host, f"CREATE DATABASE {name}")
    url = f"postgresql+{'asyncpg' if is_async else 'psycopg2'}://postgres@/{name}?host={host}"
    a, b = DatabaseSessionService(db_url=url), DatabaseSessionService(db_url=url)
    try:
        clock = time.time()
        s = await a.create_session(app_name="app", user_id="u")
        off = [round((s.last_update_time - clock) / 60)]
        fresh = await b.get_session(app_name="app", user_id="u", session_id=s.id)
        off.append(round((fresh.last_update_time - clock) / 60))
        first = event("first")
        await a.append_event(s, first)
        fresh = await b.get_session(app_name="app", user_id="u", session_id=s.id)
        off.append(round((fresh.last_update_time - first.timestamp) / 60))
        print(f"last_update_time minus the clock (min): created {off[0]:+d}, read {off[1]:+d}, appended {off[2]:+d}")
        try:
            await b.append_event(fresh, event("second"))
            last = "accepted"
        except ValueError as exc:
            last = "refused" if "stale" in str(exc) or "modified in storage" in str(exc) else "failed"
        print(f"append through the fresh copy: {last}")
    finally:
        for service in (a, b):
            disposed = service.db_engine.dispose()
            if inspect.isawaitable(disposed):
                await disposed
        await admin(is_async, host, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    wrong = [m for m in off if m]
    if last == "refused" or (wrong and all(abs(m) == 330 for m in wrong) and last != "failed"):
        print(f"verdict: reproduced (offsets {off} min, the fresh copy's append {last})")
        return 3
    if not wrong and last == "accepted":
        print("verdict: fixed (every last_update_time within a minute, the append accepted)")
        return 0
    print(f"verdict: cannot judge (offsets {off} min, the fresh copy's append {last})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # the build lacks the API, or anything else
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
