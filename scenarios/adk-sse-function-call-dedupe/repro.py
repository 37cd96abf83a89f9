# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: with StreamingMode.SSE a streamed function call runs twice (progressive SSE) or never (legacy SSE).

Upstream: https://github.com/google/adk-python/issues/6566 (fix PR #6568). `Gemini` streams
`streamGenerateContent` through `StreamingResponseAggregator` (utils/streaming_utils.py): in progressive
SSE (the default where it exists) every chunk is partial and `close()` emits the turn's parts once more,
so a function call that two chunks repeat (same id) comes back twice and its tool runs twice; in legacy
SSE a chunk whose first part is text is marked partial, and `close()` keeps only the text, so a function
call beside that text is dropped and the agent ends its turn without running the tool.

An LlmAgent on the framework's own `Gemini` model class, whose google-genai client sends every request to
an `httpx.MockTransport` that serves scripted SSE chunks (no network, no key). Cases: `progressive-repeat`
(the same call, same id, in two chunks); `legacy-text-and-call` (progressive SSE off: one chunk of text
and a call); `no-streaming` (a control: StreamingMode.NONE, the text and the call in one reply);
`two-identical-calls` (a fix could go too far: two calls with the same arguments and no id, in two
chunks, are two calls). Prints each chunk served, the tool's runs and what the next request sent back.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import os
import sys

CASES = {
    "progressive-repeat": dict(mode="progressive", chunks="repeat"),
    "legacy-text-and-call": dict(mode="legacy", chunks="text-and-call"),
    "no-streaming": dict(mode="none", chunks="text-and-call"),
    "two-identical-calls": dict(mode="progressive", chunks="two-calls"),
}
PROGRESSIVE = "PROGRESSIVE_SSE_STREAMING"
ARGS = {"item_name": "Margherita Pizza"}
CALL = {"name": "lookup_item", "args": ARGS}
SAY = {"text": "Let me look that up."}
ANSWER = "A Margherita Pizza is 12.00."
# The first model call's chunks, each a list of parts; the last chunk carries finishReason STOP.
FIRST_TURN = {
    "repeat": [[{"functionCall": dict(CALL, id="call-1")}], [{"functionCall": dict(CALL, id="call-1")}]],
    "text-and-call": [[SAY, {"functionCall": CALL}]],
    "two-calls": [[{"functionCall": CALL}], [{"functionCall": CALL}]],
}
WANTED_RUNS = {"repeat": 1, "text-and-call": 1, "two-calls": 2}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session services are synchronous."""
    return await value if inspect.isawaitable(value) else value


def reply(parts):
    """A generateContent response (one SSE chunk) with these parts, ending the turn."""
    candidate = {"content": {"role": "model", "parts": parts}, "index": 0, "finishReason": "STOP"}
    return {"candidates": [candidate], "modelVersion": "gemini-2.5-flash"}


async def observe(say, mode, chunks):
    """Run one turn through Gemini over the fake transport; say the chunks, tool runs and the next request."""
    import httpx
    from google.adk.agents import LlmAgent, RunConfig
    from google.adk.agents.run_config import StreamingMode
    from google.adk.models import Gemini
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import Client, types

    if "async_client_args" not in types.HttpOptions.model_fields:
        raise NotApplicable("google-genai's HttpOptions has no async_client_args: no transport can be handed in")
    if mode == "progressive":
        try:
            from google.adk.features import FeatureName
        except ImportError:
            FeatureName = None  # the release has no feature registry: legacy SSE is its only mode
        if not hasattr(FeatureName, PROGRESSIVE):
            raise NotApplicable("no progressive SSE streaming (FeatureName.PROGRESSIVE_SSE_STREAMING) in this release")
    runs, requests = [], []

    def lookup_item(item_name: str) -> dict:
        """Looks up an item on the menu and returns its price."""
        runs.append(item_name)
        return {"item": item_name, "price": 12.00}

    def handle(request):
        body = json.loads(request.content)
        requests.append(body)
        turn = FIRST_TURN[chunks] if len(requests) == 1 else [[{"text": ANSWER}]]
        streamed = ":streamGenerateContent" in request.url.path
        for i, parts in enumerate(turn):
            say(f"request {len(requests)} {'chunk' if streamed else 'reply'} {i + 1}: {json.dumps(parts)}")
        if not streamed:
            merged = [part for parts in turn for part in parts]
            return httpx.Response(200, json=reply(merged))
        events = []
        for i, parts in enumerate(turn):
            event = reply(parts)
            if i < len(turn) - 1:
                del event["candidates"][0]["finishReason"]
            events.append(f"data: {json.dumps(event)}\r\n\r\n")
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content="".join(events).encode())

    transport = httpx.MockTransport(handle)
    client = Client(api_key="fake-key", http_options=types.HttpOptions(async_client_args={"transport": transport}))

    class FakeHttpGemini(Gemini):
        """The framework's Gemini class; only its google-genai client is built here, over the fake transport."""

        @property
        def api_client(self):
            return client

    agent = LlmAgent(
        name="waiter", model=FakeHttpGemini(model="gemini-2.5-flash"), instruction="Answer with the menu's prices.",
        tools=[lookup_item],
    )  # fmt: skip
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=agent, session_service=sessions)
    session = await settled(sessions.create_session(app_name="repro", user_id="u"))
    streaming = StreamingMode.NONE if mode == "none" else StreamingMode.SSE
    question = types.Content(role="user", parts=[types.Part(text="How much is a Margherita Pizza?")])
    variable = f"ADK_{'DISABLE' if mode == 'legacy' else 'ENABLE'}_{PROGRESSIVE}"
    saved = {name: os.environ.pop(name, None) for name in (f"ADK_ENABLE_{PROGRESSIVE}", f"ADK_DISABLE_{PROGRESSIVE}")}
    if mode != "none":
        os.environ[variable] = "1"
    try:
        async for event in runner.run_async(
            user_id="u", session_id=session.id, new_message=question, run_config=RunConfig(streaming_mode=streaming)
        ):
            if event.partial:
                continue
            calls = [f"call {c.name}({json.dumps(c.args)})" for c in event.get_function_calls()]
            answers = [f"response {r.name}" for r in event.get_function_responses()]
            texts = (
                [repr(p.text) for p in event.content.parts if p.text] if event.content and event.content.parts else []
            )
            say(f"event {event.author}: {' '.join(calls + answers + texts) or '<no content>'}")
    finally:
        os.environ.pop(variable, None)
        os.environ.update({name: value for name, value in saved.items() if value is not None})
    returned = [
        part["functionResponse"]["name"]
        for content in (requests[1]["contents"] if len(requests) > 1 else [])
        for part in content.get("parts", [])
        if "functionResponse" in part
    ]
    say(f"tool runs: {len(runs)} {json.dumps(runs)}")
    say(f"model requests: {len(requests)}; function responses sent back in request 2: {len(returned)}")
    return dict(chunks=chunks, runs=len(runs), requests=len(requests), returned=len(returned))


def judge(facts):
    """(outcome, detail): the streamed call runs once, not twice (progressive, #6566 bug 1) or never (legacy,
    bug 2); StreamingMode.NONE runs it once (control); two identical calls without ids run twice (non-regression)."""
    chunks, runs, requests, returned = facts["chunks"], facts["runs"], facts["requests"], facts["returned"]
    wanted = WANTED_RUNS[chunks]
    figures = f"lookup_item ran {runs} time(s), {requests} model request(s), {returned} function response(s) sent back"
    if runs == wanted and requests == 2 and returned == wanted:
        return "fixed", figures
    if chunks == "repeat" and runs == 2 and requests == 2:
        return "reproduced", figures + ": the call repeated in two chunks (id call-1) ran twice"
    if chunks == "text-and-call" and runs == 0 and requests == 1:
        return "reproduced", figures + ": the call beside the text was dropped and the turn ended"
    if chunks == "two-calls" and runs == 1:
        return "reproduced", figures + ": one of two identical calls without an id was dropped"
    return "unexpected", figures + f", expected {wanted} run(s), 2 requests and {wanted} response(s)"


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
