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
