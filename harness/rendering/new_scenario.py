"""``python -m harness new <scenario-id> --framework NAME``: a new scenario module from a template.

The new module runs, but says ``error`` with what is left to do until its author replaces
every ``TODO``: it cannot pass vacuously. Its module level holds plain data only, so
``python -m harness list`` keeps working where the framework is not installed; it imports
every proof kind (``AsInstalled``, ``InProcess``, ``Release``) and ``NotApplicable``, and
shows two cases: the bug, and a control that must hold on every release.

The templates are real modules, one per framework, that ruff and mypy check
(harness/rendering/templates/scenario_<framework>.py); their words ``__ID__`` and ``__CASE__``
are replaced when the module is written.
"""

from __future__ import annotations

from pathlib import Path

from harness.rendering import templates
from harness.runtime import frameworks, registry
from harness.runtime.scenario import ID_RE, ScenarioError


def module_path(scenario_id: str, directory: Path) -> Path:
    return directory / (scenario_id.replace("-", "_") + ".py")


def render(scenario_id: str, framework_name: str, case: str = "basic") -> str:
    """The template's text for ``scenario_id``."""
    framework = frameworks.get(framework_name)
    text = templates.read(f"scenario_{framework.name.replace('-', '_')}.py")
    for word, value in (("__ID__", scenario_id), ("__CASE__", case)):
        text = text.replace(word, value)
    return text


def create(
    scenario_id: str, framework_name: str, directory: Path = registry.SCENARIOS_DIR, case: str = "basic"
) -> Path:
    """Write the template module; raise ScenarioError (one line) for a taken or malformed id."""
    framework = frameworks.get(framework_name)
    if not ID_RE.match(scenario_id):
        raise ScenarioError(
            f"scenario id {scenario_id!r} is malformed: use lower-case words joined by hyphens, "
            f"e.g. {framework.id_prefix}my-bug"
        )
    if not scenario_id.startswith(framework.id_prefix):
        raise ScenarioError(f"scenario id {scenario_id!r} must start with {framework.id_prefix!r} for {framework.name}")
    if case == "control":
        raise ScenarioError("the template's second case is called 'control'; pick another id for the first case")
    existing = registry.discover(directory)
    path = module_path(scenario_id, directory)
    if scenario_id in existing or path.exists():
        raise ScenarioError(f"scenario {scenario_id!r} already exists ({path.name}); pick another id")
    path.write_text(render(scenario_id, framework.name, case))
    return path
