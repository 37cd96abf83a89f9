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
# adk-database-stale-session-interleave:sequential-control-postgresql. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   fixed / fixed: 1.1.1 (2025-05-29T00:13:32Z), 1.2.0 (2025-06-04T18:47:31Z),
#     1.20.0 (2025-12-03T22:42:41Z)
#   unexpected / cannot-judge: 1.24.0 (2026-02-05T18:29:25Z)
#   fixed / fixed: 1.27.5 (2026-03-26T02:54:07Z), 1.28.0 (2026-03-26T22:48:27Z),
#     1.39.1 (2026-08-27T21:55:07Z), 2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z),
#     2.2.0 (2026-06-04T22:15:16Z), 2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z),
#     2.5.0 (2026-07-16T20:43:07Z), 2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z),
#     2.8.0 (2026-08-26T23:26:21Z), 2.9.2 (2026-09-18T18:10:47Z), 2.10.0 (2026-09-25T19:02:07Z),
#     2.11.0 (2026-10-02T00:46:26Z), 2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
"""google-adk: one server, two turns in a row, on PostgreSQL (a control of #4751).

https://github.com/google/adk-python/issues/4751 (a stale write); beside it, a stale check must
never refuse a fresh session. The script runs turn A (call, response, answer) then turn B with a
scripted model on a new database of the server whose socket folder is in HARNESS_POSTGRES_SOCKET
(or PGHOST), user postgres, asyncpg (psycopg2 where the service is sync). reproduced (the control
broke): a turn refused or the store out of order. fixed: both stored in order.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no server, no such API, a crash).
"""

import asyncio
import inspect
import os
import sys
import uuid


async def admin(is_async, host, sql):
    if is_async:
        import asyncpg

        conn = await asyncpg.connect(host=host, user="postgres", database="postgres")
        await conn.execute(sql)
        await conn.close()
    else:
        import psycopg2

        conn = psycopg2.connect(host=host, user="postgres", dbname="postgres")
        conn.autocommit = True
        conn.cursor().execute(sql)
        conn.close()


WANT = ["user", "assistant:call", "assistant:resp", "assistant", "user", "assistant"]


def lookup(query: str) -> dict:
    """Looks something up."""
    return {"result": f"found {query}"}


async def main() -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import DatabaseSessionService, database_session_service
    from google.genai import types

    class Scripted(BaseLlm):
        turns: list

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=[self.turns.pop(0)]))

    is_async, host = "create_async_engine" in inspect.getsource(database_session_service), os.environ.get("PGHOST")
    host = os.environ.get("HARNESS_POSTGRES_SOCKET") or host
    if not host:
        print("verdict: cannot judge (no PostgreSQL server: set HARNESS_POSTGRES_SOCKET or PGHOST)")
        return 125
    name = f"repro_{uuid.uuid4().hex[:12]}"
    await admin(is_async, host, f"CREATE DATABASE {name}")
    url = f"postgresql+{'asyncpg' if is_async else 'psycopg2'}://postgres@/{name}?host={host}"
    service = DatabaseSessionService(db_url=url)
    call = types.Part(function_call=types.FunctionCall(name="lookup", args={"query": "x"}))
    llm = Scripted(model="scripted", turns=[call, types.Part(text="A done"), types.Part(text="B done")])
    agent = LlmAgent(name="assistant", model=llm, instruction="Answer.", tools=[lookup])
    runner, failed = Runner(app_name="app", agent=agent, session_service=service), None
    try:
        session = await service.create_session(app_name="app", user_id="u")
        for text in ("question A", "question B"):
            message = types.Content(role="user", parts=[types.Part(text=text)])
            try:
                async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
                    pass
            except ValueError as exc:
                failed = f"{text}: {str(exc).splitlines()[0][:100]}"
        stored = await service.get_session(app_name="app", user_id="u", session_id=session.id)
        kinds = [
            e.author + (":call" * bool(e.get_function_calls()) or ":resp" * bool(e.get_function_responses()))
            for e in stored.events
        ]
    finally:
        disposed = service.db_engine.dispose()
        if inspect.isawaitable(disposed):
            await disposed
        await admin(is_async, host, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    print(f"stored: {' '.join(kinds)}" + (f"; refused: {failed}" if failed else ""))
    if failed is None and kinds == WANT:
        print("verdict: fixed (both turns stored in order)")
        return 0
    print("verdict: reproduced (a turn was refused or the store is out of order)")
    return 3


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # the build lacks the API, or anything else
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
