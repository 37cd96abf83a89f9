"""google-adk: append_event through a stale session object is written, not refused (PostgreSQL).

https://github.com/google/adk-python/issues/4751: two DatabaseSessionService instances (two
servers) on one database; B loads the session, A appends an event, then B appends through its
now stale session object. 1.24-1.27 reload the stale object and write; 1.2-1.19 write without
noticing; the fix refuses B's write ("stale session" / "modified in storage").

The script runs that on PostgreSQL: a new database on the server whose Unix socket folder is in
HARNESS_POSTGRES_SOCKET (or PGHOST), user postgres, through asyncpg (psycopg2 on releases whose
service is synchronous). reproduced: B's stale append is stored (order A B). fixed: it is
refused with the stale-session error and the store holds A's event only.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no server, another error, no such API).
"""

import asyncio
import inspect
import os
import sys
import uuid


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


def note(text):
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
    a, b, reader = (DatabaseSessionService(db_url=url) for _ in range(3))
    try:
        created = await a.create_session(app_name="app", user_id="u")
        stale_b = await b.get_session(app_name="app", user_id="u", session_id=created.id)
        fresh_a = await a.get_session(app_name="app", user_id="u", session_id=created.id)
        await a.append_event(fresh_a, note("A"))
        try:
            await b.append_event(stale_b, note("B"))
            refused = None
        except ValueError as exc:
            refused = str(exc)
        stored = await reader.get_session(app_name="app", user_id="u", session_id=created.id)
        order = " ".join(e.invocation_id for e in stored.events)
    finally:
        for service in (a, b, reader):
            disposed = service.db_engine.dispose()
            if inspect.isawaitable(disposed):
                await disposed
        await admin(is_async, host, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    print(f"B's stale append: {'refused: ' + refused.splitlines()[0][:100] if refused else 'accepted'}")
    print(f"stored order: {order}")
    if refused is None and order == "A B":
        print("verdict: reproduced (the stale append was written: A B)")
        return 3
    if refused and ("stale session" in refused or "modified in storage" in refused) and order == "A":
        print("verdict: fixed (the stale append was refused; the store holds A)")
        return 0
    print(f"verdict: cannot judge (refused={bool(refused)}, order {order})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # the build lacks the API, or anything else
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
