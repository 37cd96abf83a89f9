"""agents-function-tool-strict-schema: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import importlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def decorator_not_strict() -> Iterator[None]:
    """Neither function_schema nor FunctionTool makes a schema strict: the decorator's goes as pydantic wrote
    it (what the control must never show)."""
    modules = [importlib.import_module(name) for name in ("agents.function_schema", "agents.tool")]
    originals = {
        m: m.__dict__["ensure_strict_json_schema"] for m in modules if "ensure_strict_json_schema" in m.__dict__
    }
    for module in originals:
        module.ensure_strict_json_schema = lambda schema: schema  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module, original in originals.items():
            module.ensure_strict_json_schema = original  # type: ignore[attr-defined]


@contextlib.contextmanager
def always_strict() -> Iterator[None]:
    """FunctionTool makes every schema strict, strict_json_schema=False or not (a fix gone too far)."""
    from agents.strict_schema import ensure_strict_json_schema
    from agents.tool import FunctionTool

    had = "__post_init__" in FunctionTool.__dict__
    original = FunctionTool.__dict__.get("__post_init__")

    def post_init(self):
        self.strict_json_schema = True
        self.params_json_schema = ensure_strict_json_schema(self.params_json_schema)

    FunctionTool.__post_init__ = post_init  # type: ignore[attr-defined]
    try:
        yield
    finally:
        if had:
            FunctionTool.__post_init__ = original  # type: ignore[attr-defined]
        else:
            del FunctionTool.__post_init__


BUGGY = Release("openai-agents==0.2.2", "the last release before PR #1041 (de8accc3)")
FIXED = Release("openai-agents==0.2.3", "the first release with PR #1041: FunctionTool.__post_init__")
# Observations no build makes, one step across the judge's lines (nox -s mutants).
EDGES = (
    Edge("unexpected", "the fake served a second request", lambda obs: obs.facts.update(served=2)),
    Edge("unexpected", "the request offered no tool", lambda obs: obs.facts.update(tools=0)),
    Edge("unexpected", "the run ended with another answer", lambda obs: obs.facts.update(final_output="Bye.")),
    Edge("unexpected", "the tool was sent as not strict", lambda obs: obs.facts.update(sent_strict=False)),
    Edge("unexpected", "additionalProperties sent as true", lambda obs: obs.facts.update(additional=True)),
    Edge("unexpected", "a strict schema with a property left out of required",
         lambda obs: obs.facts.update(required=obs.facts["required"][:1])),
)  # fmt: skip
NOT_STRICT_EDGES = (
    Edge("reproduced", "strict_json_schema=False, but the tool was sent as strict",
         lambda obs: obs.facts.update(sent_strict=True)),
    Edge("reproduced", "strict_json_schema=False, but every property was made required",
         lambda obs: obs.facts.update(required=obs.facts["properties"])),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/992",
        "https://github.com/openai/openai-agents-python/pull/1041",
    ),
    description=(
        "A FunctionTool built directly (FunctionTool(params_json_schema=Model.model_json_schema(), ...)) keeps "
        "strict_json_schema=True by default but its schema is sent unchanged: the Responses request offers the "
        "tool with strict true and parameters without additionalProperties false, which the API rejects with "
        "400 invalid_function_parameters."
    ),
    expected=(
        "A FunctionTool with strict_json_schema=True is sent with a strict schema (additionalProperties false, "
        "every property required), as the @function_tool decorator's is; with strict_json_schema=False its "
        "schema is sent as given."
    ),
    claims=Claim(
        pr="#1041",
        pr_state="merged",
        quote="Added `__post_init__` method to `FunctionTool` dataclass; Automatically applies "
        "`ensure_strict_json_schema()` when `strict_json_schema=True`",
        source="issue #992 (reported on 0.1.0; the thread still shows it open) and PR #1041 (merged, "
        "'fix: Apply strict JSON schema validation in FunctionTool constructor'); the backlog names v0.2.3",
    ),
    range_notes=(
        "Measured as the thread says: both FunctionTool cases reproduce from 0.0.2 (the first release) to "
        "0.2.2 and are fixed from 0.2.3, the first tag holding PR #1041's commit de8accc3 (the backlog's "
        "v0.2.3); the boundary's change is FunctionTool.__post_init__ (explain). strict_json_schema=False "
        "and the decorator are unchanged on every release.",
    ),
    cases={
        "direct": CaseRole(
            "FunctionTool(params_json_schema=FunctionArgs.model_json_schema()) as in the issue (both fields required)",
            reproduced=BUGGY, fixed=FIXED, edges=EDGES,
        ),
        "direct-optional-field": CaseRole(
            "the same with a field that has a default: strict mode also needs it in required",
            reproduced=Release("openai-agents==0.1.0", "the reporter's release (issue #992)"), fixed=FIXED,
        ),
        "direct-not-strict": CaseRole(
            "FunctionTool(..., strict_json_schema=False): the schema must go as given, not made strict",
            reproduced=InProcess("FunctionTool makes every schema strict", always_strict),
            fixed=AsInstalled("the pinned release sends a non-strict tool's schema as given"),
            non_regression=True, edges=NOT_STRICT_EDGES,
        ),
        "control-decorator": CaseRole(
            "@function_tool with the same two arguments: a strict schema on every release",
            reproduced=InProcess("no ensure_strict_json_schema in the decorator or FunctionTool", decorator_not_strict),
            fixed=AsInstalled("the pinned release's decorator makes its schema strict"),
            control=True,
        ),
    },
)  # fmt: skip
