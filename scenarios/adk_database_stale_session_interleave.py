"""google-adk: a stale session's append_event reloads and writes, interleaving two runs.

Symptom (google/adk-python#4751): ``DatabaseSessionService.append_event`` refused a write
through a session object older than the stored session ("Please check if it is a stale
session", a ``ValueError``) until ADK 1.23. ADK 1.24 replaced the refusal with a reload: the
stale object's state and events are re-read from storage and the write goes ahead. When two
``run_async`` calls work on one session at once (two servers, say, one recovering the
other's run), the run whose session went stale no longer stops: both keep writing, the
stored trajectory interleaves the two runs (a function call in one invocation, the other
run's turn, then the call's response), and the stale run's session object is replaced by the
reloaded, mixed history. Every later turn replays that corrupted history.

Upstream: the report (#4751) and a community PR (#4752, closed unmerged). The refusal came
back in 1.28.0 as an optimistic-concurrency check on a storage revision marker
(``_STALE_SESSION_ERROR_MESSAGE``, "The session has been modified in storage since it was
loaded"; raised as ``StaleSessionError``, a ``ValueError``, by 2.7.1).

Cases (each on a real SQLite file in a temporary directory, through the async driver
``sqlite+aiosqlite`` on the releases whose ``DatabaseSessionService`` is async (1.19 on),
the sync ``sqlite`` driver before; one ``DatabaseSessionService`` instance per server):

- ``concurrent-runs``: the thread's interleave. Server A's run records its user turn and a
  function call, then its tool waits; meanwhile server B (a second service instance on the
  same file) runs a whole turn on the same session; then A's tool returns and A appends the
  function response through its now stale session object.
- ``stale-append-event``: the same race at the API the bug lives in: server B loads the
  session, server A appends an event, then B appends through its stale object.
- ``sequential-control`` (a control): one server, two runs one after the other. Every
  release must record both without a refusal; a check that refuses a fresh session, or
  loses an event, breaks it.

Timeline: how each run ended (completed, or the exception with its message, timestamps
replaced by ``<time>``), what A's model was sent on its second turn, and the stored session
read back by a fresh service instance: one line per event, tagged with the server whose
invocation wrote it (``[A]``/``[B]``).

Oracle: ``reproduced`` when the stale writer was not refused and the stored trajectory
interleaves the two invocations (A, then B, then A again); ``fixed`` when the stale writer
got the stale-session refusal and the stored trajectory keeps each invocation's events
together. Anything else (a refusal with interleaving, a different error, a lost event) is
``unexpected``.

What the harness found (each boundary by bisect, each confirmed by the source diff of
google/adk/sessions/database_session_service.py between the two releases, and by a standalone
script of the stale append run in each boundary release's environment):

- 1.0.0-1.1.1 fixed: the session row's ``update_time`` (``onupdate=func.now()``) moves on
  every append, because append_event assigns the state columns unconditionally; it has
  whole-second resolution on SQLite, so the cases write in a later second there (see
  ``_next_second_if_coarse``: a race within one second goes undetected on these releases).
- 1.2.0-1.19.0 reproduced, without a reload: commit d83ee1a6 ("Remove excessive db call to
  update state table", first in the 1.2.0 wheel) assigns them only for a state delta, so an
  event without one leaves ``update_time`` alone and the stale check never fires: the stale
  writer's events go in silently (its session object does not see the other server's).
- 1.20.0-1.23.0 fixed: append_event stamps ``update_time`` with the event's timestamp on
  every append, so the check fires (the thread's "ADK <= 1.23 raises" holds from 1.20 only).
- 1.24.0-1.27.5 reproduced: the reload-and-continue the thread reports.
- 1.28.0 on fixed (every 1.x and 2.x release after it that the matrix runs).

On PostgreSQL (the ``-postgresql`` cases: a fresh database on the run's server, asyncpg from
1.19, psycopg2 before) every release gives the SQLite outcome, with two differences. The
timestamps have microsecond resolution, so no case waits for the next second (the
``_next_second_if_coarse`` line is absent on 1.0-1.19, and 1.1.1 refuses the race within one
second that SQLite's whole seconds cannot see). And 1.24.0-1.24.1 are ``unexpected``: their
create_session fails before any run (the aware datetime of adk-database-postgres-aware-datetime).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import re
import tempfile
import time

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

APP = "stale_session_app"
USER = "user-1"
QUESTION = {"A": "question for server A", "B": "question for server B"}
ANSWER = {"A": "A done", "B": "B done"}
TOOL = "lookup"

# Releases up to 1.23 (and the ones with the revision check) word the refusal differently;
# both name what happened: "... Please check if it is a stale session." / "The session has
# been modified in storage since it was loaded."
STALE_MARKERS = ("stale session", "modified in storage")
_TIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:?\d{2})?|\b\d{9,}\.\d+\b")


def _is_stale_refusal(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, ValueError) and any(m in text for m in STALE_MARKERS)


def _describe_exc(exc: BaseException) -> str:
    message = _TIME_RE.sub("<time>", str(exc).splitlines()[0] if str(exc) else "")
    return f"{type(exc).__name__}: {quote(message, 140)}"


async def _close(service) -> None:
    close = getattr(service, "close", None)
    if close is not None:
        await close()
        return
    disposed = service.db_engine.dispose()
    if inspect.isawaitable(disposed):
        await disposed


@contextlib.asynccontextmanager
async def _servers(count: int):
    """``count`` DatabaseSessionService instances (servers) on one database, and a reader: a SQLite
    file, or a fresh database on the run's PostgreSQL server for the ``-postgresql`` cases."""
    from google.adk.sessions import DatabaseSessionService

    from harness.runtime.fakes.adk import database

    with tempfile.TemporaryDirectory(prefix="adk-stale-") as tmp:
        async with database(tmp) as url:
            services = [DatabaseSessionService(db_url=url) for _ in range(count + 1)]
            try:
                yield services[:count], services[count]
            finally:
                for service in services:
                    await _close(service)


AWARE_MARKER = "offset-naive and offset-aware"


class _CreateFailed(Exception):
    """create_session itself failed: 1.24.0-1.24.1 on PostgreSQL (adk-database-postgres-aware-datetime)."""


async def _create(service):
    try:
        return await service.create_session(app_name=APP, user_id=USER)
    except Exception as exc:
        if AWARE_MARKER in str(exc):
            raise _CreateFailed(f"{type(exc).__name__} (the driver refused an aware datetime)") from exc
        raise


def _stops_at_create(replay):
    """The replay, or an observation saying create_session failed first (its message carries the
    session id and the clock, so it is not the error's text that is recorded)."""

    async def run() -> Observation:
        try:
            return await replay()
        except _CreateFailed as exc:
            return Observation(timeline=[f"create_session failed: {exc}"], facts={"blocked": str(exc)})

    run.__name__, run.__doc__ = replay.__name__, replay.__doc__
    return run


def _blocked(obs: Observation):
    blocked = obs.facts.get("blocked")
    return unexpected(f"create_session failed before any run: {blocked}") if blocked else None


def _annotate(tool) -> None:
    """Real annotations for a tool: this module's ``from __future__ import annotations`` turns
    them into strings, which ADK 1.0-1.1 cannot parse ("Failed to parse the parameter query:
    'str'", google/adk/tools/_automatic_function_calling_util.py)."""
    tool.__annotations__ = {"query": str, "return": dict}


async def _next_second_if_coarse(reader, session_id: str) -> list[str]:
    """Wait for the next wall-clock second when storage keeps whole-second update times.

    Before 1.20 the session row's update time is the database's ``CURRENT_TIMESTAMP`` (whole
    seconds on SQLite; 1.0-1.1 restamp it on every append), and append_event compares it
    with the session object's, so a write in the same second as the other server's is not
    seen as stale and the verdict would depend on where the second boundary falls. The two
    servers of the thread write seconds apart (a tool call runs in between); so do this
    case's on such releases. Releases with sub-second stamps are not slowed.
    """
    stored = await reader.get_session(app_name=APP, user_id=USER, session_id=session_id)
    if not float(stored.last_update_time).is_integer():
        return []
    await asyncio.sleep(1.05 - time.time() % 1)
    return ["storage update times have whole-second resolution: the next write waits for the next second"]


def _user(text: str):
    from google.genai import types

    return types.Content(role="user", parts=[types.Part(text=text)])


def _agent(server: str, script, tools=()):
    from google.adk.agents import LlmAgent

    from harness.runtime.fakes.adk import ScriptedLlm

    llm = ScriptedLlm(model=f"scripted-{server.lower()}", script=list(script), requests=[])
    return LlmAgent(name="assistant", model=llm, instruction="Answer.", tools=list(tools)), llm


async def _drain(runner, session_id: str, server: str) -> tuple[str, BaseException | None]:
    """Run one turn to its end; ("completed", None) or ("raised", the exception)."""
    try:
        async for _ in runner.run_async(user_id=USER, session_id=session_id, new_message=_user(QUESTION[server])):
            pass
    except Exception as exc:  # the stale-session refusal, or anything else: recorded, judged
        return "raised", exc
    return "completed", None


def _labels(events) -> dict[str, str]:
    """invocation id -> server, from the user turn each invocation starts with."""
    labels = {}
    for e in events:
        if e.author == "user" and e.content and e.content.parts:
            text = "".join(p.text or "" for p in e.content.parts)
            for server, question in QUESTION.items():
                if text == question:
                    labels[e.invocation_id] = server
    return labels


def _stored_lines(events, ids: Placeholders) -> tuple[list[str], str]:
    from harness.runtime.fakes.adk import describe_part

    labels = _labels(events)
    lines, order = [], ""
    for e in events:
        server = labels.get(e.invocation_id, "?")
        order += server
        parts = e.content.parts if e.content and e.content.parts else []
        body = " ".join(describe_part(p, ids) for p in parts) or "<no content>"
        lines.append(f"  [{server}] {e.author} {body}")
    return lines, order


def _stored_header(events) -> str:
    return f"stored session ({len(events)} event{'s' if len(events) != 1 else ''}):"


def _request_line(contents, ids: Placeholders) -> str:
    from harness.runtime.fakes.adk import describe_part

    return " | ".join(f"{c.role} " + " ".join(describe_part(p, ids) for p in (c.parts or [])) for c in contents)


def _run_line(server: str, ended: str, exc: BaseException | None) -> str:
    if exc is None:
        return f"server {server}: run_async {ended}"
    return f"server {server}: run_async {ended} {_describe_exc(exc)}"


@_stops_at_create
async def replay_concurrent_runs() -> Observation:
    """Server A's turn is paused in its tool while server B runs a turn on the same session."""
    from google.adk.runners import Runner

    from harness.runtime.fakes.adk import calls, text

    a_in_tool, b_done = asyncio.Event(), asyncio.Event()

    async def lookup(query: str) -> dict:
        """Looks something up (the scenario holds it until server B has written)."""
        a_in_tool.set()
        await b_done.wait()
        return {"result": f"found {query}"}

    _annotate(lookup)
    async with _servers(2) as ((service_a, service_b), reader):
        agent_a, llm_a = _agent("A", [calls((TOOL, {"query": "x"})), text(ANSWER["A"])], tools=[lookup])
        agent_b, _ = _agent("B", [text(ANSWER["B"])])
        runner_a = Runner(app_name=APP, agent=agent_a, session_service=service_a)
        runner_b = Runner(app_name=APP, agent=agent_b, session_service=service_b)
        session = await _create(service_a)

        task_a = asyncio.create_task(_drain(runner_a, session.id, "A"))
        waiter = asyncio.create_task(a_in_tool.wait())
        await asyncio.wait({task_a, waiter}, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        a_reached_tool = a_in_tool.is_set()
        waited = await _next_second_if_coarse(reader, session.id)
        result_b = await _drain(runner_b, session.id, "B")
        b_done.set()
        result_a = await task_a

        stored = await reader.get_session(app_name=APP, user_id=USER, session_id=session.id)

    ids = Placeholders()
    stored_lines, order = _stored_lines(stored.events, ids)
    timeline = [
        "server A: run_async started; its tool " + ("waits for server B" if a_reached_tool else "was never reached"),
        *waited,
        _run_line("B", *result_b),
        _run_line("A", *result_a),
    ]
    if len(llm_a.requests) > 1:
        timeline.append("server A model turn 2 was sent: " + _request_line(llm_a.requests[1], ids))
    timeline += [_stored_header(stored.events), *stored_lines]
    return Observation(
        timeline=timeline,
        facts={
            "runs": {"A": result_a, "B": result_b},
            "order": order,
        },
    )


@_stops_at_create
async def replay_stale_append_event() -> Observation:
    """B loads the session, A appends an event, B appends through its stale session object."""
    from google.adk.events import Event
    from google.genai import types

    def note(server: str) -> Event:
        return Event(
            invocation_id=f"inv-{server.lower()}",
            author="user",
            content=types.Content(role="user", parts=[types.Part(text=QUESTION[server])]),
        )

    async with _servers(2) as ((service_a, service_b), reader):
        created = await _create(service_a)
        session_b = await service_b.get_session(app_name=APP, user_id=USER, session_id=created.id)
        session_a = await service_a.get_session(app_name=APP, user_id=USER, session_id=created.id)
        waited = await _next_second_if_coarse(reader, created.id)
        await service_a.append_event(session_a, note("A"))
        try:
            await service_b.append_event(session_b, note("B"))
            result_b = ("completed", None)
        except Exception as exc:
            result_b = ("raised", exc)
        stored = await reader.get_session(app_name=APP, user_id=USER, session_id=created.id)
        b_holds = "".join(_labels(session_b.events).get(e.invocation_id, "?") for e in session_b.events)

    ids = Placeholders()
    ids.keep("inv-a", "inv-b")
    stored_lines, order = _stored_lines(stored.events, ids)
    _ended, exc = result_b
    timeline = [
        "server B: get_session; server A: get_session",
        *waited,
        "server A: append_event (A's user turn)",
        "server B: append_event through its stale session "
        + ("-> accepted" if exc is None else f"-> {_describe_exc(exc)}"),
        f"server B's session object now holds: {' '.join(b_holds) or 'no events'}",
        _stored_header(stored.events),
        *stored_lines,
    ]
    return Observation(
        timeline=timeline,
        facts={"runs": {"B": result_b}, "order": order, "b_holds": b_holds},
    )


@_stops_at_create
async def replay_sequential() -> Observation:
    """Control: one server, A's turn to its end, then B's turn."""
    from google.adk.runners import Runner

    from harness.runtime.fakes.adk import calls, text

    async def lookup(query: str) -> dict:
        """Looks something up."""
        return {"result": f"found {query}"}

    _annotate(lookup)
    async with _servers(1) as ((service,), reader):
        agent_a, _ = _agent("A", [calls((TOOL, {"query": "x"})), text(ANSWER["A"])], tools=[lookup])
        agent_b, _ = _agent("B", [text(ANSWER["B"])])
        session = await _create(service)
        result_a = await _drain(Runner(app_name=APP, agent=agent_a, session_service=service), session.id, "A")
        result_b = await _drain(Runner(app_name=APP, agent=agent_b, session_service=service), session.id, "B")
        stored = await reader.get_session(app_name=APP, user_id=USER, session_id=session.id)

    ids = Placeholders()
    stored_lines, order = _stored_lines(stored.events, ids)
    timeline = [
        _run_line("A", *result_a),
        _run_line("B", *result_b),
        _stored_header(stored.events),
        *stored_lines,
    ]
    return Observation(
        timeline=timeline,
        facts={"runs": {"A": result_a, "B": result_b}, "order": order},
    )


def _refusal(result) -> str:
    """'refused' (the stale-session error), 'accepted', or 'failed' (any other exception)."""
    _ended, exc = result
    if exc is None:
        return "accepted"
    return "refused" if _is_stale_refusal(exc) else "failed"


def judge_concurrent_runs(obs: Observation):
    """A's stale write must be refused (fixed: AABB), not let through (reproduced: AABBAA)."""
    if (verdict := _blocked(obs)) is not None:
        return verdict
    a, b = (_refusal(obs.facts["runs"][s]) for s in ("A", "B"))
    order = obs.facts["order"]
    figures = f"stored order {order or '(none)'}"
    if b != "accepted":
        return unexpected(
            f"server B (not stale) did not complete: {_describe_exc(obs.facts['runs']['B'][1])}; {figures}"
        )
    if a == "failed":
        return unexpected(f"server A failed with another error: {_describe_exc(obs.facts['runs']['A'][1])}; {figures}")
    if a == "refused" and order == "AABB":
        exc = obs.facts["runs"]["A"][1]
        return fixed(
            f"server A's stale write was refused ({type(exc).__name__}); {figures}, each run's events together"
        )
    if a == "accepted" and order == "AABBAA":
        return reproduced(
            f"server A's stale write was let through: {figures}, A's tool call and its response split by B's turn"
        )
    return unexpected(f"server A {a}; {figures}, expected AABB (refused) or AABBAA (let through)")


def judge_stale_append(obs: Observation):
    """B's append through its stale object must be refused (fixed: A), not written (reproduced: AB)."""
    if (verdict := _blocked(obs)) is not None:
        return verdict
    result = obs.facts["runs"]["B"]
    b = _refusal(result)
    order, holds = obs.facts["order"], obs.facts["b_holds"]
    figures = f"stored order {order or '(none)'}"
    if b == "refused" and order == "A":
        return fixed(f"server B's stale append was refused ({type(result[1]).__name__}); {figures}")
    if b == "accepted" and order == "AB":
        how = (
            "after reloading the stale object (it now holds A B)"
            if holds == "AB"
            else (f"without a reload (its session object holds {' '.join(holds) or 'nothing'})")
        )
        return reproduced(f"server B's stale append was written {how}; {figures}")
    what = _describe_exc(result[1]) if result[1] is not None else "accepted"
    return unexpected(f"server B's stale append: {what}; {figures}, expected A (refused) or AB (written)")


def judge_sequential(obs: Observation):
    """Control: both turns recorded whole, in order, with no refusal."""
    if (verdict := _blocked(obs)) is not None:
        return verdict
    order = obs.facts["order"]
    want = "AAAABB"  # A: user, call, response, answer; then B: user, answer
    failed = {s: x for s, (e, x) in obs.facts["runs"].items() if e != "completed"}
    if failed:
        s, x = next(iter(failed.items()))
        if _is_stale_refusal(x):
            return reproduced(
                f"server {s}'s fresh session was refused as stale: {_describe_exc(x)}; stored order {order}"
            )
        return unexpected(f"server {s} failed: {_describe_exc(x)}; stored order {order}")
    if order == want:
        return fixed(f"both turns stored in order: {order}")
    return reproduced(f"stored order {order or '(none)'}, expected {want}")


# --- builds that prove the oracles (tests only) ------------------------------------------


@contextlib.contextmanager
def _refuse_every_append_after_the_first():
    """Breaks the control: a check that treats every session as stale once it has events."""
    from google.adk.sessions import DatabaseSessionService

    original = DatabaseSessionService.append_event

    async def append_event(self, session, event):
        if session.events and event.author == "user":
            raise ValueError("Please check if it is a stale session. (refused by the proof's broken check)")
        return await original(self, session, event)

    DatabaseSessionService.append_event = append_event
    try:
        yield
    finally:
        DatabaseSessionService.append_event = original


RELOAD_AND_CONTINUE = Release(
    "google-adk==1.27.5", "the last release whose append_event reloads a stale session and writes"
)
BROKEN_CHECK = InProcess(
    "a stale check that refuses a fresh session's user turn once the session has events",
    _refuse_every_append_after_the_first,
)
PINNED_REFUSES = AsInstalled("the pinned release refuses a stale write (the revision-marker check, 1.28 on)")
PINNED_HOLDS = AsInstalled("the pinned release stores both sequential turns")

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _accepted(server: str):
    """An alteration: ``server``'s run ended without an exception, whatever the store holds."""

    def alter(obs: Observation) -> None:
        ended, _ = obs.facts["runs"][server]
        obs.facts["runs"][server] = (ended, None)

    return alter


def _a_failed_otherwise(obs: Observation) -> None:
    ended, _ = obs.facts["runs"]["A"]
    obs.facts["runs"]["A"] = (ended, ValueError("database is locked"))


def _interleaved(obs: Observation) -> None:
    obs.facts["order"] = "AABBAA"


SCENARIO = Scenario(
    id="adk-database-stale-session-interleave",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/4751",
        "https://github.com/google/adk-python/pull/4752",
    ),
    description=(
        "DatabaseSessionService.append_event on a stale session reloads it and writes (1.24 on) "
        "instead of refusing, so two concurrent run_async calls on one session interleave their events."
    ),
    expected=(
        "A write through a stale session object is refused with the stale-session error; the stored "
        "trajectory keeps each invocation's events together."
    ),
    range_notes=(
        "1.2.0-1.19.0 reproduce by another mechanism: append_event stamps `update_time` only for a state "
        "delta there (commit d83ee1a6), so the stale check never fires and the stale writer's events go "
        "in silently; 1.20.0-1.23.0 refuse, as expected.",
    ),
    # SQLAlchemy comes with google-adk until 1.x and with the ``db`` extra in 2.x (an unknown
    # extra is ignored by older releases); its asyncio extra brings greenlet, which SQLAlchemy
    # 2.1 no longer installs by default and google-adk[db]==2.10.0 does not ask for.
    # The PostgreSQL drivers: asyncpg for the async service (1.19 on), psycopg2 before.
    requires=("google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    cases=(
        Case(
            "concurrent-runs",
            replay_concurrent_runs,
            judge_concurrent_runs,
            {"reproduced": RELOAD_AND_CONTINUE, "fixed": PINNED_REFUSES},
            "server A's tool waits while server B runs a turn on the same session; then A writes",
            edges=(
                Edge(
                    "unexpected", "server A's write accepted, yet the store holds AABB", _accepted("A"), PINNED_REFUSES
                ),
                Edge(
                    "unexpected",
                    "server A fails with a ValueError that is not the stale-session error",
                    _a_failed_otherwise,
                    PINNED_REFUSES,
                ),
            ),
        ),
        Case(
            "stale-append-event",
            replay_stale_append_event,
            judge_stale_append,
            {"reproduced": RELOAD_AND_CONTINUE, "fixed": PINNED_REFUSES},
            "server B loads the session, server A appends, server B appends through its stale object",
            edges=(
                Edge(
                    "unexpected",
                    "server B's append accepted, yet the store holds only A's event",
                    _accepted("B"),
                    PINNED_REFUSES,
                ),
            ),
        ),
        Case(
            "sequential-control",
            replay_sequential,
            judge_sequential,
            {"reproduced": BROKEN_CHECK, "fixed": PINNED_HOLDS},
            "control: one server, two turns one after the other; both stored, no refusal",
            edges=(Edge("reproduced", "both turns complete, but stored interleaved", _interleaved, PINNED_HOLDS),),
            control=True,
        ),
    ),
)
