"""Scenario discovery: every module in ``scenarios/`` with no hand-kept list.

Mirrors nox's registry: one mapping from id to scenario, handed out as a copy.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import ModuleType

from harness.errors import UsageError
from harness.project import PROJECT
from harness.runtime import importing, reproduction
from harness.runtime.scenario import Case, Scenario, ScenarioError, expand_backends, validate

SCENARIOS_DIR = PROJECT.scenarios


class UnknownId(UsageError, ValueError):
    """A scenario or case id that no scenario defines."""


def _shown(path: Path) -> str:
    """How errors name a scenario module: a bug folder's declaration by its folder
    (``scenarios/<id>/bug.py``: every one is a bug.py), any other module by its name."""
    if path.name == reproduction.DECLARATION:
        return "/".join(path.parts[-3:])
    return path.stem


def _load_module(path: Path, package: str) -> ModuleType:
    return importing.import_file(path, f"{package}.{path.stem}", f"scenario module {_shown(path)}")


def _python_name(folder: str) -> str:
    return folder.replace("-", "_")


def discover(directory: Path = SCENARIOS_DIR) -> dict[str, Scenario]:
    """Load and validate every scenario module in ``directory``, keyed by scenario id."""
    package = "scenarios" if directory == SCENARIOS_DIR else f"_scenarios_{abs(hash(str(directory)))}"
    found: dict[str, Scenario] = {}
    paths = sorted([*directory.glob("*.py"), *directory.glob(f"*/{reproduction.DECLARATION}")])
    for path in paths:
        if path.name.startswith("_"):
            continue
        if path.name == reproduction.DECLARATION:  # a bug folder: its script and its declaration
            declaration = _load_module(path, f"{package}.{_python_name(path.parent.name)}")
            if not hasattr(declaration, "BUG"):
                raise ScenarioError(f"scenario {path.parent.name}: {path.name} defines no BUG")
            written = reproduction.scenario_from_folder(path.parent, declaration.BUG)
        else:
            module = _load_module(path, package)
            if not hasattr(module, "SCENARIO"):
                raise ScenarioError(f"scenario module {path.stem}: it defines no SCENARIO")
            written = module.SCENARIO
            if isinstance(written, Scenario):
                written = replace(written, module=path.stem)
        where = path.stem if path.name != reproduction.DECLARATION else path.parent.name
        # Validated as written, then with one case per backend (their ids must not collide).
        scenario = validate(expand_backends(validate(written, where)), where)
        if scenario.id in found:
            raise ScenarioError(
                f"scenario module {where}: id {scenario.id!r} is already used by module {found[scenario.id].module}"
            )
        found[scenario.id] = scenario
    return _with_claims(found, directory, package)


CLAIMS_MODULE = (
    "_claims.py"  # a folder of scenario modules may declare their threads' claims here (a bug folder: in bug.py)
)


def _with_claims(found: dict[str, Scenario], directory: Path, package: str) -> dict[str, Scenario]:
    """``found`` with each claim of the folder's claims module set on its scenario. The claims live
    apart from the scenario modules so declaring one leaves the scenario's code digest as it was."""
    path = directory / CLAIMS_MODULE
    if not path.exists():
        return dict(found)
    claims = getattr(_load_module(path, package), "CLAIMS", None)
    if not isinstance(claims, dict):
        raise ScenarioError(f"{CLAIMS_MODULE}: it defines no CLAIMS dict")
    unknown = sorted(set(claims) - set(found))
    if unknown:
        raise ScenarioError(f"{CLAIMS_MODULE}: claims for unknown scenarios: {', '.join(unknown)}")
    out = dict(found)
    for scenario_id, claim in claims.items():
        out[scenario_id] = validate(replace(found[scenario_id], claims=claim), found[scenario_id].module)
    return out


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
