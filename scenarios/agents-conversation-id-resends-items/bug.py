"""agents-conversation-id-resends-items: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def drop_history() -> Iterator[None]:
    """OpenAIResponsesModel sends only the newest input item (what the control must never show)."""
    from agents import OpenAIResponsesModel

    original = OpenAIResponsesModel.get_response

    async def get_response(self, system_instructions, input, *args, **kwargs):
        return await original(
            self, system_instructions, input[-1:] if isinstance(input, list) else input, *args, **kwargs
        )

    OpenAIResponsesModel.get_response = get_response  # type: ignore[method-assign]
    try:
        yield
    finally:
        OpenAIResponsesModel.get_response = original  # type: ignore[method-assign]


@contextlib.contextmanager
def drop_repeated_outputs() -> Iterator[None]:
    """The server-conversation tracker drops a tool output whose text it already sent (a fix gone too far:
    an identical output of a new call looks already sent)."""
    from agents.run_internal.oai_conversation import OpenAIServerConversationTracker

    original = OpenAIServerConversationTracker.prepare_input

    def prepare_input(self, *args, **kwargs):
        seen = self.__dict__.setdefault("_outputs_seen", set())
        kept = []
        for item in original(self, *args, **kwargs):
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                if str(item.get("output")) in seen:
                    continue
                seen.add(str(item.get("output")))
            kept.append(item)
        return kept

    OpenAIServerConversationTracker.prepare_input = prepare_input  # type: ignore[method-assign]
    try:
        yield
    finally:
        OpenAIServerConversationTracker.prepare_input = original  # type: ignore[method-assign]


BUGGY = Release("openai-agents==0.3.3", "the last release before PR #1827")
FIXED = Release("openai-agents==0.4.0", "the first release with PR #1827")


def second(obs):
    """Request 2 of an observation."""
    return obs.facts["requests"][1]


def third_request(obs):
    """A further request the run should not have made."""
    n = len(obs.facts["requests"])
    obs.facts["requests"].append(
        dict(conversation=None, previous=f"resp_{n}", input=[f"function_call_output call_{n}"])
    )


def only_one_request(obs):
    """The run stopped after its first request."""
    del obs.facts["requests"][1:]


# Observations no build makes, one step across the judge's lines (nox -s mutants).
EDGES = (
    Edge(
        "reproduced",
        "request 2 resent only the user's message",
        lambda obs: second(obs)["input"].insert(0, "user message 'Look up order 42.'"),
    ),
    Edge("unexpected", "only one request", only_one_request),
    Edge(
        "unexpected",
        "the first request lacked the user's message",
        lambda obs: obs.facts["requests"][0].update(input=[]),
    ),
    Edge(
        "unexpected", "nothing resent, but the run raised", lambda obs: obs.facts.update(error="BadRequestError: boom")
    ),
    Edge(
        "unexpected", "nothing resent, but request 2 lacked the tool output", lambda obs: second(obs).update(input=[])
    ),
    Edge(
        "reproduced",
        "request 2 resent the function call",
        lambda obs: second(obs)["input"].insert(0, "function_call fc_1"),
    ),
)
CONVERSATION_EDGES = (
    *EDGES,
    Edge("unexpected", "request 2 did not carry the conversation", lambda obs: second(obs).update(conversation=None)),
    Edge("unexpected", "a third request", third_request),
)
PREVIOUS_EDGES = (
    Edge(
        "unexpected",
        "nothing resent, but request 2 chained to the caller's response",
        lambda obs: second(obs).update(previous="resp_0"),
    ),
    Edge(
        "unexpected",
        "request 2 chained to resp_1 but resent the call",
        lambda obs: second(obs)["input"].insert(0, "function_call fc_1"),
    ),
    Edge("unexpected", "a third request", third_request),
    Edge(
        "unexpected", "nothing resent, but the run answered otherwise", lambda obs: obs.facts.update(final_output="?")
    ),
)
REPEAT_EDGES = (
    Edge(
        "unexpected",
        "every output sent, but the run raised",
        lambda obs: obs.facts.update(error="BadRequestError: boom"),
    ),
    Edge("unexpected", "every output sent, but a fourth request", third_request),
    Edge("unexpected", "every output sent, but another answer", lambda obs: obs.facts.update(final_output="?")),
    Edge("reproduced", "request 3 lacked call_2's output", lambda obs: obs.facts["requests"][2].update(input=[])),
)
CONTROL_EDGES = (
    Edge(
        "unexpected",
        "request 2 carried a conversation nobody gave",
        lambda obs: second(obs).update(conversation="conv_1"),
    ),
    Edge(
        "unexpected", "history resent, but the run answered otherwise", lambda obs: obs.facts.update(final_output="?")
    ),
    Edge("unexpected", "history resent, but a third request", third_request),
    Edge(
        "unexpected",
        "the first request lacked the user's message",
        lambda obs: obs.facts["requests"][0].update(input=[]),
    ),
)

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/1789",
        "https://github.com/openai/openai-agents-python/pull/1827",
    ),
    description=(
        "With Runner.run(..., conversation_id=...) the runner resends the whole run's history on every turn of "
        "a tool loop, so the second request repeats the model's own function call and the Responses API answers "
        "400 'Duplicate item found with id fc_...'; with previous_response_id the history is resent and every "
        "request chains to the caller's response id instead of the run's latest response."
    ),
    expected=(
        "Each request after the first sends only the items that are new since the previous one (the tool's "
        "output); with previous_response_id it chains to the run's latest response; without either id the "
        "run still resends its own history."
    ),
    claims=Claim(
        pr="#1827",
        pr_state="merged",
        quote="When using conversation_id, the runner resent all items on every turn, which caused server-side "
        "duplicate item error.",
        source="issue #1789 (reported on 0.3.0, Runner.run_streamed with conversation_id); PR #1827 (merged), "
        "first tag v0.4.0",
    ),
    cases={
        "conversation-id": CaseRole(
            "Runner.run with conversation_id, one tool call: request 2 must carry only the tool's output",
            reproduced=BUGGY, fixed=FIXED, edges=CONVERSATION_EDGES,
        ),
        "conversation-id-streamed": CaseRole(
            "the same with Runner.run_streamed (the reporter's call)",
            reproduced=BUGGY, fixed=FIXED,
        ),
        "previous-response-id": CaseRole(
            "Runner.run with previous_response_id: request 2 must chain to resp_1 and carry only the tool's output",
            reproduced=BUGGY, fixed=FIXED, edges=PREVIOUS_EDGES,
        ),
        "repeated-call-new-output-sent": CaseRole(
            "two identical tool calls chained by previous_response_id: each new output must still be sent",
            reproduced=InProcess("the tracker drops a tool output whose text it already sent", drop_repeated_outputs),
            fixed=AsInstalled("the pinned release sends each new output"),
            non_regression=True, edges=REPEAT_EDGES,
        ),
        "control-local-history": CaseRole(
            "neither id: request 2 carries the user's message, the call and its output",
            reproduced=InProcess("OpenAIResponsesModel sends only the newest input item", drop_history),
            fixed=AsInstalled("the pinned release resends the run's history"),
            control=True, edges=CONTROL_EDGES,
        ),
    },
)  # fmt: skip
