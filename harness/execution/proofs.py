"""Run a case under one of its proof builds (harness/runtime/scenario.py: InProcess, AsInstalled, Release).

Used by the proof test (tests/test_oracle_proofs.py) and by
``python -m harness run ID:CASE --proof reproduced|fixed``:

- ``InProcess``: the patch is applied in this process, around the case, on the framework
  installed here;
- ``AsInstalled``: the case runs on the framework installed here, unpatched;
- ``Release``: the case runs in that release's matrix environment
  (``.nox/builds/<framework>-<version>``, made or reused as ``nox -s matrix`` does, with the
  dependencies of its upload date), through the same worker the matrix drives (an edge on a
  Release: through the proof worker, harness/execution/proof_worker.py, which alters the
  observation there).

The first two run in this process (harness/runtime/proof_runs.py, shared with the mutants
worker); this module adds the Release builds, which need the orchestrator's environments.
"""

from __future__ import annotations

from pathlib import Path

from harness.execution import proof_worker
from harness.project import PROJECT, Project
from harness.runtime.proof_runs import ProofRun, edge_case, observed_once, run_here
from harness.runtime.runner import DEFAULT_TIMEOUT
from harness.runtime.scenario import Build, Case, Edge, Release, Scenario

PROJECT_ROOT = PROJECT.root


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
    scenario: Scenario, case: Case, outcome: str, *, project: Project = PROJECT, timeout: float = DEFAULT_TIMEOUT
) -> ProofRun:
    """Run ``case`` on the build its ``outcome`` proof names; failures come back as ``error`` results."""
    try:
        build = case.proofs[outcome]
    except KeyError:
        raise KeyError(
            f"{scenario.id}:{case.id} declares no {outcome!r} proof; it declares: {', '.join(sorted(case.proofs))}"
        ) from None
    return run_build(scenario, case, build, outcome, project=project, timeout=timeout)


def run_edge(
    scenario: Scenario, case: Case, edge: Edge, *, project: Project = PROJECT, timeout: float = DEFAULT_TIMEOUT
) -> ProofRun:
    """Run ``case`` on ``edge.build`` and judge its observation as ``edge`` alters it. The case runs
    once per build for all its edges there (issue 51: the proof test ran adk-workflow-hitl-loop-replay's
    route-back, 16 s on google-adk 2.8.0, once per edge): on a Release, every edge of the case on it is
    judged in one worker and kept for the next; here, the observation is kept per build."""
    number = next(n for n, e in enumerate(case.edges, 1) if e is edge)
    if isinstance(edge.build, Release):
        # The alteration has to happen where the case runs: the mutants worker applies it there.
        # Keyed by the case's own run function too: a test's scenario may reuse an id.
        key = (scenario.id, case.id, case.run, edge.build.spec, str(project.root), timeout)
        if key not in _JUDGED or f"edge-{number}" not in _JUDGED[key]:
            same = [f"edge-{n}" for n, e in enumerate(case.edges, 1) if e.build == edge.build]
            _JUDGED[key] = proof_worker.run_all_in_release(
                scenario, case, same, edge.build, project=project, timeout=timeout
            )
        return _JUDGED[key][f"edge-{number}"]
    kept = _OBSERVED.setdefault((scenario.id, case.id, case.run, edge.build), {})
    judged = edge_case(observed_once(case, kept), edge)
    return run_build(scenario, judged, edge.build, edge.outcome, project=project, timeout=timeout)


# What run_edge keeps for the next edge of the same case and build, for this process's life: the
# judged edges of a Release (its environment does not change under a run), and the observation on an
# in-process build.
_JUDGED: dict[tuple, dict[str, ProofRun]] = {}
_OBSERVED: dict[tuple, dict] = {}


def run_build(
    scenario: Scenario,
    case: Case,
    build: Build,
    outcome: str,
    *,
    project: Project = PROJECT,
    timeout: float = DEFAULT_TIMEOUT,
) -> ProofRun:
    """Run ``case`` on ``build`` (an ``outcome`` proof, for messages)."""
    if isinstance(build, Release):
        return _in_release_environment(scenario, case, build, project, timeout)
    return run_here(scenario, case, build, outcome, timeout=timeout)


def _in_release_environment(
    scenario: Scenario, case: Case, release: Release, project: Project, timeout: float
) -> ProofRun:
    # Imported here: the builds/environment code is only needed for Release proofs.
    from harness.execution.run import RunSettings, run_cases
    from harness.planning import builds

    build = builds.parse(release.spec, project.cache)
    # A proof always runs the case (no result taken from the environment's record) and cold.
    run = run_cases(build, [(scenario, case)], RunSettings(project, timeout=timeout, rerun=True, pool="cold"))
    r = run.results[0]
    where = f"{build.framework} {build.version} (its matrix environment)"
    return ProofRun(r, release, where)
