"""The helper every google-adk script on a database carries, byte for byte, as the runner block
(tests/test_new_scenario.py checks each script that defines ``database``): a fresh SQLite file in a
temporary folder, or a fresh database on the PostgreSQL server libpq's variables name (PGHOST,
PGPORT, PGUSER, PGPASSWORD; PGDATABASE the maintenance database), through the release's sync or
async driver, dropped at the end. Copy the function, its decorator and the imports below into the
script; what a script needs beyond one database's URL (a second file, ...) is got beside it."""

import contextlib
import inspect
import tempfile
import uuid


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
