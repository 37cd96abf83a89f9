# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: memories copied from a session outlive delete_session(); no session-scoped removal exists.

Upstream: https://github.com/google/adk-python/issues/7109 (open) and PR #7175 (open):
https://github.com/google/adk-python/pull/7175. add_session_to_memory(session) copies the session's
events into the memory service; delete_session() removes the session, but search_memory still finds
the deleted conversation, and BaseMemoryService has no way to remove a session's memories. PR #7175
proposes BaseMemoryService.delete_session_memory(*, app_name, user_id, session_id). A per-entry
delete_memory(memory_id=...), where a release has it, does not say which session an entry came
from: this script does not count it as the fix the thread asks for (it prints whether it exists).

Nothing is faked: one user, two sessions on an InMemorySessionService, each one question and one
answer appended as events ("My favourite colour is teal." / "I live in Lisbon."), both put into an
InMemoryMemoryService; the first session is deleted, and its memories removed with
delete_session_memory where the service has it. Then search_memory for "teal" and for "Lisbon".
`deleted-session` is the bug; `other-session-kept` is a control on the same replay (a removal that
wipes the user's whole memory loses the kept session's: reproduced there). Prints each step and the
memories each search finds.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

CASES = {"deleted-session": dict(control=False), "other-session-kept": dict(control=True)}
TURNS = (
    ("My favourite colour is teal.", "Noted: your favourite colour is teal."),
    ("I live in Lisbon.", "Noted: you live in Lisbon."),
)
SCOPE = dict(app_name="app", user_id="user")


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, control):
    """Two sessions into memory, delete the first (and its memories where the service can), search both."""
    from google.adk.events import Event
    from google.adk.memory import InMemoryMemoryService
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    sessions, memory, ids = InMemorySessionService(), InMemoryMemoryService(), []
    for question, answer in TURNS:
        session = await settled(sessions.create_session(**SCOPE))
        for author, role, text in (("user", "user", question), ("assistant", "model", answer)):
            content = types.Content(role=role, parts=[types.Part(text=text)])
            await settled(sessions.append_event(session, Event(invocation_id="inv", author=author, content=content)))
        await settled(memory.add_session_to_memory(session))
        ids.append(session.id)
        say(f"session {session.id} into memory: {len(session.events)} events")
    await settled(sessions.delete_session(**SCOPE, session_id=ids[0]))
    gone = await settled(sessions.get_session(**SCOPE, session_id=ids[0])) is None
    say(f"delete_session({ids[0]}): get_session now returns {'None' if gone else 'it'}")
    removal = getattr(memory, "delete_session_memory", None)
    if removal is not None:
        await removal(**SCOPE, session_id=ids[0])
    say(
        "session-scoped memory removal: "
        + ("delete_session_memory called" if removal is not None else "none in this release")
        + f"; per-entry delete_memory: {'yes' if hasattr(memory, 'delete_memory') else 'no'}"
    )
    hits = {}
    for word in ("teal", "Lisbon"):
        memories = (await settled(memory.search_memory(**SCOPE, query=word))).memories
        # 0.x returns a MemoryResult per session holding its matched events (memory/base_memory_service.py);
        # 1.x a MemoryEntry per event: each matched event is one memory here.
        found = [e for m in memories for e in (m.events if hasattr(m, "events") else [m])]
        hits[word] = len(found)
        say(f"search_memory({word!r}): {len(found)} memories")
        for m in found:
            say(f"  {m.author}: {' '.join(repr(p.text) for p in m.content.parts or [])}")
    return dict(control=control, session_gone=gone, deleted_hits=hits["teal"], kept_hits=hits["Lisbon"])


def judge(facts):
    """(outcome, detail): the deleted session's memories are gone; the kept session's stay (the control)."""
    figures = (
        f"after delete_session, search_memory('teal') finds {facts['deleted_hits']} memories of the "
        f"deleted session and search_memory('Lisbon') {facts['kept_hits']} of the kept one"
    )
    if not facts["session_gone"]:
        return "unexpected", figures + "; the session itself was not deleted"
    if facts["control"]:
        lost = facts["kept_hits"] == 0
        return ("reproduced", figures + ": the kept session's memories were lost too") if lost else ("fixed", figures)
    if facts["kept_hits"] == 0:
        return "unexpected", figures
    if facts["deleted_hits"] == 0:
        return "fixed", figures
    return "reproduced", figures + ": the deleted conversation is still served from memory"


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
