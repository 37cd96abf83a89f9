"""google-adk: a session's last_update_time is off by the host's UTC offset (PostgreSQL).

Symptom (google/adk-python#5354, PR #5355; #4441, #1733): on a host whose local time zone is
not UTC, ``DatabaseSessionService`` on PostgreSQL mixes two baselines in the session table's
``update_time`` (a ``TIMESTAMP WITHOUT TIME ZONE``): ``create_session`` writes UTC wall time
(``datetime.now(timezone.utc)`` with the zone stripped) while ``append_event`` writes local
wall time (``datetime.fromtimestamp(event.timestamp)``), and reading it back
(``get_update_timestamp``) treats the naive value as UTC for SQLite only, as local time
otherwise. The session's ``last_update_time`` is then hours off, and a stale-session check that
compares the two can refuse a fresh session. On SQLite every path uses UTC.

Case ``created-then-appended`` (on each backend: a SQLite file, and a fresh database on the
run's PostgreSQL server, whose own ``TimeZone`` is UTC, as a managed database's is): the
process's local zone is set to UTC+05:30
for the case (``Asia/Kolkata``: tzlocal, which google-adk 1.x imports, refuses a POSIX zone such
as ``IST-5:30``), then: create a session; read it back through a second service instance; append
a user event; read it back again; append a second event through that fresh copy.

Timeline: each step, with ``last_update_time`` as its distance from the wall clock at that step
(in seconds, rounded to the minute: ``+0 min`` when right, ``-330 min`` when the naive UTC value
was read as local time), and how the last append ended.

Oracle: ``fixed`` when every ``last_update_time`` is within a minute of the clock and the last
append is accepted; ``reproduced`` when one is off by the zone's offset (330 minutes) or the
fresh copy's append is refused as stale; ``unexpected`` otherwise, and when create_session itself
fails (1.24.0 on PostgreSQL: the aware datetime of adk-database-postgres-aware-datetime stops the
case before any time is stored).

What the harness found (bisect on each backend, each boundary confirmed by the diff of
google/adk/sessions/database_session_service.py or sessions/schemas/v1.py):

- SQLite: 1.2.0-1.5.0 reproduced (every read is ``update_time.timestamp()``, the naive UTC value
  of SQLite's ``CURRENT_TIMESTAMP`` read as local time: -330 min), 1.6.1 on fixed: 1.6.1 adds
  ``update_timestamp_tz``, which attaches UTC to the naive value for the ``sqlite`` dialect only.
- PostgreSQL: reproduced on every release from 1.2.0 to 2.2.0 (-330 min after create_session;
  after append_event too until 1.15.1, where the database stamps it; from 1.20 append_event
  stamps local wall time and reads it back as local, so that read is right), 1.24.0
  ``unexpected`` (its create_session fails first), fixed from 2.3.0: ``get_update_timestamp``
  reads any naive value as UTC ("SQLite and PostgreSQL do not support timezone").
- So the backends differ on 1.6.1-2.2.0: the fix of 1.6.1 named SQLite's dialect, and PostgreSQL,
  which also returns a naive value for a ``TIMESTAMP WITHOUT TIME ZONE``, waited for 2.3.0.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, Observation, Release, Scenario
from harness.runtime.timeline import quote

APP = "zone_app"
USER = "user-1"
ZONE = "Asia/Kolkata"  # UTC+05:30 all year (no daylight saving time)
OFFSET_MIN = 330
STALE_MARKERS = ("stale session", "modified in storage")
AWARE_MARKER = "offset-naive and offset-aware"


@contextlib.contextmanager
def _local_zone(zone: str):
    before = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = before
        time.tzset()


async def _close(service) -> None:
    import inspect

    close = getattr(service, "close", None)
    if close is not None:
        await close()
        return
    disposed = service.db_engine.dispose()
    if inspect.isawaitable(disposed):
        await disposed


def _minutes(session, clock: float) -> int:
    return round((float(session.last_update_time) - clock) / 60)


def _event(text: str):
    from google.adk.events import Event
    from google.genai import types

    return Event(
        invocation_id=f"inv-{text}", author="user", content=types.Content(role="user", parts=[types.Part(text=text)])
    )


async def replay() -> Observation:
    from google.adk.sessions import DatabaseSessionService

    from harness.runtime.fakes.adk import database

    offsets: dict[str, int] = {}
    last: tuple[str, str] = ("not reached", "")
    with _local_zone(ZONE), tempfile.TemporaryDirectory(prefix="adk-zone-") as tmp:
        async with database(tmp) as url:
            service, reader = DatabaseSessionService(db_url=url), DatabaseSessionService(db_url=url)
            try:
                clock = time.time()
                try:
                    created = await service.create_session(app_name=APP, user_id=USER)
                except Exception as exc:  # 1.24.0 on PostgreSQL: adk-database-postgres-aware-datetime
                    aware = AWARE_MARKER in str(exc)
                    blocked = f"{type(exc).__name__}" + (" (the driver refused an aware datetime)" if aware else "")
                    return Observation(
                        timeline=[f"create_session failed: {blocked}"],
                        facts={"offsets": {}, "last": "not reached", "error": "", "blocked": blocked},
                    )
                offsets["create_session returned"] = _minutes(created, clock)
                fresh = await reader.get_session(app_name=APP, user_id=USER, session_id=created.id)
                offsets["read back after create"] = _minutes(fresh, clock)
                first = _event("first")
                await service.append_event(created, first)
                fresh = await reader.get_session(app_name=APP, user_id=USER, session_id=created.id)
                offsets["read back after append"] = _minutes(fresh, first.timestamp)
                try:
                    await reader.append_event(fresh, _event("second"))
                    last = ("accepted", "")
                except Exception as exc:  # a stale refusal of a fresh copy, or anything else: judged
                    text = str(exc).splitlines()[0] if str(exc) else ""
                    refused = isinstance(exc, ValueError) and any(m in text.lower() for m in STALE_MARKERS)
                    last = ("refused as stale" if refused else "failed", f"{type(exc).__name__}: {quote(text, 80)}")
            finally:
                await _close(service)
                await _close(reader)
    timeline = [f"process local zone UTC+05:30 ({ZONE}); last_update_time minus the clock:"]
    timeline += [f"  {step}: {minutes:+d} min" for step, minutes in offsets.items()]
    timeline.append(f"append through the fresh copy: {last[0]}" + (" (an error)" if last[1] else ""))
    return Observation(timeline=timeline, facts={"offsets": offsets, "last": last[0], "error": last[1]})


def judge(obs: Observation):
    offsets, last = obs.facts["offsets"], obs.facts["last"]
    if obs.facts.get("blocked"):
        return unexpected(f"create_session failed before any time was stored: {obs.facts['blocked']}")
    figures = ", ".join(f"{k} {v:+d} min" for k, v in offsets.items())
    off = {k: v for k, v in offsets.items() if v}
    if last == "failed":
        return unexpected(f"the last append failed otherwise: {obs.facts['error']}; {figures}")
    if (off and all(abs(v) == OFFSET_MIN for v in off.values())) or last == "refused as stale":
        return reproduced(f"last_update_time off by the zone's offset: {figures}; the fresh copy's append {last}")
    if not off and last == "accepted":
        return fixed("every last_update_time within a minute of the clock; the fresh copy's append accepted")
    return unexpected(f"{figures}; the fresh copy's append {last}")


# --- builds that prove the oracle (tests only) --------------------------------------------


PINNED = AsInstalled("the pinned release reads and writes UTC on PostgreSQL too")
LAST_SQLITE = Release("google-adk==1.5.0", "the last release that reads SQLite's naive UTC update time as local time")
LAST_POSTGRES = Release("google-adk==2.2.0", "the last release that reads a naive update time as UTC for SQLite only")


def _half_offset(obs: Observation) -> None:
    obs.facts["offsets"] = {**obs.facts["offsets"], "read back after create": -165}


def _refused(obs: Observation) -> None:
    obs.facts["last"] = "refused as stale"


SCENARIO = Scenario(
    id="adk-database-update-time-local-zone",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/5354",
        "https://github.com/google/adk-python/pull/5355",
        "https://github.com/google/adk-python/pull/4441",
    ),
    description=(
        "On a host outside UTC, DatabaseSessionService on PostgreSQL writes update_time as UTC in "
        "create_session and as local time in append_event, and reads the naive value as local time, so a "
        "session's last_update_time is off by the host's UTC offset."
    ),
    expected="last_update_time is the session's real update time on every backend and host zone.",
    range_notes=(
        "SQLite: reproduced 1.2.0-1.5.0, fixed from 1.6.1 (update_timestamp_tz attaches UTC for the sqlite "
        "dialect only); PostgreSQL: reproduced 1.2.0-2.2.0, fixed from 2.3.0 (get_update_timestamp reads every "
        "naive value as UTC); 1.24.0 on PostgreSQL is unexpected: its create_session fails first "
        "(adk-database-postgres-aware-datetime).",
    ),
    requires=("google-adk[db]", "aiosqlite", "sqlalchemy[asyncio]", "asyncpg", "psycopg2-binary"),
    backends=("sqlite", "postgresql"),
    cases=(
        Case(
            "created-then-appended",
            replay,
            judge,
            {"reproduced": LAST_SQLITE, "fixed": PINNED},
            "local zone UTC+05:30: create, read back, append, read back, append through the fresh copy",
            edges=(
                Edge("unexpected", "an offset that is not the zone's", _half_offset, PINNED),
                Edge("reproduced", "times right, but the fresh copy's append refused as stale", _refused, PINNED),
            ),
            per_backend={"postgresql": {"proofs": {"reproduced": LAST_POSTGRES, "fixed": PINNED}}},
        ),
    ),
)
