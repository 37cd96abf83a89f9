# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a streaming tool (an `async def` that yields) called under `run_async` fails: "Failed to parse
the parameter return_value: AsyncGenerator[str, NoneType]", or without the annotation "cannot pickle
'async_generator' object".

Upstream: https://github.com/google/adk-python/issues/3955 (the streaming-tools guide's `monitor_stock_price`
under `adk web`), https://github.com/google/adk-python/issues/2977, https://github.com/google/adk-python/issues/960
and https://github.com/google/adk-python/issues/1862; PR https://github.com/google/adk-python/pull/4447. With
the return annotation `AsyncGenerator[str, None]`, building the tool's declaration for Vertex AI
(`build_function_declaration` in tools/_automatic_function_calling_util.py parses the return annotation only for
that variant, which the reporter's error shows) raises before the model is called; without it, the tool is
called, `FunctionTool.run_async` returns the async generator object itself as the result, unconsumed, and the
run fails where the event holding it is copied or serialized: the session service's deep copy ("cannot pickle"),
the trace's or the model request's JSON; where a generator tool runs as a workflow node outside live mode, its
second yielded value raises "Output already set. A node can produce at most one output". PR #4447 (resolve
string annotations, drain the generator into a list) also names `from __future__ import annotations`, under which
the annotation is the string 'AsyncGenerator[str, None]'. Expected (#4447, the guide): the tool runs and what it
yielded reaches the model; a clear error naming the tool when the agent is built (streaming tools are for
`run_live` only) would do too.

A scripted model (a BaseLlm that, as google-genai does before a request goes over HTTP, turns each request into
JSON) calls the tool once, then answers; `InMemoryRunner.run_async`, with GOOGLE_GENAI_USE_VERTEXAI set as the
reporter had it. Cases: `annotated` (the guide's tool as written), `unannotated` (#3955's second attempt: no
return annotation), `future-annotations` (the annotations as strings, as `from __future__ import annotations`
stores them); `control-coroutine-tool` (a plain `async def` returning a string: its result reaches the model on
every release); `dict-result-kept` (a fix could go too far: a coroutine tool's dict result must reach the model
as the dict, not drained like an iterable into its keys). Prints each event the run yielded, where it failed, how
many values the tool's body yielded and the function response the model was sent.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import os
import re
import sys
from typing import AsyncGenerator  # noqa: UP035 (the streaming-tools guide's import; the thread quotes its repr)

CASES = {
    "annotated": dict(tool="streaming", annotations="typed"),
    "unannotated": dict(tool="streaming", annotations="no-return"),
    "future-annotations": dict(tool="streaming", annotations="future"),
    "control-coroutine-tool": dict(tool="coroutine", annotations="typed"),
    "dict-result-kept": dict(tool="coroutine-dict", annotations="typed"),
}
PRICES = (300, 400)
YIELDED = [f"the price for GOOGL is {price}" for price in PRICES]
DICT_RESULT = {"stock_symbol": "GOOGL", "prices": list(PRICES)}
# What each tool's declared annotations are: as written, without the return annotation, or the strings that
# `from __future__ import annotations` stores (resolved against this module's globals, where AsyncGenerator is).
ANNOTATIONS = {
    "streaming": {
        "typed": {"stock_symbol": str, "return": AsyncGenerator[str, None]},
        "no-return": {"stock_symbol": str},
        "future": {"stock_symbol": "str", "return": "AsyncGenerator[str, None]"},
    },
    "coroutine": {"typed": {"stock_symbol": str, "return": str}},
    "coroutine-dict": {"typed": {"stock_symbol": str, "return": dict}},
}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session services are synchronous."""
    return await value if inspect.isawaitable(value) else value


def make_tool(tool, annotations, yielded):
    """A fresh tool function named as the guide's, with the case's annotations; the streaming one appends to
    `yielded` each value it yields (so the timeline says whether its body ran at all)."""

    async def monitor_stock_price(stock_symbol):
        """Monitors the price of the given stock symbol, yielding each new price."""
        for price in PRICES:
            await asyncio.sleep(0)
            yielded.append(f"the price for {stock_symbol} is {price}")
            yield yielded[-1]

    async def get_stock_price(stock_symbol):
        """Returns the price of the given stock symbol."""
        return YIELDED[0]

    async def get_stock_prices(stock_symbol):
        """Returns the recent prices of the given stock symbol."""
        return dict(DICT_RESULT)

    functions = {"streaming": monitor_stock_price, "coroutine": get_stock_price, "coroutine-dict": get_stock_prices}
    function = functions[tool]
    function.__annotations__ = dict(ANNOTATIONS[tool][annotations])
    return function


def shown(value):
    """A JSON rendering with no memory address: an async generator object shows as its repr without 'at 0x...'."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", json.dumps(value, sort_keys=True, default=repr))


def first_line(exc):
    return re.sub(r" at 0x[0-9a-fA-F]+", "", f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:160]}")


async def observe(say, tool, annotations):
    """Run one turn in which the model calls the tool; say the events; return what judge reads."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """Calls the tool on its first call, answers on every later one; keeps every request."""

        tool_name: str = ""
        requests: list = []  # noqa: RUF012 (a pydantic field: each instance gets its own copy)

        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(llm_request)
            # What google-genai does before a request goes over HTTP (json.dumps of the request's dict): a value
            # JSON cannot hold raises here as it would for a real Gemini model.
            json.dumps([content.model_dump(exclude_none=True) for content in llm_request.contents])
            if len(self.requests) == 1:
                call = types.FunctionCall(name=self.tool_name, args={"stock_symbol": "GOOGL"})
                part = types.Part(function_call=call)
            else:
                part = types.Part(text="Done.")
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    yielded = []
    function = make_tool(tool, annotations, yielded)
    say(f"tool async def {function.__name__}{inspect.signature(function)} ({annotations} annotations)")
    facts = dict(tool=tool, name=function.__name__, build_error=None, run_error=None, model_calls=0, sent=None)
    previous = os.environ.get("GOOGLE_GENAI_USE_VERTEXAI")
    os.environ["GOOGLE_GENAI_USE_VERTEXAI"] = "true"  # the variant whose declaration reads the return annotation
    try:
        llm = ScriptedLlm(model="scripted", tool_name=function.__name__)
        try:
            agent = LlmAgent(name="agent", model=llm, instruction="Answer with the tool.", tools=[function])
            runner = InMemoryRunner(agent=agent, app_name="app")
        except Exception as exc:  # a refusal when the agent is built: the fix the thread would also accept
            facts["build_error"] = first_line(exc)
            say(f"building the agent raised {facts['build_error']}")
            return facts
        session = await settled(runner.session_service.create_session(app_name="app", user_id="user"))
        message = types.Content(role="user", parts=[types.Part(text="Watch the price of GOOGL.")])
        try:
            async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
                for part in event.content.parts if event.content and event.content.parts else []:
                    if part.function_call:
                        say(f"event {event.author}: call {part.function_call.name}({shown(part.function_call.args)})")
                    elif part.function_response:
                        say(f"event {event.author}: response {part.function_response.name} "
                            f"{shown(part.function_response.response)}")  # fmt: skip
                    elif part.text:
                        say(f"event {event.author}: {part.text!r}")
        except Exception as exc:  # the symptom: the run fails on the tool
            facts["run_error"] = first_line(exc)
            say(f"run_async raised {facts['run_error']}")
    finally:
        if previous is None:
            os.environ.pop("GOOGLE_GENAI_USE_VERTEXAI", None)
        else:
            os.environ["GOOGLE_GENAI_USE_VERTEXAI"] = previous
    facts["model_calls"] = len(llm.requests)
    if tool == "streaming":
        say(f"the tool's body yielded {len(yielded)} of {len(PRICES)} values")
    for request in llm.requests[1:]:
        for content in request.contents:
            for part in content.parts or []:
                if part.function_response and part.function_response.name == function.__name__:
                    facts["sent"] = shown(part.function_response.response)
    say(f"model calls: {facts['model_calls']}; function response sent to the model: {facts['sent']}")
    return facts


def wanted(tool):
    """The function response the model must be sent: what the streaming tool yielded, or the coroutine's result."""
    return {"coroutine": shown({"result": YIELDED[0]}), "coroutine-dict": shown(DICT_RESULT)}.get(tool)


def judge(facts):
    """(outcome, detail): the streaming tool's yielded values reach the model, or the agent refuses it when built,
    naming it (#3955, #4447); the run failing on it is the symptom. A coroutine tool's result reaches the model as
    returned (control; non-regression for a dict)."""
    tool, sent, calls, failed = facts["tool"], facts["sent"], facts["model_calls"], facts["run_error"]
    if facts["build_error"] is not None:
        if tool == "streaming" and facts["name"] in facts["build_error"]:
            return "fixed", f"the agent refused the streaming tool when built: {facts['build_error']}"
        return "unexpected", f"building the agent raised {facts['build_error']}"
    if tool == "streaming":
        if sent is not None and calls == 2 and all(text in sent for text in YIELDED) and failed is None:
            return "fixed", f"the tool ran and the model was sent what it yielded: {sent}"
        if failed is not None and "parameter stock_symbol" in failed:
            return "unexpected", f"the tool's parameter failed to parse, before its return type mattered: {failed}"
        if failed is not None and not (sent and any(text in sent for text in YIELDED)):
            where = "before the model was called" if calls == 0 else "on the tool's result"
            return "reproduced", f"run_async failed {where}: {failed}"
        return "unexpected", f"model calls {calls}, run error {failed}, function response sent {sent}"
    if sent == wanted(tool) and calls == 2 and failed is None:
        return "fixed", f"the model was sent the tool's result as returned: {sent}"
    if tool == "coroutine" and failed is not None and sent is None:
        return "reproduced", f"run_async failed on a plain coroutine tool: {failed}"
    if tool == "coroutine-dict" and sent == shown({"result": list(DICT_RESULT)}) and failed is None:
        return "reproduced", f"the dict result was drained into its keys: {sent}"
    expected = wanted(tool)
    return "unexpected", f"model calls {calls}, run error {failed}, function response sent {sent}, expected {expected}"


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
