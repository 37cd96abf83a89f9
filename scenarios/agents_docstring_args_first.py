"""openai-agents: a function tool whose docstring opens with ``Args:`` loses every parameter description.

Upstream: https://github.com/openai/openai-agents-python/pull/3795 ("keep parameter
descriptions for docstrings without a summary line", its description holds the repro;
closed without being merged: its commit 5bdcb216 is on no branch of the upstream history).
``@function_tool`` builds the tool's description and the JSON schema's parameter descriptions
from the docstring (``generate_func_documentation`` in ``agents/function_schema.py``). A
Google-style docstring with no summary line, the opening quotes on their own line::

    \"\"\"
    Args:
        query: the search query
        limit: max results to return
    \"\"\"

reaches griffe through ``inspect.getdoc()``, which strips the leading blank line; griffe's
Google parser then reads the ``Args:`` line as the summary, so the tool's description becomes
the raw ``Args:`` block and no parameter gets a description: the model never sees them.

The replay: ``function_tool`` over such a function, on an agent whose scripted model records
the tools the runner sends it, then answers. Timeline: the tool's description and each
parameter's description as the model received them. The oracle of ``args-first``: ``fixed``
when both parameters carry their docstring text and the description holds no ``Args:``;
``reproduced`` when neither parameter has a description and the description is the raw
``Args:`` block; ``unexpected`` otherwise. The control ``summary-then-args`` (a summary line,
a blank line, then ``Args:``) must give the summary as the description and both parameter
descriptions on every release.

What the harness found (bisected over every final release, 0.0.2 to 0.24.0): ``args-first``
reproduces on every release from 0.0.2 through 0.23.1 and is fixed on 0.24.0, the first release
that passes ``"\n" + doc`` to griffe (with the comment "Griffe runs cleandoc again. A leading
newline keeps the already-cleaned first line in its indentation calculation"): the change PR
#3795 proposed, landed by another commit after 0.23.1 (the diff of ``agents/function_schema.py``
between 0.23.1 and 0.24.0 holds it; the mirror of the upstream history available here ends
before it, so the commit is not named). The control holds on every release. Checked outside the
harness with the short scripts in ``scenarios/repro/``: the same verdict as the case on every
release of the matrix and on 0.0.2 (args-first exits 3 up to 0.23.1 and 0 on 0.24.0; the
control exits 0 everywhere).
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario

QUESTION = "Find three results for 'opening hours'."
ANSWER = "Here they are."
PARAMS = {"query": "the search query", "limit": "max results to return"}
SUMMARY = "Look something up."


def _tool(variant: str):
    from agents import function_tool

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

    func = lookup_args_first if variant == "args-first" else lookup_with_summary
    return function_tool(func, name_override="lookup")


def _tools_arg(args: tuple, kwargs: dict):
    # Model.get_response(system_instructions, input, model_settings, tools, ...): positional in
    # some releases' runners, by keyword in others.
    return kwargs["tools"] if "tools" in kwargs else args[3]


async def replay(*, variant: str) -> Observation:
    """Run an agent with the tool once; read the tool back from what the model received."""
    from agents import Agent, Runner

    from harness.runtime.fakes import openai_agents as oa

    class ToolRecordingModel(oa.ScriptedModel):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.received: list = []

        async def get_response(self, *args, **kwargs):
            self.received.append(list(_tools_arg(args, kwargs)))
            return await super().get_response(*args, **kwargs)

    model = ToolRecordingModel("lookup", [[oa.text_message(ANSWER)]])
    await Runner.run(Agent(name="Searcher", model=model, tools=[_tool(variant)]), QUESTION)
    (tool,) = model.received[0]
    properties = tool.params_json_schema.get("properties", {})
    params = {name: prop.get("description") for name, prop in properties.items()}
    timeline = [
        f"the model received tool {tool.name} with description {tool.description!r}",
        *[f"  parameter {name}: description {desc!r}" for name, desc in params.items()],
    ]
    return Observation(timeline=timeline, facts={"description": tool.description, "params": params})


def judge(obs: Observation):
    f = obs.facts
    description = f["description"] or ""
    params = f["params"]
    described = [name for name, desc in params.items() if desc]
    if params == PARAMS and "Args:" not in description:
        return fixed(f"both parameters reach the model with their docstring text; description {description!r}")
    if set(params) == set(PARAMS) and not described and description.startswith("Args:"):
        return reproduced(
            f"0 of {len(params)} parameters have a description; the tool's description is the raw "
            f"Args: block ({len(description.splitlines())} lines)"
        )
    return unexpected(f"description {description!r}, parameter descriptions {params}")


def judge_control(obs: Observation):
    """Fixed when the summary and both parameter descriptions reach the model; reproduced (the
    control broke) when the parameters lost their descriptions."""
    f = obs.facts
    if f["params"] == PARAMS and f["description"] == SUMMARY:
        return fixed(f"summary {SUMMARY!r} and both parameter descriptions reach the model")
    if set(f["params"]) == set(PARAMS) and not any(f["params"].values()):
        return reproduced(
            f"a docstring with a summary line lost its parameter descriptions; description {f['description']!r}"
        )
    return unexpected(f"description {f['description']!r}, parameter descriptions {f['params']}")


@contextlib.contextmanager
def _sphinx_parser():
    """Break docstring parsing in process: griffe always gets parser="sphinx", which knows no Args:."""
    from agents import function_schema

    original = function_schema.Docstring

    def sphinx_only(text, *args, **kwargs):
        kwargs["parser"] = "sphinx"
        return original(text, *args, **kwargs)

    function_schema.Docstring = sphinx_only
    try:
        yield
    finally:
        function_schema.Docstring = original


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _one_described(obs: Observation) -> None:
    obs.facts["params"]["query"] = PARAMS["query"]


def _args_in_description(obs: Observation) -> None:
    obs.facts["description"] = "Args:"


def _a_third_parameter(obs: Observation) -> None:
    obs.facts["params"]["extra"] = None


def _limit_undescribed(obs: Observation) -> None:
    obs.facts["params"]["limit"] = None


def _limit_missing_none_described(obs: Observation) -> None:
    obs.facts["params"] = {"query": None}


FIXED_BUILD = AsInstalled("the pinned release (0.24.0) parses an initial Args: section")
BUG_BUILD = Release("openai-agents==0.23.1", "the last release before the initial Args: section is parsed")

SCENARIO = Scenario(
    id="agents-docstring-args-first",
    framework="openai-agents",
    links=("https://github.com/openai/openai-agents-python/pull/3795",),
    description=(
        "A @function_tool whose docstring has no summary line and opens with Args: sends the model "
        "the raw Args: block as the tool's description and no parameter descriptions."
    ),
    expected=(
        "The Args: section is parsed as the parameters' descriptions whether or not a summary line "
        "precedes it; the tool's description holds no Args: block."
    ),
    cases=(
        Case(
            "args-first",
            partial(replay, variant="args-first"),
            judge,
            {
                "reproduced": Release(
                    "openai-agents==0.23.1", "the last release before the initial Args: section is parsed"
                ),
                "fixed": FIXED_BUILD,
            },
            "a Google docstring that opens with Args: (no summary line), as in PR #3795",
            edges=(
                Edge("unexpected", "one parameter described, the other not", _one_described, build=BUG_BUILD),
                Edge("unexpected", "both described but the description still holds Args:", _args_in_description),
                Edge("unexpected", "a parameter the function does not have", _a_third_parameter),
            ),
        ),
        Case(
            "summary-then-args",
            partial(replay, variant="summary-then-args"),
            judge_control,
            {
                "reproduced": InProcess("griffe forced to the sphinx parser, which ignores Args:", _sphinx_parser),
                "fixed": FIXED_BUILD,
            },
            "a summary line, a blank line, then Args:: summary and both descriptions on every release",
            control=True,
            edges=(
                Edge("unexpected", "the summary kept but one parameter undescribed", _limit_undescribed),
                Edge(
                    "unexpected",
                    "a parameter missing, the other undescribed",
                    _limit_missing_none_described,
                    build=InProcess("griffe forced to the sphinx parser, which ignores Args:", _sphinx_parser),
                ),
            ),
        ),
    ),
)
