"""agents-docstring-args-first: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


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


FIXED = AsInstalled("the pinned release (0.24.0) parses an initial Args: section")
BUGGY = Release("openai-agents==0.23.1", "the last release before the initial Args: section is parsed")
PARAMS = {"query": "the search query", "limit": "max results to return"}
SPHINX = InProcess("griffe forced to the sphinx parser, which ignores Args:", _sphinx_parser)


def _params(**changes):
    return lambda obs: obs.facts["params"].update(changes)


BUG = Bug(
    links=("https://github.com/openai/openai-agents-python/pull/3795",),
    description=(
        "A @function_tool whose docstring has no summary line and opens with Args: sends the model "
        "the raw Args: block as the tool's description and no parameter descriptions."
    ),
    expected=(
        "The Args: section is parsed as the parameters' descriptions whether or not a summary line "
        "precedes it; the tool's description holds no Args: block."
    ),
    claims=Claim(
        pr="#3795",
        pr_state="closed unmerged",
        quote="Re-add a leading newline before parsing, so griffe sees an empty summary",
        source="PR #3795 thread (2026-07-10) shown closed; its commit 5bdcb216 is on no branch or tag of the mirror "
        "(to v0.22.0), no '(#3795)' commit there",
    ),
    cases={
        "args-first": CaseRole(
            "a Google docstring that opens with Args: (no summary line), as in PR #3795",
            reproduced=BUGGY, fixed=FIXED,
            edges=(
                Edge("unexpected", "the raw Args: block, one parameter described, the other not",
                     lambda obs: obs.facts.update(description="Args:", params={**PARAMS, "limit": None})),
                Edge("unexpected", "both described but the description still holds Args:",
                     lambda obs: obs.facts.update(description="Args:")),
                Edge("unexpected", "a parameter the function does not have", _params(extra=None)),
            ),
        ),
        "summary-then-args": CaseRole(
            "a summary line, a blank line, then Args:: summary and both descriptions on every release",
            reproduced=SPHINX, fixed=FIXED, control=True,
            edges=(
                Edge("unexpected", "the summary kept but one parameter undescribed", _params(limit=None)),
                Edge("unexpected", "a parameter missing, the other undescribed",
                     lambda obs: obs.facts.update(params={"query": None}), SPHINX),
            ),
        ),
    },
)  # fmt: skip
