"""adk-memory-search-non-ascii: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _tokenizer(tokens) -> Iterator[None]:
    """The pinned release's ``_extract_words_lower`` (private; the search's tokenizer) replaced by ``tokens``."""
    from google.adk.memory import in_memory_memory_service as module

    original = module._extract_words_lower
    module._extract_words_lower = tokens
    try:
        yield
    finally:
        module._extract_words_lower = original


ASCII_ONLY = Release("google-adk==2.2.0", "the last release tokenising with `[A-Za-z]+` (#5501's tokenizer)")
UNICODE_WORDS = Release("google-adk==2.3.0", "the first release tokenising with `\\w+`")
NO_CONTAINMENT = Release(
    "google-adk==2.7.1", "the last `\\w+` release without a containment match for a non-ASCII query word"
)
CONTAINMENT = Release(
    "google-adk==2.8.0", "the first release matching a non-ASCII query word contained in the event's text"
)
NO_SCRIPT_SPLIT = Release(
    "google-adk==2.9.2",
    "the last release where a Latin word written inside a Japanese clause is only part of a `\\w+` token",
)
SCRIPT_SPLIT = Release(
    "google-adk==2.10.0", "the first release splitting a mixed-script token into its single-script runs"
)
PINNED = AsInstalled("the pinned release (2.13.0)")
NO_TOKENS = InProcess("the tokenizer broken in process: no text has a word", lambda: _tokenizer(lambda text: set()))
CHARACTERS = InProcess(
    "a fix that goes too far, in process: every character is a word, so one shared character matches",
    lambda: _tokenizer(lambda text: set(text.lower()) - set(" 。.")),
)


def _found(texts):
    return lambda obs: obs.facts.update(found=list(texts))


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/5501",
        "https://github.com/google/adk-python/pull/5502",
        "https://github.com/google/adk-python/pull/5504",
        "https://github.com/google/adk-python/issues/5601",
        "https://github.com/google/adk-python/issues/2438",
    ),
    description=(
        "InMemoryMemoryService.search_memory returns nothing for a conversation in Korean, Cyrillic or "
        "Japanese: its tokenizer keeps ASCII letters only (#5501); with a `\\w+` tokenizer a keyword "
        "inside a Japanese clause written without spaces still matches nothing (#5601)."
    ),
    expected=(
        "A memory containing the query's word is returned, in any script; a memory sharing no word with "
        "the query is not; an English word inside a Japanese clause stays findable."
    ),
    claims=Claim(
        pr="#5502",
        pr_state="closed",
        source="issue #5501: triage asked the reporter to retest on google-adk==1.32.0 (not a claim that it is "
        "fixed there), then closed it as stale; PRs #5502 and #5504 shown closed",
    ),
    range_notes=(
        "An English word written inside a Japanese clause (`latin-in-japanese`) was found by the "
        "ASCII-only tokenizer, lost from 2.3.0 (`\\w+` makes the clause one token) and found again from 2.10.0.",
    ),
    cases={
        "cyrillic": CaseRole(
            "'Меня зовут Алексей.' stored; search 'алексей'",
            reproduced=ASCII_ONLY,
            fixed=UNICODE_WORDS,
            edges=(
                Edge("unexpected", "the search returned another memory", _found(["OK."]), UNICODE_WORDS),
                Edge(
                    "unexpected",
                    "the search returned the memory twice",
                    _found(["Меня зовут Алексей."] * 2),
                    UNICODE_WORDS,
                ),
            ),
        ),
        "korean": CaseRole(
            "'제 이름은 민수 입니다.' stored; search '민수'", reproduced=ASCII_ONLY, fixed=UNICODE_WORDS
        ),
        "japanese": CaseRole(
            "'私の名前は太郎です。' stored (no spaces); search the keyword '太郎'",
            reproduced=NO_CONTAINMENT,
            fixed=CONTAINMENT,
        ),
        "english": CaseRole(
            "control: 'My name is Taro.' stored; search 'taro'",
            reproduced=NO_TOKENS,
            fixed=PINNED,
            control=True,
        ),
        "latin-in-japanese": CaseRole(
            "'私はPythonを使います。' stored; search 'Python' (the ASCII tokenizer found it)",
            reproduced=NO_SCRIPT_SPLIT,
            fixed=SCRIPT_SPLIT,
            non_regression=True,
        ),
        "no-shared-word": CaseRole(
            "'私の名前は太郎です。' stored; search '花子の猫', which shares only the particle の: nothing found",
            reproduced=CHARACTERS,
            fixed=PINNED,
            non_regression=True,
        ),
    },
)
