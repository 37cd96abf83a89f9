# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk[db]==2.13.0",
#   "aiosqlite",
#   "sqlalchemy[asyncio]",
#   "asyncpg",
#   "psycopg2-binary",
# ]
# [tool.uv]
# exclude-newer = "2026-10-23T18:26:35Z"
# ///
# adk-database-postgres-aware-datetime:create-and-append. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   fixed / fixed: 1.23.0 (2026-01-22T23:26:53Z), 1.24.0 (2026-02-05T18:29:25Z),
#     1.24.1 (2026-02-06T18:55:34Z), 1.25.0 (2026-02-11T23:22:52Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z),
#     2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z),
#     2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
"""google-adk: DatabaseSessionService.create_session on SQLite, the control of a PostgreSQL bug.

https://github.com/google/adk-python/issues/4366: on PostgreSQL through asyncpg, create_session
fails with "can't subtract offset-naive and offset-aware datetimes" (the service strips the
time zone of update_time for SQLite only). SQLite stores the naive value: the same steps must
work on every release.

The script creates a session, appends one user event and reads it back, on a SQLite file in a
temporary folder (sqlite+aiosqlite where the service is async, sqlite before).
reproduced (the control broke): either step fails with that error. fixed: the event is read back.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (another error, no such API).
"""

import asyncio
import inspect
import sys
import tempfile

MARKER = "offset-naive and offset-aware"


async def main(folder: str) -> int:
    from google.adk.events import Event
    from google.adk.sessions import DatabaseSessionService, database_session_service
    from google.genai import types

    is_async = "create_async_engine" in inspect.getsource(database_session_service)
    url = f"sqlite+aiosqlite:///{folder}/s.db" if is_async else f"sqlite:///{folder}/s.db"
    service = DatabaseSessionService(db_url=url)
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


if __name__ == "__main__":
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sys.exit(asyncio.run(main(tmp)))
    except Exception as exc:  # the build lacks the API, or anything else
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
