"""agents-run-hooks-llm-calls: what the harness needs beside repro.py."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Release

UNFIXED = Release("openai-agents==0.2.10", "the last release before PR #1619")
FIX = AsInstalled("the pinned release (0.24.0) calls the run hooks' on_llm_start/on_llm_end (PR #1619, from 0.2.11)")

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/1612",
        "https://github.com/openai/openai-agents-python/pull/1619",
        "https://github.com/openai/openai-agents-python/issues/1909",
    ),
    description=(
        "A RunHooks passed to Runner.run / Runner.run_streamed gets on_agent_start, on_tool_start and "
        "the rest, but on_llm_start and on_llm_end are never called: the runner calls only the "
        "agent's own hooks around a model call."
    ),
    expected=(
        "The run hooks get on_llm_start before and on_llm_end after every model call, in lifecycle "
        "order with the other hooks, streamed or not, and for each agent of a handoff."
    ),
    claims=Claim(
        pr="#1619",
        pr_state="merged",
        quote="on_llm_start and on_llm_end now emit from Runner.run() consistently in both streaming and non-streaming",
        source="PR #1619 (merged), 'fix(run): fire on_llm_start / on_llm_end in Runner.run()'",
    ),
    cases={
        "run": CaseRole(
            "Runner.run: the model calls a tool, then answers (issue #1612)", reproduced=UNFIXED, fixed=FIX
        ),
        "streamed": CaseRole("the same through Runner.run_streamed", reproduced=UNFIXED, fixed=FIX),
        "handoff": CaseRole(
            "Runner.run: Triage hands off to Expert, which answers (issue #1909)", reproduced=UNFIXED, fixed=FIX
        ),
    },
)
