"""adk-mcp-tool-schema-no-args: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release

EMPTY_OBJECT = {"type": "object", "properties": {}}


@contextlib.contextmanager
def _converter(schema_for) -> Iterator[None]:
    """adk_to_mcp_tool_type with the tool's inputSchema replaced by ``schema_for(schema)``."""
    from google.adk.tools.mcp_tool import conversion_utils

    original = conversion_utils.adk_to_mcp_tool_type

    def adk_to_mcp_tool_type(tool):
        converted = original(tool)
        field = "inputSchema" if "inputSchema" in type(converted).model_fields else "input_schema"
        return converted.model_copy(update={field: schema_for(getattr(converted, field))})

    conversion_utils.adk_to_mcp_tool_type = adk_to_mcp_tool_type
    try:
        yield
    finally:
        conversion_utils.adk_to_mcp_tool_type = original


@contextlib.contextmanager
def object_schema_when_no_parameters() -> Iterator[None]:
    """The fix: a declaration with no parameters converts to an empty object schema, not None or {}."""
    with _converter(lambda schema: schema if schema else dict(EMPTY_OBJECT)):
        yield


@contextlib.contextmanager
def drop_every_schema() -> Iterator[None]:
    """Breaks the control: every converted tool gets the empty {} schema."""
    with _converter(lambda schema: {}):
        yield


PINNED = AsInstalled("the pinned release converts a no-argument tool to inputSchema {}")
LAST_WITHOUT_SCHEMA = Release(
    "google-adk==1.1.1", "the last release whose converter raises on a declaration without parameters"
)
FIRST_WITH_SCHEMA = Release("google-adk==1.2.0", "the first release that gives {} (commit 2a65c411, 'Fixes #948')")


def _typed_but_not_object(obs):
    obs.facts.update(schema='{"type": "string"}', is_object=False)


def _conversion_raised(obs):
    obs.facts.update(schema="raised TypeError", is_schema=False, is_object=False, properties=[])


def _schema_none(obs):
    obs.facts.update(schema="None", is_schema=False, is_object=False, properties=[])


def _typed_schema_with_a_property(obs):
    obs.facts.update(schema='{"properties": {"x": {}}, "type": "object"}', is_schema=True, properties=["x"])


def _object_missing_a_property(obs):
    obs.facts.update(properties=[])


BUG = Bug(
    links=("https://github.com/google/adk-python/issues/948",),
    description=(
        "adk_to_mcp_tool_type gives a FunctionTool of a function with no parameters no input schema: inputSchema "
        "None (the report, 1.0.0), or the conversion raises (measured on 1.0.0 and 1.1.1); from 1.2.0 it gives {}, "
        "which the report names acceptable, and which still is not the object schema the MCP schema requires."
    ),
    expected='A no-argument tool converts to a JSON schema: {} (the report) or {"type": "object", "properties": {}}.',
    requires=("mcp<2",),
    claims=Claim(
        fixed_in="1.2.0",
        quote='MCP clients expect a valid JSON schema (e.g., an empty object {} or {"type": "object", ...})',
        source="#948 (the report, on 1.0.0) closed by commit 2a65c411 'Fixes #948', first in 1.2.0, which gives {}; "
        "a 2026-02 comment says strict MCP clients still reject {} and offers a PR; none linked",
    ),
    cases={
        "no-args": CaseRole(
            "the report's symptom: a FunctionTool of a function with no parameters gets no schema (None, or the "
            "conversion raises); {} is a schema, as the report asks",
            reproduced=LAST_WITHOUT_SCHEMA,
            fixed=FIRST_WITH_SCHEMA,
            edges=(
                Edge("reproduced", "inputSchema None, as in the report", _schema_none, PINNED),
                Edge(
                    "unexpected",
                    "a schema with a property the function does not have",
                    _typed_schema_with_a_property,
                    PINNED,
                ),
            ),
        ),
        "no-args-object-schema": CaseRole(
            'a stricter bar than the report\'s: the MCP schema\'s object type (`"type": "object"`), which strict '
            "MCP clients check; {} fails it",
            reproduced=PINNED,
            fixed=InProcess(
                "the converter gives an empty object schema where the declaration has none",
                object_schema_when_no_parameters,
            ),
            edges=(
                Edge("unexpected", "a typed schema that is not an object", _typed_but_not_object, PINNED),
                Edge("reproduced", "the conversion raised, as on the first releases", _conversion_raised, PINNED),
            ),
        ),
        "one-arg": CaseRole(
            "a FunctionTool of a function with one parameter: an object schema with that property",
            reproduced=InProcess("every converted tool gets the {} schema", drop_every_schema),
            fixed=AsInstalled("every release converts a declared parameter to an object schema"),
            control=True,
            edges=(Edge("unexpected", "an object schema missing the parameter", _object_missing_a_property),),
        ),
    },
)
