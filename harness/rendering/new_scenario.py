"""``python -m harness new <scenario-id> --framework NAME``: a new bug folder from the templates.

``scenarios/<id>/repro.py`` (the standalone reproduction: a scripted model, the framework's runner,
the cases as data, the runner block every reproduction shares) and ``scenarios/<id>/bug.py`` (the
declaration: links, each case's role and proofs). The script runs the framework as it is, but says
``error`` with what is left to do until its author replaces every ``TODO``: it cannot pass
vacuously. Its module level imports the standard library only, so ``python -m harness list`` keeps
working where the framework is not installed; it shows two cases: the bug, and a control.

The templates are real files that ruff checks (harness/rendering/templates/repro_<framework>.py and
bug.py); their words ``__ID__``, ``__CASE__`` and ``__FRAMEWORK__`` are replaced when written.
templates/database_google_adk.py holds the one copy of ``database(backend)``, the helper of the
google-adk scripts on a database (a new bug's script gets no database: it copies the helper in).
"""

from __future__ import annotations

import ast
from pathlib import Path

from harness.rendering import templates
from harness.runtime import frameworks, registry, reproduction
from harness.runtime.scenario import ID_RE, ScenarioError


def folder_path(scenario_id: str, directory: Path) -> Path:
    return directory / scenario_id


def render(template: str, scenario_id: str, framework_name: str, case: str = "basic") -> str:
    """A template's text for ``scenario_id``."""
    text = templates.read(template)
    for word, value in (("__ID__", scenario_id), ("__CASE__", case), ("__FRAMEWORK__", framework_name)):
        text = text.replace(word, value)
    return text


def runner_block() -> str:
    """The block every reproduction ends with (from its marker line to the end), as the templates hold it."""
    text = templates.read("repro_google_adk.py")
    return text[text.index(RUNNER_MARKER) :]


RUNNER_MARKER = "# --- the same in every reproduction"
DATABASE_HELPER = "database"  # the function's name, in the template and in every script that defines it
DATABASE_TEMPLATE = "database_google_adk.py"


def function_source(text: str, name: str) -> str | None:
    """The source of the module-level function ``name`` in ``text``, from its first decorator line to its
    last line; None where the module defines no such function."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            return "".join(text.splitlines(keepends=True)[first - 1 : node.end_lineno])
    return None


def database_helper() -> str:
    """``database(backend)`` as the template holds it: what every script that defines it carries."""
    source = function_source(templates.read(DATABASE_TEMPLATE), DATABASE_HELPER)
    if source is None:
        raise ValueError(f"harness/rendering/templates/{DATABASE_TEMPLATE} defines no {DATABASE_HELPER}()")
    return source


def create(
    scenario_id: str, framework_name: str, directory: Path = registry.SCENARIOS_DIR, case: str = "basic"
) -> Path:
    """Write the bug folder; raise ScenarioError (one line) for a taken or malformed id."""
    framework = frameworks.get(framework_name)
    if not ID_RE.match(scenario_id):
        raise ScenarioError(
            f"scenario id {scenario_id!r} is malformed: use lower-case words joined by hyphens, "
            f"e.g. {framework.id_prefix}my-bug"
        )
    if not scenario_id.startswith(framework.id_prefix):
        raise ScenarioError(f"scenario id {scenario_id!r} must start with {framework.id_prefix!r} for {framework.name}")
    if case == "control" or not ID_RE.match(case):
        raise ScenarioError(f"case id {case!r}: use lower-case words joined by hyphens, other than 'control'")
    existing = registry.discover(directory)
    folder = folder_path(scenario_id, directory)
    if scenario_id in existing or folder.exists():
        raise ScenarioError(f"scenario {scenario_id!r} already exists (scenarios/{folder.name}); pick another id")
    folder.mkdir()
    script = f"repro_{framework.name.replace('-', '_')}.py"
    (folder / reproduction.SCRIPT).write_text(render(script, scenario_id, framework.name, case))
    (folder / reproduction.DECLARATION).write_text(render("bug.py", scenario_id, framework.name, case))
    return folder
