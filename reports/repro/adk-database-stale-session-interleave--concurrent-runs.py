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
# adk-database-stale-session-interleave:concurrent-runs. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
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
"""google-adk: two concurrent runs on one database session interleave their events.

Bug: https://github.com/google/adk-python/issues/4751. Two DatabaseSessionService instances
("servers" A and B) share one SQLite file in a temporary folder. A's run (a scripted stand-in
model) records its user turn and a function call, then its tool waits while B runs a whole
turn on the same session; then A's tool returns and A appends the response through its now
stale session object. 1.24-1.27 reload it and write; 1.2-1.19 never notice (an event without
a state delta leaves update_time alone); 1.20-1.23 and 1.28 on refuse.
reproduced: A is let through, the store reads AABBAA (A's call and its response split by B's
turn). fixed: A gets the stale-session ValueError and the store reads AABB.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import inspect
import sys
import tempfile
import time

KW = {"app_name": "app", "user_id": "user"}


async def main(folder: str) -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import DatabaseSessionService, database_session_service
    from google.genai import types

    a_in_tool, b_done = asyncio.Event(), asyncio.Event()

    class ScriptedLlm(BaseLlm):
        """A stand-in model: each call answers with the next part."""

        replies: list

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=[self.replies.pop(0)]))

    async def lookup(query: str) -> dict:
        """Looks something up (held until server B has written)."""
        a_in_tool.set()
        await b_done.wait()
        return {"result": f"found {query}"}

    async def run(service, server: str, replies: list, session_id: str):
        agent = LlmAgent(name="assistant", model=ScriptedLlm(model=server, replies=replies), tools=[lookup])
        message = types.Content(role="user", parts=[types.Part(text=f"question for {server}")])
        runner = Runner(app_name="app", agent=agent, session_service=service)
        try:
            async for _ in runner.run_async(user_id="user", session_id=session_id, new_message=message):
                pass
        except Exception as exc:  # the stale-session refusal, or anything else
            print(f"server {server}: run_async raised {type(exc).__name__}: {exc}")
            return exc
        print(f"server {server}: run_async completed")

    is_async = "create_async_engine" in inspect.getsource(database_session_service)  # 1.19 on
    url = f"sqlite{'+aiosqlite' if is_async else ''}:///{folder}/sessions.db"
    service_a, service_b, reader = (DatabaseSessionService(db_url=url) for _ in range(3))
    session = await service_a.create_session(**KW)
    call = types.Part(function_call=types.FunctionCall(name="lookup", args={"query": "x"}))
    task_a = asyncio.create_task(run(service_a, "A", [call, types.Part(text="A done")], session.id))
    waiter = asyncio.ensure_future(a_in_tool.wait())  # A is in its tool (or its run ended early)
    await asyncio.wait({task_a, waiter}, return_when=asyncio.FIRST_COMPLETED)
    stored = await reader.get_session(**KW, session_id=session.id)
    if float(stored.last_update_time).is_integer():  # whole-second update times (before 1.20):
        await asyncio.sleep(1.05 - time.time() % 1)  # B writes in a later second, as real servers would
    error_b = await run(service_b, "B", [types.Part(text="B done")], session.id)
    b_done.set()
    error_a = await task_a
    stored = await reader.get_session(**KW, session_id=session.id)
    servers = {e.invocation_id: e.content.parts[0].text[-1] for e in stored.events if e.author == "user"}
    order = "".join(servers.get(e.invocation_id, "?") for e in stored.events)
    print(f"stored events by server: {order}")
    stale = isinstance(error_a, ValueError) and any(m in str(error_a) for m in ("stale session", "modified in storage"))
    if error_b is None and stale and order == "AABB":
        print(f"verdict: fixed (server A's stale write was refused ({type(error_a).__name__}); stored order AABB)")
        return 0
    if error_b is None and error_a is None and order == "AABBAA":
        print("verdict: reproduced (server A's stale write was let through: stored order AABBAA)")
        return 3
    print(f"verdict: cannot judge (server A {error_a!r}, server B {error_b!r}; stored order {order})")
    return 125


if __name__ == "__main__":
    try:
        with tempfile.TemporaryDirectory() as folder:
            sys.exit(asyncio.run(main(folder)))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
