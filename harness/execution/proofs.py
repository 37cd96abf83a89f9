"""Run a case under one of its proof builds (harness/runtime/scenario.py: InProcess, AsInstalled, Release).

Used by the proof test (tests/test_oracle_proofs.py) and by
``python -m harness run ID:CASE --proof reproduced|fixed``:

- ``InProcess``: the patch is applied in this process, around the case, on the framework
  installed here;
- ``AsInstalled``: the case runs on the framework installed here, unpatched;
- ``Release``: the case runs in that release's matrix environment
  (``.nox/builds/<framework>-<version>``, made or reused as ``nox -s matrix`` does, with the
  dependencies of its upload date), through the same worker the matrix drives.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import importlib.metadata
from dataclasses import dataclass
from pathlib import Path

from harness.project import PROJECT, Project
from harness.runtime.outcomes import ERROR
from harness.runtime.runner import DEFAULT_TIMEOUT, CaseResult, run_case
from harness.runtime.scenario import Build, Case, Edge, InProcess, Observation, Release, Scenario

PROJECT_ROOT = PROJECT.root


@dataclass(frozen=True)
class ProofRun:
    """A case's result under a proof build, and where it ran (``google-adk 2.13.0 (as installed)``)."""

    result: CaseResult
    build: Build
    where: str


def installed_version(framework: str) -> str | None:
    try:
        return importlib.metadata.version(framework)
    except importlib.metadata.PackageNotFoundError:
        return None


def pinned_spec(framework: str, root: Path = PROJECT_ROOT) -> str | None:
    """The release of ``framework`` the tests pin (``noxfile.py`` ``TEST_PINS``), as ``NAME==VERSION``;
    read from the file, not imported (it needs nox)."""
    import ast

    try:
        tree = ast.parse((root / "noxfile.py").read_text())
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "TEST_PINS" for t in node.targets):
            try:
                pins = ast.literal_eval(node.value)
            except ValueError:
                return None
            return next((p for p in pins if p.partition("==")[0].partition("[")[0] == framework), None)
    return None


def run_proof(
    scenario: Scenario, case: Case, outcome: str, *, root: Path = PROJECT_ROOT, timeout: float = DEFAULT_TIMEOUT
) -> ProofRun:
    """Run ``case`` on the build its ``outcome`` proof names; failures come back as ``error`` results."""
    try:
        build = case.proofs[outcome]
    except KeyError:
        raise KeyError(
            f"{scenario.id}:{case.id} declares no {outcome!r} proof; it declares: {', '.join(sorted(case.proofs))}"
        ) from None
    return run_build(scenario, case, build, outcome, root=root, timeout=timeout)


def altered(edge: Edge, observation: Observation) -> Observation:
    """A copy of ``observation`` with ``edge.alter`` applied."""
    copied = copy.deepcopy(observation)
    result = edge.alter(copied)
    return result if isinstance(result, Observation) else copied


def edge_case(case: Case, edge: Edge) -> Case:
    """``case`` whose oracle judges the observation as ``edge`` alters it."""
    return dataclasses.replace(case, oracle=lambda obs: case.oracle(altered(edge, obs)))


def run_edge(
    scenario: Scenario, case: Case, edge: Edge, *, root: Path = PROJECT_ROOT, timeout: float = DEFAULT_TIMEOUT
) -> ProofRun:
    """Run ``case`` on ``edge.build`` and judge its observation as ``edge`` alters it."""
    if isinstance(edge.build, Release):
        # The alteration has to happen where the case runs: the mutants worker applies it there.
        from harness.commands import mutants

        number = next(n for n, e in enumerate(case.edges, 1) if e is edge)
        return mutants.run_in_release(scenario, case, f"edge-{number}", edge.build, root=root, timeout=timeout)
    return run_build(scenario, edge_case(case, edge), edge.build, edge.outcome, root=root, timeout=timeout)


def run_build(
    scenario: Scenario,
    case: Case,
    build: Build,
    outcome: str,
    *,
    root: Path = PROJECT_ROOT,
    timeout: float = DEFAULT_TIMEOUT,
) -> ProofRun:
    """Run ``case`` on ``build`` (an ``outcome`` proof, for messages)."""
    if isinstance(build, Release):
        return _in_release_environment(scenario, case, build, root, timeout)
    version = installed_version(scenario.framework)
    if version is None:
        detail = (
            f"{scenario.framework} is not installed here; the {outcome!r} proof runs on the installed release: "
            f"run this with the python of an environment that has it (.nox/tests/bin/python, or "
            f".nox/builds/{scenario.framework}-<version>/bin/python with PYTHONPATH=.)"
        )
        return ProofRun(
            CaseResult(scenario.id, case.id, ERROR, detail, ""),
            build,
            f"this environment ({scenario.framework} is not installed)",
        )
    patch = build.patch() if isinstance(build, InProcess) else contextlib.nullcontext()
    how = "patched in process" if isinstance(build, InProcess) else "as installed"
    with patch:
        result = run_case(scenario, case, timeout=timeout)
    return ProofRun(result, build, f"{scenario.framework} {version} ({how})")


def _in_release_environment(scenario: Scenario, case: Case, release: Release, root: Path, timeout: float) -> ProofRun:
    # Imported here: the builds/environment code is only needed for Release proofs.
    from harness.execution.run import RunSettings, run_cases
    from harness.planning import builds

    build = builds.parse(release.spec, Project(root).cache)
    # A proof always runs the case (no result taken from the environment's record) and cold.
    run = run_cases(build, [(scenario, case)], RunSettings(root=root, timeout=timeout, rerun=True, pool="cold"))
    r = run.results[0]
    where = f"{build.framework} {build.version} (its matrix environment)"
    return ProofRun(CaseResult(scenario.id, case.id, r.outcome, r.detail, r.timeline), release, where)
