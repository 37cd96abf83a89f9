# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"]
# ///
"""google-adk: list_sessions() comes back in storage order, not by update_time; sessions[-1] is not the latest.

Upstream: https://github.com/google/adk-python/issues/6272 (PR #6276) and, for SqliteSessionService,
https://github.com/google/adk-python/issues/6431 (PR #6432). `DatabaseSessionService.list_sessions()`
and `SqliteSessionService.list_sessions()` select the sessions with no ORDER BY, so the rows come back
in whatever order the database reads them: the primary key's index on SQLite (app_name, user_id, id),
the heap on PostgreSQL (the order the rows were last written). A caller that takes `sessions[-1]` as
the most recently active session gets another one. The contract agreed in #6272: `update_time`
ascending, then user_id, then id.

Nothing is faked. On a fresh SQLite file in a temporary folder (DatabaseSessionService, and
SqliteSessionService where the release has it), or (the -postgresql cases) a fresh database on the
PostgreSQL server libpq's variables name (PGHOST, PGPORT, PGUSER, PGPASSWORD), dropped at the end:
create the sessions u1/a, u1/b, u2/x, u1/c, then append one event to each of a and c, in that order,
whose timestamps (the time each event was made) put c's activity before a's: a's event is stamped
20 s after the start and written first, c's is stamped 10 s after and written second, as when two
runs finish out of order. By update_time the sessions are then b, x, c, a. Prints each service's
listing, in the order it returned it.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import contextlib
import inspect
import sys
import tempfile
import time
import uuid

CASES = {
    f"{case}{suffix}": dict(scope=scope, checks=checks, backend=backend)
    for case, scope, checks in (
        ("user-scoped", "u1", "order"),
        ("app-wide", None, "order"),
        ("user-filter", "u2", "filter"),
    )
    for suffix, backend in (("", "sqlite"), ("-postgresql", "postgresql"))
}
SESSIONS = (("u1", "a"), ("u1", "b"), ("u2", "x"), ("u1", "c"))  # created in this order
APPENDS = (("u1", "a", 20), ("u1", "c", 10))  # written in this order: (user, session, seconds after the start)
BY_UPDATE_TIME = ("b", "x", "c", "a")  # what every write leaves: creation times, then c (+10 s), then a (+20 s)


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
    if hasattr(service, "close"):
        done = service.close()
    elif hasattr(service, "db_engine"):
        done = service.db_engine.dispose()
    else:
        return
    if inspect.isawaitable(done):
        await done


async def settle(result):
    """The result of a service call: awaited where the release's services are async (the first ones are not)."""
    return await result if inspect.isawaitable(result) else result


async def listing(service, scope):
    """Create the sessions, append the two events out of their time order, list; the ids in listed order."""
    from google.adk.events import Event
    from google.genai import types

    start = time.time()
    sessions = {}
    for user, sid in SESSIONS:
        sessions[sid] = await settle(service.create_session(app_name="app", user_id=user, session_id=sid))
    for _user, sid, after in APPENDS:
        event = Event(
            invocation_id=f"inv-{sid}",
            author="user",
            timestamp=start + after,
            content=types.Content(role="user", parts=[types.Part(text=f"hello from {sid}")]),
        )
        await settle(service.append_event(sessions[sid], event))
    listed = await settle(service.list_sessions(app_name="app", user_id=scope))
    return [s.id for s in listed.sessions]


async def observe(say, scope, checks, backend):
    """Each service's listing of `scope` (a user, or None for the whole app), in the order it came back.
    `checks`: what judge reads, the order ("order") or that the listing holds the user's sessions only ("filter")."""
    from google.adk.sessions import DatabaseSessionService

    try:
        from google.adk.sessions.sqlite_session_service import SqliteSessionService
    except ImportError:
        SqliteSessionService = None

    user_id = inspect.signature(DatabaseSessionService.list_sessions).parameters.get("user_id")
    if scope is None and (user_id is None or user_id.default is inspect.Parameter.empty):
        raise NotApplicable("DatabaseSessionService.list_sessions requires a user_id: no listing of the whole app")
    who = "the whole app" if scope is None else f"user {scope}"
    say("created u1/a, u1/b, u2/x, u1/c; appended to a (event stamped +20 s), then to c (stamped +10 s)")
    listings = {}
    async with database(backend) as url:
        service = DatabaseSessionService(db_url=url)
        try:
            listings["DatabaseSessionService"] = await listing(service, scope)
        finally:
            await close(service)
    if backend == "sqlite" and SqliteSessionService is not None:
        with tempfile.TemporaryDirectory() as folder:  # a fresh SQLite file of its own
            service = SqliteSessionService(db_path=f"{folder}/sqlite-service.db")
            try:
                listings["SqliteSessionService"] = await listing(service, scope)
            finally:
                await close(service)
    elif backend == "sqlite":
        say("SqliteSessionService: not in this release")
    expected = [sid for sid in BY_UPDATE_TIME if scope is None or ({s: u for u, s in SESSIONS}[sid] == scope)]
    say(f"by update_time, {who}: {', '.join(expected)}")
    for name, ids in listings.items():
        say(f"{name}.list_sessions({who}): {', '.join(ids)}")
    return dict(checks=checks, expected=expected, listings=listings)


def judge(facts):
    """(outcome, detail): every service lists the scope's sessions, each once, by update_time ascending.
    The "filter" control: reproduced when a user's listing holds another user's sessions."""
    expected, listings = facts["expected"], facts["listings"]
    if not listings:
        return "unexpected", "no service listed anything"
    if facts["checks"] == "filter":
        foreign = {n: ids for n, ids in listings.items() if set(ids) > set(expected)}
        if foreign:
            shown = "; ".join(f"{n} listed {', '.join(ids)}" for n, ids in foreign.items())
            return "reproduced", f"the user's listing holds other users' sessions (expected {expected}): {shown}"
    wrong_members = {n: ids for n, ids in listings.items() if sorted(ids) != sorted(expected)}
    if wrong_members:
        shown = "; ".join(f"{n} listed {ids}" for n, ids in wrong_members.items())
        return "unexpected", f"the listing holds other sessions than {sorted(expected)}: {shown}"
    unordered = {n: ids for n, ids in listings.items() if ids != expected}
    if unordered:
        shown = "; ".join(f"{n} gave {', '.join(ids)} (last: {ids[-1]})" for n, ids in unordered.items())
        return "reproduced", f"not ordered by update_time ({', '.join(expected)}): {shown}"
    return "fixed", f"{' and '.join(listings)} listed {', '.join(expected)}: by update_time, the latest last"


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
