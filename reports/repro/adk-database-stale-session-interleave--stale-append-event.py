# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==1.27.5",
#   "aiosqlite",
#   "sqlalchemy[asyncio]",
#   "asyncpg",
#   "psycopg2-binary",
# ]
# [tool.uv]
# exclude-newer = "2026-03-26T02:54:07Z"
# ///
# adk-database-stale-session-interleave:stale-append-event. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   fixed / fixed: 1.1.1 (2025-05-29T00:13:32Z)
#   reproduced / reproduced: 1.2.0 (2025-06-04T18:47:31Z)
#   fixed / fixed: 1.20.0 (2025-12-03T22:42:41Z)
#   reproduced / reproduced: 1.24.0 (2026-02-05T18:29:25Z), 1.27.5 (2026-03-26T02:54:07Z)
#   fixed / fixed: 1.28.0 (2026-03-26T22:48:27Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z),
#     2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z),
#     2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
"""google-adk: DatabaseSessionService writes through a stale session object instead of refusing.

Bug: https://github.com/google/adk-python/issues/4751. Two DatabaseSessionService instances
("servers" A and B) share one SQLite file in a temporary folder. B loads the session, A appends
an event, then B appends through its now stale session object. 1.24-1.27 reload the stale object
and write; 1.2-1.19 never notice (an event without a state delta leaves the session row's
update_time alone, so the stale check cannot fire); 1.20-1.23 and 1.28 on refuse.
reproduced: B's stale append is stored (order AB). fixed: it is refused with the stale-session
ValueError and the store holds only A's event.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import inspect
import sys
import tempfile
import time

KW = {"app_name": "app", "user_id": "user"}


async def main(folder: str) -> int:
    from google.adk.events import Event
    from google.adk.sessions import DatabaseSessionService, database_session_service
    from google.genai import types

    def note(server: str) -> Event:
        content = types.Content(role="user", parts=[types.Part(text=f"question for {server}")])
        return Event(invocation_id=f"inv-{server}", author="user", content=content)

    # The async driver where the service is async (1.19 on), the sync one before.
    is_async = "create_async_engine" in inspect.getsource(database_session_service)
    url = f"sqlite{'+aiosqlite' if is_async else ''}:///{folder}/sessions.db"
    service_a, service_b, reader = (DatabaseSessionService(db_url=url) for _ in range(3))
    created = await service_a.create_session(**KW)
    session_b = await service_b.get_session(**KW, session_id=created.id)
    session_a = await service_a.get_session(**KW, session_id=created.id)
    if float(session_a.last_update_time).is_integer():  # whole-second update times (before 1.20):
        await asyncio.sleep(1.05 - time.time() % 1)  # write in a later second, or no check can see it
    await service_a.append_event(session_a, note("A"))
    print("server A: append_event -> accepted")
    try:
        await service_b.append_event(session_b, note("B"))
        refusal = None
        print("server B: append_event through its stale session -> accepted")
    except Exception as exc:
        refusal = exc
        print(f"server B: append_event through its stale session -> {type(exc).__name__}: {exc}")
    stored = await reader.get_session(**KW, session_id=created.id)
    order = "".join(e.invocation_id[-1] for e in stored.events)
    holds = "".join(e.invocation_id[-1] for e in session_b.events)
    print(f"stored events: {order}; server B's session object now holds: {holds or 'nothing'}")
    stale = isinstance(refusal, ValueError) and any(m in str(refusal) for m in ("stale session", "modified in storage"))
    if stale and order == "A":
        print(f"verdict: fixed (server B's stale append was refused ({type(refusal).__name__}); stored order A)")
        return 0
    if refusal is None and order == "AB":
        print(f"verdict: reproduced (server B's stale append was written; stored order AB; B holds {holds})")
        return 3
    print(f"verdict: cannot judge (server B: {refusal!r}; stored order {order})")
    return 125


if __name__ == "__main__":
    try:
        with tempfile.TemporaryDirectory() as folder:
            sys.exit(asyncio.run(main(folder)))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
