# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"]
# ///
"""google-adk: DatabaseSessionService on PostgreSQL cannot create a session (an aware datetime).

Upstream: https://github.com/google/adk-python/issues/4366 (PRs #4365, #4388, #4441). The service
passes `datetime.now(timezone.utc)` for the session's `update_time` instead of letting the
database stamp it, and strips the zone for SQLite only; on PostgreSQL the column is a TIMESTAMP
WITHOUT TIME ZONE, which asyncpg refuses to fill with an aware value: create_session fails with
"can't subtract offset-naive and offset-aware datetimes". SQLite stores the naive value.

Nothing is faked. On a fresh SQLite file in a temporary folder, or (the -postgresql case) a fresh
database on the PostgreSQL server libpq's variables name (PGHOST, PGPORT, PGUSER, PGPASSWORD),
dropped at the end: create a session, append one user event, read the session back through a
second service. Prints what create_session and append_event did (done, or the exception, its
datetime digits as <time>) and the stored events.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import contextlib
import inspect
import re
import sys
import tempfile
import uuid

CASES = {
    "create-and-append": dict(backend="sqlite"),
    "create-and-append-postgresql": dict(backend="postgresql"),
}
MARKER = "offset-naive and offset-aware"
DIGITS = re.compile(r"datetime\.datetime\([^)]*\)|\d{4}-\d{2}-\d{2}[ T][\d:.]+")


class NotApplicable(Exception):
    """The release lacks what the case needs."""


@contextlib.asynccontextmanager
async def database(backend):
    """A fresh database's SQLAlchemy URL, through the release's driver (async or not, as its service)."""
    from google.adk.sessions import database_session_service

    is_async = "create_async_engine" in inspect.getsource(database_session_service)
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite{'+aiosqlite' if is_async else ''}:///{folder}/sessions.db"
        return

    async def admin(sql):  # on the server's maintenance database (PGDATABASE)
        if is_async:
            import asyncpg

            conn = await asyncpg.connect()
            await conn.execute(sql)
            return await conn.close()
        import psycopg2

        conn = psycopg2.connect("")
        conn.autocommit = True
        conn.cursor().execute(sql)
        conn.close()

    name = f"repro_{uuid.uuid4().hex}"
    await admin(f"CREATE DATABASE {name}")
    try:
        # postgresql:// is psycopg2, SQLAlchemy's default; the first releases accept no "+driver" suffix.
        yield f"postgresql+asyncpg:///{name}" if is_async else f"postgresql:///{name}"
    finally:
        await admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


async def close(service):
    done = service.close() if hasattr(service, "close") else service.db_engine.dispose()
    if inspect.isawaitable(done):
        await done


def describe(exc):
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {DIGITS.sub('<time>', first)[:200]!r}"


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, backend):
    """Create a session, append a user event, read it back through a second service."""
    from google.adk.events import Event
    from google.adk.sessions import DatabaseSessionService
    from google.genai import types

    steps, errors, stored = {}, {}, []
    async with database(backend) as url:
        service, reader = DatabaseSessionService(db_url=url), DatabaseSessionService(db_url=url)
        try:
            try:
                session = await settled(service.create_session(app_name="app", user_id="u"))
                steps["create_session"] = "done"
            except Exception as exc:  # the datetime the driver refuses, or anything else: judged
                session, steps["create_session"], errors["create_session"] = None, describe(exc), str(exc)
            if session is not None:
                content = types.Content(role="user", parts=[types.Part(text="hello")])
                try:
                    event = Event(invocation_id="inv-1", author="user", content=content)
                    await settled(service.append_event(session, event))
                    steps["append_event"] = "done"
                except Exception as exc:
                    steps["append_event"], errors["append_event"] = describe(exc), str(exc)
                back = await settled(reader.get_session(app_name="app", user_id="u", session_id=session.id))
                stored = [
                    f"{e.author}: {''.join(p.text or '' for p in e.content.parts)}"
                    for e in (back.events if back else [])
                    if e.content and e.content.parts
                ]
        finally:
            await close(service)
            await close(reader)
    for name, what in steps.items():
        say(f"{name}: {what}")
    say(f"stored session: {len(stored)} event{'s' if len(stored) != 1 else ''}")
    for line in stored:
        say(f"  {line}")
    return dict(steps=steps, errors=errors, stored=stored)


def judge(facts):
    """(outcome, detail): the session created and its one event read back, or the aware datetime refused."""
    steps, errors, stored = facts["steps"], facts["errors"], facts["stored"]
    refused = [name for name, message in errors.items() if MARKER in message]
    if refused:
        return "reproduced", f"{refused[0]} failed: the driver refused an aware datetime ({steps[refused[0]]})"
    if errors:
        name = next(iter(errors))
        return "unexpected", f"{name} failed otherwise: {steps[name]}"
    if stored == ["user: hello"]:
        return "fixed", "session created, its event appended and read back"
    return "unexpected", f"session created, but the store holds {len(stored)} events, expected 1"


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
