"""google-adk specifics: a scripted fake model, running an agent, and the session timeline.

Public API only (``google.adk.models.BaseLlm``, ``LlmResponse``, ``Runner``,
``InMemorySessionService``, session events), so it works on every google-adk release the
scenarios use (1.x and 2.x).

- :class:`ScriptedLlm` replays scripted turns (:func:`text`, :func:`calls`);
  :class:`UncalledLlm` is a model the case says must not be called: each call is recorded
  (``llm.requests``) and answered with :data:`UNCALLED_REPLY`, so the run ends and the oracle
  reads the count as a fact, instead of the case ending in ``error``.
- :func:`run_agent` runs an agent or App on a ``Runner`` with an ``InMemorySessionService``
  (create the session, run each message, read the session back); :func:`start` gives the
  :class:`Conversation` behind it, for cases that pass their own ``run_async`` arguments or
  read events as they stream.
- :func:`session_timeline` / :func:`event_line`: one line per event with its author, the
  content's role, its parts and every non-empty action; :func:`state_line`: the session state.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.genai import types

from harness.runtime.timeline import Placeholders, quote


class ScriptExhausted(AssertionError):
    """The agent asked the fake model for more turns than the scenario scripted."""


def text(reply: str) -> LlmResponse:
    """A scripted model turn that answers with text."""
    return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=reply)]))


def calls(*function_calls: tuple[str, dict[str, Any]]) -> LlmResponse:
    """A scripted model turn holding one or more function calls, as (name, args) pairs."""
    parts = [types.Part(function_call=types.FunctionCall(name=name, args=args)) for name, args in function_calls]
    return LlmResponse(content=types.Content(role="model", parts=parts))


class ScriptedLlm(BaseLlm):
    """A ``BaseLlm`` that replays scripted responses in order and records every request.

    Usage: ``ScriptedLlm(model="scripted", script=[calls(("get_weather", {"city": "Paris"})), text("done")])``.
    """

    # Pydantic fields (BaseLlm is a pydantic model): each instance gets its own copy of the default.
    script: list[Any] = []  # noqa: RUF012
    requests: list[Any] = []  # noqa: RUF012

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        # Copy the request: the flow mutates its contents list after the call.
        self.requests.append(copy.deepcopy(llm_request.contents))
        turn = len(self.requests)
        if turn > len(self.script):
            raise ScriptExhausted(
                f"ScriptedLlm: the agent asked for model turn {turn}, but the scenario scripted "
                f"only {len(self.script)}; add a response to the script or check why the agent looped"
            )
        yield self.script[turn - 1].model_copy(deep=True)


UNCALLED_REPLY = "(the scripted model was called, but this case says it must not be)"


class UncalledLlm(ScriptedLlm):
    """A model that must not be called: each call is recorded and answered with :data:`UNCALLED_REPLY`.

    The oracle reads ``len(llm.requests)`` (0 when the framework kept its promise), so a call
    is a fact with figures, not an ``error`` from an exhausted script.
    Usage: ``llm = UncalledLlm(model="must-not-be-called")``.
    """

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(copy.deepcopy(llm_request.contents))
        yield text(UNCALLED_REPLY)


def model_calls_line(llm: ScriptedLlm) -> str:
    """``model calls: N``: how many turns the (scripted or uncalled) model was asked for."""
    return f"model calls: {len(llm.requests)}"


# --- running an agent ----------------------------------------------------------------------

APP_NAME = "harness_app"
USER_ID = "user-1"


def user_message(message: Any) -> Any:
    """A user ``types.Content`` from a string; Content (or None, for a resume) as given."""
    if isinstance(message, str):
        return types.Content(role="user", parts=[types.Part(text=message)])
    return message


@dataclass
class Conversation:
    """One session of an agent or App on a Runner with an InMemorySessionService.

    ``events`` holds every event ``run_async`` yielded, over every :meth:`send`/:meth:`stream`.
    """

    runner: Any
    sessions: Any  # the session service
    app_name: str
    user_id: str
    session_id: str
    events: list[Any] = field(default_factory=list)

    async def stream(self, message: Any = None, **run_async: Any) -> AsyncIterator[Any]:
        """``runner.run_async`` for ``message`` (a string, a Content, or None), event by event.

        ``run_async`` keywords (``invocation_id``, ``state_delta``, ``run_config``...) pass
        through; a None value is left out, so releases without that parameter still run.
        """
        kwargs = {k: v for k, v in run_async.items() if v is not None}
        async for event in self.runner.run_async(
            user_id=self.user_id, session_id=self.session_id, new_message=user_message(message), **kwargs
        ):
            self.events.append(event)
            yield event

    async def send(self, message: Any = None, **run_async: Any) -> list[Any]:
        """Run ``message`` to the end; the events this run yielded."""
        return [event async for event in self.stream(message, **run_async)]

    async def session(self) -> Any:
        """The session as the service stores it now (events and state)."""
        return await self.sessions.get_session(app_name=self.app_name, user_id=self.user_id, session_id=self.session_id)


def require_plugins() -> None:
    """Not applicable on a release whose ``Runner`` takes no ``plugins`` (before 1.7.0)."""
    import inspect

    from google.adk.runners import Runner

    from harness.runtime.scenario import NotApplicable

    if "plugins" not in inspect.signature(Runner.__init__).parameters:
        raise NotApplicable("Runner() takes no plugins in this release")


async def start(
    agent_or_app: Any,
    *,
    app_name: str = APP_NAME,
    user_id: str = USER_ID,
    state: dict[str, Any] | None = None,
    session_service: Any = None,
    plugins: list[Any] | None = None,
) -> Conversation:
    """A Runner for ``agent_or_app`` (an agent, or an ``App``) and a new session.

    ``plugins``: ``Runner(plugins=[...])`` for an agent (an App carries its own:
    ``App(plugins=[...])``); on a release whose Runner takes none the case is not applicable
    (:func:`require_plugins`: call it first when making the plugins needs a newer release).
    """
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService

    try:
        from google.adk.apps import App
    except ImportError:  # releases before App: every root is an agent
        App = ()
    extra: dict[str, Any] = {}
    if plugins is not None:
        require_plugins()
        if isinstance(agent_or_app, App):
            raise TypeError("adk.start(plugins=...) is for an agent; give an App its plugins: App(plugins=[...])")
        extra["plugins"] = list(plugins)
    sessions = session_service if session_service is not None else InMemorySessionService()
    if isinstance(agent_or_app, App):  # an App names itself (agents have a root_agent too)
        runner = Runner(app=agent_or_app, session_service=sessions)
        app_name = agent_or_app.name
    else:
        runner = Runner(app_name=app_name, agent=agent_or_app, session_service=sessions, **extra)
    create: dict[str, Any] = {"app_name": app_name, "user_id": user_id}
    if state is not None:
        create["state"] = state
    session = await sessions.create_session(**create)
    return Conversation(runner, sessions, app_name, user_id, session.id)


async def run_agent(agent_or_app: Any, *messages: Any, run_config: Any = None, **start_options: Any) -> Any:
    """Run each message in turn in one new session; the session read back from the service.

    Usage: ``session = await adk.run_agent(agent, "What is the weather?", run_config=config)``;
    ``session.events`` and ``session.state`` are what the service stored. ``start_options``:
    :func:`start`'s (``app_name``, ``user_id``, ``state``, ``session_service``, ``plugins``).
    """
    conversation = await start(agent_or_app, **start_options)
    for message in messages:
        await conversation.send(message, run_config=run_config)
    return await conversation.session()


def describe_part(part: Any, ids: Placeholders) -> str:
    """One part of an event's content, normalised: text, function call or response."""
    if part.function_call is not None:
        fc = part.function_call
        return f"call {ids('call', fc.id)} {fc.name}({json.dumps(fc.args or {}, sort_keys=True)})"
    if part.function_response is not None:
        fr = part.function_response
        return f"response {ids('call', fr.id)} {fr.name} -> {json.dumps(fr.response, sort_keys=True, default=str)}"
    if part.text is not None:
        return quote(part.text)
    return "<other part>"


def _normalised(value: Any, ids: Placeholders, key: str = "") -> Any:
    """An action's value with the ids and times the framework invents made stable."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(exclude_none=True)
    if isinstance(value, dict):
        # requested_auth_configs / requested_tool_confirmations are keyed by function call id.
        keyed_by_call = key.startswith("requested_")
        return {
            (ids("call", k) if keyed_by_call else str(k)): _normalised(v, ids, str(k))
            for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))
        }
    if isinstance(value, (list, tuple)):
        return [_normalised(v, ids, key) for v in value]
    if key.endswith("timestamp") and isinstance(value, (int, float)):
        return "<time>"
    if key.endswith("invocation_id") and isinstance(value, str):
        return ids("inv", value)
    if isinstance(value, str):
        return ids.scrub(value)
    return value


def describe_actions(actions: Any, ids: Placeholders) -> str:
    """Every non-empty action of an event, ``name=<json>`` in field order ('' when none)."""
    if actions is None:
        return ""
    shown = []
    for name, value in actions.model_dump(exclude_none=True).items():
        if value is None or value == {} or value == []:
            continue
        shown.append(f"{name}={json.dumps(_normalised(value, ids, name), sort_keys=True, default=str)}")
    return " ".join(shown)


def event_line(event: Any, ids: Placeholders) -> str:
    """``[inv-1] author (role) 'text' state_delta={...}`` for one session event.

    The content's role and every non-empty action are shown: two events that differ in
    either must not read the same.
    """
    parts = event.content.parts if event.content and event.content.parts else []
    body = " ".join(describe_part(p, ids) for p in parts) or "<no content>"
    role = f" ({event.content.role})" if event.content is not None and event.content.role else ""
    line = f"[{ids('inv', event.invocation_id)}] {event.author}{role} {body}"
    actions = describe_actions(event.actions, ids)
    return f"{line} {actions}" if actions else line


def session_timeline(events: list[Any], ids: Placeholders) -> list[str]:
    """The session's events, one normalised line each, in order."""
    return [event_line(e, ids) for e in events]


def state_line(state: Any, keys: Any = None) -> str:
    """``state {...}``: the session state (or only ``keys`` of it, missing ones as null), sorted."""
    state = dict(state or {})
    if keys is not None:
        state = {k: state.get(k) for k in keys}
    return f"state {json.dumps(state, sort_keys=True, default=str)}"


# --- scripted model errors (a model error at turn N) ----------------------------------------


class ScriptedModelError(RuntimeError):
    """The error a scripted model turn raises, as a provider's client would (a 503, a quota)."""


def fails(message: str) -> ScriptedModelError:
    """A scripted model turn that raises instead of answering: ``script=[calls(...), fails("503 UNAVAILABLE")]``.

    Only :class:`FailingScriptedLlm` raises it; the plain ScriptedLlm would try to yield it.
    """
    return ScriptedModelError(message)


class FailingScriptedLlm(ScriptedLlm):
    """A ScriptedLlm whose script may hold :func:`fails` turns: the request is recorded, then raised."""

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        turn = len(self.requests) + 1
        if turn <= len(self.script) and isinstance(self.script[turn - 1], BaseException):
            self.requests.append(copy.deepcopy(llm_request.contents))
            raise self.script[turn - 1]
        async for response in super().generate_content_async(llm_request, stream):
            yield response


# --- the database behind DatabaseSessionService: SQLite, or the run's PostgreSQL server ----

# Where the run's PostgreSQL server listens (a Unix socket folder): set by the orchestrator
# (harness/execution/postgres.py SOCKET_ENV), passed to workers through the HARNESS_ allowlist.
POSTGRES_SOCKET_ENV = "HARNESS_POSTGRES_SOCKET"
POSTGRES_USER = "postgres"


class NoPostgresServer(RuntimeError):
    """A case on postgresql ran where no server was started (the matrix, bisect and tests start one)."""


def session_service_is_async() -> bool:
    """Whether the release's DatabaseSessionService runs on SQLAlchemy's asyncio engine (1.19 on).

    Read from the source, not a module attribute: 2.x imports SQLAlchemy's asyncio names inside
    ``try: ... except ImportError: pass``, so a missing name says nothing about the design.
    """
    import inspect

    from google.adk.sessions import database_session_service

    return "create_async_engine" in inspect.getsource(database_session_service)


def postgres_socket() -> str:
    socket_dir = os.environ.get(POSTGRES_SOCKET_ENV)
    if not socket_dir:
        raise NoPostgresServer(f"no PostgreSQL server for this case: {POSTGRES_SOCKET_ENV} is unset")
    return socket_dir


async def _postgres_admin(sql: str) -> None:
    """Run one statement on the server's maintenance database, through the release's own driver."""
    socket_dir = postgres_socket()
    if session_service_is_async():
        import asyncpg

        conn = await asyncpg.connect(host=socket_dir, user=POSTGRES_USER, database="postgres")
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
        return
    import psycopg2

    conn = psycopg2.connect(host=socket_dir, user=POSTGRES_USER, dbname="postgres")
    try:
        conn.autocommit = True
        with conn.cursor() as cursor:
            cursor.execute(sql)
    finally:
        conn.close()


@contextlib.asynccontextmanager
async def database(folder: Any, backend: str | None = None) -> AsyncIterator[str]:
    """A fresh, empty database for DatabaseSessionService; yields its SQLAlchemy URL.

    ``backend`` defaults to the case's (harness.runtime.scenario ``current_backend``). SQLite: a
    file ``sessions.db`` in ``folder``, through ``sqlite+aiosqlite`` where the release's service is
    async and ``sqlite`` before. PostgreSQL: a new database on the run's server, created (and
    dropped at the end) through the release's driver: ``postgresql+asyncpg`` where the service is
    async, ``postgresql+psycopg2`` before, connected over the server's Unix socket.
    """
    from harness.runtime.scenario import POSTGRESQL, current_backend

    backend = backend or current_backend()
    is_async = session_service_is_async()
    if backend != POSTGRESQL:
        yield f"sqlite+aiosqlite:///{folder}/sessions.db" if is_async else f"sqlite:///{folder}/sessions.db"
        return
    socket_dir = postgres_socket()
    name = f"harness_{uuid.uuid4().hex[:16]}"
    await _postgres_admin(f"CREATE DATABASE {name}")
    try:
        driver = "asyncpg" if is_async else "psycopg2"
        yield f"postgresql+{driver}://{POSTGRES_USER}@/{name}?host={socket_dir}"
    finally:
        await _postgres_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
