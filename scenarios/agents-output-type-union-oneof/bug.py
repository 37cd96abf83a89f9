"""agents-output-type-union-oneof: what the harness needs beside repro.py."""

import contextlib
import json

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _union_as_one_of():
    """The strict schema's anyOf renamed oneOf (what the control must never show)."""
    from agents import AgentOutputSchema

    original = AgentOutputSchema.json_schema

    def json_schema(self):
        return json.loads(json.dumps(original(self)).replace('"anyOf"', '"oneOf"'))

    AgentOutputSchema.json_schema = json_schema
    try:
        yield
    finally:
        AgentOutputSchema.json_schema = original


BUGGY = Release("openai-agents==0.3.3", "the last release before PR #1884")
FIXED = Release("openai-agents==0.4.0", "the first release with PR #1884 (oneOf rewritten as anyOf)")
WRONG_PARSE = Edge(
    "unexpected", "the output parsed to the wrong variant", lambda o: o.facts.update(parsed=["BuyFoodStep"])
)

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/1091",
        "https://github.com/openai/openai-agents-python/issues/474",
        "https://github.com/openai/openai-agents-python/pull/1884",
    ),
    description=(
        "An Agent output_type holding a pydantic discriminated union (Field(discriminator=...)) is sent "
        "to the model as a strict JSON schema with oneOf, which OpenAI's strict structured outputs reject."
    ),
    expected="The strict output schema writes the union as anyOf (no oneOf), and the output still parses.",
    claims=Claim(
        pr="#1884",
        pr_state="merged",
        quote="This change modifies ensure_strict_json_schema() to convert oneOf to anyOf",
        source="PR #1884 (merged), 'fix: convert oneOf to anyOf in strict schema for OpenAI compatibility'",
    ),
    cases={
        "list-of-union": CaseRole(
            "issue #1091's Actions: steps: List[Annotated[Union[...], Field(discriminator='action')]]",
            reproduced=BUGGY, fixed=FIXED,
            edges=(
                Edge("unexpected", "the schema lost the union altogether",
                     lambda o: o.facts.update(one_of=[], any_of=[])),
                Edge("unexpected", "the schema is not strict", lambda o: o.facts.update(strict=False)),
                Edge("unexpected", "the model was called twice", lambda o: o.facts.update(calls=2)),
                WRONG_PARSE,
            ),
        ),
        "field-union": CaseRole(
            "the discriminated union as a plain field (first: Step)",
            reproduced=BUGGY, fixed=FIXED, edges=(WRONG_PARSE,),
        ),
        "plain-union": CaseRole(
            "the same union without a discriminator: pydantic writes anyOf, which every release sends as is",
            reproduced=InProcess("the schema's anyOf renamed oneOf", _union_as_one_of),
            fixed=AsInstalled("a union without a discriminator is an anyOf on the pinned release (0.24.0)"),
            control=True,
        ),
    },
)  # fmt: skip
