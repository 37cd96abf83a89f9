"""agents-usage-requests-without-usage: what the harness needs beside repro.py."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, Release

FIXED = AsInstalled("the pinned release counts a completed request without usage")
CHAT_BUGGY = Release("openai-agents==0.19.4", "the last release before #4290 (Chat Completions: Usage() without usage)")
RESPONSES_BUGGY = Release("openai-agents==0.21.0", "the last release before #4453 (Responses: Usage() without usage)")

# An observation no build makes, one step across the judge's line (nox -s mutants).
ANOTHER_ANSWER = Edge(
    "unexpected",
    "both requests served, but the run ends with another answer",
    lambda obs: obs.facts.update(final_output="Something else entirely."),
    FIXED,
)

ONE_COUNTED = Edge(
    "reproduced",
    "two requests served, only one counted: still an undercount",
    lambda obs: obs.facts.update(requests=1, turn_requests=[1, 0]),
    FIXED,
)

BUG = Bug(
    explanations=(
        Explanation(
            "chat-completions*",
            "==0.2.5",
            "openai-agents 0.2.5 cannot build a Chat Completions tool-call message with the openai "
            "package it resolves (openai 1.99.2, published hours before it, made "
            "ChatCompletionMessageToolCallParam a Union: \"TypeError: Cannot instantiate typing.Union\""
            " before any request): an incompatibility with a dependency, "
            "openai/openai-agents-python#1417 (PR #1415 raised the floor to openai>=1.99.2; 0.2.6 "
            "works); with openai==1.99.1 the release gives the neighbouring releases' verdicts.",
        ),
    ),
    links=(
        "https://github.com/openai/openai-agents-python/pull/4281",
        "https://github.com/openai/openai-agents-python/pull/4290",
        "https://github.com/openai/openai-agents-python/pull/4444",
        "https://github.com/openai/openai-agents-python/pull/4453",
    ),
    description=(
        "When a provider's response carries no usage block, OpenAIChatCompletionsModel and "
        "OpenAIResponsesModel report Usage() for the turn, so usage.requests stays 0 for a run "
        "that made real API calls."
    ),
    expected=(
        "Every completed model request counts once in usage.requests, with or without a usage block; "
        "no tokens are invented."
    ),
    claims=Claim(
        pr="#4290 / #4453",
        pr_state="merged",
        quote="This pull request takes over and completes the work started in #4281.",
        source="PR #4290 thread (merged; first tag v0.20.0) and #4453 (merged, 'takes over and completes #4444'; "
        "v0.21.1); #4281 and #4444 shown closed",
    ),
    cases={
        "chat-completions": CaseRole(
            "OpenAIChatCompletionsModel, Runner.run, two chat.completion replies without usage",
            reproduced=CHAT_BUGGY, fixed=FIXED, edges=(ANOTHER_ANSWER, ONE_COUNTED),
        ),
        "chat-completions-streamed": CaseRole(
            "OpenAIChatCompletionsModel, Runner.run_streamed, two chunk streams with no usage chunk",
            reproduced=CHAT_BUGGY, fixed=FIXED,
        ),
        "responses": CaseRole(
            "OpenAIResponsesModel, Runner.run, two responses with usage null",
            reproduced=RESPONSES_BUGGY, fixed=FIXED,
        ),
        "responses-streamed": CaseRole(
            "OpenAIResponsesModel, Runner.run_streamed, response.completed with usage null",
            reproduced=RESPONSES_BUGGY, fixed=FIXED,
        ),
    },
)  # fmt: skip
