"""adk-instruction-dollar-brace: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _regex_render(replace) -> Iterator[None]:
    """The pinned release's regex renderer (``_render_with_regex``, private) replaced by ``replace(original)``."""
    from google.adk.flows.llm_flows.prompt import _instructions_utils as module

    original = module._render_with_regex
    module._render_with_regex = replace(original, module)
    try:
        yield
    finally:
        module._render_with_regex = original


def _unknown_names_literal(original, module):
    """PR #5711's change: a valid name missing from state is kept as written instead of raising KeyError."""

    async def render(template, readonly_context):
        state = readonly_context.state
        pieces, last = [], 0
        for match in module._TEMPLATE_VAR_PATTERN.finditer(template):
            name = match.group().lstrip("{").rstrip("}").strip()
            if module._is_valid_state_name(name) and name not in state:
                pieces += [await original(template[last : match.start()], readonly_context), match.group()]
                last = match.end()
        return "".join([*pieces, await original(template[last:], readonly_context)])

    return render


def _no_substitution(original, module):
    """A renderer that fills in nothing: the control's placeholder stays as written."""

    async def render(template, readonly_context):
        return template

    return render


LAST_WITH_BUG = Release(
    "google-adk==2.9.2", "the last release whose template pattern `{+[^{}]*}+` matches `${...}` (it raises KeyError)"
)
FIRST_FIXED = Release(
    "google-adk==2.10.0",
    "the first release whose pattern `(?<![\\$\\{\\\\]){+[^{}]*}+` skips a brace after `$`",
)
PINNED = AsInstalled("the pinned release (2.13.0) keeps `${...}`, fills `{name}` and refuses an unknown `{name}`")
PR_5711 = InProcess(
    "PR #5711's approach applied in process: every name missing from state is kept as written",
    lambda: _regex_render(_unknown_names_literal),
)
NO_SUBSTITUTION = InProcess(
    "the renderer broken in process: no placeholder is filled in", lambda: _regex_render(_no_substitution)
)


def _model_also_called(obs):
    obs.facts["received"] = "Templates write ${expression} to interpolate a value. Greet Ada."


def _other_key_error(obs):
    obs.facts["error"] = "Context variable not found: `somebody_else`."


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/5706",
        "https://github.com/google/adk-python/pull/5711",
        "https://github.com/google/A2UI/issues/1388",
    ),
    description=(
        "A literal `${expression}` in an agent's string instruction (documentation of interpolation "
        "syntax, a pasted tool description) is read as the state variable `expression`: the run fails "
        "with `KeyError: Context variable not found`, or, when the state has that key, the instruction "
        "the model receives is silently rewritten."
    ),
    expected=(
        "`${...}` reaches the model as written, while `{user_name}` beside it is still filled in from "
        "state and a plain `{name}` missing from state still raises, as documented."
    ),
    claims=Claim(
        pr="#5711",
        pr_state="closed unmerged",
        source="issue #5706, closed 2026-05-27 by a commenter pointing at PR #5711 "
        "(return the match instead of raising), not merged in the thread",
    ),
    cases={
        "missing-key": CaseRole(
            "`${expression}` beside `{user_name}`; state has user_name only",
            reproduced=LAST_WITH_BUG,
            fixed=FIRST_FIXED,
            edges=(
                Edge("unexpected", "the run raised and yet the model was called", _model_also_called, LAST_WITH_BUG),
                Edge("unexpected", "the run raised KeyError for another name", _other_key_error, LAST_WITH_BUG),
                Edge(
                    "unexpected",
                    "nothing raised and the model never called",
                    lambda obs: obs.facts.update(received=None),
                    FIRST_FIXED,
                ),
                Edge(
                    "unexpected",
                    "`${expression}` kept but `{user_name}` left unfilled",
                    lambda obs: obs.facts.update(received="Templates write ${expression} to interpolate a value."),
                    FIRST_FIXED,
                ),
            ),
        ),
        "state-has-key": CaseRole(
            "`${expression}` beside `{user_name}`; state has both user_name and expression",
            reproduced=LAST_WITH_BUG,
            fixed=FIRST_FIXED,
            edges=(
                Edge(
                    "unexpected",
                    "`${expression}` rewritten to something other than the state's value",
                    lambda obs: obs.facts.update(received="Templates write $43 to interpolate a value. Greet Ada."),
                    LAST_WITH_BUG,
                ),
            ),
        ),
        "placeholder": CaseRole(
            "control: `Greet {user_name}.` with user_name in state is filled in",
            reproduced=NO_SUBSTITUTION,
            fixed=PINNED,
            control=True,
        ),
        "missing-placeholder": CaseRole(
            "a plain `{nobody}` missing from state still raises KeyError (a fix may not make it literal)",
            reproduced=PR_5711,
            fixed=PINNED,
            non_regression=True,
            edges=(Edge("unexpected", "the run raised KeyError for another name", _other_key_error, PINNED),),
        ),
    },
)
