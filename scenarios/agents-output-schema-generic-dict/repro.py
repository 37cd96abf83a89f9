# /// script
# requires-python = ">=3.11"  # where its verdicts hold: on 3.10 the bug does not show (0.17.0, 3.10.13)
# dependencies = ["openai-agents"]
# ///
"""openai-agents: AgentOutputSchema(dict[str, int], strict_json_schema=False) is wrapped under "response".

Upstream: https://github.com/openai/openai-agents-python/issues/3315, fixed by
https://github.com/openai/openai-agents-python/pull/3316. `AgentOutputSchema` wraps an output type
that is not a JSON object (a list, a number) in `{"response": ...}`; `_is_subclass_of_base_model_or_dict`
(agents/agent_output.py) decides, and it answered False for every value that is not a class. On
Python 3.11 and later a parameterised generic such as `dict[str, int]` is not a class (`isinstance(dict[str,
int], type)` is False; on 3.10 it was True, so there the bug does not show), so the generic dict was
wrapped while a bare `dict` was not: the model is asked for `{"response": {...}}`, and the natural
`{"a": 1}` fails validation (ModelBehaviorError). The fix looks at the generic's origin first.

A `Model` subclass written here (no network) records the output schema the runner hands it and answers
with JSON of the output type. Prints the schema's top level, how the run ended and the final output,
then what the schema object's `validate_json` makes of the wrapper shape `{"response": ...}`.
Cases `dict` (a bare dict, never wrapped) and `list-str` (a list, which must stay wrapped) are controls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import json
import os
import sys

CASES = {
    "dict-str-int": dict(output="dict[str, int]"),
    "dict": dict(output="dict"),
    "list-str": dict(output="list[str]"),
}
# What the model answers for each output type (a dict as itself, a list under "response" as the schema
# asks), and the final output that answer must parse to.
ANSWER = {"dict[str, int]": {"a": 1}, "dict": {"a": 1}, "list[str]": {"response": ["a", "b"]}}
FINAL = {"dict[str, int]": {"a": 1}, "dict": {"a": 1}, "list[str]": ["a", "b"]}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def top_level(schema):
    """The schema's top level in a few words: its type and property names (or what its values must be)."""
    words = [str(schema.get("type", "?"))]
    if "properties" in schema:
        words.append(f"properties {sorted(schema['properties'])}")
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        words.append(f"additionalProperties {extra.get('type', extra)}")
    return ", ".join(words)


async def observe(say, output):
    """Run an agent whose output_type is AgentOutputSchema(<output>, strict_json_schema=False)."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, AgentOutputSchema, ModelResponse, Runner, set_tracing_disabled
    from agents.exceptions import AgentsException
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint
    try:
        from agents import AgentOutputSchemaBase  # noqa: F401  (Agent takes a schema object since it exists)
    except ImportError as exc:
        raise NotApplicable(f"Agent takes no AgentOutputSchema object as output_type: {exc}") from exc

    output_type = {"dict[str, int]": dict[str, int], "dict": dict, "list[str]": list[str]}[output]
    schema_object = AgentOutputSchema(output_type, strict_json_schema=False)
    answer = json.dumps(ANSWER[output])
    schemas = []

    class SchemaRecordingModel(Model):
        async def get_response(self, *args, **kwargs):
            # (system_instructions, input, model_settings, tools, output_schema, ...): by keyword or position
            schemas.append((kwargs["output_schema"] if "output_schema" in kwargs else args[4]).json_schema())
            text = ResponseOutputText(type="output_text", text=answer, annotations=[])
            item = ResponseOutputMessage(id="m-1", type="message", role="assistant", status="completed", content=[text])
            return ModelResponse(output=[item], usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    agent = Agent(name="Counter", model=SchemaRecordingModel(), output_type=schema_object)
    raised = final = None
    try:
        final = (await Runner.run(agent, "Count the letters.")).final_output
    except AgentsException as exc:  # ModelBehaviorError is the bug's symptom
        raised = f"{type(exc).__name__}: {str(exc).splitlines()[0].split(';')[0]}"
    try:  # what the schema object makes of the wrapper shape the issue says is accepted instead
        wrapper = repr(schema_object.validate_json(json.dumps({"response": FINAL[output]})))
    except AgentsException as exc:
        wrapper = type(exc).__name__
    schema = schemas[0] if schemas else {}
    wrapped = sorted(schema.get("properties", {})) == ["response"]
    say(f"output schema for {output} (strict False): {top_level(schema)}")
    say(f"model answered {answer}")
    say(f"Runner.run raised {raised}" if raised else f"final output: {final!r}")
    say(f"validate_json of the wrapper shape {json.dumps({'response': FINAL[output]})}: {wrapper}")
    return dict(output=output, calls=len(schemas), wrapped=wrapped, raised=raised, final=final)


def judge(facts):
    """(outcome, detail): a dict output type asks for the dict itself; any other stays under "response"."""
    output, natural = facts["output"], FINAL[facts["output"]]
    if facts["calls"] != 1:
        return "unexpected", f"the model was called {facts['calls']} times, expected once"
    keep_wrapped = output == "list[str]"
    if facts["wrapped"] == keep_wrapped and facts["final"] == natural and not facts["raised"]:
        how = 'under "response"' if keep_wrapped else "not wrapped"
        return "fixed", f"the {output} output schema is {how}; the final output is {natural}"
    if keep_wrapped:
        if not facts["wrapped"]:
            return "reproduced", f'the {output} output schema is no longer wrapped under "response"'
    elif facts["wrapped"] and facts["raised"]:
        return "reproduced", (
            f'the {output} output schema is wrapped under "response", so the natural {natural} failed: '
            f"{facts['raised']}"
        )
    return "unexpected", f"wrapped {facts['wrapped']}, raised {facts['raised']}, final output {facts['final']!r}"


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
