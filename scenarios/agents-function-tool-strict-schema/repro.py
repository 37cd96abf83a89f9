# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a FunctionTool built directly is sent as strict without a strict schema (API 400).

Upstream: https://github.com/openai/openai-agents-python/issues/992 (fix:
https://github.com/openai/openai-agents-python/pull/1041). The documented way to build a tool by hand,
`FunctionTool(name=..., params_json_schema=FunctionArgs.model_json_schema(), on_invoke_tool=...)`,
keeps `strict_json_schema=True` by default, but the schema is sent as given: the Responses request
offers the tool with `"strict": true` and parameters that lack `additionalProperties: false`, which
the API rejects ("'additionalProperties' is required to be supplied and to be false"). The
`@function_tool` decorator makes its schema strict; `FunctionTool` itself (agents/tool.py) did not.

The framework's own OpenAIResponsesModel over a real `openai.AsyncOpenAI` client whose transport is
an `httpx.MockTransport` that records each request body and answers with a text reply (the fake does
not validate the schema: the verdict reads what the SDK sent). Prints, for the tool the request
offered, its `strict` flag, whether its parameters carry `additionalProperties` and its `required`.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import copy
import importlib
import json
import os
import sys

# how: "direct" builds FunctionTool(...) by hand (the code), "decorator" uses @function_tool;
# strict: FunctionTool's strict_json_schema (None: the default); optional: the schema has a field with
# a default (not in `required`).
CASES = {
    "direct": dict(how="direct", strict=None, optional=False),
    "direct-optional-field": dict(how="direct", strict=None, optional=True),
    "direct-not-strict": dict(how="direct", strict=False, optional=True),
    "control-decorator": dict(how="decorator", strict=None, optional=False),
}
ANSWER = "Done."
ABSENT = "absent"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def reply():
    """A plain text answer from the Responses API: one request ends the run."""
    text = dict(type="output_text", text=ANSWER, annotations=[])
    answer = dict(type="message", id="msg_1", role="assistant", status="completed", content=[text])
    body = dict(id="r1", object="response", created_at=0, model="m", status="completed", output=[answer])
    body.update(parallel_tool_calls=True, tool_choice="auto", tools=[], usage=None)
    return body


async def observe(say, how, strict, optional):
    """One request; say how it offered the tool; return the tool's payload beside the schema given."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import Agent, FunctionTool, Runner, function_tool, set_tracing_disabled
    from pydantic import BaseModel

    try:
        from agents import OpenAIResponsesModel
    except ImportError as exc:
        raise NotApplicable(f"agents exports no OpenAIResponsesModel: {exc}") from None

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    if optional:

        class FunctionArgs(BaseModel):
            username: str
            age: int = 0

    else:

        class FunctionArgs(BaseModel):
            username: str
            age: int

    async def run_function(ctx, args):
        parsed = FunctionArgs.model_validate_json(args)
        return f"{parsed.username} is {parsed.age} years old"

    given = FunctionArgs.model_json_schema()
    if how == "direct":
        kwargs = {} if strict is None else dict(strict_json_schema=strict)
        tool = FunctionTool(
            name="process_user", description="Processes extracted user data",
            params_json_schema=copy.deepcopy(given), on_invoke_tool=run_function, **kwargs,
        )  # fmt: skip
        say(f"FunctionTool(params_json_schema=FunctionArgs.model_json_schema(){built(kwargs)})")
        extra = shown(given, "additionalProperties")
        say(f"schema given: required {given.get('required')}, additionalProperties {extra}")
    else:

        @function_tool
        def process_user(username: str, age: int) -> str:
            """Processes extracted user data."""
            return f"{username} is {age} years old"

        tool = process_user
        say("@function_tool def process_user(username: str, age: int)")

    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    served = []

    def handler(request):
        served.append(json.loads(request.content))
        return httpx.Response(200, json=reply())

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    agent = Agent(name="assistant", model=OpenAIResponsesModel(model="m", openai_client=client), tools=[tool])
    result = await Runner.run(agent, input="Process user data for John who is 30 years old")
    sent = [t for request in served for t in request.get("tools") or []]
    for t in sent:
        params = t.get("parameters") or {}
        say(
            f"request: tool {t.get('name')} strict {as_json(t.get('strict', ABSENT))} "
            f"additionalProperties {shown(params, 'additionalProperties')} required {params.get('required')}"
        )
    params = (sent[0].get("parameters") or {}) if sent else {}
    return dict(
        served=len(served), final_output=result.final_output, tools=len(sent), how=how, strict=strict,
        sent_strict=sent[0].get("strict", ABSENT) if sent else ABSENT,
        additional=params.get("additionalProperties", ABSENT),
        required=sorted(params.get("required") or []), properties=sorted(params.get("properties") or {}),
        given_required=sorted(given.get("required") or []), given_additional=given.get("additionalProperties", ABSENT),
    )  # fmt: skip


def built(kwargs):
    """The keyword arguments beyond the issue's, as written."""
    return "".join(f", {k}={v}" for k, v in kwargs.items())


def shown(schema, key):
    """A schema key's value as JSON, or "absent"."""
    return as_json(schema.get(key, ABSENT))


def as_json(value):
    """A value as JSON, or "absent"."""
    return ABSENT if value == ABSENT else json.dumps(value)


def judge(facts):
    """(outcome, detail): a tool offered as strict carries a strict schema (additionalProperties false,
    every property required); a tool built with strict_json_schema=False is sent as given."""
    if facts["served"] != 1 or facts["tools"] != 1 or facts["final_output"] != ANSWER:
        return (
            "unexpected",
            f"the fake served {facts['served']} requests with {facts['tools']} tools (expected 1 and 1), "
            f"answer {facts['final_output']!r}",
        )
    sent_strict, additional = facts["sent_strict"], facts["additional"]
    figures = (
        f"the tool was sent with strict {as_json(sent_strict)}, additionalProperties {as_json(additional)}, "
        f"required {facts['required']} of properties {facts['properties']}"
    )
    if facts["strict"] is False:
        # strict_json_schema=False: the schema goes as the caller wrote it, not made strict.
        as_given = additional == facts["given_additional"] and facts["required"] == facts["given_required"]
        if sent_strict is False and as_given:
            return "fixed", figures
        return "reproduced", f"{figures}: strict_json_schema=False, yet the schema was made strict"
    if sent_strict is not True:
        return "unexpected", figures
    if additional is False and facts["required"] == facts["properties"]:
        return "fixed", figures
    if additional == ABSENT:
        return "reproduced", f"{figures}: strict without additionalProperties false (the API answers 400)"
    return "unexpected", figures


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
