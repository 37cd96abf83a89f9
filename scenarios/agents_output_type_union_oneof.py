"""openai-agents: an output_type with a pydantic discriminated union sends a strict schema with ``oneOf``.

Upstream: https://github.com/openai/openai-agents-python/issues/1091 ("Union type not permitted
in AaaT": ``output_type=AgentOutputSchema(Actions)``, ``Actions.steps: list[Step]`` with
``Step = Annotated[BuyFruitStep | BuyFoodStep, Field(discriminator="action")]``; the API
answers 400, ``'oneOf' is not permitted``), also reported in
https://github.com/openai/openai-agents-python/issues/474; fixed by
https://github.com/openai/openai-agents-python/pull/1884 ("convert oneOf to anyOf in strict
schema"). Pydantic writes a discriminated union as ``oneOf`` (with a ``discriminator``
mapping); ``ensure_strict_json_schema`` (``agents/strict_schema.py``) made every object strict
but left ``oneOf`` alone, which OpenAI's strict structured outputs reject, so every run of such
an agent failed at its first model call. The fix rewrites ``oneOf`` into ``anyOf``.

The replay: one agent with the issue's ``output_type``; the scripted model (it records the
``output_schema`` the runner hands it, as a real model would send it in ``text.format``)
answers with JSON of the output type. No network: what the OpenAI API would reject is read
from the schema the model was given.

Timeline: whether the schema was strict, every ``oneOf`` / ``anyOf`` / ``discriminator`` in it
with its path, and the run's final output (the parsed object). The oracle: ``fixed`` when the
schema is strict, has no ``oneOf``, has the union as an ``anyOf`` and the final output parsed to
the right variants; ``reproduced`` when the strict schema still holds ``oneOf`` where the union
is; ``unexpected`` otherwise.

What the harness found (bisected per case over every final release, 0.0.2-0.24.0):

- list-of-union, field-union: reproduced 0.0.2-0.3.3, fixed from 0.4.0. The only change to
  ``agents/strict_schema.py`` between 0.3.3 and 0.4.0 is PR #1884's ``oneOf`` -> ``anyOf``
  block (diff of the two releases' installed sources). Pydantic's ``discriminator`` mapping
  stays beside the ``anyOf`` on every fixed release (the timeline shows it); the thread and the
  PR report that the API accepts that schema, which no fake can check.
- plain-union (control, no discriminator): pydantic writes ``anyOf``, sent as is on every release.

Before 0.0.11 ``Agent(output_type=AgentOutputSchema(...))`` (the issue's spelling) is refused
and the schema object has no ``is_strict_json_schema()``; the replay passes the class, which
every release wraps in ``AgentOutputSchema(..., strict_json_schema=True)``.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario

QUESTION = "Buy a red apple and some bread for 3."
LIST_ANSWER = (
    '{"steps": [{"action": "buy_fruit", "args": {"color": "red"}}, {"action": "buy_food", "args": {"price": 3}}]}'
)
FIELD_ANSWER = '{"first": {"action": "buy_fruit", "args": {"color": "red"}}, "note": "one step"}'


def _types(variant: str):
    """The output type of a case, built inside a function (pydantic is the framework's dependency)."""
    from typing import Annotated, Literal

    from pydantic import BaseModel, Field

    class FruitArgs(BaseModel):
        color: str

    class FoodArgs(BaseModel):
        price: int

    class BuyFruitStep(BaseModel):
        action: Literal["buy_fruit"]
        args: FruitArgs

    class BuyFoodStep(BaseModel):
        action: Literal["buy_food"]
        args: FoodArgs

    if variant == "plain":
        Step = BuyFruitStep | BuyFoodStep  # no discriminator: pydantic writes anyOf
    else:
        Step = Annotated[BuyFruitStep | BuyFoodStep, Field(discriminator="action")]

    if variant == "field":

        class Plan(BaseModel):
            first: Step
            note: str

        return Plan, FIELD_ANSWER, ["BuyFruitStep"]

    class Actions(BaseModel):
        steps: list[Step]

    return Actions, LIST_ANSWER, ["BuyFruitStep", "BuyFoodStep"]


def _union_paths(schema, path: str = "") -> list[tuple[str, str, int]]:
    """(path, keyword, branches) for every oneOf / anyOf / discriminator in the schema."""
    found: list[tuple[str, str, int]] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            here = f"{path}/{key}"
            if key in ("oneOf", "anyOf") and isinstance(value, list):
                found.append((path or "/", key, len(value)))
            elif key == "discriminator" and isinstance(value, dict):
                found.append((path or "/", key, len(value.get("mapping") or {})))
            found += _union_paths(value, here)
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            found += _union_paths(value, f"{path}/{i}")
    return found


async def replay(*, variant: str) -> Observation:
    """Run an agent whose output_type holds the union; read the schema its model was handed."""
    from agents import Agent, Runner

    from harness.runtime.fakes import openai_agents as oa

    output_type, answer, variants = _types(variant)
    schemas: list = []

    class SchemaRecordingModel(oa.ScriptedModel):
        async def get_response(self, *args, **kwargs):
            # (system_instructions, input, model_settings, tools, output_schema, handoffs, ...)
            schema = kwargs["output_schema"] if "output_schema" in kwargs else args[4]
            # is_strict_json_schema() from 0.0.11 (PR #539); the strict_json_schema attribute before.
            strict = schema.is_strict_json_schema() if hasattr(schema, "is_strict_json_schema") else None
            strict = schema.strict_json_schema if strict is None else strict
            schemas.append((strict, schema.json_schema()))
            return await super().get_response(*args, **kwargs)

    model = SchemaRecordingModel("shopper", [[oa.text_message(answer)]])
    # The class itself (strict by default): Agent(output_type=AgentOutputSchema(...)), the issue's
    # spelling, is accepted from 0.0.11 only (PR #539); every release wraps the class in it.
    agent = Agent(name="Shopper", model=model, output_type=output_type)
    result = await Runner.run(agent, QUESTION)
    strict, schema = schemas[0] if schemas else (None, {})
    unions = _union_paths(schema)
    final = result.final_output
    parsed = [type(s).__name__ for s in getattr(final, "steps", [])] or (
        [type(final.first).__name__] if hasattr(final, "first") else []
    )
    timeline = [
        f"model calls: {len(schemas)}",
        f"output schema strict: {strict}",
        *(f"schema {path}: {kw} ({n})" for path, kw, n in unions),
        f"final output: {type(final).__name__} with {parsed}",
    ]
    return Observation(
        timeline=timeline,
        facts={
            "calls": len(schemas),
            "strict": strict,
            "one_of": [p for p, kw, _ in unions if kw == "oneOf"],
            "any_of": [p for p, kw, _ in unions if kw == "anyOf"],
            "parsed": parsed,
            "expected": variants,
        },
    )


def judge(obs: Observation):
    f = obs.facts
    if f["calls"] != 1 or f["strict"] is not True:
        return unexpected(
            f"{f['calls']} model calls, strict schema {f['strict']}; expected one call with a strict schema"
        )
    if f["parsed"] != f["expected"]:
        return unexpected(f"the final output parsed to {f['parsed']}, expected {f['expected']}")
    if f["one_of"]:
        return reproduced(
            f"the strict output schema sent to the model holds oneOf at {', '.join(f['one_of'])} "
            "(OpenAI's strict structured outputs reject it)"
        )
    if f["any_of"]:
        return fixed(f"the strict output schema has no oneOf; the union is an anyOf at {', '.join(f['any_of'])}")
    return unexpected("the strict output schema has neither oneOf nor anyOf: the union is gone")


@contextlib.contextmanager
def _union_as_one_of():
    """The strict schema's anyOf renamed oneOf (what the control must never show)."""
    from agents import AgentOutputSchema

    original = AgentOutputSchema.json_schema

    def json_schema(self):
        import json

        return json.loads(json.dumps(original(self)).replace('"anyOf"', '"oneOf"'))

    AgentOutputSchema.json_schema = json_schema  # type: ignore[method-assign]
    try:
        yield
    finally:
        AgentOutputSchema.json_schema = original  # type: ignore[method-assign]


def _no_union(obs: Observation) -> None:
    obs.facts["one_of"] = []
    obs.facts["any_of"] = []


def _not_strict(obs: Observation) -> None:
    obs.facts["strict"] = False


def _two_calls(obs: Observation) -> None:
    obs.facts["calls"] = 2


def _wrong_parse(obs: Observation) -> None:
    obs.facts["parsed"] = ["BuyFoodStep"]


BUG = Release("openai-agents==0.3.3", "the last release before PR #1884")
FIXED = Release("openai-agents==0.4.0", "the first release with PR #1884 (oneOf rewritten as anyOf)")
EDGES = (
    Edge("unexpected", "the schema lost the union altogether", _no_union),
    Edge("unexpected", "the schema is not strict", _not_strict),
    Edge("unexpected", "the model was called twice", _two_calls),
    Edge("unexpected", "the output parsed to the wrong variant", _wrong_parse),
)

SCENARIO = Scenario(
    id="agents-output-type-union-oneof",
    framework="openai-agents",
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
    cases=(
        Case(
            "list-of-union",
            partial(replay, variant="list"),
            judge,
            {"reproduced": BUG, "fixed": FIXED},
            "issue #1091's Actions: steps: List[Annotated[Union[...], Field(discriminator='action')]]",
            edges=EDGES,
        ),
        Case(
            "field-union",
            partial(replay, variant="field"),
            judge,
            {"reproduced": BUG, "fixed": FIXED},
            "the discriminated union as a plain field (first: Step)",
            edges=(Edge("unexpected", "the output parsed to the wrong variant", _wrong_parse),),
        ),
        Case(
            "plain-union",
            partial(replay, variant="plain"),
            judge,
            {
                "reproduced": InProcess("the schema's anyOf renamed oneOf", _union_as_one_of),
                "fixed": AsInstalled("a union without a discriminator is an anyOf on the pinned release (0.24.0)"),
            },
            "the same union without a discriminator: pydantic writes anyOf, which every release sends as is",
            control=True,
        ),
    ),
)
