# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: an output_type with a pydantic discriminated union sends a strict schema with `oneOf`.

Upstream: https://github.com/openai/openai-agents-python/issues/1091 (the API answers 400, "'oneOf' is
not permitted"), also https://github.com/openai/openai-agents-python/issues/474; fixed by
https://github.com/openai/openai-agents-python/pull/1884 ("convert oneOf to anyOf in strict schema").
Pydantic writes a discriminated union as `oneOf`; `ensure_strict_json_schema` (agents/strict_schema.py)
made every object strict but left `oneOf` alone, which OpenAI's strict structured outputs reject.

A `Model` subclass written here (no network) records the output schema the runner hands it (what a real
model sends as `text.format`) and answers with JSON of the output type. Prints whether the schema was
strict, every `oneOf` / `anyOf` / `discriminator` in it with its path, and the parsed final output.
Case `plain-union` is the control: a union without a discriminator, which pydantic writes as `anyOf`.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import json
import os
import sys

CASES = {
    "list-of-union": dict(discriminated=True, field=False),
    "field-union": dict(discriminated=True, field=True),
    "plain-union": dict(discriminated=False, field=False),
}
LIST_ANSWER = dict(
    steps=[dict(action="buy_fruit", args=dict(color="red")), dict(action="buy_food", args=dict(price=3))]
)
FIELD_ANSWER = dict(first=dict(action="buy_fruit", args=dict(color="red")), note="one step")


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def unions(schema, path=""):
    """(path, keyword, branches) for every oneOf / anyOf / discriminator in the schema."""
    found = []
    items = schema.items() if isinstance(schema, dict) else enumerate(schema) if isinstance(schema, list) else []
    for key, value in items:
        if key in ("oneOf", "anyOf") and isinstance(value, list):
            found.append((path or "/", key, len(value)))
        elif key == "discriminator" and isinstance(value, dict):
            found.append((path or "/", key, len(value.get("mapping") or {})))
        found += unions(value, f"{path}/{key}")
    return found


async def observe(say, discriminated, field):
    """Run an agent whose output_type holds the union; say the schema its model was handed."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from typing import Annotated, Literal

    from agents import Agent, ModelResponse, Runner
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText
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

    Step = (
        Annotated[BuyFruitStep | BuyFoodStep, Field(discriminator="action")]
        if discriminated
        else BuyFruitStep | BuyFoodStep
    )

    class Plan(BaseModel):  # the union as a plain field
        first: Step
        note: str

    class Actions(BaseModel):  # issue #1091's output type
        steps: list[Step]

    schemas = []
    answer = json.dumps(FIELD_ANSWER if field else LIST_ANSWER)

    class SchemaRecordingModel(Model):
        async def get_response(self, *args, **kwargs):
            # (system_instructions, input, model_settings, tools, output_schema, ...): by keyword or position
            schema = kwargs["output_schema"] if "output_schema" in kwargs else args[4]
            # is_strict_json_schema() in newer releases, the strict_json_schema attribute before
            strict = schema.is_strict_json_schema() if hasattr(schema, "is_strict_json_schema") else None
            schemas.append((schema.strict_json_schema if strict is None else strict, schema.json_schema()))
            text = ResponseOutputText(type="output_text", text=answer, annotations=[])
            item = ResponseOutputMessage(id="m-1", type="message", role="assistant", status="completed", content=[text])
            fields = dict(output=[item], usage=Usage(), response_id="r-1", referenceable_id="r-1")
            return ModelResponse(**{k: v for k, v in fields.items() if k in ModelResponse.__dataclass_fields__})

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    # The class itself: every release wraps it in AgentOutputSchema(..., strict_json_schema=True).
    agent = Agent(name="Shopper", model=SchemaRecordingModel(), output_type=Plan if field else Actions)
    final = (await Runner.run(agent, "Buy a red apple and some bread for 3.")).final_output
    strict, schema = schemas[0] if schemas else (None, {})
    found = unions(schema)
    parsed = [type(s).__name__ for s in (getattr(final, "steps", None) or [getattr(final, "first", None)])]
    say(f"model calls: {len(schemas)}")
    say(f"output schema strict: {strict}")
    for path, keyword, n in found:
        say(f"schema {path}: {keyword} ({n})")
    say(f"final output: {type(final).__name__} with {parsed}")
    return dict(
        calls=len(schemas), strict=strict, parsed=parsed,
        expected=["BuyFruitStep"] if field else ["BuyFruitStep", "BuyFoodStep"],
        one_of=[p for p, keyword, _ in found if keyword == "oneOf"],
        any_of=[p for p, keyword, _ in found if keyword == "anyOf"],
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the strict schema must write the union as anyOf, never oneOf."""
    if facts["calls"] != 1 or facts["strict"] is not True:
        return "unexpected", f"{facts['calls']} model calls, strict schema {facts['strict']}; expected one strict call"
    if facts["parsed"] != facts["expected"]:
        return "unexpected", f"the final output parsed to {facts['parsed']}, expected {facts['expected']}"
    if facts["one_of"]:
        return "reproduced", (
            f"the strict output schema sent to the model holds oneOf at {', '.join(facts['one_of'])} "
            "(OpenAI's strict structured outputs reject it)"
        )
    if facts["any_of"]:
        return "fixed", f"the strict output schema has no oneOf; the union is an anyOf at {', '.join(facts['any_of'])}"
    return "unexpected", "the strict output schema has neither oneOf nor anyOf: the union is gone"


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
