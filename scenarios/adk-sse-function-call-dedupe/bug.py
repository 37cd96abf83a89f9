"""adk-sse-function-call-dedupe: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import json
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release


@contextlib.contextmanager
def _legacy_calls_kept() -> Iterator[None]:
    """PR #6568's legacy-SSE fix, in process: the function calls of the chunks the aggregator marked partial
    are kept and put in close()'s aggregated response."""
    from google.adk.features import FeatureName, is_feature_enabled
    from google.adk.utils.streaming_utils import StreamingResponseAggregator

    process, close = StreamingResponseAggregator.process_response, StreamingResponseAggregator.close

    async def process_response(self, response):
        async for llm_response in process(self, response):
            if llm_response.partial and llm_response.content and llm_response.content.parts:
                calls = [part for part in llm_response.content.parts if part.function_call]
                self.__dict__.setdefault("_kept_calls", []).extend(calls)
            yield llm_response

    def close_(self):
        result = close(self)
        kept = self.__dict__.get("_kept_calls")
        if result is not None and kept and not is_feature_enabled(FeatureName.PROGRESSIVE_SSE_STREAMING):
            from google.genai import types

            parts = list(result.content.parts) if result.content and result.content.parts else []
            result.content = types.ModelContent(parts=parts + kept)
        return result

    StreamingResponseAggregator.process_response = process_response  # type: ignore[method-assign]
    StreamingResponseAggregator.close = close_  # type: ignore[method-assign]
    try:
        yield
    finally:
        StreamingResponseAggregator.process_response = process  # type: ignore[method-assign]
        StreamingResponseAggregator.close = close  # type: ignore[method-assign]


@contextlib.contextmanager
def _calls_deduplicated_by_name_and_args() -> Iterator[None]:
    """A fix that goes too far: close() keeps one call per (name, arguments), ids or not."""
    from google.adk.utils.streaming_utils import StreamingResponseAggregator

    original = StreamingResponseAggregator.__dict__["_deduplicate_function_calls"]

    def deduplicate(self, parts):
        seen, kept = set(), []
        for part in parts:
            call = part.function_call
            key = (call.name, json.dumps(call.args, sort_keys=True)) if call else None
            if key is None or key not in seen:
                kept.append(part)
            if key is not None:
                seen.add(key)
        return kept

    StreamingResponseAggregator._deduplicate_function_calls = deduplicate  # type: ignore[attr-defined]
    try:
        yield
    finally:
        StreamingResponseAggregator._deduplicate_function_calls = original  # type: ignore[attr-defined]


@contextlib.contextmanager
def _calls_dropped_from_replies() -> Iterator[None]:
    """Break the control: every model reply loses its function-call parts (LlmResponse.create drops them)."""
    from google.adk.models.llm_response import LlmResponse

    original = LlmResponse.__dict__["create"]

    def create(*args, **kwargs):
        response = original.__func__(*args, **kwargs)
        if response.content and response.content.parts:
            response.content.parts = [part for part in response.content.parts if not part.function_call]
        return response

    LlmResponse.create = staticmethod(create)  # type: ignore[method-assign]
    try:
        yield
    finally:
        LlmResponse.create = original  # type: ignore[method-assign]


REPORTED = Release("google-adk==2.6.1", "#6566's release (current on 2026-08-03): progressive SSE, the call runs twice")
FIRST_FIXED = Release(
    "google-adk==2.10.0", "the first 2.x release whose close() drops a call repeating a model-provided id"
)
PINNED = AsInstalled("the pinned release (2.13.0)")
CALL_RUN_TURN_ENDED = (
    "Before 1.23.0 the flow ran the function calls of partial events too (1.19.0-1.22.1 skipped them in "
    "progressive SSE only), so the call beside the text runs from the partial chunk; but the aggregated text "
    "event that close() yields next is a final response and ends the turn: the tool ran once, its result never "
    "reached the model (one model request). Neither #6566's drop nor the expected turn."
)
LEGACY_FIX = InProcess("PR #6568's legacy fix applied: close() keeps the calls of partial chunks", _legacy_calls_kept)
TOO_FAR = InProcess(
    "a fix that goes too far, in process: close() keeps one call per name and arguments",
    _calls_deduplicated_by_name_and_args,
)
NO_CALLS = InProcess(
    "the control broken in process: model replies lose their function calls", _calls_dropped_from_replies
)


def _facts(**facts):
    return lambda obs: obs.facts.update(facts)


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/6566",
        "https://github.com/google/adk-python/pull/6568",
        "https://github.com/google/adk-python/issues/2931",
    ),
    description=(
        "With StreamingMode.SSE, Gemini's StreamingResponseAggregator returns a function call that two chunks "
        "repeat (same id) twice in close()'s aggregated response, so its tool runs twice (progressive SSE); with "
        "progressive SSE off, a chunk whose first part is text is marked partial and close() keeps only the text, "
        "so the function call beside it is dropped and the turn ends without running the tool."
    ),
    expected="Each streamed function call is executed exactly once, as with StreamingMode.NONE.",
    claims=Claim(
        pr="#6568",
        pr_state="closed",
        source="#6566 (reported 2026-08-03, closed; no release named); PR #6568 ('Fixes #6566': dedupe close()'s "
        "calls by id, keep the legacy path's calls) shown closed, no merge shown",
        quote="Setting StreamingMode.NONE fixes the issue — 3 LLM calls (correct) vs 20+ (infinite loop).",
    ),
    range_notes=(
        "Measured, progressive-repeat: not applicable before 1.19.0 (no progressive SSE); reproduced on every 1.x "
        "release from 1.19.0 to 1.39.1 (the newest 1.x) and on 2.0.0-2.9.2 (2.6.1, #6566's release, included); "
        "fixed from 2.10.0, whose StreamingResponseAggregator.close() passes the progressive parts through the new "
        "_deduplicate_function_calls (a call whose model-provided id, not an 'adk-' one, was already seen is "
        "dropped): the executed-line change at the boundary, the progressive half of what PR #6568 proposed; "
        "reverting that one method on 2.13.0 brings the double run back.",
        "Measured, legacy-text-and-call: not applicable on 0.0.2-0.1.0 (google-genai's HttpOptions has no "
        "async_client_args); 0.2.0-1.22.1 run the call from the partial chunk and end the turn before the model "
        "sees the result (unexpected, explained); reproduced from 1.23.0 on every 1.x and 2.x release, 2.13.0 "
        "included: 1.23.0's BaseLlmFlow._postprocess_async skips the function calls of every partial event (before, "
        "only in progressive SSE), and the legacy close() keeps only text, so the call is dropped. #6566's "
        "'premature exit' applies from 1.23.0; no release measured keeps the call.",
        "The control (StreamingMode.NONE) runs the call once on every release from 0.2.0; two identical calls "
        "without an id run twice on every release with progressive SSE (1.19.0 on): 2.10.0's dedupe leaves ADK's "
        "own 'adk-' ids alone.",
    ),
    explanations=(Explanation("legacy-text-and-call", ">=0.2.0,<1.23.0", CALL_RUN_TURN_ENDED),),
    cases={
        "progressive-repeat": CaseRole(
            "progressive SSE: the same call (id call-1) in two chunks: lookup_item's runs (#6566, bug 1)",
            reproduced=REPORTED, fixed=FIRST_FIXED,
            edges=(
                Edge("unexpected", "three runs", _facts(runs=3, returned=3), REPORTED),
                Edge("unexpected", "twice, but a third model request", _facts(requests=3), REPORTED),
                Edge("unexpected", "one run, but two responses sent back", _facts(returned=2)),
            ),
        ),
        "legacy-text-and-call": CaseRole(
            "legacy SSE (progressive off): one chunk of text and a call: lookup_item's runs (#6566, bug 2)",
            reproduced=PINNED, fixed=LEGACY_FIX,
            edges=(
                Edge("unexpected", "no run, but a second model request", _facts(requests=2)),
                Edge("unexpected", "ran once, the turn ended: 1 request", _facts(requests=1, returned=0), LEGACY_FIX),
            ),
        ),
        "no-streaming": CaseRole(
            "control: StreamingMode.NONE, the text and the call in one reply: lookup_item runs once",
            reproduced=NO_CALLS, fixed=PINNED, control=True,
            edges=(Edge("unexpected", "ran twice", _facts(runs=2, returned=2)),),
        ),
        "two-identical-calls": CaseRole(
            "non-regression: progressive SSE, two calls with the same arguments and no id in two chunks: both run",
            reproduced=TOO_FAR, fixed=PINNED, non_regression=True,
            edges=(Edge("unexpected", "ran three times", _facts(runs=3, returned=3)),
                   Edge("unexpected", "none ran", _facts(runs=0, returned=0, requests=1))),
        ),
    },
)  # fmt: skip
