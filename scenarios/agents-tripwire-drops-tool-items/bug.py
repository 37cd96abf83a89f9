"""agents-tripwire-drops-tool-items: what the harness needs beside repro.py."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Explanation, Release

AS_INSTALLED = AsInstalled("the pinned release (0.24.0) keeps the tool records when the tripwire fires (PR #4148)")
STREAMED_BUG = Release("openai-agents==0.19.2", "the last release before PR #4148")

BUG = Bug(
    explanations=(
        Explanation(
            "stop-on-first-tool",
            ">=0.2.0,<0.3.0",
            "The older design of 0.2.x: Runner.run wrote the whole run to the session in one call, "
            "only after the output guardrails passed, so a tripwire leaves nothing, not even the "
            "user's message; PR #1550 (0.3.0) saves each turn as it ends, and from there the case "
            "shows this bug (the user's message kept, the tool items dropped).",
        ),
    ),
    links=("https://github.com/openai/openai-agents-python/pull/4148",),
    description=(
        "When a tool's result is the final output (stop_on_first_tool, StopAtTools) and an output "
        "guardrail trips, the session keeps only the user's message: the call and output of a tool "
        "that already ran are not saved, so the next run can repeat the side effect."
    ),
    expected=(
        "After the tripwire the session holds the user's message, the function_call and its "
        "function_call_output (only the rejected output is withheld), streamed or not."
    ),
    claims=Claim(
        pr="#4148",
        pr_state="merged",
        quote="the turn's `function_call` / `function_call_output` pair is dropped from the session entirely",
        source="PR #4148 thread (merged 2026-08-03), 'fix: keep committed tool session records when a streamed "
        "output guardrail trips'; commit 04aaa50c, first tag v0.19.3",
    ),
    cases={
        "stop-on-first-tool-streamed": CaseRole(
            'Runner.run_streamed, tool_use_behavior="stop_on_first_tool", an output guardrail that trips',
            reproduced=STREAMED_BUG,
            fixed=AS_INSTALLED,
        ),
        "stop-at-tools-streamed": CaseRole(
            "the same with StopAtTools(stop_at_tool_names=['book_flight'])",
            reproduced=STREAMED_BUG,
            fixed=AS_INSTALLED,
        ),
        "stop-on-first-tool": CaseRole(
            "the same through Runner.run (the thread's 'Runner.run does not have this problem')",
            reproduced=Release("openai-agents==0.7.0", "the last release before the runner rewrite of 0.8.0"),
            fixed=AS_INSTALLED,
        ),
    },
)
