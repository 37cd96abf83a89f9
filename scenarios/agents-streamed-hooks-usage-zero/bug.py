"""agents-streamed-hooks-usage-zero: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release


@contextlib.contextmanager
def usage_outlives_the_run() -> Iterator[None]:
    """AgentRunner.run_streamed gives every streamed run one Usage, kept between runs (a fix gone too far: the
    usage lives where it outlives a run)."""
    from agents.run import AgentRunner

    original = AgentRunner.run_streamed
    kept = []

    def run_streamed(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        kept.append(result.context_wrapper.usage)
        result.context_wrapper.usage = kept[0]  # the run loop starts later, on the event loop
        return result

    AgentRunner.run_streamed = run_streamed  # type: ignore[method-assign]
    try:
        yield
    finally:
        AgentRunner.run_streamed = original  # type: ignore[method-assign]


@contextlib.contextmanager
def usage_never_added() -> Iterator[None]:
    """Usage.add does nothing, so no run counts any response (what the control must never show)."""
    from agents.usage import Usage

    original = Usage.add
    Usage.add = lambda self, other: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        Usage.add = original  # type: ignore[method-assign]


def facts(**changes):
    """An edge's alteration: these facts changed."""
    return lambda obs: obs.facts.update(**changes)


def seen(*ends):
    """Each run's hooks, with on_agent_end seeing these usages."""
    return [[("on_agent_start", (0, 0, 0)), ("on_agent_end", end)] for end in ends]


TWO_TURNS = [(1, 40, 4), (1, 60, 6)]
TOTAL = (2, 100, 10)
REPORTED = Release("openai-agents==0.0.12", "the release issue #594 names: the hooks see no usage")
LAST_BUGGY = Release("openai-agents==0.0.13", "the last release before PR #595: the hooks see no usage")
FIXED = Release("openai-agents==0.0.14", "the first release with PR #595 (8fd7773a5): the streamed loop adds it")
PINNED = AsInstalled("the pinned release counts each streamed run's own usage")
# Observations no build makes, one step across the judge's lines (nox -s mutants).
COMMON_EDGES = (
    Edge("unexpected", "the run raised", facts(error="RuntimeError: boom")),
    Edge("unexpected", "one request more than the turns", facts(served=3)),
    Edge("unexpected", "another answer", facts(answers=["?"])),
    Edge("unexpected", "a response without its usage", facts(turns=[[(1, 40, 4), (0, 0, 0)]])),
)  # fmt: skip
ONE_RUN_EDGES = (
    *COMMON_EDGES,
    Edge("reproduced", "on_agent_end saw no usage", facts(seen=seen((0, 0, 0)))),
    Edge("unexpected", "on_agent_end saw one response's usage", facts(seen=seen((1, 60, 6)))),
    Edge("unexpected", "on_agent_end saw each response twice", facts(seen=seen((4, 200, 20)))),
    Edge("unexpected", "on_agent_end saw no requests but the tokens", facts(seen=seen((0, 100, 10)))),
)  # fmt: skip
TWO_RUN_EDGES = (
    Edge("unexpected", "the second run raised", facts(error="RuntimeError: boom")),
    Edge("unexpected", "a request too few", facts(served=3)),
    Edge("unexpected", "the second run answered otherwise", facts(answers=["It is sunny in Paris.", "?"])),
    Edge("unexpected", "a response of the second run without its usage",
         facts(turns=[TWO_TURNS, [(1, 40, 4), (0, 0, 0)]])),
    Edge("reproduced", "the second run saw the first's usage too", facts(seen=seen(TOTAL, (4, 200, 20)))),
    Edge("fixed", "both runs saw no usage (the streamed bug)", facts(seen=seen((0, 0, 0), (0, 0, 0)))),
    Edge("unexpected", "the second run saw less than the first", facts(seen=seen(TOTAL, (1, 40, 4)))),
    Edge("unexpected", "the second run saw the first's tokens but not its requests",
         facts(seen=seen(TOTAL, (2, 200, 20)))),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/594",
        "https://github.com/openai/openai-agents-python/pull/595",
    ),
    description=(
        "In Runner.run_streamed the streamed loop builds each turn's ModelResponse with the usage of its "
        "response.completed event but never adds it to the run's RunContextWrapper, so every RunHooks callback "
        "(on_agent_end included) sees context.usage at zero requests and zero tokens; Runner.run adds it."
    ),
    expected=(
        "The streamed run's context accumulates each response's usage, as Runner.run's does: on_agent_end of a "
        "two-turn run sees two requests and both responses' tokens."
    ),
    claims=Claim(
        pr="#595",
        pr_state="merged",
        quote="When using `openai-agents-python` with `Runner.run_streamed`, the `context.usage` values in the "
        "hooks (`input_tokens`, `output_tokens`, `total_tokens`, `requests`) are always `0`.",
        source="issue #594 (v0.0.12, closed) and PR #595 'Add usage to context in streaming' (merged "
        "2025-04-24 as 8fd7773a5); neither names a release with the fix",
    ),
    explanations=(
        Explanation(
            "chat-streamed",
            "<0.0.4",
            "The streamed Chat Completions model puts the provider's CompletionUsage in its response.completed "
            "event and the runner reads usage.input_tokens from it: the run fails with AttributeError before any "
            "hook could see the usage (another bug, fixed in 0.0.4's openai_chatcompletions.py, which converts it "
            "to the Responses usage).",
        ),
    ),
    cases={
        "responses-streamed": CaseRole(
            "run_streamed with OpenAIResponsesModel, two turns: on_agent_end sees both responses' usage",
            reproduced=REPORTED, fixed=FIXED, edges=ONE_RUN_EDGES,
        ),
        "chat-streamed": CaseRole(
            "run_streamed with OpenAIChatCompletionsModel and include_usage: on_agent_end sees both responses' usage",
            reproduced=LAST_BUGGY, fixed=FIXED, edges=ONE_RUN_EDGES,
        ),
        "two-streamed-runs-own-usage": CaseRole(
            "a fix must count each streamed run's own usage: of two runs in turn with one agent and hooks, the "
            "second's on_agent_end sees what the first's saw",
            reproduced=InProcess("every streamed run shares one Usage", usage_outlives_the_run),
            fixed=PINNED, non_regression=True, edges=TWO_RUN_EDGES,
        ),
        "control-run": CaseRole(
            "control: Runner.run, two turns: on_agent_end sees both responses' usage",
            reproduced=InProcess("Usage.add does nothing", usage_never_added),
            fixed=AsInstalled("every release counts Runner.run's usage"),
            control=True, edges=ONE_RUN_EDGES,
        ),
    },
)  # fmt: skip
