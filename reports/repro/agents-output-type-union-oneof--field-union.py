# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.3.3",
# ]
# [tool.uv]
# exclude-newer = "2025-09-30T23:20:25Z"
# ///
# agents-output-type-union-oneof:field-union. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   reproduced / reproduced: 0.3.3 (2025-09-30T23:20:25Z)
#   fixed / fixed: 0.4.0 (2025-10-17T23:22:20Z), 0.6.9 (2026-01-20T01:57:01Z),
#     0.7.0 (2026-01-23T00:06:36Z), 0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z),
#     0.10.5 (2026-03-05T20:44:00Z), 0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z),
#     0.13.6 (2026-04-09T04:10:52Z), 0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z),
#     0.16.1 (2026-05-07T11:02:40Z), 0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z),
#     0.19.4 (2026-08-05T02:59:13Z), 0.20.0 (2026-08-11T03:12:50Z), 0.21.1 (2026-08-16T22:29:36Z),
#     0.22.3 (2026-09-17T22:20:45Z), 0.23.1 (2026-10-02T15:42:07Z), 0.24.0 (2026-10-15T02:38:22Z)
"""An output_type with a pydantic discriminated union is sent to the model as a strict schema with oneOf.

Upstream: https://github.com/openai/openai-agents-python/issues/1091 (fix: PR #1884). The
issue's union as a plain field (``first: Annotated[BuyFruitStep | BuyFoodStep,
Field(discriminator="action")]``) of an Agent's ``output_type``; a scripted model records the
strict JSON schema the runner hands it (what a real model sends as ``text.format``, where the
OpenAI API answers 400 "'oneOf' is not permitted") and answers with JSON of the type.
No network, tracing disabled.

reproduced: the strict schema holds ``oneOf`` (the output still parses with the fake model).
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import dataclasses
import json
import os
import sys
from typing import Annotated, Literal

ANSWER = {"first": {"action": "buy_fruit", "args": {"color": "red"}}, "note": "one step"}


def main() -> int:
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

    Step = Annotated[BuyFruitStep | BuyFoodStep, Field(discriminator="action")]

    class Output(BaseModel):
        first: Step
        note: str

    os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-not-used")  # some releases build a client on import
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    from agents import Agent, Runner
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    fields, sent = {f.name for f in dataclasses.fields(ModelResponse)}, []

    class Scripted(Model):
        async def get_response(self, *args, **kwargs):
            sent.append((kwargs["output_schema"] if "output_schema" in kwargs else args[4]).json_schema())
            part = ResponseOutputText(type="output_text", text=json.dumps(ANSWER), annotations=[])
            msg = ResponseOutputMessage(id="m1", type="message", role="assistant", status="completed", content=[part])
            kw = {"output": [msg], "usage": Usage(), "response_id": "r", "referenceable_id": "r"}
            return ModelResponse(**{k: v for k, v in kw.items() if k in fields})

        def stream_response(self, *args, **kwargs):  # abstract in Model; never called here
            raise NotImplementedError

    agent = Agent(name="Shopper", model=Scripted(), output_type=Output)
    result = asyncio.run(Runner.run(agent, "Buy an apple, bread."))
    text = json.dumps(sent[0], sort_keys=True)
    one_of, any_of = '"oneOf"' in text, '"anyOf"' in text
    print(f"strict schema sent to the model holds oneOf: {one_of}, anyOf: {any_of}")
    parsed = [type(result.final_output.first).__name__]
    print(f"final output: {type(result.final_output).__name__} with {parsed}")
    if parsed != ["BuyFruitStep"]:
        print(f"verdict: cannot judge (the output parsed to {parsed})")
        return 125
    if one_of:
        print("verdict: reproduced (the strict output schema holds oneOf, which OpenAI's strict mode rejects)")
        return 3
    if any_of:
        print("verdict: fixed (the strict output schema writes the union as anyOf, no oneOf)")
        return 0
    print("verdict: cannot judge (the schema has neither oneOf nor anyOf)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # any failure is "cannot judge", never a verdict
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
