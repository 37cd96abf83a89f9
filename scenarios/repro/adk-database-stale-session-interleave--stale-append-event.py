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
