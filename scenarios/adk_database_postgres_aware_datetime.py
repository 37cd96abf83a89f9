"""google-adk: DatabaseSessionService on PostgreSQL cannot create a session (an aware datetime).

Symptom (google/adk-python#4366, PRs #4365, #4388, #4441): with PostgreSQL through asyncpg,
``create_session`` fails: "invalid input for query argument $5: datetime.datetime(...,
tzinfo=datetime.timezone.utc) (can't subtract offset-naive and offset-aware datetimes)". The
service stopped letting the database stamp the row (``func.now()``) and passes
``datetime.now(timezone.utc)`` itself; it strips the time zone for SQLite only, and the
session table's ``update_time`` is a ``TIMESTAMP WITHOUT TIME ZONE`` on PostgreSQL, which
asyncpg refuses to fill with an aware value. SQLite stores the naive value and never fails.

Case ``create-and-append`` (on each backend: a SQLite file, and a fresh database on the run's
PostgreSQL server through the release's own driver, asyncpg on the async service): create a
session, append one user event, read the session back through a second service instance.

Timeline: what ``create_session`` and ``append_event`` did (done, or the exception's class
and first line, the datetime's digits replaced by ``<time>``) and the stored events.

Oracle: ``reproduced`` when create_session or append_event fails with the naive/aware datetime
error; ``fixed`` when the session is created and its event read back; anything else is
``unexpected``. On SQLite the case is a control: the same steps hold on every release.

What the harness found (bisect on PostgreSQL, the boundaries confirmed by the diff of
google/adk/sessions/database_session_service.py):

- SQLite: fixed on every release run (the control holds).
- PostgreSQL: fixed up to 1.23.0 (the database stamps ``update_time`` itself, ``func.now()``);
  reproduced on 1.24.0-1.24.1: create_session passes ``datetime.now(timezone.utc)`` and strips
  the zone ``if is_sqlite``; fixed from 1.25.0: ``if is_sqlite or is_postgresql`` (the thread's
  "1.22.1+" is wrong: 1.22.1 and 1.23.0 create sessions on PostgreSQL).
"""

from __future__ import annotations

import re
import tempfile

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario
from harness.runtime.timeline import quote

APP = "aware_datetime_app"
USER = "user-1"
MARKER = "offset-naive and offset-aware"
_DIGITS = re.compile(r"datetime\.datetime\([^)]*\)|\d{4}-\d{2}-\d{2}[ T][\d:.]+")


def _describe(exc: BaseException) -> str:
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {quote(_DIGITS.sub('<time>', first), 200)}"


async def _close(service) -> None:
    import inspect

    close = getattr(service, "close", None)
    if close is not None:
        await close()
        return
    disposed = service.db_engine.dispose()
    if inspect.isawaitable(disposed):
        await disposed


async def replay() -> Observation:
    from google.adk.events import Event
    from google.adk.sessions import DatabaseSessionService
    from google.genai import types

    from harness.runtime.fakes.adk import database

    steps: dict[str, str] = {}
    errors: dict[str, str] = {}
    stored: list[str] = []
    with tempfile.TemporaryDirectory(prefix="adk-aware-") as tmp:
        async with database(tmp) as url:
            service, reader = DatabaseSessionService(db_url=url), DatabaseSessionService(db_url=url)
            try:
                try:
                    session = await service.create_session(app_name=APP, user_id=USER)
                    steps["create_session"] = "done"
                except Exception as exc:  # the datetime the driver refuses, or anything else: judged
                    session, steps["create_session"], errors["create_session"] = None, _describe(exc), str(exc)
                if session is not None:
                    event = Event(
                        invocation_id="inv-1",
                        author="user",
                        content=types.Content(role="user", parts=[types.Part(text="hello")]),
                    )
                    try:
                        await service.append_event(session, event)
                        steps["append_event"] = "done"
                    except Exception as exc:
                        steps["append_event"], errors["append_event"] = _describe(exc), str(exc)
                    back = await reader.get_session(app_name=APP, user_id=USER, session_id=session.id)
                    stored = [
                        f"{e.author}: {''.join(p.text or '' for p in e.content.parts)}"
                        for e in (back.events if back else [])
                        if e.content and e.content.parts
                    ]
            finally:
                await _close(service)
                await _close(reader)
    timeline = [f"{name}: {what}" for name, what in steps.items()]
    timeline.append(f"stored session: {len(stored)} event{'s' if len(stored) != 1 else ''}")
    timeline += [f"  {line}" for line in stored]
    return Observation(timeline=timeline, facts={"steps": steps, "errors": errors, "stored": stored})


def judge(obs: Observation):
    steps, errors, stored = obs.facts["steps"], obs.facts["errors"], obs.facts["stored"]
    refused = [name for name, message in errors.items() if MARKER in message]
    if refused:
        return reproduced(f"{refused[0]} failed: the driver refused an aware datetime ({steps[refused[0]]})")
    if errors:
        name = next(iter(errors))
        return unexpected(f"{name} failed otherwise: {steps[name]}")
    if stored == ["user: hello"]:
        return fixed("session created, its event appended and read back")
    return unexpected(f"session created, but the store holds {len(stored)} events, expected 1")


# --- builds that prove the oracle (tests only) --------------------------------------------


def _aware_create_time():
    """The bug on any backend: create_session hands the driver an aware datetime where it wants
    a naive one, as asyncpg answered on PostgreSQL (used for SQLite, where the bug never shows)."""
    import contextlib

    from google.adk.sessions import DatabaseSessionService

    original = DatabaseSessionService.create_session

    async def create_session(self, *args, **kwargs):
        raise ValueError(
            "invalid input for query argument $5: datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc) "
            "(can't subtract offset-naive and offset-aware datetimes) (raised by the proof's patch)"
        )

    @contextlib.contextmanager
    def patched():
        DatabaseSessionService.create_session = create_session
        try:
            yield
        finally:
            DatabaseSessionService.create_session = original

    return patched()


AWARE_ON_SQLITE = InProcess("create_session fails as asyncpg fails it on PostgreSQL", _aware_create_time)
LAST_AWARE = Release("google-adk==1.24.1", "the last release that strips the time zone for SQLite only")
PINNED = AsInstalled("the pinned release strips the time zone for PostgreSQL too")


def _other_error(obs: Observation) -> None:
    obs.facts["errors"] = {"create_session": "connection refused"}
    obs.facts["steps"] = {"create_session": "OSError: connection refused"}


def _lost(obs: Observation) -> None:
    obs.facts["stored"] = []


SCENARIO = Scenario(
    id="adk-database-postgres-aware-datetime",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/4366",
        "https://github.com/google/adk-python/pull/4365",
        "https://github.com/google/adk-python/pull/4388",
    ),
    description=(
        "DatabaseSessionService.create_session passes an aware datetime (datetime.now(timezone.utc)) for the "
        "session's update_time and strips the zone for SQLite only, so on PostgreSQL through asyncpg every "
        "create_session fails with 'can't subtract offset-naive and offset-aware datetimes'."
    ),
    expected="create_session and append_event work on PostgreSQL as on SQLite.",
    range_notes=(
        "Only PostgreSQL through asyncpg: reproduced on 1.24.0-1.24.1 (create_session strips the time zone "
        "for SQLite only), fixed from 1.25.0 (and for PostgreSQL); SQLite holds on every release.",
    ),
    requires=("google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    cases=(
        Case(
            "create-and-append",
            replay,
            judge,
            {"reproduced": LAST_AWARE, "fixed": PINNED},
            "create a session, append a user event, read it back",
            edges=(
                Edge("unexpected", "create_session fails with another error", _other_error, PINNED),
                Edge("unexpected", "the session is created but its event is lost", _lost, PINNED),
            ),
            per_backend={
                "sqlite": {"control": True, "proofs": {"reproduced": AWARE_ON_SQLITE, "fixed": PINNED}},
            },
        ),
    ),
)
