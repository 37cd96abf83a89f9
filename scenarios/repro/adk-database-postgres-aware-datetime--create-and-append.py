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
