# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: InMemoryMemoryService.search_memory finds nothing for Korean, Cyrillic or Japanese text.

Upstream: https://github.com/google/adk-python/issues/5501 (PRs #5502, #5504), its sequel
https://github.com/google/adk-python/issues/5601, and the older
https://github.com/google/adk-python/issues/2438. `_extract_words_lower` in
memory/in_memory_memory_service.py tokenised with `[A-Za-z]+`, so a conversation in any other
script has no words and no query can find it (#5501). With a `\\w+` tokenizer, space-separated
scripts match, but Japanese and Chinese are written without spaces: a whole clause is one token and
a keyword query such as 太郎 still matches nothing (#5601; PR #5502 adds a containment fallback for
non-ASCII query words).

Nothing is faked: one session on an InMemorySessionService with one user event and one model reply,
put into an InMemoryMemoryService, then one search_memory call. Prints the stored event, the query
and the memories found. The cases: `cyrillic` and `korean` (space-separated scripts), `japanese`
(a keyword inside a clause with no spaces) are the bug; `english` is a control; `latin-in-japanese`
(an English word written inside a Japanese clause, which the ASCII tokenizer did find) and
`no-shared-word` (a Japanese query sharing only the particle の with the memory must find
nothing) are non-regressions: a fix may not lose what the old tokenizer found, nor match any event
that shares a single character with the query.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

# case -> what the user said (stored in memory), the search query, and whether it must be found
CASES = {
    "cyrillic": dict(said="Меня зовут Алексей.", query="алексей", found=True),
    "korean": dict(said="제 이름은 민수 입니다.", query="민수", found=True),
    "japanese": dict(said="私の名前は太郎です。", query="太郎", found=True),
    "english": dict(said="My name is Taro.", query="taro", found=True),
    "latin-in-japanese": dict(said="私はPythonを使います。", query="Python", found=True),
    "no-shared-word": dict(said="私の名前は太郎です。", query="花子の猫", found=False),  # only the particle の shared
}
REPLY = "OK."  # the model's reply, stored beside the user's event: ASCII, so it never matches a query
SCOPE = dict(app_name="app", user_id="user")


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, said, query, found):
    """Put one conversation into memory, search it once; say what was stored and what was found."""
    from google.adk.events import Event
    from google.adk.memory import InMemoryMemoryService
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    sessions, memory = InMemorySessionService(), InMemoryMemoryService()
    session = await settled(sessions.create_session(**SCOPE))
    for author, role, text in (("user", "user", said), ("assistant", "model", REPLY)):
        content = types.Content(role=role, parts=[types.Part(text=text)])
        await settled(sessions.append_event(session, Event(invocation_id="inv", author=author, content=content)))
        say(f"stored {author}: {text!r}")
    await settled(memory.add_session_to_memory(session))
    memories = (await settled(memory.search_memory(**SCOPE, query=query))).memories
    # 0.x returns a MemoryResult per session holding its matched events (memory/base_memory_service.py);
    # 1.x a MemoryEntry per event: each matched event is one memory here.
    entries = [e for m in memories for e in (m.events if hasattr(m, "events") else [m])]
    say(f"search_memory({query!r}): {len(entries)} memories")
    texts = []
    for m in entries:
        text = " ".join(p.text for p in m.content.parts or [] if p.text)
        texts.append(text)
        say(f"  {m.author}: {text!r}")
    return dict(query=query, said=said, expected_found=found, found=texts)


def judge(facts):
    """(outcome, detail): the user's event found when it shares a word with the query, nothing otherwise."""
    hits, said, query = facts["found"], facts["said"], facts["query"]
    figures = f"search_memory({query!r}) found {len(hits)} memories; stored {said!r}"
    if facts["expected_found"]:
        if hits == [said]:
            return "fixed", figures
        if not hits:
            return "reproduced", figures + ", which contains the query's word"
        return "unexpected", figures + f": {hits}"
    if not hits:
        return "fixed", figures + ", which shares no word with the query"
    return "reproduced", figures + ": a memory sharing no word with the query was returned"


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
