# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"]
# ///
"""google-adk: a stale session's append_event reloads and writes, interleaving two runs.

Upstream: https://github.com/google/adk-python/issues/4751 (a community PR, #4752, closed
unmerged). DatabaseSessionService.append_event refuses a write through a session object older than
the stored session ("Please check if it is a stale session" / "The session has been modified in
storage since it was loaded", a ValueError). Where it instead reloads the stale object and writes,
or never notices (an event without a state delta leaving `update_time` alone), two run_async
calls on one session ("servers" A and B: two service instances) both keep writing, and the stored
trajectory interleaves them: A's function call, B's turn, then A's function response.

Faked: the model, a BaseLlm that replays scripted turns. On a fresh SQLite file in a temporary
folder, or (the -postgresql cases) a fresh database on the PostgreSQL server libpq's variables
name (PGHOST, PGPORT, PGUSER, PGPASSWORD), dropped at the end:
- concurrent-runs: A's tool waits while B runs a whole turn; then A writes its function response.
- stale-append-event: B loads the session, A appends an event, B appends through its stale object.
- sequential-control (a control): one server, A's turn, then B's; both stored, no refusal.
Where storage keeps whole-second update times, the racing write waits for the next second (as the
thread's servers write seconds apart). Prints how each run or append ended, what A's model was
sent on its second turn, and the stored session, each event tagged with its server.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import contextlib
import copy
import inspect
import json
import re
import sys
import tempfile
import time
import uuid

CASES = {
    f"{case}{suffix}": dict(case=case, backend=backend)
    for case in ("concurrent-runs", "stale-append-event", "sequential-control")
    for suffix, backend in (("", "sqlite"), ("-postgresql", "postgresql"))
}
QUESTION = {"A": "question for server A", "B": "question for server B"}
SERVER = {repr(question): server for server, question in QUESTION.items()}
KEY = dict(app_name="app", user_id="u")
# google-adk 0.x refuses the same stale append (storage newer than the session object) with a message that reads
# backwards: "Session last_update_time ... is later than the update_time in storage ..." ("upate_time" in
# 0.0.2) (google/adk/sessions/database_session_service.py, append_event).
STALE_MARKERS = ("stale session", "modified in storage", "update_time in storage", "upate_time in storage")
TIME = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:?\d{2})?|\b\d{9,}\.\d+\b")


class NotApplicable(Exception):
    """The release lacks what the case needs."""


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


def ended(exc):
    """How a run or an append ended: None (completed), or the exception's facts, times as <time>."""
    return exc and dict(
        type=type(exc).__name__, value_error=isinstance(exc, ValueError), text=TIME.sub("<time>", str(exc))
    )


def said(error):
    return f"{error['type']}: {(error['text'].splitlines() or [''])[0][:139]!r}"


def parts(content):
    """A content's parts: text, function call or response, on one line."""
    shown = []
    for p in content.parts or [] if content else []:
        call, response = p.function_call, p.function_response
        if call:
            shown.append(f"call {call.name}({json.dumps(call.args or {}, sort_keys=True)})")
        elif response:
            shown.append(f"response {response.name} -> {json.dumps(response.response, sort_keys=True, default=str)}")
        else:
            shown.append(repr(p.text) if p.text is not None else "<other part>")
    return " ".join(shown)


def agent(server, *turns, tools=()):
    """An LlmAgent whose model replays `turns` (a (name, args) function call or a text); and what it was sent."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.genai import types

    sent = []

    class Scripted(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            sent.append(copy.deepcopy(llm_request.contents))
            turn = turns[len(sent) - 1]
            call = None if isinstance(turn, str) else types.FunctionCall(name=turn[0], args=turn[1])
            part = types.Part(function_call=call) if call else types.Part(text=turn)
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    return LlmAgent(
        name="assistant", model=Scripted(model=f"scripted-{server}"), instruction="Answer.", tools=tools
    ), sent


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, case, backend):
    """Race servers A and B on one stored session (or run them in turn); read the session back."""
    from google.adk.events import Event
    from google.adk.runners import Runner
    from google.adk.sessions import DatabaseSessionService
    from google.genai import types

    def user(server):
        return types.Content(role="user", parts=[types.Part(text=QUESTION[server])])

    async def run(agent, service, server):
        try:
            async for _ in Runner(app_name="app", agent=agent, session_service=service).run_async(
                user_id="u", session_id=session.id, new_message=user(server)
            ):
                pass
        except Exception as exc:  # the stale-session refusal, or anything else: judged
            return ended(exc)

    async def next_second_if_coarse():
        if float((await settled(reader.get_session(**KEY, session_id=session.id))).last_update_time).is_integer():
            await asyncio.sleep(1.05 - time.time() % 1)
            say("storage update times have whole-second resolution: the next write waits for the next second")

    a_in_tool, b_done = asyncio.Event(), asyncio.Event()

    async def lookup(query: str) -> dict:
        """Looks something up (in concurrent-runs, only once server B has written)."""
        a_in_tool.set()
        await b_done.wait()
        return {"result": f"found {query}"}

    facts, runs = dict(case=case), {}
    agent_a, sent_a = agent("a", ("lookup", {"query": "x"}), "A done", tools=[lookup])
    agent_b, _ = agent("b", "B done")
    async with database(backend) as url:
        a, b, reader = (DatabaseSessionService(db_url=url) for _ in range(3))
        try:
            try:
                session = await settled(a.create_session(**KEY))
            except Exception as exc:  # the driver refusing an aware datetime: adk-database-postgres-aware-datetime
                if "offset-naive and offset-aware" not in str(exc):
                    raise
                facts["blocked"] = f"{type(exc).__name__} (the driver refused an aware datetime)"
                say(f"create_session failed: {facts['blocked']}")
                return facts
            if case == "concurrent-runs":
                task_a = asyncio.create_task(run(agent_a, a, "A"))
                waiter = asyncio.create_task(a_in_tool.wait())
                await asyncio.wait({task_a, waiter}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                reached = "waits for server B" if a_in_tool.is_set() else "was never reached"
                say(f"server A: run_async started; its tool {reached}")
                await next_second_if_coarse()
                runs["B"] = await run(agent_b, b, "B")
                b_done.set()
                runs["A"] = await task_a
            elif case == "stale-append-event":
                session_b = await settled(b.get_session(**KEY, session_id=session.id))
                session_a = await settled(a.get_session(**KEY, session_id=session.id))
                say("server B: get_session; server A: get_session")
                await next_second_if_coarse()
                await settled(a.append_event(session_a, Event(invocation_id="inv-a", author="user", content=user("A"))))
                say("server A: append_event (A's user turn)")
                runs["B"] = None
                try:
                    event = Event(invocation_id="inv-b", author="user", content=user("B"))
                    await settled(b.append_event(session_b, event))
                except Exception as exc:
                    runs["B"] = ended(exc)
                outcome = "accepted" if runs["B"] is None else said(runs["B"])
                say(f"server B: append_event through its stale session -> {outcome}")
            else:
                b_done.set()
                runs["A"] = await run(agent_a, a, "A")
                runs["B"] = await run(agent_b, a, "B")
            stored = (await settled(reader.get_session(**KEY, session_id=session.id))).events
        finally:
            for service in (a, b, reader):
                done = service.close() if hasattr(service, "close") else service.db_engine.dispose()
                if inspect.isawaitable(done):
                    await done
    # Each event's server, from the user turn its invocation starts with.
    server_of = {
        e.invocation_id: SERVER[parts(e.content)] for e in stored if e.author == "user" and parts(e.content) in SERVER
    }
    facts.update(runs=runs, order="".join(server_of.get(e.invocation_id, "?") for e in stored))
    if case == "stale-append-event":
        facts["b_holds"] = "".join(server_of.get(e.invocation_id, "?") for e in session_b.events)
        say(f"server B's session object now holds: {' '.join(facts['b_holds']) or 'no events'}")
    for server, error in runs.items() if case != "stale-append-event" else ():
        say(f"server {server}: run_async " + ("completed" if error is None else f"raised {said(error)}"))
    if case == "concurrent-runs" and len(sent_a) > 1:
        say("server A model turn 2 was sent: " + " | ".join(f"{c.role} {parts(c)}" for c in sent_a[1]))
    say(f"stored session ({len(stored)} event{'s' if len(stored) != 1 else ''}):")
    for event, server in zip(stored, facts["order"], strict=True):
        say(f"  [{server}] {event.author} {parts(event.content) or '<no content>'}")
    return facts


def judge(facts):
    """(outcome, detail): a stale write refused, each run's events together; the control stored whole."""
    if facts.get("blocked"):
        return "unexpected", f"create_session failed before any run: {facts['blocked']}"
    runs, order = facts["runs"], facts["order"]
    stale = {
        s: e is not None and e["value_error"] and any(m in e["text"].lower() for m in STALE_MARKERS)
        for s, e in runs.items()
    }
    figures = f"stored order {order or '(none)'}"
    if facts["case"] == "sequential-control":
        for s, error in runs.items():
            if error is not None and stale[s]:
                return "reproduced", f"server {s}'s fresh session was refused as stale: {said(error)}; {figures}"
            if error is not None:
                return "unexpected", f"server {s} failed: {said(error)}; {figures}"
        if order == "AAAABB":  # A: user, call, response, answer; then B: user, answer
            return "fixed", f"both turns stored in order: {order}"
        return "reproduced", f"{figures}, expected AAAABB"
    if facts["case"] == "stale-append-event":
        b, holds = runs["B"], facts["b_holds"]
        if stale["B"] and order == "A":
            return "fixed", f"server B's stale append was refused ({b['type']}); {figures}"
        if b is None and order == "AB":
            how = f"without a reload (its session object holds {' '.join(holds) or 'nothing'})"
            how = "after reloading the stale object (it now holds A B)" if holds == "AB" else how
            return "reproduced", f"server B's stale append was written {how}; {figures}"
        what = said(b) if b else "accepted"
        return "unexpected", f"server B's stale append: {what}; {figures}, expected A (refused) or AB (written)"
    a, b = runs["A"], runs["B"]
    if b is not None:
        return "unexpected", f"server B (not stale) did not complete: {said(b)}; {figures}"
    if a is not None and not stale["A"]:
        return "unexpected", f"server A failed with another error: {said(a)}; {figures}"
    if a is not None and order == "AABB":
        return "fixed", f"server A's stale write was refused ({a['type']}); {figures}, each run's events together"
    if a is None and order == "AABBAA":
        return (
            "reproduced",
            f"server A's stale write was let through: {figures}, A's tool call and its response split by B's turn",
        )
    return (
        "unexpected",
        f"server A {'refused' if a else 'accepted'}; {figures}, expected AABB (refused) or AABBAA (let through)",
    )


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
