# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a function tool whose docstring opens with `Args:` loses every parameter description.

Upstream: https://github.com/openai/openai-agents-python/pull/3795 (closed unmerged; its repro).
`@function_tool` builds the tool's description and its parameters' descriptions from the docstring
(`generate_func_documentation`, agents/function_schema.py). A Google docstring with no summary line
reaches griffe through `inspect.getdoc()`, which strips the leading blank line, so griffe reads the
`Args:` line as the summary: the description is the raw `Args:` block and no parameter is described.

A `Model` subclass written here (no network) records the tools the runner sends it, then answers.
Prints the tool's description and each parameter's description as the model received them.
Case `summary-then-args` is the control (a summary line, a blank line, then `Args:`): it must keep
the summary and both descriptions.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import os
import sys

CASES = {
    "args-first": dict(summary=False),
    "summary-then-args": dict(summary=True),
}
PARAMS = {"query": "the search query", "limit": "max results to return"}
SUMMARY = "Look something up."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def lookup_args_first(query: str, limit: int) -> str:
    """
    Args:
        query: the search query
        limit: max results to return
    """
    return query


def lookup_with_summary(query: str, limit: int) -> str:
    """Look something up.

    Args:
        query: the search query
        limit: max results to return
    """
    return query


async def observe(say, summary):
    """Run an agent with the tool once; say the tool the model received; return it."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, ModelResponse, Runner, function_tool
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    received = []

    class RecordingModel(Model):
        async def get_response(self, *args, **kwargs):
            # tools: by keyword in some releases' runners, the fourth positional argument in others
            received.append(list(kwargs["tools"] if "tools" in kwargs else args[3]))
            text = ResponseOutputText(type="output_text", text="Here they are.", annotations=[])
            item = ResponseOutputMessage(id="m-1", type="message", role="assistant", status="completed", content=[text])
            fields = dict(output=[item], usage=Usage(), response_id="resp-1", referenceable_id="resp-1")
            return ModelResponse(**{k: v for k, v in fields.items() if k in ModelResponse.__dataclass_fields__})

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    func = lookup_with_summary if summary else lookup_args_first
    tool = function_tool(func, name_override="lookup")
    await Runner.run(Agent(name="Searcher", model=RecordingModel(), tools=[tool]), "Find results for 'opening hours'.")
    (tool,) = received[0]
    params = {name: prop.get("description") for name, prop in tool.params_json_schema.get("properties", {}).items()}
    say(f"the model received tool {tool.name} with description {tool.description!r}")
    for name, description in params.items():
        say(f"  parameter {name}: description {description!r}")
    return dict(summary=summary, description=tool.description or "", params=params)


def judge(facts):
    """(outcome, detail): both parameters must reach the model described, the description without Args:."""
    description, params = facts["description"], facts["params"]
    none_described = set(params) == set(PARAMS) and not any(params.values())
    if facts["summary"]:  # the control
        if params == PARAMS and description == SUMMARY:
            return "fixed", f"summary {SUMMARY!r} and both parameter descriptions reach the model"
        if none_described:
            return "reproduced", f"a docstring with a summary line lost its parameter descriptions; {description!r}"
    elif params == PARAMS and "Args:" not in description:
        return "fixed", f"both parameters reach the model with their docstring text; description {description!r}"
    elif none_described and description.startswith("Args:"):
        lines = len(description.splitlines())
        return (
            "reproduced",
            f"0 of 2 parameters have a description; the description is the raw Args: block ({lines} lines)",
        )
    return "unexpected", f"description {description!r}, parameter descriptions {params}"


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
