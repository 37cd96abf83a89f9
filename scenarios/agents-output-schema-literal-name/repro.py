# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: an agent whose output_type is a Literal (Literal["ok", "done"], list[Literal[...]]) cannot
run: AgentOutputSchema.name() raises AttributeError before the first model call.

Upstream: https://github.com/openai/openai-agents-python/issues/3357, fixed by
https://github.com/openai/openai-agents-python/pull/3358. Before its first model call the runner records the
output type's name on the agent's trace span (`output_schema.name()`, even with tracing disabled), and
`_type_to_str` (agents/agent_output.py) formats a type from its arguments' `__name__`: a Literal's arguments are
values ("ok"), which have none, so `Runner.run` raised `AttributeError: 'str' object has no attribute
'__name__'` for a valid structured output type. Expected: the name is formatted and the run goes on; the names
of ordinary output types (a model class, list[str]) stay as they were.

A scripted model (a Model that answers once with JSON of the output type) and the framework's own Runner, with
an in-process trace processor in place of the exporter (nothing leaves the process) that keeps the agent span's
recorded output type. Prints how the run ended, the final output and the recorded output type name.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import json
import os
import sys

# output: the agent's output_type; answer: the model's JSON text; final: the final output it must parse to;
# name: the output type name the agent span must record (None: any, the thread asks only that the run goes on).
CASES = {
    "literal-output": dict(output="Literal['ok', 'done']", answer={"response": "done"}, final="done", name=None),
    "list-of-literal-output": dict(
        output="list[Literal['ok', 'done']]", answer={"response": ["ok", "done"]}, final=["ok", "done"], name=None
    ),
    # A model class keeps its name: a fix that formats every type with repr() would go too far.
    "model-class-name-kept": dict(
        output="Verdict", answer={"status": "done"}, final={"status": "done"}, name="Verdict"
    ),
    # A generic of a class, formatted from __name__ on every release.
    "control-list-str": dict(output="list[str]", answer={"response": ["a", "b"]}, final=["a", "b"], name="list[str]"),
}
QUESTION = "Is the job finished?"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, output, answer, final, name):
    """Run an agent with the case's output_type; say how the run ended; return what judge reads."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from typing import Literal

    from agents import Agent, Model, ModelResponse, Runner, Usage, set_tracing_disabled
    from agents.tracing import TracingProcessor, set_trace_processors
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText
    from pydantic import BaseModel

    class Verdict(BaseModel):
        status: str

    output_type = {
        "Literal['ok', 'done']": Literal["ok", "done"],
        "list[Literal['ok', 'done']]": list[Literal["ok", "done"]],
        "Verdict": Verdict,
        "list[str]": list[str],
    }[output]

    class SpanRecorder(TracingProcessor):
        """Keeps the output type each agent span recorded; exports nothing."""

        def __init__(self):
            self.output_types = []

        def on_span_end(self, span):
            data = span.span_data
            if type(data).__name__ == "AgentSpanData":
                self.output_types.append(data.output_type)

        def on_trace_start(self, trace):
            pass

        def on_trace_end(self, trace):
            pass

        def on_span_start(self, span):
            pass

        def shutdown(self):
            pass

        def force_flush(self):
            pass

    recorder = SpanRecorder()
    set_trace_processors([recorder])  # replaces the exporter: the spans stay in this process
    set_tracing_disabled(False)

    def model_response(output_items):
        """A ModelResponse without an id (the field was `referenceable_id` before it was `response_id`)."""
        names = {f.name for f in dataclasses.fields(ModelResponse)}
        id_field = "response_id" if "response_id" in names else "referenceable_id"
        return ModelResponse(output=output_items, usage=Usage(), **{id_field: None})

    class ScriptedModel(Model):
        """Answers every call with the case's JSON text; counts the calls."""

        def __init__(self):
            self.calls = 0

        async def get_response(self, *args, **kwargs):
            self.calls += 1
            text = ResponseOutputText(type="output_text", text=json.dumps(answer), annotations=[])
            item = ResponseOutputMessage(id="msg_1", type="message", role="assistant", status="completed",
                                         content=[text])  # fmt: skip
            return model_response([item])

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError("the cases do not stream")

    model = ScriptedModel()
    agent = Agent(name="checker", model=model, output_type=output_type)
    error, final_output = None, None
    try:
        final_output = (await Runner.run(agent, input=QUESTION)).final_output
    except Exception as exc:
        error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    if isinstance(final_output, BaseModel):
        final_output = final_output.model_dump()
    say(f"Agent(output_type={output}); the model answers {json.dumps(answer)}")
    say(f"Runner.run raised {error[:200]}" if error else f"final output: {final_output!r}")
    say(f"model calls: {model.calls}; agent spans recorded output types {recorder.output_types}")
    return dict(output=output, error=error, final_output=final_output, model_calls=model.calls, final=final,
                name=name, recorded=recorder.output_types)  # fmt: skip


def judge(facts):
    """(outcome, detail): the run goes on and ends with the parsed final output; where the case names one, the
    agent span records that output type name."""
    error, recorded = facts["error"], facts["recorded"]
    figures = f"output_type {facts['output']}: {facts['model_calls']} model calls, spans recorded {recorded}"
    if error is not None:
        # The thread's symptom: name() raises on the Literal's values before the model is called.
        crashed = error.startswith("AttributeError:") and "__name__" in error and facts["model_calls"] == 0
        return ("reproduced", f"{figures}; Runner.run raised {error[:160]}") if crashed else (
            "unexpected", f"{figures}; Runner.run raised {error[:160]}")  # fmt: skip
    if facts["model_calls"] != 1 or facts["final_output"] != facts["final"]:
        return "unexpected", f"{figures}; final output {facts['final_output']!r}"
    if facts["name"] is None:
        return "fixed", f"{figures}; final output {facts['final_output']!r}"
    if recorded == [facts["name"]]:
        return "fixed", f"{figures}: the name is kept"
    return ("reproduced", f"{figures}, not [{facts['name']!r}]") if len(recorded) == 1 else (
        "unexpected", f"{figures}: expected one agent span")  # fmt: skip


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
