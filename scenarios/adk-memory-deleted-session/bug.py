"""adk-memory-deleted-session: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess


@contextlib.contextmanager
def _with_delete_session_memory(*, whole_user: bool = False):
    """PR #7175's InMemoryMemoryService.delete_session_memory, in process (or, whole_user, a removal gone too far)."""
    from google.adk.memory import InMemoryMemoryService

    async def delete_session_memory(self, *, app_name: str, user_id: str, session_id: str) -> None:
        with self._lock:
            buckets = self._session_events.get((app_name, user_id), {})
            if whole_user:
                buckets.clear()
            else:
                buckets.pop(session_id, None)

    InMemoryMemoryService.delete_session_memory = delete_session_memory
    try:
        yield
    finally:
        del InMemoryMemoryService.delete_session_memory


NO_REMOVAL = AsInstalled("the pinned release (2.13.0), unpatched: no session-scoped memory removal")
PR_7175 = InProcess(
    "PR #7175's delete_session_memory applied in process: it drops the session's copied events",
    _with_delete_session_memory,
)
WIPES_USER = InProcess(
    "a removal that goes too far, in process: delete_session_memory drops every memory of the user",
    lambda: _with_delete_session_memory(whole_user=True),
)


def session_kept(obs):
    obs.facts["session_gone"] = False


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/7109",
        "https://github.com/google/adk-python/pull/7175",
    ),
    description=(
        "After add_session_to_memory and delete_session, the memory service still serves the deleted "
        "session's events, and there is no way to remove a session's memories."
    ),
    expected=(
        "A deleted session's memories can be removed with it (PR #7175: delete_session_memory), so "
        "search_memory no longer returns them, while other sessions' memories stay."
    ),
    claims=Claim(
        pr="#7175",
        pr_state="open",
        still_open=True,
        source="repro.py docstring: 'issues/7109 (open) and PR #7175 (open)'",
    ),
    cases={
        "deleted-session": CaseRole(
            "two sessions into memory, the first deleted: search for its words",
            reproduced=NO_REMOVAL,
            fixed=PR_7175,
            # Observations no build makes, one step across a line of the judge (nox -s mutants).
            edges=(
                Edge("unexpected", "the memories removed, but the session itself not deleted", session_kept, PR_7175),
                Edge(
                    "unexpected",
                    "the deleted session still served, and the kept one lost",
                    lambda obs: obs.facts.update(kept_hits=0),
                    NO_REMOVAL,
                ),
            ),
        ),
        "other-session-kept": CaseRole(
            "control: the kept session's memories stay searchable",
            reproduced=WIPES_USER,
            fixed=NO_REMOVAL,
            control=True,
            edges=(
                Edge(
                    "unexpected",
                    "the kept session's memories stay, but the session was not deleted",
                    session_kept,
                    NO_REMOVAL,
                ),
            ),
        ),
    },
)
