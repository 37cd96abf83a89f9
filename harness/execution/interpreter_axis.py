"""The matrix's interpreter axis (issue 46): which builds run on which CPython, and what an interpreter
a release does not support gives. An interpreter is a field of a build (``Build.python``) and of a
result (``Row.python``): the builds it adds go through the same run, check and record as any other.

What runs:
- ``--python X[,Y]``: every build of the plan on each interpreter named (the default one only if named);
- a full run (no --only, no SPEC, no --python): every release on the default interpreter, plus, on every
  other interpreter found (``interpreters.KNOWN``), the newest release of each release line of each
  scenario's matrix; and every release of the matrix of a scenario whose verdicts the record or this
  plan shows differ by interpreter there (its boundaries on that interpreter, kept measured).
"""

from __future__ import annotations

import dataclasses
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


def extras(
    selected: list[tuple[Scenario, Case]],
    members: dict[str, list[str]],
    recorded: Iterable[Row],
    cache_dir: Path,
    found: list[str] | None = None,
) -> Plan:
    """The builds a full run adds on the other interpreters found (the module's docstring)."""
    others = [py for py in (interpreters.found() if found is None else found) if py != interpreters.DEFAULT]
    differing = _differing(recorded)
    wanted: dict[tuple[str, str, str], list[tuple[Scenario, Case]]] = {}
    for s, c in selected:
        finals = [v for v in members[s.id] if versions.is_final(v)]
        newest = {}
        for v in sorted(finals, key=versions.key):
            newest[versions.line(v)] = v
        for py in others:
            chosen = members[s.id] if (s.id, py) in differing else list(newest.values())
            for v in chosen:
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
