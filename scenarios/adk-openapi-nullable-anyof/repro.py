# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: an OpenAPIToolset's nullable field is declared with `type` beside `any_of` (the API answers 400).

Upstream: https://github.com/google/adk-python/issues/3313 (and googleapis/python-genai#1578). An
OpenAPI 3.1 request body with an optional field (`anyOf: [{type: string}, {type: null}]`, as FastAPI
writes it) becomes a `parameters` Schema through OpenAPIToolset and google-genai's
`Schema.from_json_schema`; from google-genai 1.45 that Schema carries `type: OBJECT` beside `any_of`,
and the model API refuses the request: "schema specified other fields alongside any_of. When using
any_of, it must be the only field set". The thread's working releases sent `title` beside `any_of`,
so a title alone is counted as accepted.

An LlmAgent with the toolset, on the framework's own `Gemini` model class, whose google-genai client
sends every request to an `httpx.MockTransport` (no network, no key); the fake records the request body
and answers with a text. Cases: `nullable-field` (the optional `indirect_object`, declared as the release
does by default); `nullable-field-schema` (the same with ADK's JSON-schema declarations switched off, so
2.x goes through the Schema conversion too); `required-field` (a control: the plain string `item`);
`union-field` (a fix could go too far: `count`, `anyOf` string or integer, must keep both). Prints the
declaration the request sent for the case's field.

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
    "nullable-field": dict(field="indirect_object", declarations="default"),
    "nullable-field-schema": dict(field="indirect_object", declarations="schema"),
    "required-field": dict(field="item", declarations="default"),
    "union-field": dict(field="count", declarations="default"),
}
# ADK's switch (2.x: on by default) that declares tools in parameters_json_schema instead of a Schema.
JSON_SCHEMA_OFF = "ADK_DISABLE_JSON_SCHEMA_FOR_FUNC_DECL"
# The game API's `use` operation, as a FastAPI server publishes it (OpenAPI 3.1).
SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Adventure game", "version": "1.0"},
    "servers": [{"url": "http://game.invalid"}],
    "paths": {
        "/use": {
            "post": {
                "operationId": "use",
                "summary": "Use an item, optionally on something.",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UseRequest"}}},
                },
                "responses": {"200": {"description": "What happened."}},
            }
        }
    },
    "components": {
        "schemas": {
            "UseRequest": {
                "type": "object",
                "title": "UseRequest",
                "required": ["item"],
                "properties": {
                    "item": {"type": "string", "title": "Item"},
                    "indirect_object": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Indirect Object"},
                    "count": {"anyOf": [{"type": "string"}, {"type": "integer"}], "title": "Count"},
                },
            }
        }
    },
}
FORMS = ("parameters", "parametersJsonSchema", "parameters_json_schema")


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session services are synchronous."""
    return await value if inspect.isawaitable(value) else value


def any_of_nodes(node, path):
    """(path, the keys beside any_of) for every schema node under ``node`` that has an any_of."""
    found = []
    if isinstance(node, dict):
        for key in ("any_of", "anyOf"):
            if key in node:
                found.append((path, sorted(k for k in node if k != key)))
        for key, value in node.items():
            found.extend(any_of_nodes(value, f"{path}.{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(any_of_nodes(value, f"{path}[{i}]"))
    return found


async def observe(say, field, declarations):
    """Send one turn with the toolset through Gemini over the fake transport; say the field's declaration."""
    import httpx
    from google.adk.agents import LlmAgent
    from google.adk.models import Gemini
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.tools.openapi_tool import OpenAPIToolset
    from google.genai import Client, types

    if "async_client_args" not in types.HttpOptions.model_fields:
        raise NotApplicable("google-genai's HttpOptions has no async_client_args: no transport can be handed in")
    bodies = []

    def handle(request):
        bodies.append(json.loads(request.content))
        candidate = {"content": {"role": "model", "parts": [{"text": "You look around."}]}, "finishReason": "STOP"}
        return httpx.Response(200, json={"candidates": [candidate]})

    transport = httpx.MockTransport(handle)
    client = Client(api_key="fake-key", http_options=types.HttpOptions(async_client_args={"transport": transport}))

    class FakeHttpGemini(Gemini):
        """The framework's Gemini class; only its google-genai client is built here, over the fake transport."""

        @property
        def api_client(self):
            return client

    toolset = OpenAPIToolset(spec_dict=SPEC)
    # 0.x's OpenAPIToolset is no BaseToolset: an agent takes its tools as a list.
    tools = [toolset] if inspect.iscoroutinefunction(OpenAPIToolset.get_tools) else toolset.get_tools()
    agent = LlmAgent(name="narrator", model=FakeHttpGemini(model="gemini-2.5-flash"), tools=tools)
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=agent, session_service=sessions)
    session = await settled(sessions.create_session(app_name="repro", user_id="u"))
    message = types.Content(role="user", parts=[types.Part(text="Use the key on the door.")])
    saved = os.environ.pop(JSON_SCHEMA_OFF, None)
    if declarations == "schema":
        os.environ[JSON_SCHEMA_OFF] = "1"
    try:
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            pass
    finally:
        os.environ.pop(JSON_SCHEMA_OFF, None)
        if saved is not None:
            os.environ[JSON_SCHEMA_OFF] = saved
    declarations = [d for tool in bodies[0].get("tools", []) for d in tool.get("functionDeclarations", [])]
    declaration = next(d for d in declarations if d["name"] == "use")
    form = next(key for key in FORMS if declaration.get(key))
    node = declaration[form].get("properties", {}).get(field)
    say(f"request 1 declares use() in {form}: {field} = {json.dumps(node, sort_keys=True)}")
    nodes = any_of_nodes(node, field)
    for path, beside in nodes:
        say(f"  any_of at {path}, beside it: {', '.join(beside) or '(nothing)'}")
    return dict(field=field, form=form, node=node, beside=[beside for _, beside in nodes])


def types_offered(node):
    """The types a schema node accepts, lower-case: its own, or its any_of alternatives' (null left out)."""
    alternatives = (node.get("any_of") or node.get("anyOf") or [node]) if isinstance(node, dict) else []
    return sorted({str(a.get("type")).lower() for a in alternatives if a.get("type")} - {"null"})


def judge(facts):
    """(outcome, detail): the optional field's any_of carries no field beside it but a title (#3313); the plain
    string stays a string (control); the string-or-integer field keeps both types (non-regression)."""
    field, form, node, beside = facts["field"], facts["form"], facts["node"], facts["beside"]
    if not isinstance(node, dict):
        return "unexpected", f"{field} is not declared in {form}"
    figures = f"{field} in {form}: {json.dumps(node, sort_keys=True)}"
    if field == "indirect_object":
        extra = sorted({key for keys in beside for key in keys} - {"title"})
        if form != "parameters":
            return "fixed", figures + " (JSON Schema, where anyOf takes other keywords)"
        if extra:
            return "reproduced", figures + f": {', '.join(extra)} beside any_of (what the API refused in #3313)"
        return "fixed", figures
    offered = types_offered(node)
    if field == "item":
        if offered == ["string"] and not beside:
            return "fixed", figures
        return "reproduced", figures + ": the plain string is no longer declared as one"
    if offered == ["integer", "string"]:
        return "fixed", figures
    if len(offered) == 1:
        return "reproduced", figures + f": the union was collapsed to {offered[0]}"
    return "unexpected", figures + f", types offered {offered}"


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
