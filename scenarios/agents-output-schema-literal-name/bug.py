"""agents-output-schema-literal-name: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _type_to_str(replacement: Callable[[Any], str]) -> Iterator[None]:
    """agents.agent_output._type_to_str (what AgentOutputSchema.name() formats with) replaced in process."""
    import agents.agent_output

    original = agents.agent_output._type_to_str
    agents.agent_output._type_to_str = replacement
    try:
        yield
    finally:
        agents.agent_output._type_to_str = original


def _raise(t: Any) -> str:
    raise AttributeError(f"{type(t).__name__!r} object has no attribute '__name__'")


def every_name_by_repr() -> contextlib.AbstractContextManager[None]:
    """A fix gone too far: every output type's name is its repr() (a model class reads "<class '...'>")."""
    return _type_to_str(repr)


def every_name_raises() -> contextlib.AbstractContextManager[None]:
    """name() raises AttributeError for every output type (what the control must never show)."""
    return _type_to_str(_raise)


def _facts(**changes):
    """An edge's alteration: these facts changed."""
    return lambda obs: obs.facts.update(**changes)


REPORTED = Release("openai-agents==0.17.1", "PR #3358's release (current on 2026-05-11), the last before its fix")
FIXED = Release("openai-agents==0.17.3", "the first release with PR #3358 (0.17.2 has it not): the name is formatted")
# Observations no build makes, one step across the judge's lines (nox -s mutants).
CRASH_EDGES = (
    Edge("unexpected", "the run raised another AttributeError", _facts(error="AttributeError: boom"), REPORTED),
    Edge("unexpected", "the run raised after the model was called", _facts(model_calls=1), REPORTED),
    Edge("unexpected", "the run raised another error naming __name__",
         _facts(error="TypeError: 'str' object has no attribute '__name__'"), REPORTED),
    Edge("unexpected", "the run answered twice", _facts(model_calls=2)),
    Edge("unexpected", "the run ended with another final output", _facts(final_output="ok")),
)  # fmt: skip
NAME_EDGES = (
    Edge("unexpected", "the run raised another error", _facts(error="RuntimeError: boom")),
    Edge("unexpected", "the run answered twice", _facts(model_calls=2)),
    Edge("unexpected", "the run ended with another final output", _facts(final_output=None)),
    Edge("unexpected", "two agent spans recorded", lambda obs: obs.facts.update(recorded=obs.facts["recorded"] * 2)),
    Edge("reproduced", "the span recorded another name", _facts(recorded=["<something else>"])),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/3357",
        "https://github.com/openai/openai-agents-python/pull/3358",
    ),
    description=(
        "An agent whose output_type is a Literal (Literal['ok', 'done'], list[Literal[...]]) cannot run: before "
        "the first model call the runner records AgentOutputSchema.name(), whose _type_to_str reads __name__ of "
        "the Literal's values, and Runner.run raises AttributeError: 'str' object has no attribute '__name__'."
    ),
    expected=(
        "The Literal output type's name is formatted and the run goes on to its final output; a model class and "
        "list[str] keep their names ('Verdict', 'list[str]')."
    ),
    claims=Claim(
        pr="#3358",
        pr_state="merged",
        quote="Fix `AgentOutputSchema.name()` so typing arguments without `__name__`, such as `Literal` values, "
        "are formatted instead of raising.",
        source="PR #3358 'fix: #3357 output schema names for Literal types' (merged, opened 2026-05-11, 'Closes "
        "#3357'); it names no release",
    ),
    cases={
        "literal-output": CaseRole(
            "Agent(output_type=Literal['ok', 'done']); the model answers {'response': 'done'}: the run must end with "
            "'done'",
            reproduced=REPORTED, fixed=FIXED, edges=CRASH_EDGES,
        ),
        "list-of-literal-output": CaseRole(
            "Agent(output_type=list[Literal['ok', 'done']]) (the PR's second example): the run must end with "
            "['ok', 'done']",
            reproduced=REPORTED, fixed=FIXED, edges=CRASH_EDGES,
        ),
        "model-class-name-kept": CaseRole(
            "Agent(output_type=Verdict), a pydantic model: the run ends and its agent span records 'Verdict'",
            reproduced=InProcess("every output type's name formatted by repr()", every_name_by_repr),
            fixed=AsInstalled("the pinned release records the class's __name__"),
            non_regression=True, edges=NAME_EDGES,
        ),
        "control-list-str": CaseRole(
            "Agent(output_type=list[str]): the run ends and its agent span records 'list[str]'",
            reproduced=InProcess("name() raises AttributeError for every output type", every_name_raises),
            fixed=AsInstalled("the pinned release records 'list[str]'"),
            control=True, edges=NAME_EDGES,
        ),
    },
)  # fmt: skip
