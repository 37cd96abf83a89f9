# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==2.13.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-23T18:26:35Z"
# ///
# adk-memory-deleted-session:deleted-session. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   reproduced / reproduced: 1.39.1 (2026-08-27T21:55:07Z), 2.0.0 (2026-05-19T16:17:11Z),
#     2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z), 2.3.0 (2026-06-18T18:47:09Z),
#     2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z), 2.6.3 (2026-08-07T21:18:45Z),
#     2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z), 2.9.2 (2026-09-18T18:10:47Z),
#     2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z), 2.12.0 (2026-10-13T16:42:59Z),
#     2.13.0 (2026-10-23T18:26:35Z)
"""google-adk #7109: a session's memories outlive delete_session(); no session-scoped removal exists.

https://github.com/google/adk-python/issues/7109 (proposed fix: PR #7175, delete_session_memory).
Two sessions of one user ("My favourite colour is teal." / "I live in Lisbon.") are put into an
InMemoryMemoryService with add_session_to_memory; the first session is deleted with
delete_session(), and its memories removed with delete_session_memory() where the service has
it. The script then searches the memory for "teal" and for "Lisbon".

reproduced: the deleted session's events are still returned by search_memory("teal");
fixed: they are gone while the kept session's ("Lisbon") are still found.
Exit 0 fixed, 3 reproduced, 125 cannot judge.
"""

import asyncio
import sys

TURNS = [("My favourite colour is teal.", "Noted: teal."), ("I live in Lisbon.", "Noted: Lisbon.")]


async def main() -> int:
    from google.adk.events import Event
    from google.adk.memory import InMemoryMemoryService
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    sessions, memory = InMemorySessionService(), InMemoryMemoryService()
    ids = []
    for question, answer in TURNS:
        session = await sessions.create_session(app_name="repro", user_id="u")
        for author, role, text in (("user", "user", question), ("assistant", "model", answer)):
            content = types.Content(role=role, parts=[types.Part(text=text)])
            await sessions.append_event(session, Event(invocation_id="inv", author=author, content=content))
        await memory.add_session_to_memory(session)
        ids.append(session.id)
    await sessions.delete_session(app_name="repro", user_id="u", session_id=ids[0])
    print(
        "deleted session found afterwards:",
        await sessions.get_session(app_name="repro", user_id="u", session_id=ids[0]),
    )
    if hasattr(memory, "delete_session_memory"):  # PR #7175's API, where the release has it
        await memory.delete_session_memory(app_name="repro", user_id="u", session_id=ids[0])
        print("delete_session_memory called")
    else:
        print("this release has no session-scoped memory removal")
    found = {}
    for word in ("teal", "Lisbon"):
        result = await memory.search_memory(app_name="repro", user_id="u", query=word)
        found[word] = ["".join(p.text or "" for p in m.content.parts) for m in result.memories]
        print(f"search_memory({word!r}): {found[word]}")
    figures = f"{len(found['teal'])} memories of the deleted session, {len(found['Lisbon'])} of the kept one"
    if found["teal"] and found["Lisbon"]:
        print(f"verdict: reproduced ({figures})")
        return 3
    if not found["teal"] and found["Lisbon"]:
        print(f"verdict: fixed ({figures})")
        return 0
    print(f"verdict: cannot judge ({figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
