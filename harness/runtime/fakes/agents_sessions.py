"""openai-agents sessions on a real SQLite file: a ``SQLiteSession`` in a temporary folder, read
back after the run as a second process would (runs inside an openai-agents environment)."""

from __future__ import annotations

from typing import Any

from harness.runtime.fakes.openai_agents import session_file_lines
from harness.runtime.timeline import Placeholders

# --- sessions on a real SQLite file --------------------------------------------------------


class SessionFile:
    """An openai-agents ``SQLiteSession`` on a real database file in a fresh temporary directory.

    Scenarios about what a run saves to its session use the framework's own ``SQLiteSession``
    on a file (never ``:memory:``, never a mock), and read what was stored back through a
    second ``SQLiteSession`` opened on the same file, as the next process would.

    Usage::

        with SessionFile() as store:
            await Runner.run(agent, "hi", session=store.open())
            items = await store.stored_items()
    """

    def __init__(self, session_id: str = "session-1") -> None:
        self.session_id = session_id
        self._tmp: Any = None
        self._opened: list[Any] = []

    def __enter__(self) -> SessionFile:
        import tempfile

        self._tmp = tempfile.TemporaryDirectory(prefix="harness-agents-session-")
        return self

    def __exit__(self, *exc: Any) -> None:
        for session in self._opened:
            close = getattr(session, "close", None)  # SQLiteSession.close (every release from 0.2)
            if callable(close):
                close()
        self._opened.clear()
        self._tmp.cleanup()

    @property
    def path(self) -> str:
        import os

        return os.path.join(self._tmp.name, "agents-session.db")

    def open(self) -> Any:
        """A new ``SQLiteSession`` on the file (raises NotApplicable where the release has none)."""
        try:
            from agents.memory import SQLiteSession
        except ImportError as exc:
            from harness.runtime.scenario import NotApplicable

            raise NotApplicable(f"agents.memory has no SQLiteSession: {exc}") from exc
        session = SQLiteSession(self.session_id, self.path)
        self._opened.append(session)
        return session

    async def stored_items(self) -> list[Any]:
        """Every item stored under the session id, read through a freshly opened session."""
        return list(await self.open().get_items())

    async def read_back(self, ids: Placeholders) -> tuple[list[Any], list[str]]:
        """The stored items (:meth:`stored_items`) and their timeline lines (:func:`session_file_lines`)."""
        items = await self.stored_items()
        return items, session_file_lines(items, ids)
