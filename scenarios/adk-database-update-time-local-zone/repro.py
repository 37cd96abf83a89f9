# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"]
# ///
"""google-adk: a session's last_update_time is off by the host's UTC offset.

Upstream: https://github.com/google/adk-python/issues/5354 (PR #5355; #4441). On a host outside
UTC, DatabaseSessionService stores the session's `update_time` (a naive TIMESTAMP) as UTC wall
time in create_session (or the database's CURRENT_TIMESTAMP) and as local wall time in
append_event, and reads the naive value back as UTC for SQLite only (`update_timestamp_tz`,
`get_update_timestamp`), as local time otherwise: last_update_time is hours off, and a
stale-session check that compares the two can refuse a fresh session.

Nothing is faked. The process's zone is UTC+05:30 (TZ=Asia/Kolkata) for the case; on a fresh
SQLite file in a temporary folder, or (the -postgresql case) a fresh database on the PostgreSQL
server libpq's variables name (PGHOST, PGPORT, PGUSER, PGPASSWORD), dropped at the end: create a
session, read it back through a second service, append a user event, read it back, append
through that fresh copy. Prints each last_update_time minus the clock, in minutes (-330 when a
naive UTC value is read as local time), and how the last append ended.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import contextlib
import inspect
import os
import sys
import tempfile
import time
import uuid

CASES = {
    "created-then-appended": dict(backend="sqlite"),
    "created-then-appended-postgresql": dict(backend="postgresql"),
}
ZONE, OFFSET_MIN = "Asia/Kolkata", 330  # UTC+05:30 all year
STALE_MARKERS = ("stale session", "modified in storage")


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


def event(text):
    from google.adk.events import Event
    from google.genai import types

    return Event(invocation_id=text, author="user", content=types.Content(role="user", parts=[types.Part(text=text)]))


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, backend):
    """Create, read back, append, read back, append through the fresh copy, in zone UTC+05:30."""
    from google.adk.sessions import DatabaseSessionService

    offsets, last, error = {}, "not reached", ""
    zone = os.environ.get("TZ")
    os.environ["TZ"] = ZONE
    time.tzset()
    try:
        async with database(backend) as url:
            service, reader = DatabaseSessionService(db_url=url), DatabaseSessionService(db_url=url)
            try:
                clock = time.time()
                try:
                    created = await settled(service.create_session(app_name="app", user_id="u"))
                except Exception as exc:  # the driver refusing an aware datetime: adk-database-postgres-aware-datetime
                    aware = (
                        " (the driver refused an aware datetime)" if "offset-naive and offset-aware" in str(exc) else ""
                    )
                    say(f"create_session failed: {type(exc).__name__}{aware}")
                    return dict(offsets={}, last=last, error="", blocked=f"{type(exc).__name__}{aware}")
                offsets["create_session returned"] = round((created.last_update_time - clock) / 60)
                fresh = await settled(reader.get_session(app_name="app", user_id="u", session_id=created.id))
                offsets["read back after create"] = round((fresh.last_update_time - clock) / 60)
                first = event("first")
                await settled(service.append_event(created, first))
                fresh = await settled(reader.get_session(app_name="app", user_id="u", session_id=created.id))
                offsets["read back after append"] = round((fresh.last_update_time - first.timestamp) / 60)
                try:
                    await settled(reader.append_event(fresh, event("second")))
                    last = "accepted"
                except Exception as exc:  # a stale refusal of a fresh copy, or anything else: judged
                    text = str(exc).splitlines()[0] if str(exc) else ""
                    stale = isinstance(exc, ValueError) and any(m in text.lower() for m in STALE_MARKERS)
                    last, error = "refused as stale" if stale else "failed", f"{type(exc).__name__}: {text[:80]!r}"
            finally:
                await close(service)
                await close(reader)
    finally:
        os.environ.pop("TZ") if zone is None else os.environ.update(TZ=zone)
        time.tzset()
    say(f"process local zone UTC+05:30 ({ZONE}); last_update_time minus the clock:")
    for step, minutes in offsets.items():
        say(f"  {step}: {minutes:+d} min")
    say(f"append through the fresh copy: {last}" + (" (an error)" if error else ""))
    return dict(offsets=offsets, last=last, error=error)


def judge(facts):
    """(outcome, detail): every last_update_time within a minute of the clock, the last append accepted."""
    offsets, last = facts["offsets"], facts["last"]
    if facts.get("blocked"):
        return "unexpected", f"create_session failed before any time was stored: {facts['blocked']}"
    figures = ", ".join(f"{k} {v:+d} min" for k, v in offsets.items())
    off = {k: v for k, v in offsets.items() if v}
    if last == "failed":
        return "unexpected", f"the last append failed otherwise: {facts['error']}; {figures}"
    if (off and all(abs(v) == OFFSET_MIN for v in off.values())) or last == "refused as stale":
        return "reproduced", f"last_update_time off by the zone's offset: {figures}; the fresh copy's append {last}"
    if not off and last == "accepted":
        return "fixed", "every last_update_time within a minute of the clock; the fresh copy's append accepted"
    return "unexpected", f"{figures}; the fresh copy's append {last}"


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
