"""agents-output-schema-generic-dict: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _wrap_decision(is_object: bool) -> Iterator[None]:
    """agents.agent_output's wrap decision forced: every output type taken as a JSON object, or none."""
    import agents.agent_output

    original = agents.agent_output._is_subclass_of_base_model_or_dict
    agents.agent_output._is_subclass_of_base_model_or_dict = lambda t: is_object
    try:
        yield
    finally:
        agents.agent_output._is_subclass_of_base_model_or_dict = original


def _everything_wrapped():
    return _wrap_decision(False)


def _nothing_wrapped():
    return _wrap_decision(True)


PINNED = AsInstalled("the pinned release (0.24.0) wraps a list and no dict")
BUGGY = Release("openai-agents==0.17.0", "the last release before PR #3316")

BUG = Bug(
    links=(
        "https://github.com/openai/openai-agents-python/issues/3315",
        "https://github.com/openai/openai-agents-python/pull/3316",
    ),
    description=(
        'AgentOutputSchema(dict[str, int], strict_json_schema=False) is wrapped under "response" (a bare '
        'dict is not): the model is asked for {"response": {...}} and the natural {"a": 1} fails '
        "validation with ModelBehaviorError (Python 3.11 and later, where a parameterised generic is not a class)."
    ),
    expected='A generic dict output type is not wrapped, like a bare dict; a list[str] stays under "response".',
    claims=Claim(
        pr="#3316",
        pr_state="merged",
        quote="Keep `dict[str, int]` unwrapped like bare `dict`",
        source="PR #3316 thread (merged), 'fix: #3315 align generic dict output schemas'; commit 94fa9e21 "
        "(2026-05-10), first tag v0.17.1",
    ),
    cases={
        "dict-str-int": CaseRole(
            'AgentOutputSchema(dict[str, int], strict_json_schema=False); the model answers {"a": 1}',
            reproduced=BUGGY,
            fixed=Release("openai-agents==0.17.1", "the first release with PR #3316"),
            edges=(
                Edge("unexpected", "the model was called twice", lambda o: o.facts.update(calls=2)),
                Edge("unexpected", "wrapped, yet the run succeeded", lambda o: o.facts.update(raised=None), BUGGY),
                Edge("unexpected", "not wrapped, yet the run failed", lambda o: o.facts.update(raised="X: y")),
                Edge("unexpected", "not wrapped, another final output", lambda o: o.facts.update(final={"a": 2})),
            ),
        ),
        "dict": CaseRole(
            'AgentOutputSchema(dict, strict_json_schema=False): the bare dict, never wrapped; answers {"a": 1}',
            reproduced=InProcess("every output type wrapped under response", _everything_wrapped),
            fixed=PINNED,
            control=True,
        ),
        "list-str": CaseRole(
            'AgentOutputSchema(list[str], strict_json_schema=False) stays under "response" (the model answers so)',
            reproduced=InProcess("no output type wrapped", _nothing_wrapped),
            fixed=PINNED,
            control=True,
            edges=(
                Edge("unexpected", "wrapped, yet the run failed", lambda o: o.facts.update(raised="X: y", final=None)),
            ),
        ),
    },
)
