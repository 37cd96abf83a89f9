"""A case run under a proof build in this process: an ``InProcess`` patch applied around it, or
the framework ``AsInstalled`` here; and an ``Edge``'s altered observation.

Runs inside a framework's environment (stdlib only): the proof test and ``python -m harness
run --proof`` reach it through harness/execution/proofs.py (which also runs ``Release`` builds,
in their matrix environments), the mutants worker (harness/mutants/worker.py) directly. Both
return a ProofRun.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import importlib.metadata
from dataclasses import dataclass

from harness.runtime.outcomes import ERROR
from harness.runtime.runner import DEFAULT_TIMEOUT, CaseResult, run_case
from harness.runtime.scenario import Build, Case, Edge, InProcess, Observation, Scenario


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


def altered(edge: Edge, observation: Observation) -> Observation:
    """A copy of ``observation`` with ``edge.alter`` applied."""
    copied = copy.deepcopy(observation)
    result = edge.alter(copied)
    return result if isinstance(result, Observation) else copied


def edge_case(case: Case, edge: Edge) -> Case:
    """``case`` whose oracle judges the observation as ``edge`` alters it."""
    return dataclasses.replace(case, oracle=lambda obs: case.oracle(altered(edge, obs)))


def observed_once(case: Case, kept: dict[str, Observation]) -> Case:
    """``case`` whose run observes once per ``kept``: a later run through the same ``kept`` is handed
    that observation, so a case's edges on one build cost one run of the case (an edge judges a copy,
    ``altered``; the observation is deterministic, tests/test_determinism.py). A run that raised keeps
    nothing: the next asks again, and says the same."""

    async def run() -> Observation:
        if "observation" not in kept:
            kept["observation"] = await case.run()
        return kept["observation"]

    return dataclasses.replace(case, run=run)


def run_here(
    scenario: Scenario, case: Case, build: Build, outcome: str, *, timeout: float = DEFAULT_TIMEOUT
) -> ProofRun:
    """Run ``case`` on ``build`` (an ``InProcess`` patch or ``AsInstalled``; an ``outcome`` proof, for
    messages) in this process, on the framework installed here."""
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
