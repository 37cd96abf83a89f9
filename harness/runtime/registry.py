"""Scenario discovery: every bug folder in ``scenarios/`` (``<id>/bug.py`` beside its script
``<id>/repro.py``), with no hand-kept list.

Mirrors nox's registry: one mapping from id to scenario, handed out as a copy.
"""

from __future__ import annotations

from pathlib import Path

from harness.errors import UsageError
from harness.project import PROJECT
from harness.runtime import importing, reproduction
from harness.runtime.scenario import Case, Scenario, ScenarioError, expand_backends, validate

SCENARIOS_DIR = PROJECT.scenarios


class UnknownId(UsageError, ValueError):
    """A scenario or case id that no scenario defines."""


def _python_name(folder: str) -> str:
    return folder.replace("-", "_")


def discover(directory: Path = SCENARIOS_DIR) -> dict[str, Scenario]:
    """Load and validate every bug folder in ``directory`` (its declaration and its script), keyed
    by scenario id: the folder's name, so no two can share one."""
    package = "scenarios" if directory == SCENARIOS_DIR else f"_scenarios_{abs(hash(str(directory)))}"
    found: dict[str, Scenario] = {}
    for path in sorted(directory.glob(f"*/{reproduction.DECLARATION}")):
        folder = path.parent.name
        # Errors name the declaration by its folder (scenarios/<id>/bug.py: every one is a bug.py).
        name = f"{package}.{_python_name(folder)}.{path.stem}"
        declaration = importing.import_file(path, name, f"scenario module {'/'.join(path.parts[-3:])}")
        if not hasattr(declaration, "BUG"):
            raise ScenarioError(f"scenario {folder}: {path.name} defines no BUG")
        written = reproduction.scenario_from_folder(path.parent, declaration.BUG)
        # Validated as written, then with one case per backend (their ids must not collide).
        scenario = validate(expand_backends(validate(written, folder)), folder)
        found[scenario.id] = scenario
    return found


def select(scenarios: dict[str, Scenario], selectors: list[str]) -> list[tuple[Scenario, Case]]:
    """The (scenario, case) pairs named by ``scenario`` or ``scenario:case`` selectors (all when empty)."""
    if not selectors:
        return [(s, c) for s in scenarios.values() for c in s.cases]
    chosen: list[tuple[Scenario, Case]] = []
    for selector in selectors:
        scenario_id, _, case_id = selector.partition(":")
        if scenario_id not in scenarios:
            raise UnknownId(f"unknown scenario {scenario_id!r}; valid: {', '.join(sorted(scenarios))}")
        scenario = scenarios[scenario_id]
        if case_id:
            try:
                cases = [scenario.case(case_id)]
            except KeyError as exc:
                raise UnknownId(exc.args[0]) from None
        else:
            cases = list(scenario.cases)
        chosen.extend((scenario, c) for c in cases if (scenario, c) not in chosen)
    return chosen


def requirements(scenarios: dict[str, Scenario], framework: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(extras of the framework itself, other packages) that ``framework``'s scenarios require.

    ``google-adk[db]`` contributes the extra ``db``; ``aiosqlite`` is another package.
    """
    import re

    extras: set[str] = set()
    packages: set[str] = set()
    norm = lambda name: re.sub(r"[-_.]+", "-", name).lower()  # noqa: E731 (PEP 503 names)
    for scenario in scenarios.values():
        if scenario.framework != framework:
            continue
        for req in scenario.requires:
            m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[([^\]]*)\])?\s*$", req)
            if m and norm(m.group(1)) == norm(framework):
                extras.update(e.strip() for e in (m.group(2) or "").split(",") if e.strip())
            else:
                packages.add(req.strip())
    return tuple(sorted(extras)), tuple(sorted(packages))
