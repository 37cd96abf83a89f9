"""google-adk: memories copied from a session outlive ``delete_session()``; no session-scoped removal exists.

Symptom (#7109, open): ``add_session_to_memory(session)`` copies the session's events into the
memory service; ``session_service.delete_session()`` then removes the session, but the memory
service keeps serving what it copied (``search_memory`` still finds the deleted conversation)
and ``BaseMemoryService`` has no way to remove a session's memories, so an application cannot
honour "forget this conversation". PR #7175 (open) proposes
``BaseMemoryService.delete_session_memory(*, app_name, user_id, session_id)`` (and
``delete_user_memory``), implemented for ``InMemoryMemoryService``. 2.13.0 added
``delete_memory(memory_id=...)``, one entry at a time by the id ``search_memory`` returns; it
does not say which session an entry came from, so a deleted session's memories still cannot be
found and removed by session (the timeline records whether the release has it). An application
that reads the session's event ids before deleting it can remove them one by one on 2.13.0
(``MemoryEntry.id`` is the event id there); this scenario does not count that as the fix the
thread asks for.

Replay: one user, two sessions on an ``InMemorySessionService``, each one question and one
scripted answer ("My favourite colour is teal." / "I live in Lisbon."); both sessions go into an
``InMemoryMemoryService``; the first session is deleted, and its memories are removed through the
service's session-scoped removal when it has one (``delete_session_memory``, PR #7175's API).
Then ``search_memory`` for "teal" and for "Lisbon".

Cases: ``deleted-session`` is the bug (the deleted session's text must no longer be served);
``other-session-kept`` is a control on the same replay (a removal that goes too far, such as
wiping the user's whole memory, would lose the other session's memories: ``reproduced`` there).

What the harness found: ``deleted-session`` reproduces on all 15 releases of its matrix (1.39.1,
the last 1.x, and the latest patch of every minor from 2.0 to 2.13.0, the latest), and the
bisect over every final release from 1.0.0 found no boundary (1.0.0 and 2.13.0 both reproduce:
the search for "teal" returns the deleted session's two events); ``other-session-kept`` holds on
all 15. 2.13.0's timeline differs from 2.12.0's only in ``per-entry delete_memory: yes``. The fixed
proof is PR #7175's ``delete_session_memory`` applied in process to the pinned 2.13.0. Outside
the harness, scenarios/repro/adk-memory-deleted-session--deleted-session.py prints the deleted
session's events found by ``search_memory`` on 1.1.1, 1.39.1, 2.0.0 and 2.13.0; the sources
agree (``InMemoryMemoryService`` keys its copies by session id and no release has a method that
drops them by session). #7109 (its comments date from 2026-09-14, when 2.9.0 was
current) and PR #7175 (2026-09-18) are open in the index: the bug is open on 2.13.0.
"""

from __future__ import annotations

import contextlib

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Scenario
from harness.runtime.timeline import Placeholders

TURNS = (
    ("My favourite colour is teal.", "Noted: your favourite colour is teal."),
    ("I live in Lisbon.", "Noted: you live in Lisbon."),
)
DELETED_WORD = "teal"
KEPT_WORD = "Lisbon"


async def replay() -> Observation:
    """Two sessions into memory, delete the first (and its memories where the service can), search both."""
    from google.adk.agents import LlmAgent
    from google.adk.memory import InMemoryMemoryService
    from google.adk.sessions import InMemorySessionService

    from harness.runtime.fakes import adk

    sessions = InMemorySessionService()
    memory = InMemoryMemoryService()
    ids = Placeholders()
    lines = []
    session_ids = []
    for question, answer in TURNS:
        llm = adk.ScriptedLlm(model="scripted", script=[adk.text(answer)])
        conversation = await adk.start(
            LlmAgent(name="assistant", model=llm, instruction="Acknowledge."), session_service=sessions
        )
        await conversation.send(question)
        session = await conversation.session()
        await memory.add_session_to_memory(session)
        session_ids.append(session.id)
        lines.append(f"{ids('session', session.id)} into memory: {len(session.events)} events")
    deleted = session_ids[0]
    await sessions.delete_session(app_name=adk.APP_NAME, user_id=adk.USER_ID, session_id=deleted)
    gone = await sessions.get_session(app_name=adk.APP_NAME, user_id=adk.USER_ID, session_id=deleted)
    lines.append(
        f"delete_session({ids('session', deleted)}): get_session now returns {'None' if gone is None else 'it'}"
    )
    removal = getattr(memory, "delete_session_memory", None)
    if removal is not None:
        await removal(app_name=adk.APP_NAME, user_id=adk.USER_ID, session_id=deleted)
    lines.append(
        "session-scoped memory removal: "
        + ("delete_session_memory called" if removal is not None else "none in this release")
        + f"; per-entry delete_memory: {'yes' if hasattr(memory, 'delete_memory') else 'no'}"
    )
    hits = {}
    for word in (DELETED_WORD, KEPT_WORD):
        response = await memory.search_memory(app_name=adk.APP_NAME, user_id=adk.USER_ID, query=word)
        found = [
            f"{m.author}: " + " ".join(adk.describe_part(p, ids) for p in (m.content.parts or []))
            for m in response.memories
        ]
        hits[word] = found
        lines.append(f"search_memory({word!r}): {len(found)} memories")
        lines += [f"  {line}" for line in found]
    return Observation(
        timeline=lines,
        facts={
            "session_gone": gone is None,
            "deleted_hits": len(hits[DELETED_WORD]),
            "kept_hits": len(hits[KEPT_WORD]),
        },
    )


def _figures(obs: Observation) -> str:
    return (
        f"after delete_session, search_memory({DELETED_WORD!r}) finds {obs.facts['deleted_hits']} memories of the "
        f"deleted session and search_memory({KEPT_WORD!r}) {obs.facts['kept_hits']} of the kept one"
    )


def judge(obs: Observation):
    """The deleted session's memories must be gone; the kept session's stay."""
    figures = _figures(obs)
    if not obs.facts["session_gone"] or obs.facts["kept_hits"] == 0:
        return unexpected(figures + ("" if obs.facts["session_gone"] else "; the session itself was not deleted"))
    if obs.facts["deleted_hits"] == 0:
        return fixed(figures)
    return reproduced(figures + ": the deleted conversation is still served from memory")


def judge_other_session_kept(obs: Observation):
    """Control: removing one session's memories leaves the other session's memories searchable."""
    figures = _figures(obs)
    if not obs.facts["session_gone"]:
        return unexpected(figures + "; the session itself was not deleted")
    if obs.facts["kept_hits"] == 0:
        return reproduced(figures + ": the kept session's memories were lost too")
    return fixed(figures)


# --- builds used to prove the oracles (tests only) ------------------------------------------


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

    InMemoryMemoryService.delete_session_memory = delete_session_memory  # type: ignore[attr-defined]
    try:
        yield
    finally:
        del InMemoryMemoryService.delete_session_memory  # type: ignore[attr-defined]


NO_REMOVAL = AsInstalled("the pinned release (2.13.0), unpatched: no session-scoped memory removal")
PR_7175 = InProcess(
    "PR #7175's delete_session_memory applied in process: it drops the session's copied events",
    _with_delete_session_memory,
)
WIPES_USER = InProcess(
    "a removal that goes too far, in process: delete_session_memory drops every memory of the user",
    lambda: _with_delete_session_memory(whole_user=True),
)


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _session_kept(obs: Observation) -> None:
    obs.facts["session_gone"] = False


def _kept_lost(obs: Observation) -> None:
    obs.facts["kept_hits"] = 0


EDGES = (
    Edge("unexpected", "the memories removed, but the session itself not deleted", _session_kept, PR_7175),
    Edge("unexpected", "the deleted session still served, and the kept one lost", _kept_lost, NO_REMOVAL),
)
CONTROL_EDGES = (
    Edge("unexpected", "the kept session's memories stay, but the session was not deleted", _session_kept, NO_REMOVAL),
)

SCENARIO = Scenario(
    id="adk-memory-deleted-session",
    framework="google-adk",
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
    cases=(
        Case(
            "deleted-session",
            replay,
            judge,
            {"reproduced": NO_REMOVAL, "fixed": PR_7175},
            "two sessions into memory, the first deleted: search for its words",
            edges=EDGES,
        ),
        Case(
            "other-session-kept",
            replay,
            judge_other_session_kept,
            {"reproduced": WIPES_USER, "fixed": NO_REMOVAL},
            "control: the kept session's memories stay searchable",
            control=True,
            edges=CONTROL_EDGES,
        ),
    ),
)
