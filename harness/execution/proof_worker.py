"""A proof worker's run: a case's proofs and edges (and, for `nox -s mutants`, its judge's mutants)
in the build each names, as ``python -m harness.mutants.worker SPEC`` in that build's Python (a
release's matrix environment, or this one for in-process builds); its JSON lines read back as
ProofResults. The proof test's Release edges (harness/execution/proofs.py) and the mutants command
(harness/mutants/schedule.py) both run through it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.execution import environments, isolation
from harness.planning import builds
from harness.project import PROJECT, Project
from harness.runtime import registry, reproduction
from harness.runtime.outcomes import ERROR
from harness.runtime.proof_runs import ProofRun
from harness.runtime.runner import DEFAULT_TIMEOUT, CaseResult, error_detail
from harness.runtime.scenario import Case, Release, Scenario, unwrap

IMPORT_GRACE = 180.0  # a worker's framework import on a loaded machine
CASE_SLACK = 10.0


@dataclass
class ProofResult:
    """One proof (or edge) of one case, run once, with what each mutant said there."""

    case: str
    proof: str  # the proof's key in Case.proofs, or edge-N for the case's N-th edge
    outcome: str  # what it must say
    build: str  # in process / the release spec
    got: str
    detail: str
    mutants: dict[str, tuple[str, str]]

    @property
    def name(self) -> str:
        """``basic's fixed proof``, ``basic's edge 2 (unexpected)``."""
        if self.proof.startswith("edge-"):
            return f"{self.case}'s edge {self.proof.removeprefix('edge-')} ({self.outcome})"
        return f"{self.case}'s {self.proof} proof"


@dataclass
class Task:
    scenario: Scenario
    release: str | None  # the Release spec; None: in-process proofs
    proofs: list[tuple[str, str]]


def run_all_in_release(
    scenario: Scenario,
    case: Case,
    proofs: list[str],
    release: Release,
    *,
    project: Project = PROJECT,
    timeout: float = DEFAULT_TIMEOUT,
) -> dict[str, ProofRun]:
    """Proofs and edges (``edge-N``) of ``case`` in ``release``'s matrix environment, unmutated, in one
    worker (its edges judge one run of the case): proof -> its run."""
    task = Task(scenario, release.spec, [(case.id, proof) for proof in proofs])
    # The folder the scenario was loaded from (scenarios/, or another in the harness's tests): its
    # bug folder's script (its judge's file) is one level below it.
    judge = Path(getattr(getattr(unwrap(case.oracle), "__code__", None), "co_filename", ""))
    folder = judge.parent.parent if judge.name == reproduction.SCRIPT else registry.SCENARIOS_DIR
    results, problems = run_task(task, None, project, folder, timeout, 0.0)
    where = f"{release.framework} {release.version} (its matrix environment)"
    got = {r.proof: ProofRun(CaseResult(scenario.id, case.id, r.got, r.detail, ""), release, where) for r in results}
    missing = ProofRun(CaseResult(scenario.id, case.id, ERROR, "; ".join(problems) or "no answer", ""), release, where)
    return {proof: got.get(proof, missing) for proof in proofs}


def run_task(
    task: Task,
    mutants: list[tuple[str, str]] | None,
    project: Project,
    scenarios_dir: Path,
    timeout: float,
    mutant_timeout: float,
) -> tuple[list[ProofResult], list[str]]:
    """The task's proofs and edges in its build (this Python for in-process ones, else the release's
    matrix environment), in a worker (harness/mutants/worker.py) that also judges each of ``mutants``
    ((key, mutation) of the scenario's judge); the worker's JSON lines read back as ProofResults."""
    where = task.release or "in process"
    problems: list[str] = []
    if task.release:
        try:
            build = builds.parse(task.release, project.cache)
            python = environments.ensure(build, project.builds, project.cache).python
        except Exception as exc:  # an install failure is this task's answer, not a crash
            return [], [f"{task.scenario.id}: {task.release}: environment failed: {error_detail(exc, 1)}"]
    else:
        python = Path(sys.executable)
    root = project.root
    spec = {
        "root": str(root),
        "scenarios_dir": str(scenarios_dir),
        "scenario": task.scenario.id,
        "proofs": task.proofs,
        "release": bool(task.release),
        "timeout": timeout,
        "mutant_timeout": mutant_timeout,
        "mutants": None if mutants is None else [list(m) for m in mutants],
    }
    count = 0 if mutants is None else len(mutants)
    budget = IMPORT_GRACE + len(task.proofs) * (timeout + CASE_SLACK + count * mutant_timeout)
    with tempfile.TemporaryDirectory() as tmp:
        spec_file = Path(tmp) / "spec.json"
        spec_file.write_text(json.dumps(spec))
        cmd = isolation.wrap([str(python), "-m", "harness.mutants.worker", str(spec_file)])
        try:
            proc = subprocess.run(
                cmd, capture_output=True, text=True, cwd=root, env=environments.worker_environment(root), timeout=budget
            )
            stdout, rc, stderr = proc.stdout, proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as exc:
            partial: Any = exc.stdout  # str, or bytes on some Pythons despite text=True
            stdout = partial.decode() if isinstance(partial, bytes) else (partial or "")
            rc, stderr = None, f"worker killed after {budget:g}s"
    results: list[ProofResult] = []
    for line in stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if "error" in record:
            problems.append(f"{task.scenario.id}: {where}: {record['error']}")
            continue
        results.append(
            ProofResult(
                record["case"],
                record["proof"],
                record["outcome"],
                where,
                record["got"],
                record["detail"],
                {k: tuple(v) for k, v in record["mutants"].items()},
            )
        )
    done = {(r.case, r.proof) for r in results}
    missing = [f"{c}:{o}" for c, o in task.proofs if (c, o) not in done]
    if missing and not problems:
        tail = " | ".join(line.strip() for line in (stderr or "").strip().splitlines()[-3:] if line.strip())
        problems.append(
            f"{task.scenario.id}: {where}: no result for {', '.join(missing)} (worker exit {rc}): {tail or 'no output'}"
        )
    return results, problems
