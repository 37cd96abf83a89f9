# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk", "mcp<2"]
# ///
"""google-adk: a no-argument FunctionTool converted to an MCP tool has no input schema (None).

Upstream: https://github.com/google/adk-python/issues/948. `adk_to_mcp_tool_type`
(google/adk/tools/mcp_tool/conversion_utils.py) builds the MCP `Tool` from the ADK tool's function
declaration; a Python function with no parameters has a declaration with neither `parameters` nor
`parameters_json_schema`, and the converter then gives `inputSchema=None` (the report) or raises
(the first releases, which pass it to gemini_to_json_schema). The report asks for a valid JSON
schema, "an empty object `{}` or `{"type": "object", "properties": {}}`"; commit 2a65c411
("Fixes #948") gives `{}`: the `no-args` case. The MCP schema itself requires an object schema
(`"type": "object"`), which strict MCP clients check (a 2026-02 comment on the thread): `{}` still
fails that stricter bar, the `no-args-object-schema` case. A function with parameters is converted
to an object schema as expected (the control).

No model and no server: the framework's own FunctionTool and converter, called directly. Prints
the MCP tool's name and inputSchema, and whether the schema is an object schema.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import json
import sys

CASES = {
    "no-args": dict(function="get_status", bar="thread"),  # the report's symptom: no schema
    "no-args-object-schema": dict(function="get_status", bar="object"),  # the MCP schema's stricter bar
    "one-arg": dict(function="greet", bar="object"),
}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def get_status() -> dict:
    """Returns the service's status; takes no input."""
    return {"status": "ok"}


def greet(name: str) -> str:
    """Greets someone by name."""
    return f"hello {name}"


async def observe(say, function, bar):
    """Convert a FunctionTool of `function` with adk_to_mcp_tool_type; say the MCP tool's inputSchema."""
    from google.adk.tools.function_tool import FunctionTool

    try:
        from google.adk.tools.mcp_tool.conversion_utils import adk_to_mcp_tool_type
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("google.adk"):
            raise  # the mcp package missing: the environment's fault, not the release's
        raise NotApplicable(f"no google.adk.tools.mcp_tool.conversion_utils: {exc}") from exc

    say(f"def {function}({'name: str' if function == 'greet' else ''}) -> FunctionTool -> adk_to_mcp_tool_type")
    try:
        tool = adk_to_mcp_tool_type(FunctionTool(globals()[function]))
    except (TypeError, ValueError) as exc:  # the converter refusing a declaration without parameters
        say(f"the conversion raised {type(exc).__name__}: {str(exc).splitlines()[0][:80]}")
        failed = f"raised {type(exc).__name__}"
        return dict(function=function, bar=bar, schema=failed, is_schema=False, is_object=False, properties=[])
    schema = tool.inputSchema if "inputSchema" in type(tool).model_fields else tool.input_schema
    shown = "None" if schema is None else json.dumps(schema, sort_keys=True)
    say(f"mcp Tool {tool.name!r}: inputSchema={shown}")
    is_object = isinstance(schema, dict) and schema.get("type") == "object"
    properties = sorted(schema.get("properties") or {}) if isinstance(schema, dict) else []
    say(f"an object schema: {is_object}; properties: {properties}")
    return dict(
        function=function,
        bar=bar,
        schema=shown,
        is_schema=isinstance(schema, dict),
        is_object=is_object,
        properties=properties,
    )


def judge(facts):
    """(outcome, detail): for the report's bar, the MCP tool has a JSON schema ({} will do); for the MCP
    schema's, an object schema with the function's parameters."""
    schema, wanted = facts["schema"], ["name"] if facts["function"] == "greet" else []
    if facts["bar"] == "thread":
        if facts["is_schema"] and facts["properties"] == []:
            return "fixed", f"inputSchema is a JSON schema, {schema}, as the report asks ({{}} or an object schema)"
        if schema == "None":
            return "reproduced", "inputSchema is None: no schema for a tool without parameters"
        if schema.startswith("raised "):
            return "reproduced", f"the conversion of a tool without parameters {schema}: no schema at all"
        return "unexpected", f"inputSchema {schema}, properties {facts['properties']}, expected none"
    if facts["is_object"] and facts["properties"] == wanted:
        return "fixed", f"inputSchema is an object schema with properties {wanted}: {schema}"
    if not facts["is_object"] and schema in ("None", "{}"):
        return "reproduced", f"inputSchema is {schema}, not an object schema"
    if schema.startswith("raised ") and not wanted:
        return "reproduced", f"the conversion of a tool without parameters {schema}: no schema at all"
    return "unexpected", f"inputSchema {schema}, properties {facts['properties']}, expected {wanted}"


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
