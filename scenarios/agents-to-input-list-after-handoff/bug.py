"""agents-to-input-list-after-handoff: what the harness needs beside repro.py."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Release

FIXED_NESTED = AsInstalled('the pinned release (0.24.0) with to_input_list(mode="normalized")')


def _user_message_lost(obs):
    obs.facts["seen"].pop("user message")


# Observations no build makes, one step across a line of the judge (nox -s mutants).
EDGES = (
    Edge("unexpected", "nothing repeated, but the user's message is missing", _user_message_lost, FIXED_NESTED),
    Edge(
        "unexpected",
        "nothing repeated or missing, but an item the run never made",
        lambda obs: obs.facts["seen"].update({"other a message nobody sent": 1}),
        FIXED_NESTED,
    ),
)

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/2258",
        "https://github.com/openai/openai-agents-python/pull/2667",
        "https://github.com/openai/openai-agents-python/pull/2272",
    ),
    description=(
        "After a run with a handoff and nested handoff history, result.to_input_list() returns the "
        "<CONVERSATION HISTORY> summary and also the raw items it summarises, so a follow-up run "
        "built from it sees the earlier tool and handoff calls twice."
    ),
    expected=(
        "The follow-up history holds each item of the run once: the user's message, every call and "
        "output, and the answer (in the summary or as an item, not both)."
    ),
    claims=Claim(
        pr="#2667",
        pr_state="merged",
        quote="This pull request resolves #2258 by adding a normalized view for `RunResult.to_input_list()`",
        source="PR #2667 thread (merged 2026-03-14; mode='normalized' is opt-in, commit e88bcf2e, first tag "
        "v0.12.2); issue #2258 still shown open",
    ),
    cases={
        "default-settings": CaseRole(
            "the thread's repro as written: RunConfig(), to_input_list()",
            reproduced=Release("openai-agents==0.6.9", "the last release with nested history on by default"),
            fixed=AsInstalled("the pinned release (0.24.0): nested history is opt-in since 0.7.0 (PR #2272)"),
        ),
        "nested-follow-up": CaseRole(
            'RunConfig(nest_handoff_history=True); to_input_list(mode="normalized") where the release has it',
            reproduced=Release("openai-agents==0.12.1", "the last release before PR #2667"),
            fixed=FIXED_NESTED,
            edges=EDGES,
        ),
    },
)
