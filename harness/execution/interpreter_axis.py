"""The matrix's interpreter axis (issue 46): which builds run on which CPython, and what an interpreter
a release does not support gives. An interpreter is a field of a build (``Build.python``) and of a
result (``Row.python``): the builds it adds go through the same run, check and record as any other.

What runs:
- ``--python X[,Y]``: every build of the plan on each interpreter named (the default one only if named);
- a full run (no --only, no SPEC, no --python): every release on the default interpreter, plus, on every
  other interpreter found (``interpreters.KNOWN``), the newest release of each release line of each
  scenario's matrix; and, for a scenario whose verdicts the record shows differ by interpreter there,
  both sides of every step where a case's outcome changes, on that interpreter or on the default one
  (its boundaries on that interpreter, kept measured) once the record holds that interpreter's result
  for every release of the scenario's matrix, and every release of the matrix until it does (to find
  them). Rerunning the whole matrix of such a scenario on each run cost 1.45x the default cold run
  (issue 46 wants at most 1.3x): generic-dict's 24 releases on 3.10, and 25 of mcp-stdio on three.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable
from pathlib import Path

from harness.planning import builds as builds_mod
from harness.planning import index, interpreters, versions
from harness.runtime.scenario import Case, Scenario
from harness.store.rows import Row

Plan = list[tuple[builds_mod.Build, list[tuple[Scenario, Case]]]]


def on(build: builds_mod.Build, python: str) -> builds_mod.Build:
    """``build`` on ``python`` (the default interpreter is ``python=None``, so its folder and label stay)."""
    return dataclasses.replace(build, python=None if python == interpreters.DEFAULT else python)


def named(plan: Plan, pythons: list[str]) -> Plan:
    """Every build of ``plan`` on each of ``pythons`` (``--python``)."""
    return [(on(b, py), cases) for py in pythons for b, cases in plan]


def _differing(recorded: Iterable[Row]) -> set[tuple[str, str]]:
    """(scenario, python) where a result on ``python`` differs in outcome from the default's of the
    same case and release: that interpreter's whole matrix of the scenario is measured."""
    rows = list(recorded)
    default = {(r.scenario, r.case, r.source): r.outcome for r in rows if r.python == interpreters.DEFAULT}
    return {
        (r.scenario, r.python)
        for r in rows
        if r.python != interpreters.DEFAULT
        and not interpreters.is_unsupported(r.outcome, r.detail)  # nothing ran there: no verdict differs
        and default.get((r.scenario, r.case, r.source)) not in (None, r.outcome)
    }


def _boundary_sides(recorded: list[Row], scenario: str, python: str, members: list[str]) -> list[str]:
    """The releases of ``members`` on either side of a step where a case's outcome changes on
    ``python`` or on the default interpreter (the record's results of releases; adjacent releases
    with an answer, on one release line); every member while ``python`` lacks a result for one.
    Read from the matrix's own rows on each interpreter, not ``boundaries.known``: that one joins the
    bisect record's probes, which hold the default interpreter's boundaries only for most scenarios."""
    mine = [r for r in recorded if r.scenario == scenario and r.release and r.version in members]
    if {r.version for r in mine if r.python == python} != set(members):
        return list(members)
    sides: set[str] = set()
    for py in (python, interpreters.DEFAULT):
        by_case: dict[str, dict[str, str]] = {}
        for r in mine:
            if r.python == py:
                by_case.setdefault(r.case, {})[str(r.version)] = r.outcome
        for outcomes in by_case.values():
            ordered = sorted(outcomes, key=versions.key)
            for a, b in itertools.pairwise(ordered):
                if versions.line(a) == versions.line(b) and outcomes[a] != outcomes[b]:
                    sides.update((a, b))
    return sorted(sides, key=versions.key)


def extras(
    selected: list[tuple[Scenario, Case]],
    members: dict[str, list[str]],
    recorded: Iterable[Row],
    cache_dir: Path,
    found: list[str] | None = None,
) -> Plan:
    """The builds a full run adds on the other interpreters found (the module's docstring)."""
    others = [py for py in (interpreters.found() if found is None else found) if py != interpreters.DEFAULT]
    recorded = list(recorded)
    differing = _differing(recorded)
    wanted: dict[tuple[str, str, str], list[tuple[Scenario, Case]]] = {}
    for s, c in selected:
        finals = [v for v in members[s.id] if versions.is_final(v)]
        newest = {}
        for v in sorted(finals, key=versions.key):
            newest[versions.line(v)] = v
        for py in others:
            chosen = list(newest.values())
            if (s.id, py) in differing:
                chosen += _boundary_sides(recorded, s.id, py, members[s.id])
            for v in dict.fromkeys(chosen):
                wanted.setdefault((s.framework, v, py), []).append((s, c))
    plan: Plan = []
    for (framework, version, py), cases in sorted(
        wanted.items(), key=lambda kv: (kv[0][0], versions.key(kv[0][1]), interpreters.key(kv[0][2]))
    ):
        plan.append((on(builds_mod.parse(f"{framework}=={version}", cache_dir), py), cases))
    return plan


def unsupported(build: builds_mod.Build, cache_dir: Path) -> str | None:
    """Why ``build`` cannot run on its interpreter (its release's Requires-Python excludes it), as the
    detail of a ``not-applicable`` result; None when it can (or it runs on the default interpreter)."""
    if build.python is None or not build.release or build.version is None:
        return None
    release = index.releases(build.framework, cache_dir).get(build.version)
    requires = release.requires_python if release else None
    if interpreters.supports(requires, build.python):
        return None
    return interpreters.unsupported_words(
        build.framework, build.version, build.python, f"its Requires-Python is {requires}"
    )


def unresolvable(build: builds_mod.Build, install_error: str) -> str | None:
    """Why ``build`` cannot run on its interpreter when uv found no dependencies for it there (the
    release's Requires-Python allows it, a dependency's does not: google-adk 1.16.0's mcp on 3.9), as
    the detail of a ``not-applicable`` result; None for any other install failure (an ``error``)."""
    if (
        build.python is None
        or "No solution found" not in install_error
        or "current Python version" not in install_error
    ):
        return None
    cause = install_error.partition("cause: ")[2] or install_error
    return interpreters.unsupported_words(
        build.framework, build.version or "?", build.python, f"its dependencies do not resolve there ({cause.strip()})"
    )
