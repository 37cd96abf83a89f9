# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"]
# ///
"""google-adk: after compaction, a session reloaded from DatabaseSessionService has actions.compaction as a dict;
the next turn fails with "'dict' object has no attribute 'start_timestamp'".

Upstream: https://github.com/google/adk-python/issues/3487,
https://github.com/google/adk-python/issues/3530, https://github.com/google/adk-python/issues/4047 and
https://github.com/google/adk-python/issues/4082. An App with `EventsCompactionConfig` summarises the
turns behind it into an event whose `actions.compaction` is an `EventCompaction`. `DatabaseSessionService`
stores it; reading it back, `StorageEvent.to_event()` rebuilds the actions with
`EventActions().model_copy(update=self.actions.model_dump())` (#4047), which turns every nested model into a
plain dict and validates nothing, so `actions.compaction` comes back as a dict. Every turn starts by loading
the session, and the request's contents (`_process_compaction_events` in `flows/llm_flows/contents.py`)
read `compaction.start_timestamp`: AttributeError, the conversation is dead. Expected: the compaction
comes back as an `EventCompaction` and the next turn's request holds the summary in place of the turns
it folded.

A scripted model (a BaseLlm that answers each call with the next scripted text and keeps each request)
answers the agent, another one the summarizer (`LlmEventSummarizer`), on
`EventsCompactionConfig(compaction_interval=1, overlap_size=0)`. On a fresh SQLite file in a temporary
folder, or (the -postgresql cases) a fresh database on the PostgreSQL server libpq's variables name
(PGHOST, PGPORT, PGUSER, PGPASSWORD), dropped at the end: a user event carrying a nested `state_delta`,
then one turn through the runner (the compaction follows it), then the session read back through a new
`DatabaseSessionService` (each event, what its `actions.compaction` is, the state), then a second turn
on it (the error, or the contents the model received).

The summary stands where the folded turn was, as the compaction's own content or, on some releases, in a
user turn "For context: [model] said: ...". The folded turn's last event (the agent's reply, whose time is the
compaction's end) is left out of the printed request: where a release reads event times back from a
microsecond column, the reply's time rounds to just after the compaction's end or not, by the clock, and the
reply comes back into the request or not; that is another matter than this bug's.

`reload` is #4047's symptom (the compaction's type once read back), `next-turn` the crash of #3487,
#3530 and #4082; `state-delta-kept` checks that a fix keeps the actions' plain dict fields as they were
(the nested state delta, and the session state built from it); `no-compaction` is a control: the same
two turns without compaction, the second turn's request holds the first.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import contextlib
import inspect
import sys
import tempfile
import uuid

CASES = {
    f"{case}{suffix}": dict(checks=case, backend=backend)
    for case in ("reload", "next-turn", "state-delta-kept", "no-compaction")
    for suffix, backend in (("", "sqlite"), ("-postgresql", "postgresql"))
}
QUESTIONS = ("What is the capital of France?", "And of Italy?")
ANSWERS = ("Paris is the capital of France.", "Rome is the capital of Italy.")
SUMMARY = "Summary: the user asked for the capital of France; the agent said Paris."
PLAN = {"plan": {"steps": ["look up", "answer"], "done": False}}  # a nested state delta
SYMPTOM = "'dict' object has no attribute 'start_timestamp'"


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


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session services are synchronous."""
    return await value if inspect.isawaitable(value) else value


async def close(service):
    if hasattr(service, "close"):
        done = service.close()
    elif hasattr(service, "db_engine"):
        done = service.db_engine.dispose()
    else:
        return
    if inspect.isawaitable(done):
        await done


def texts(content):
    return " ".join(p.text for p in (content.parts or []) if getattr(p, "text", None)) if content else ""


async def observe(say, checks, backend):
    """One turn (with compaction unless `checks` is the control), the session read back by a new service,
    a second turn; say what was read back and what the second turn did. `checks`: what judge reads."""
    from google.adk.agents import LlmAgent
    from google.adk.events import Event, EventActions
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import DatabaseSessionService
    from google.genai import types

    compacting = checks != "no-compaction"
    if compacting:
        try:
            from google.adk.apps.app import App, EventsCompactionConfig
            from google.adk.apps.llm_event_summarizer import LlmEventSummarizer
        except ImportError as exc:
            raise NotApplicable(f"no event compaction in this release: {exc}") from exc

    class ScriptedLlm(BaseLlm):
        """Answers each model call with the next scripted text (the last one again after the script) and keeps
        every request."""

        turns: list = []  # noqa: RUF012 (a pydantic field: each instance gets its own copy)
        requests: list = []  # noqa: RUF012

        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(llm_request.model_copy(deep=True))
            text = self.turns[min(len(self.requests), len(self.turns)) - 1]
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))

    llm = ScriptedLlm(model="scripted", turns=list(ANSWERS))
    agent = LlmAgent(name="agent", model=llm, instruction="Answer briefly.")
    if compacting:
        summarizer = LlmEventSummarizer(llm=ScriptedLlm(model="summarizer", turns=[SUMMARY]))
        config = EventsCompactionConfig(compaction_interval=1, overlap_size=0, summarizer=summarizer)
        app = App(name="app", root_agent=agent, events_compaction_config=config)

    def runner(service):
        if compacting:
            return Runner(app=app, session_service=service)
        return Runner(app_name="app", agent=agent, session_service=service)

    async def turn(service, session_id, question):
        message = types.Content(role="user", parts=[types.Part(text=question)])
        async for _ in runner(service).run_async(user_id="user", session_id=session_id, new_message=message):
            pass

    say(f"{'compaction_interval=1, overlap_size=0' if compacting else 'no compaction'}; {backend} database")
    facts = dict(checks=checks, compacting=compacting)
    async with database(backend) as url:
        service = DatabaseSessionService(db_url=url)
        try:
            session = await settled(service.create_session(app_name="app", user_id="user"))
            planning = Event(invocation_id="inv-plan", author="user", actions=EventActions(state_delta=PLAN))
            await settled(service.append_event(session, planning))
            await turn(service, session.id, QUESTIONS[0])
            say(f"turn 1: {QUESTIONS[0]!r} -> {ANSWERS[0]!r}")
            # Compaction runs after the turn (a background task on the first releases that have it).
            for _ in range(100):
                stored = await settled(service.get_session(app_name="app", user_id="user", session_id=session.id))
                if not compacting or any(e.actions and e.actions.compaction for e in stored.events):
                    break
                await asyncio.sleep(0.05)
        finally:
            await close(service)

        service = DatabaseSessionService(db_url=url)  # a new service: everything is read from the database
        try:
            reloaded = await settled(service.get_session(app_name="app", user_id="user", session_id=session.id))
            say(f"read back by a new DatabaseSessionService: {len(reloaded.events)} events")
            facts["compactions"] = []
            for event in reloaded.events:
                compaction = getattr(event.actions, "compaction", None)  # no such field before compaction existed
                line = f"  event by {event.author}: {texts(event.content)!r}"
                if event.actions and event.actions.state_delta:
                    line += f", state_delta {event.actions.state_delta}"
                if compaction is not None:
                    facts["compactions"].append(compaction_facts(compaction))
                    summary = compaction_facts(compaction)["summary"]
                    line += f", actions.compaction is a {type(compaction).__name__} (summary {summary!r})"
                say(line)
            facts["state_delta"] = next((e.actions.state_delta for e in reloaded.events if e.id == planning.id), None)
            facts["state_plan"] = reloaded.state.get("plan")
            say(f"  session state 'plan': {facts['state_plan']}")
            requests_before = len(llm.requests)
            try:
                await turn(service, session.id, QUESTIONS[1])
                facts["error"] = None
                say(f"turn 2: {QUESTIONS[1]!r} -> {ANSWERS[1]!r}")
            except Exception as exc:  # the symptom is an exception; judge reads it
                facts["error"] = f"{type(exc).__name__}: {exc}"
                say(f"turn 2: {QUESTIONS[1]!r} -> {facts['error']}")
            facts["contents"] = None
            if len(llm.requests) > requests_before:
                contents = [(c.role, texts(c)) for c in llm.requests[requests_before].contents]
                if compacting:  # the folded reply comes back or not by the clock's rounding: left out (docstring)
                    contents = [(role, text) for role, text in contents if text != ANSWERS[0]]
                    say("  turn 2's request, the folded turn's reply left out:")
                facts["contents"] = contents
                for role, text in contents:
                    say(f"  turn 2's request: {role}: {text!r}")
        finally:
            await close(service)
    return facts


def compaction_facts(compaction):
    """What the read-back compaction holds, whatever its type: the type, and the summary's text."""
    if isinstance(compaction, dict):
        content = compaction.get("compacted_content") or {}
        parts = content.get("parts") or [] if isinstance(content, dict) else []
        summary = " ".join(p.get("text") or "" for p in parts if isinstance(p, dict))
        has_times = compaction.get("start_timestamp") is not None and compaction.get("end_timestamp") is not None
    else:
        summary = texts(getattr(compaction, "compacted_content", None))
        has_times = compaction.start_timestamp is not None and compaction.end_timestamp is not None
    return dict(type=type(compaction).__name__, summary=summary, has_times=has_times)


def judge(facts):
    """(outcome, detail), by `checks`: `reload` reads the compaction's type once read back; `next-turn` the
    second turn (the thread's AttributeError, or the summary in place of the folded turn); `state-delta-kept`
    the nested state delta and the state; `no-compaction` the second turn's request holding the first."""
    checks, error, contents = facts["checks"], facts["error"], facts["contents"]
    if checks == "state-delta-kept":
        if facts["state_delta"] == PLAN and facts["state_plan"] == PLAN["plan"]:
            return "fixed", f"the nested state delta and the state came back as written: {PLAN['plan']}"
        return "reproduced", f"state delta {facts['state_delta']}, state 'plan' {facts['state_plan']}: not {PLAN}"
    sent = [text for _role, text in contents or []]
    if checks == "no-compaction":
        if error is None and sent == [QUESTIONS[0], ANSWERS[0], QUESTIONS[1]]:
            return "fixed", "the second turn's request holds the first turn and the new question"
        return "reproduced", f"the second turn: error {error}, request {sent}"
    found = facts["compactions"]
    if len(found) != 1:
        return "unexpected", f"{len(found)} compaction events read back after the first turn, expected 1"
    (compaction,) = found
    if checks == "reload":
        if compaction["type"] == "dict":
            return "reproduced", "actions.compaction read back as a dict, not an EventCompaction"
        if compaction["type"] == "EventCompaction" and compaction["summary"] == SUMMARY and compaction["has_times"]:
            return "fixed", "actions.compaction read back as an EventCompaction with its summary and time range"
        return "unexpected", f"actions.compaction read back as {compaction}"
    if error is not None:
        if error.startswith("AttributeError") and SYMPTOM in error:
            return "reproduced", f"the turn after the reload failed: {error}"
        return "unexpected", f"the turn after the reload failed otherwise: {error}"
    if len(sent) == 2 and SUMMARY in sent[0] and sent[1] == QUESTIONS[1]:
        return "fixed", f"the turn after the reload ran; its request holds the summary ({sent[0]!r}), then the question"
    return "unexpected", f"the turn after the reload ran; its request holds {sent}"


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
