"""google-adk #7109 control: removing a deleted session's memories keeps the other sessions' memories.

https://github.com/google/adk-python/issues/7109 (proposed fix: PR #7175, delete_session_memory).
Two sessions of one user ("My favourite colour is teal." / "I live in Lisbon.") are put into an
InMemoryMemoryService with add_session_to_memory; the first session is deleted with
delete_session(), and its memories removed with delete_session_memory() where the service has
it. The script then searches the memory for "teal" and for "Lisbon".

The behaviour beside the bug, which must hold on every release: reproduced (a removal that
went too far) when the kept session's memories ("Lisbon") are no longer found; fixed when they are.
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
    if found["Lisbon"]:
        print(f"verdict: fixed ({figures})")
        return 0
    if not found["Lisbon"]:
        print(f"verdict: reproduced ({figures}: the kept session's memories were lost)")
        return 3
    print(f"verdict: cannot judge ({figures})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
