"""agents-parallel-tool-calls-setting: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import dataclasses
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def drop_setting() -> Iterator[None]:
    """OpenAIResponsesModel is handed ModelSettings without parallel_tool_calls (what the control must never show)."""
    from agents import OpenAIResponsesModel

    original = OpenAIResponsesModel.get_response

    async def get_response(self, system_instructions, input, model_settings, *args, **kwargs):
        cleared = dataclasses.replace(model_settings, parallel_tool_calls=None)
        return await original(self, system_instructions, input, cleared, *args, **kwargs)

    OpenAIResponsesModel.get_response = get_response  # type: ignore[method-assign]
    try:
        yield
    finally:
        OpenAIResponsesModel.get_response = original  # type: ignore[method-assign]


FIXED = AsInstalled("the pinned release sends the setting wherever the request offers tools")
# Observations no build makes, one step across the judge's lines (nox -s mutants).
EDGES = (
    Edge("unexpected", "the fake served a second request", lambda obs: obs.facts.update(served=2)),
    Edge("unexpected", "the run ended with another answer", lambda obs: obs.facts.update(final_output="Bye.")),
    Edge("unexpected", "the request offered no tools at all", lambda obs: obs.facts.update(offered=0)),
    Edge("unexpected", "the request carried the opposite setting", lambda obs: obs.facts.update(sent=True)),
)  # fmt: skip
NO_TOOLS_EDGES = (
    Edge("unexpected", "a request meant to offer no tools offered one", lambda obs: obs.facts.update(offered=1)),
    Edge("unexpected", "no tools, and the opposite setting was sent", lambda obs: obs.facts.update(sent=True)),
    Edge("reproduced", "no tools, and the False setting was sent anyway", lambda obs: obs.facts.update(sent=False)),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/pull/333",
        "https://github.com/openai/openai-agents-python/pull/513",
        "https://github.com/openai/openai-agents-python/pull/4359",
        "https://github.com/openai/openai-agents-python/pull/4405",
    ),
    description=(
        "The request OpenAIResponsesModel / OpenAIChatCompletionsModel sends does not carry the agent's "
        "ModelSettings(parallel_tool_calls=...): an explicit False is omitted (so the API default, true, "
        "applies); an explicit True is omitted for an agent whose only tools are handoffs; a False is sent "
        "in a Chat Completions request without tools, which that API rejects."
    ),
    expected=(
        "Whenever the request offers the model tools (function tools or handoffs) it carries the explicit "
        "setting; a request without tools carries no parallel_tool_calls."
    ),
    claims=Claim(
        pr="#333 / #513 / #4405",
        pr_state="merged",
        quote="the responses API is called with `parallel_tool_calls == NotGiven`, which defaults to true",
        source="PR #333 thread (merged; 'Thanks for fixing!'), first tag v0.0.7; #513 (merged) the same for Chat "
        "Completions, v0.0.10; #4405 (merged) derives it from the converted tools, v0.21.0; #4359 landed "
        "as 23da2b62, v0.20.0",
    ),
    cases={
        "responses": CaseRole(
            "OpenAIResponsesModel, a function tool, ModelSettings(parallel_tool_calls=False) (PR #333)",
            reproduced=Release("openai-agents==0.0.6", "the last release before PR #333"),
            fixed=Release("openai-agents==0.0.7", "the first release with PR #333"),
            edges=EDGES,
        ),
        "chat-completions": CaseRole(
            "OpenAIChatCompletionsModel, a function tool, ModelSettings(parallel_tool_calls=False) (PR #513)",
            reproduced=Release("openai-agents==0.0.9", "the last release before PR #513"),
            fixed=Release("openai-agents==0.0.10", "the first release with PR #513"),
        ),
        "responses-handoff-only": CaseRole(
            "OpenAIResponsesModel, only a handoff, ModelSettings(parallel_tool_calls=True) (PR #4405)",
            reproduced=Release("openai-agents==0.20.0", "the last release before PR #4405"),
            fixed=Release("openai-agents==0.21.0", "the first release with PR #4405"),
        ),
        "chat-completions-handoff-only": CaseRole(
            "OpenAIChatCompletionsModel, only a handoff, ModelSettings(parallel_tool_calls=True) (PR #4359)",
            reproduced=Release("openai-agents==0.19.4", "the last release before PR #4359"),
            fixed=Release("openai-agents==0.20.0", "the first release with PR #4359"),
        ),
        "chat-completions-no-tools": CaseRole(
            "OpenAIChatCompletionsModel, no tools, ModelSettings(parallel_tool_calls=False): the fix for False "
            "must not send the field where the API rejects it (PR #4359)",
            reproduced=Release("openai-agents==0.19.4", "#513 sends False without tools until PR #4359"),
            fixed=Release("openai-agents==0.20.0", "the first release with PR #4359"),
            non_regression=True,
            edges=NO_TOOLS_EDGES,
        ),
        "control-true": CaseRole(
            "OpenAIResponsesModel, a function tool, ModelSettings(parallel_tool_calls=True): sent on every release",
            reproduced=InProcess("OpenAIResponsesModel handed settings with parallel_tool_calls cleared", drop_setting),
            fixed=FIXED,
            control=True,
        ),
    },
)  # fmt: skip
