"""agents-nested-handoff-4hop: what the harness needs beside repro.py."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Release

BUGGY = Release(
    "openai-agents==0.18.3", "the last release before 0.19.0's nested-history rewrite (agents/handoffs/history.py)"
)
FIXED = AsInstalled("the pinned release (0.24.0) nests without repeating forwarded messages")


def _a_lost(obs):
    obs.facts["summaries"] = [s.replace("A: msg", "") for s in obs.facts["summaries"]]
    obs.facts["verbatim"] = obs.facts["verbatim"].replace("A: msg", "")


def _a_in_two_blocks(obs):
    _a_lost(obs)
    obs.facts["summaries"] = [obs.facts["summaries"][0] + "\nA: msg", *obs.facts["summaries"][1:], "A: msg"]


BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/pull/3791",
        "https://github.com/openai/openai-agents-python/issues/2171",
    ),
    description=(
        "With nest_handoff_history=True, a chain of handoffs A -> B -> C -> D gives D a "
        "<CONVERSATION HISTORY> summary that lists each earlier agent's message twice: the "
        "verbatim-forwarded copy is summarised again at the next hop, compounding per hop."
    ),
    expected=(
        "No summary block repeats a record, and each earlier agent's message reaches the last "
        "agent (in the summary, or forwarded verbatim) and at most once across the summaries; "
        "two agents that say identical text are both kept."
    ),
    claims=Claim(
        pr="#3791",
        pr_state="closed unmerged",
        quote="each agent's own pre-handoff message is listed twice inside the downstream `<CONVERSATION HISTORY>`",
        source="PR #3791 thread (the seed, 2026-07-10) shown closed; its commit 511e0e2c is on no branch or tag of "
        "the mirror (to v0.22.0), no '(#3791)' commit there",
    ),
    cases={
        "nested-4hop": CaseRole(
            "Runner.run, RunConfig(nest_handoff_history=True), A -> B -> C -> D as in the seed",
            reproduced=BUGGY, fixed=FIXED,
            edges=(
                Edge("unexpected", "no block repeats a record, but A's message never reaches D", _a_lost),
                Edge("unexpected", "no block repeats a record, but A's message is in two summary blocks",
                     _a_in_two_blocks),
            ),
        ),
        "nested-4hop-streamed": CaseRole(
            "the same chain through Runner.run_streamed, consuming stream_events()",
            reproduced=BUGGY, fixed=FIXED,
        ),
        "identical-messages-kept": CaseRole(
            "A and B say byte-identical text with one message id: D must see it exactly twice",
            reproduced=BUGGY, fixed=FIXED,
            edges=(
                Edge("reproduced", "the identical message reaches D three times: still the over-count",
                     lambda obs: obs.facts.update(verbatim=obs.facts["verbatim"] + "\nsame text")),
            ),
        ),
    },
)  # fmt: skip
