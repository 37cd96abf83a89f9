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
# adk-database-stale-session-interleave:sequential-control. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   fixed / fixed: 1.1.1 (2025-05-29T00:13:32Z), 1.2.0 (2025-06-04T18:47:31Z),
#     1.20.0 (2025-12-03T22:42:41Z), 1.24.0 (2026-02-05T18:29:25Z), 1.27.5 (2026-03-26T02:54:07Z),
#     1.28.0 (2026-03-26T22:48:27Z), 1.39.1 (2026-08-27T21:55:07Z), 2.0.0 (2026-05-19T16:17:11Z),
#     2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z), 2.3.0 (2026-06-18T18:47:09Z),
#     2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z), 2.6.3 (2026-08-07T21:18:45Z),
#     2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z), 2.9.2 (2026-09-18T18:10:47Z),
#     2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z), 2.12.0 (2026-10-13T16:42:59Z),
#     2.13.0 (2026-10-23T18:26:35Z)
"""google-adk control: two runs one after the other on one database session are both stored.

Bug beside it: https://github.com/google/adk-python/issues/4751 (a write through a stale
session object is let through instead of refused). This is the control for any stale check:
one DatabaseSessionService on a SQLite file in a temporary folder; run A (a scripted stand-in
model calls a tool, then answers) to its end, then run B on the same session.
reproduced: a fresh run is refused as stale, or the store does not read AAAABB (A: user, call,
response, answer; B: user, answer). fixed: both runs complete and are stored whole, in order.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import inspect
import sys
import tempfile

KW = {"app_name": "app", "user_id": "user"}


async def main(folder: str) -> int:
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import DatabaseSessionService, database_session_service
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """A stand-in model: each call answers with the next part."""

        replies: list

        async def generate_content_async(self, llm_request, stream=False):
            yield LlmResponse(content=types.Content(role="model", parts=[self.replies.pop(0)]))

    async def lookup(query: str) -> dict:
        """Looks something up."""
        return {"result": f"found {query}"}

    async def run(service, server: str, replies: list, session_id: str):
        agent = LlmAgent(name="assistant", model=ScriptedLlm(model=server, replies=replies), tools=[lookup])
        message = types.Content(role="user", parts=[types.Part(text=f"question for {server}")])
        runner = Runner(app_name="app", agent=agent, session_service=service)
        try:
            async for _ in runner.run_async(user_id="user", session_id=session_id, new_message=message):
                pass
        except Exception as exc:  # the stale-session refusal, or anything else
            print(f"run {server}: run_async raised {type(exc).__name__}: {exc}")
            return exc
        print(f"run {server}: run_async completed")

    is_async = "create_async_engine" in inspect.getsource(database_session_service)  # 1.19 on
    url = f"sqlite{'+aiosqlite' if is_async else ''}:///{folder}/sessions.db"
    service, reader = DatabaseSessionService(db_url=url), DatabaseSessionService(db_url=url)
    session = await service.create_session(**KW)
    call = types.Part(function_call=types.FunctionCall(name="lookup", args={"query": "x"}))
    error_a = await run(service, "A", [call, types.Part(text="A done")], session.id)
    error_b = await run(service, "B", [types.Part(text="B done")], session.id)
    stored = await reader.get_session(**KW, session_id=session.id)
    servers = {e.invocation_id: e.content.parts[0].text[-1] for e in stored.events if e.author == "user"}
    order = "".join(servers.get(e.invocation_id, "?") for e in stored.events)
    print(f"stored events by run: {order}")
    error = error_a or error_b
    if error is None and order == "AAAABB":
        print(f"verdict: fixed (both runs stored in order: {order})")
        return 0
    if error is None:
        print(f"verdict: reproduced (stored order {order}, expected AAAABB)")
        return 3
    if isinstance(error, ValueError) and any(m in str(error) for m in ("stale session", "modified in storage")):
        print(f"verdict: reproduced (a fresh run was refused as stale: {error}; stored order {order})")
        return 3
    print(f"verdict: cannot judge ({type(error).__name__}: {error}; stored order {order})")
    return 125


if __name__ == "__main__":
    try:
        with tempfile.TemporaryDirectory() as folder:
            sys.exit(asyncio.run(main(folder)))
    except Exception as exc:  # any failure: not a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
