# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: ModelSettings(parallel_tool_calls=...) is not what reaches the provider.

Upstream: https://github.com/openai/openai-agents-python/pull/333 (Responses API) and
https://github.com/openai/openai-agents-python/pull/513 (Chat Completions): the adapters built the
request field as `True if model_settings.parallel_tool_calls and tools else NOT_GIVEN`, so an agent
configured with `parallel_tool_calls=False` sent nothing and the API's default (true) applied. Later
https://github.com/openai/openai-agents-python/pull/4359 (Chat Completions) and
https://github.com/openai/openai-agents-python/pull/4405 (Responses) derived the field from the
converted tool payload: a handoff-only agent's explicit `True` was dropped (handoffs are tools the
model sees, but not in the function-tool list the adapters checked), and a `False` was sent without
any tools, which the Chat Completions API rejects.

The framework's own OpenAIResponsesModel / OpenAIChatCompletionsModel over a real
`openai.AsyncOpenAI` client whose transport is an `httpx.MockTransport` that records each request
body and answers with a text reply. Prints the tools of the request and the `parallel_tool_calls`
field it carried (or "absent").

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import importlib
import json
import os
import sys

# api: which model class; tools: what the agent offers ("function": a function tool, "handoff": only
# a handoff, "none"); setting: ModelSettings(parallel_tool_calls=...).
CASES = {
    "responses": dict(api="responses", tools="function", setting=False),
    "chat-completions": dict(api="chat", tools="function", setting=False),
    "responses-handoff-only": dict(api="responses", tools="handoff", setting=True),
    "chat-completions-handoff-only": dict(api="chat", tools="handoff", setting=True),
    "chat-completions-no-tools": dict(api="chat", tools="none", setting=False),
    "control-true": dict(api="responses", tools="function", setting=True),
}
ANSWER = "Hello there."
OFFERS = {"function": "a function tool", "handoff": "only a handoff", "none": "no tools"}
ABSENT = "absent"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def reply(api):
    """A plain text answer: one request ends the run."""
    if api == "chat":
        message = {"role": "assistant", "content": ANSWER}
        choice = dict(index=0, message=message, finish_reason="stop")
        return dict(id="c1", object="chat.completion", created=0, model="m", choices=[choice])
    text = dict(type="output_text", text=ANSWER, annotations=[])
    answer = dict(type="message", id="msg_1", role="assistant", status="completed", content=[text])
    body = dict(id="r1", object="response", created_at=0, model="m", status="completed", output=[answer])
    body.update(parallel_tool_calls=True, tool_choice="auto", tools=[], usage=None)
    return body


def tool_names(request):
    """The names of the tools the request offered the model (both APIs' shapes)."""
    return [t.get("name") or t.get("function", {}).get("name") for t in request.get("tools") or []]


async def observe(say, api, tools, setting):
    """One request; say what it offered and which parallel_tool_calls it carried; return the facts."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import Agent, ModelSettings, Runner, function_tool, set_tracing_disabled

    try:
        from agents import OpenAIChatCompletionsModel, OpenAIResponsesModel
    except ImportError as exc:
        raise NotApplicable(f"agents exports no OpenAI model classes: {exc}") from None

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    served = []

    def handler(request):
        served.append(json.loads(request.content))
        return httpx.Response(200, json=reply(api))

    @function_tool
    def get_weather(city: str) -> str:
        return f"sunny in {city}"

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    model_class = OpenAIChatCompletionsModel if api == "chat" else OpenAIResponsesModel
    billing = Agent(name="billing", instructions="Handles billing.")
    agent = Agent(
        name="assistant",
        model=model_class(model="m", openai_client=client),
        model_settings=ModelSettings(parallel_tool_calls=setting),
        tools=[get_weather] if tools == "function" else [],
        handoffs=[billing] if tools == "handoff" else [],
    )
    say(f"agent: {OFFERS[tools]}, ModelSettings(parallel_tool_calls={setting})")
    result = await Runner.run(agent, input="Hi")
    for n, request in enumerate(served, 1):
        sent = json.dumps(request["parallel_tool_calls"]) if "parallel_tool_calls" in request else ABSENT
        say(f"request {n}: tools {tool_names(request)} parallel_tool_calls {sent}")
    last = served[-1] if served else {}
    return dict(
        served=len(served), tools=tools, setting=setting, final_output=result.final_output,
        offered=len(tool_names(last)),
        sent=last.get("parallel_tool_calls", ABSENT),
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): with tools offered the request carries the setting; without tools, nothing."""
    if facts["served"] != 1 or facts["final_output"] != ANSWER:
        return (
            "unexpected",
            f"the fake served {facts['served']} requests (expected 1), answer {facts['final_output']!r}",
        )
    setting, sent = facts["setting"], facts["sent"]
    carried = "no parallel_tool_calls" if sent == ABSENT else f"parallel_tool_calls {json.dumps(sent)}"
    figures = (
        f"ModelSettings(parallel_tool_calls={setting}) with {OFFERS[facts['tools']]}: the request carried {carried}"
    )
    if facts["tools"] == "none":
        # Chat Completions rejects parallel_tool_calls in a request without tools (#4359).
        if facts["offered"] != 0:
            return "unexpected", f"{figures}, but it offered {facts['offered']} tools"
        if sent == ABSENT:
            return "fixed", figures
        return ("reproduced", f"{figures} (no tools offered)") if sent == setting else ("unexpected", figures)
    if facts["offered"] == 0:
        return "unexpected", f"{figures}, but it offered no tools"
    if sent == setting:
        return "fixed", figures
    return ("reproduced", f"{figures}, so the API default applies") if sent == ABSENT else ("unexpected", figures)


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
