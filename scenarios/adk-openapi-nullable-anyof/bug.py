"""adk-openapi-nullable-anyof: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Callable, Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _declared_properties(change: Callable[[dict], None]) -> Iterator[None]:
    """``RestApiTool._get_declaration`` with ``change`` applied to the properties of every declaration it makes
    (as JSON Schema, the pinned release's default)."""
    from google.adk.tools.openapi_tool import RestApiTool

    original = RestApiTool.__dict__["_get_declaration"]

    def _get_declaration(self):
        declaration = original(self)
        if declaration.parameters_json_schema:
            change(declaration.parameters_json_schema.get("properties", {}))
        return declaration

    RestApiTool._get_declaration = _get_declaration  # type: ignore[method-assign]
    try:
        yield
    finally:
        RestApiTool._get_declaration = original  # type: ignore[method-assign]


def _item_made_a_union(properties: dict) -> None:
    properties["item"] = {"anyOf": [{"type": "string"}, {"type": "integer"}], "title": "Item"}


def _unions_collapsed(properties: dict) -> None:
    for name, schema in list(properties.items()):
        alternatives = [a for a in schema.get("anyOf", []) if a.get("type") != "null"]
        if alternatives:
            properties[name] = {**{k: v for k, v in schema.items() if k != "anyOf"}, **alternatives[0]}


REPORTED = Release(
    "google-adk==1.17.0",
    "current on 2025-10-28, #3313's date (resolved with google-genai 1.46): type beside any_of",
)
FIRST_FIXED = Release("google-adk==1.18.0", "the first release measured declaring the field as a nullable STRING")
PINNED = AsInstalled("the pinned release (2.13.0)")
UNION_ITEM = InProcess(
    "the control broken in process: the plain string item is declared as a string-or-integer union",
    lambda: _declared_properties(_item_made_a_union),
)
TOO_FAR = InProcess(
    "a fix that goes too far, in process: every anyOf is collapsed to its first non-null alternative",
    lambda: _declared_properties(_unions_collapsed),
)


def _facts(**facts):
    return lambda obs: obs.facts.update(facts)


TITLE_ONLY = Edge("fixed", "only a title beside any_of", _facts(beside=[["title"]]), REPORTED)
NOT_DECLARED = Edge("unexpected", "the field is missing from the declaration", _facts(node=None), REPORTED)

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/3313",
        "https://github.com/googleapis/python-genai/issues/1578",
        "https://github.com/google/adk-python/issues/3281",
        "https://github.com/google/adk-python/pull/3280",
    ),
    description=(
        "An OpenAPIToolset operation whose request body has an optional field (anyOf [string, null], as FastAPI "
        "writes it) is declared to the model with `type: OBJECT` beside `any_of` in its parameters Schema "
        "(google-genai's Schema.from_json_schema sets a type next to any_of from 1.45), and the API refuses the "
        "request: 'schema specified other fields alongside any_of'."
    ),
    expected=(
        "The optional field is declared in a form the API accepts: nothing but a title beside any_of (as before "
        "google-genai 1.45), a nullable STRING, or a JSON Schema declaration (parameters_json_schema)."
    ),
    claims=Claim(
        introduced_in="1.16.0",
        source="#3313 (2025-10-28, closed; no fix or release named): 'introduced in ADK 1.16.0 due to a transitive "
        "dependency update of google-genai from 1.43.0 to 1.46.0', 1.44.0 unaffected, 1.45.0 has it; "
        "python-genai#1578 (the same report) open; #3281 (MCP tools, the same 400) closed, its PR #3280 "
        "(ADK's null handling against google-genai 1.45) shown closed, no merge shown",
        quote="this bug was introduced in ADK 1.16.0 due to a transitive dependency update of google-genai",
    ),
    range_notes=(
        "Measured with each release's dependencies as of its upload date: reproduced 0.2.0-1.1.1 (ADK's own "
        "rest_api_tool.to_gemini_schema gave every typeless schema type OBJECT, 'to avoid \"... one_of or any_of "
        "must specify a type\" error', so any_of always had a type beside it: the API's rule of then, the shape "
        "#3313's API refuses); fixed 1.2.0-1.16.0 (1.2.0's _gemini_schema_util._to_gemini_schema hands the schema "
        "to google-genai's Schema.from_json_schema, which leaves only the title beside any_of); reproduced on 1.17.0 "
        "alone; fixed from 1.18.0 on every 1.x and 2.x release (1.39.1 and 2.13.0 included).",
        "1.16.0 -> 1.17.0 changes no ADK line on this path: the environments' google-genai goes from 1.42 to 1.46, "
        "whose from_json_schema sets `schema.type = Type('OBJECT')` after any_of ('if not schema.type and not "
        "is_union_like_type'). Run by hand (uv, CPython 3.11): ADK 1.16.0 with google-genai 1.44 fixed, with "
        "1.45 and 1.46 reproduced (the thread's 1.44/1.45 line, exactly); ADK 1.17.0 with 1.44 fixed.",
        "1.17.0 -> 1.18.0 holds two independent fixes: ADK drops _sanitize_schema_type (which rewrote the "
        "{'type': 'null'} alternative into ['object', 'null']), so google-genai collapses the field into a nullable "
        "STRING (ADK 1.18.0 with google-genai 1.46: fixed, by hand); and google-genai 1.48 adds 'and not "
        "schema.any_of' to that line (ADK 1.17.0 with 1.48: fixed, by hand). On 2.x the declaration is JSON "
        "Schema (parameters_json_schema) by default; with it off (nullable-field-schema) 2.x gives a nullable STRING.",
    ),
    cases={
        "nullable-field": CaseRole(
            "the optional indirect_object, declared as the release does by default: what is beside any_of (#3313)",
            reproduced=REPORTED, fixed=FIRST_FIXED, edges=(TITLE_ONLY, NOT_DECLARED),
        ),
        "nullable-field-schema": CaseRole(
            "the same with ADK's JSON-schema declarations off (ADK_DISABLE_JSON_SCHEMA_FOR_FUNC_DECL), so 2.x "
            "declares it through the Schema conversion too",
            reproduced=REPORTED, fixed=PINNED,
        ),
        "required-field": CaseRole(
            "control: the plain string item is declared as a string",
            reproduced=UNION_ITEM, fixed=PINNED, control=True,
            edges=(Edge("reproduced", "a title-only any_of around the string",
                        _facts(beside=[["title"]])),),
        ),
        "union-field": CaseRole(
            "non-regression: count (anyOf string or integer) keeps both types",
            reproduced=TOO_FAR, fixed=PINNED, non_regression=True,
            edges=(Edge("unexpected", "a third type offered", lambda obs: obs.facts["node"]["anyOf"].append(
                {"type": "boolean"})),),
        ),
    },
)  # fmt: skip
