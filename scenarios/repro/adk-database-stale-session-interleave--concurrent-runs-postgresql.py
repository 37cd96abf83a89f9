"""google-adk: two concurrent run_async calls on one session interleave their events (PostgreSQL).

https://github.com/google/adk-python/issues/4751: server A's turn waits in its tool while server B
(a second DatabaseSessionService, same database) runs a turn; then A writes through its stale
session. Scripted models, a new database of the server whose socket folder is HARNESS_POSTGRES_SOCKET
(or PGHOST). reproduced: A let through, stored A A B B A A. fixed: A refused as stale, A A B B.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no server, no such API, a third way).
"""

import asyncio
import inspect
import os
import sys
import uuid


def admin(host, sql):  # psycopg2 is there on every release (the service may use asyncpg)
    import psycopg2

    conn = psycopg2.connect(host=host, user="postgres", dbname="postgres")
    conn.autocommit = True
    conn.cursor().execute(sql)
    conn.close()


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

    in_tool, b_done = asyncio.Event(), asyncio.Event()

    async def lookup(query: str) -> dict:
        in_tool.set()
        await b_done.wait()
        return {"result": f"found {query}"}

    is_async, host = "create_async_engine" in inspect.getsource(database_session_service), os.environ.get("PGHOST")
    host = os.environ.get("HARNESS_POSTGRES_SOCKET") or host
    if not host:
        print("verdict: cannot judge (no PostgreSQL server: set HARNESS_POSTGRES_SOCKET or PGHOST)")
        return 125
    name = f"repro_{uuid.uuid4().hex[:12]}"
    admin(host, f"CREATE DATABASE {name}")
    url = f"postgresql+{'asyncpg' if is_async else 'psycopg2'}://postgres@/{name}?host={host}"
    services = [DatabaseSessionService(db_url=url) for _ in range(2)]
    call = types.Part(function_call=types.FunctionCall(name="lookup", args={"query": "x"}))
    llm_a, llm_b = Scripted(model="a", turns=[call, types.Part(text="A done")]), Scripted(model="b", turns=[])
    llm_b.turns.append(types.Part(text="B done"))
    a, b = LlmAgent(name="assistant", model=llm_a, tools=[lookup]), LlmAgent(name="assistant", model=llm_b)
    runners = [Runner(app_name="app", agent=g, session_service=s) for g, s in zip((a, b), services, strict=True)]

    async def turn(runner, text):
        message = types.Content(role="user", parts=[types.Part(text=text)])
        try:
            async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
                pass
        except ValueError as exc:
            return str(exc)

    try:
        session = await services[0].create_session(app_name="app", user_id="u")
        task_a = asyncio.create_task(turn(runners[0], "A"))
        await asyncio.wait_for(in_tool.wait(), 30)
        refused_b = await turn(runners[1], "B")
        b_done.set()
        refused_a = await task_a
        stored = await services[1].get_session(app_name="app", user_id="u", session_id=session.id)
        who = {e.invocation_id: e.content.parts[0].text for e in stored.events if e.author == "user" and e.content}
        order = " ".join(who.get(e.invocation_id, "?") for e in stored.events)
    finally:
        for disposed in [s.db_engine.dispose() for s in services]:
            await disposed if inspect.isawaitable(disposed) else None
        admin(host, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    print(f"server A: {'refused: ' + refused_a.splitlines()[0][:90] if refused_a else 'accepted'}; stored {order}")
    if refused_b is None and refused_a is None and order == "A A B B A A":
        print("verdict: reproduced (A's stale write let through: A A B B A A)")
        return 3
    stale = refused_a and ("stale" in refused_a or "modified in storage" in refused_a)
    if refused_b is None and stale and order == "A A B B":
        print("verdict: fixed (A's stale write refused: A A B B)")
        return 0
    print(f"verdict: cannot judge (B refused: {bool(refused_b)}, order {order})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # the build lacks the API, or anything else
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
