"""agents-chat-fake-id-to-responses: what the harness needs beside repro.py."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release

REPORTED = Release("openai-agents==0.0.19", "the reporter's release (#972): Chat Completions items keep '__fake_id__'")
FIXED = AsInstalled("the pinned release (0.24.0) drops the placeholder id before the Responses request")


@contextlib.contextmanager
def _replayed_ids(rewrite) -> Iterator[None]:
    """Rewrite each input item of every Responses request as the client sends it (AsyncResponses.create)."""
    from openai.resources.responses import AsyncResponses

    original = AsyncResponses.create

    async def create(self, *args, **kwargs):
        items = kwargs.get("input")
        if isinstance(items, list):
            kwargs["input"] = [rewrite(dict(item)) if isinstance(item, dict) else item for item in items]
        return await original(self, *args, **kwargs)

    AsyncResponses.create = create
    try:
        yield
    finally:
        AsyncResponses.create = original


def _fake(item):
    if item.get("role") == "assistant":
        item["id"] = "__fake_id__"
    return item


def _no_id(item):
    item.pop("id", None)
    return item


FAKE_EVERYWHERE = InProcess(
    "control broken in process: every replayed item gets id '__fake_id__'",
    lambda: _replayed_ids(_fake),
)
TOO_FAR = InProcess(
    "a fix gone too far: every replayed item's id is dropped, the real 'msg_' ones too",
    lambda: _replayed_ids(_no_id),
)

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/972",
        "https://github.com/openai/openai-agents-python/issues/2293",
        "https://github.com/openai/openai-agents-python/issues/270",
        "https://github.com/openai/openai-agents-python/issues/1485",
    ),
    description=(
        "Items converted from a Chat Completions reply carry the placeholder id '__fake_id__'; replayed to an "
        "OpenAIResponsesModel (after a handoff, or as the next run's input) the Responses API answers 400 "
        "\"Expected an ID that begins with 'msg'\" (or 'fc')."
    ),
    expected="The placeholder id is dropped before the Responses request; the handoff (or next run) finishes.",
    claims=Claim(
        source="issue #972: closed as stale (labels question, stale), no fix named in the thread",
        quote="Invalid 'input[1].id': '__fake_id__'. Expected an ID that begins with 'msg'.",
    ),
    cases={
        "handoff-to-responses": CaseRole(
            "#972: a Chat Completions agent hands off to a Responses agent: the handoff call is replayed",
            reproduced=REPORTED, fixed=FIXED,
            edges=(
                Edge("unexpected", "a refused id, but not the placeholder", lambda obs: obs.facts.update(
                    bad_ids=[[1, "call_h", "fc"]])),
                Edge("unexpected", "no refusal, but the run raised", lambda obs: obs.facts.update(
                    error="RuntimeError: boom")),
            ),
        ),
        "next-run-input-list": CaseRole(
            "a Chat Completions run's to_input_list() plus a question, to a Responses agent",
            reproduced=REPORTED, fixed=FIXED,
        ),
        "control-responses-only": CaseRole(
            "control: a Responses run's to_input_list() to a Responses agent",
            reproduced=FAKE_EVERYWHERE, fixed=FIXED, control=True,
            edges=(Edge("unexpected", "run 1's answer not replayed", lambda obs: obs.facts.update(replayed=[])),),
        ),
        "responses-real-id-kept": CaseRole(
            "non-regression: the same run keeps the Responses message's own id 'msg_1'",
            reproduced=TOO_FAR, fixed=FIXED, non_regression=True,
        ),
    },
)  # fmt: skip
