# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"]
# ///
"""google-adk: a session database written by one release breaks the next (`column events.X does not exist`).

Upstream: https://github.com/google/adk-python/issues/3272 (1.16.1 -> 1.17.0 on PostgreSQL: `column
events.usage_metadata does not exist`), https://github.com/google/adk-python/issues/3681 (1.17 -> 1.19:
`column events.input_transcription does not exist`), https://github.com/google/adk-python/issues/1184
(0.x -> 1.x: `events.long_running_tool_ids_json`); #3520 and #3343 ask for migrations, and 1.22.1 ships
`adk migrate session --source_db_url ... --dest_db_url ...`, which copies a database into a new one.
`DatabaseSessionService` creates its tables with `create_all`, which creates missing tables and never
adds a column to an existing one: when a release adds a column to its `events` model (0.2.0, 1.14.0,
1.17.0, 1.19.0), every select and insert on `events` names that column, and a database an older
release wrote has no such column.

Nothing is faked. The writer (release A) creates session s1 for app/user with state {"k": "v"} and
appends one user event ("hello from the writer"). The reader (release B, in its own environment, on
the same database) gets s1 (it must hold the event and the state), appends one event ("hello from the
reader") and gets s1 again (two events). The `migrated` cases first run B's own `adk migrate session`
from A's database into a new one and read that (or the source, when the tool says it is already at the
latest schema and creates nothing). SQLite: the file STATE/sessions.db (STATE/migrated.db for the
migration's copy). The -postgresql cases: a fresh database `repro_<hex>` on the server libpq's
variables name (PGHOST, PGPORT, PGUSER, PGPASSWORD; PGDATABASE the maintenance database), its name in
STATE/database; the reader drops it and the migration's copy at its end, whatever happened.
Releases up to 1.18 use a sync engine (`sqlite:///`, `postgresql:///` through psycopg2), later ones an
async one (`sqlite+aiosqlite:///`, `postgresql+asyncpg:///`).

    uv run repro.py write CASE STATE    # release A's environment: writes A's session into STATE
    uv run repro.py read CASE STATE     # release B's environment: reads it and judges

Exit status: write 0 when it wrote, 125 otherwise; read 0 fixed, 3 reproduced (a missing column),
125 unexpected, not-applicable or error.
"""

import asyncio
import contextlib
import importlib.metadata
import importlib.util
import inspect
import json
import logging
import os
import re
import subprocess
import sys
import uuid
import warnings
from pathlib import Path

CASES = {
    f"{case}{suffix}": dict(migrate=migrate, backend=backend)
    for case, migrate in (("carry-over", False), ("migrated", True))
    for suffix, backend in (("", "sqlite"), ("-postgresql", "postgresql"))
}
STEPS = ("write", "read")
STATE_KEY = {"k": "v"}
WRITER_TEXT, READER_TEXT = "hello from the writer", "hello from the reader"
FINISHED = "Migration check and upgrade process finished."  # the tool's success line (stdout)
ALREADY_LATEST = "No migration needed"  # its log line when the source is already at the latest schema
MISSING_COLUMN = (  # SQLite select / insert, PostgreSQL select / insert
    r"no such column: events\.(\w+)",
    r"table events has no column named (\w+)",
    r"column events\.(\w+) does not exist",
    r'column "(\w+)" of relation "events" does not exist',
)


class NotApplicable(Exception):
    """The release lacks what the case needs."""


class Unexpected(Exception):
    """The case went a third way: neither the missing column nor a carried-over session."""


class Failed(Exception):
    """A service call failed: (call, exception)."""


def scrub(text, state):
    """`text` without the run's own names: the STATE folder's path, the databases' names."""
    text = text.replace(str(state), "STATE")
    for file, shown in (("database", "<the database>"), ("migrated-database", "<the second database>")):
        if (state / file).exists():
            text = text.replace((state / file).read_text().strip(), shown)
    return text


def release():
    return f"google-adk {importlib.metadata.version('google-adk')}"


def is_async():
    """Whether the release's DatabaseSessionService runs on an async engine (1.19.0 and later)."""
    from google.adk.sessions import database_session_service

    return "create_async_engine" in inspect.getsource(database_session_service)


def url(backend, where):
    """The release's URL for a SQLite file path or a PostgreSQL database name."""
    if backend == "sqlite":
        return f"sqlite{'+aiosqlite' if is_async() else ''}:///{where}"
    # postgresql:// is psycopg2, SQLAlchemy 2.0's default; the first releases accept no "+driver" suffix.
    return f"postgresql+asyncpg:///{where}" if is_async() else f"postgresql:///{where}"


def sync(db_url):
    """The URL without its "+driver": SQLAlchemy's default (sync) driver for the dialect."""
    scheme, rest = db_url.split("://", 1)
    return f"{scheme.split('+')[0]}://{rest}"


async def admin(sql):
    """Run `sql` on the server's maintenance database (PGDATABASE), through the release's driver."""
    if is_async():
        import asyncpg

        conn = await asyncpg.connect()
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
        return
    import psycopg2

    conn = psycopg2.connect("")
    try:
        conn.autocommit = True
        conn.cursor().execute(sql)
    finally:
        conn.close()


async def create_database(state, file):
    """A fresh PostgreSQL database, its name written into STATE/<file> first (so that it is dropped)."""
    name = f"repro_{uuid.uuid4().hex}"
    (state / file).write_text(name + "\n")
    await admin(f"CREATE DATABASE {name}")
    return name


async def drop_databases(state):
    """Drop every database the writer or the reader made (their names in STATE), whatever happened."""
    for file in ("database", "migrated-database"):
        if (state / file).exists():
            await admin(f"DROP DATABASE IF EXISTS {(state / file).read_text().strip()} WITH (FORCE)")


@contextlib.asynccontextmanager
async def service(db_url):
    """The release's DatabaseSessionService on `db_url`, its engine disposed at the end (aiosqlite >= 0.22
    keeps the process alive otherwise)."""
    from google.adk.sessions import DatabaseSessionService

    svc = DatabaseSessionService(db_url=db_url)
    try:
        yield svc
    finally:
        done = svc.close() if hasattr(svc, "close") else svc.db_engine.dispose()
        if inspect.isawaitable(done):
            await done


async def settle(result):
    """The result of a service call: awaited where the release's services are async (the first ones are not)."""
    return await result if inspect.isawaitable(result) else result


async def call(name, method, *args, **kwargs):
    """A service call, its failure (raised by the call itself in the sync releases) named."""
    try:
        return await settle(method(*args, **kwargs))
    except Exception as exc:
        raise Failed(name, exc) from exc


def event(text):
    from google.adk.events import Event
    from google.genai import types

    return Event(
        invocation_id=f"inv-{text.split()[-1]}",
        author="user",
        content=types.Content(role="user", parts=[types.Part(text=text)]),
    )


def texts(session):
    return [p.text for e in session.events if e.content for p in (e.content.parts or []) if p.text]


def shown(session):
    n = len(session.events)
    said = ", ".join(repr(t) for t in texts(session))
    return f"{n} event{'s' * (n != 1)} ({said}), state {dict(session.state)}"


# --- write ----------------------------------------------------------------------------------------


async def write(say, state, backend, migrate):
    """Release A: session s1 with the state and one user event, in a fresh database."""
    del migrate  # the writer is the same for both cases
    (state / "writer.json").write_text(json.dumps({"release": release(), "backend": backend}) + "\n")
    if backend == "sqlite":
        where, db_url = "STATE/sessions.db", url(backend, state / "sessions.db")
    else:
        where, db_url = "the database", url(backend, await create_database(state, "database"))
    say(f"{release()} ({'async' if is_async() else 'sync'} engine) writes {where}")
    try:
        async with service(db_url) as svc:
            s1 = await settle(svc.create_session(app_name="app", user_id="user", session_id="s1", state=STATE_KEY))
            say(f"create_session(app, user, s1, state {STATE_KEY})")
            await settle(svc.append_event(s1, event(WRITER_TEXT)))
            say(f"append_event(s1): {WRITER_TEXT!r}")
            got = await settle(svc.get_session(app_name="app", user_id="user", session_id="s1"))
            say(f"get_session(s1): {shown(got)}")
    except BaseException:
        if backend != "sqlite":
            await drop_databases(state)
            (state / "database").unlink()
        raise
    return "written", f"{release()} wrote session s1 (state {STATE_KEY}, 1 event) into {where}"


# --- read -----------------------------------------------------------------------------------------


def migration_tool():
    """The release's `adk migrate session` command line, or NotApplicable (it came in 1.22.1)."""
    spec = importlib.util.find_spec("google.adk.cli.cli_tools_click")
    if spec is None or "def cli_migrate_session" not in Path(spec.origin).read_text():
        raise NotApplicable(f"{release()} has no `adk migrate session` (it came in 1.22.1)")
    return [sys.executable, "-m", "google.adk.cli", "migrate", "session"]


def postgresql_driver_missing():
    """The module the tool's sync PostgreSQL URL needs, when the environment lacks it: the tool strips the
    driver from the URL, and SQLAlchemy's default is psycopg2 up to 2.0, psycopg (3) from 2.1."""
    from sqlalchemy.dialects import postgresql

    module = postgresql.dialect.driver  # the DBAPI module's name: psycopg2, psycopg
    return None if importlib.util.find_spec(module) else module


async def run_migration(say, state, backend, source_url, source_where, writer):
    """Run the release's migration from the writer's database into a new one: (URL, where) to read."""
    command = migration_tool()
    if backend == "sqlite":
        dest_where, dest_url = "STATE/migrated.db", url(backend, state / "migrated.db")
    else:
        dest_where, dest_url = "a second database", url(backend, await create_database(state, "migrated-database"))
    # The tool takes SQLAlchemy's sync URLs, as its help shows (sqlite:///source.db): 1.22.1 does not strip
    # an async driver from the destination's URL (greenlet_spawn has not been called).
    done = await asyncio.to_thread(
        subprocess.run,
        [*command, "--source_db_url", sync(source_url), "--dest_db_url", sync(dest_url), "--log_level", "INFO"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    output = scrub(done.stdout + done.stderr, state)
    failed = [line.strip() for line in output.splitlines() if "Migration failed" in line]
    finished = FINISHED in done.stdout and not failed
    result = FINISHED if finished else (failed[-1] if failed else f"exit {done.returncode}, no '{FINISHED}'")
    say(f"adk migrate session {source_where} -> {dest_where}: {result}")
    if not finished:
        last = failed[-1] if failed else (output.strip().splitlines() or ["no output"])[-1].strip()
        missing = postgresql_driver_missing() if backend == "postgresql" else None
        if missing and (f"No module named '{missing}'" in output or "ModuleNotFoundError" in last):
            raise NotApplicable(
                f"{release()}'s adk migrate session strips the driver from the PostgreSQL URL and SQLAlchemy "
                f"{importlib.metadata.version('sqlalchemy')} then needs {missing}, not installed: {last}"
            )
        raise Unexpected(f"{release()}'s adk migrate session failed on the database {writer} wrote: {last}")
    if ALREADY_LATEST in output:
        say("the source is already at the latest schema: the tool created nothing, reading the source")
        return source_url, source_where
    return dest_url, dest_where


async def read(say, state, backend, migrate):
    """Release B: get s1, append to it, get it again; first through the migration where the case says."""
    writer = json.loads((state / "writer.json").read_text())["release"]
    try:
        if backend == "sqlite":
            where, db_url = "STATE/sessions.db", url(backend, state / "sessions.db")
        else:
            where, db_url = "the database", url(backend, (state / "database").read_text().strip())
        say(f"{release()} ({'async' if is_async() else 'sync'} engine) reads {where}, written by {writer}")
        if migrate:
            db_url, where = await run_migration(say, state, backend, db_url, where, writer)
        return await carry_on(say, writer, db_url, where, migrate)
    finally:
        if backend != "sqlite":
            await drop_databases(state)


async def carry_on(say, writer, db_url, where, migrated):
    """Get s1, append one event, get it again; (outcome, detail)."""
    kw = dict(app_name="app", user_id="user", session_id="s1")
    what = f"{release()} cannot read the database {writer} wrote" + (" after its migration" if migrated else "")
    try:
        async with service(db_url) as svc:
            got = await call("get_session(s1)", svc.get_session, **kw)
            if got is None:
                return "unexpected", f"{what}: get_session(s1) returned None: the session is lost"
            say(f"get_session(s1): {shown(got)}")
            lost = lose(got, [WRITER_TEXT])
            if lost:
                return "unexpected", f"{release()} read the database {writer} wrote, but {lost}"
            await call("append_event(s1)", svc.append_event, got, event(READER_TEXT))
            say(f"append_event(s1): {READER_TEXT!r}")
            again = await call("get_session(s1) after the append", svc.get_session, **kw)
            if again is None:
                return "unexpected", f"{what}: get_session(s1) after the append returned None"
            say(f"get_session(s1): {shown(again)}")
            lost = lose(again, [WRITER_TEXT, READER_TEXT])
            if lost:
                return "unexpected", f"{release()} appended to the session {writer} wrote, but {lost}"
    except Failed as failed:
        name, exc = failed.args
        message = " ".join(str(exc).split())
        for pattern in MISSING_COLUMN:
            found = re.search(pattern, message)
            if found:
                return "reproduced", f"{what}: {name}: {type(exc).__name__}: {found.group(0)}"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return "unexpected", f"{what}: {name}: {type(exc).__name__}: {first}"
    return "fixed", (
        f"{release()} read the session {writer} wrote in {where} ({len(again.events)} events after its own append, "
        f"state {dict(again.state)})"
    )


def lose(session, expected):
    """What is lost: the events' texts or the state, or None."""
    if texts(session) != expected:
        return f"the session's events read {texts(session)}, not {expected}"
    if session.state.get("k") != "v":
        return f"the state reads {dict(session.state)}, not {STATE_KEY}"
    return None


# --- the command line -----------------------------------------------------------------------------


EXIT = {"written": 0, "fixed": 0, "reproduced": 3}


async def step(name, case, state):
    if name == "write":
        return await write(print, state, **CASES[case])
    return await read(print, state, **CASES[case])


def main(argv):
    if len(argv) != 3 or argv[0] not in STEPS or argv[1] not in CASES:
        valid = f"{{{'|'.join(STEPS)}}} {{{'|'.join(CASES)}}} STATE"
        print(f"verdict: error: unknown step or case in {argv}; valid: {valid}")
        return 125
    name, case, state = argv[0], argv[1], Path(argv[2]).resolve()
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    print(f"== {name} {case}")
    try:
        outcome, detail = asyncio.run(step(name, case, state))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Unexpected as exc:
        outcome, detail = "unexpected", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    detail = " ".join(scrub(str(detail), state).split())
    print(f"verdict: {outcome}: {detail}")
    return EXIT.get(outcome, 125)


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(code)  # aiosqlite >= 0.22 leaves a non-daemon thread behind a disposed engine
