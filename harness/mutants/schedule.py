"""The coordinator's runs: the tasks a scenario's proofs and edges need (one in process, one per
Release named), each run in a worker (harness/mutants/worker.py) with the scenario's mutants,
and the worker's JSON lines read back as ProofResults; several tasks at a time.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.mutants.apply import MUTANT_TIMEOUT
from harness.mutants.mutations import Plan
from harness.mutants.targets import unwrap
from harness.project import PROJECT, Project
from harness.runtime import registry, reproduction
from harness.runtime.outcomes import ERROR
from harness.runtime.proof_runs import ProofRun
from harness.runtime.runner import DEFAULT_TIMEOUT, CaseResult, error_detail
from harness.runtime.scenario import Build, Case, Release, Scenario

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


def tasks(scenario: Scenario) -> list[Task]:
    """The runs a scenario's proofs and edges need: one in process, one per Release named."""
    inproc = Task(scenario, None, [])
    releases: dict[str, Task] = {}
    for case in scenario.cases:
        builds: list[tuple[str, Build]] = list(case.proofs.items())
        builds += [(f"edge-{n}", edge.build) for n, edge in enumerate(case.edges, 1)]
        for proof, build in builds:
            if isinstance(build, Release):
                releases.setdefault(build.spec, Task(scenario, build.spec, [])).proofs.append((case.id, proof))
            else:
                inproc.proofs.append((case.id, proof))
    return ([inproc] if inproc.proofs else []) + [releases[k] for k in sorted(releases)]


def run_in_release(
    scenario: Scenario,
    case: Case,
    proof: str,
    release: Release,
    *,
    project: Project = PROJECT,
    timeout: float = DEFAULT_TIMEOUT,
) -> ProofRun:
    """One proof or edge (``edge-N``) of ``case`` in ``release``'s matrix environment, unmutated
    (for the proof test: harness/execution/proofs.py)."""
    return run_all_in_release(scenario, case, [proof], release, project=project, timeout=timeout)[proof]


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
    results, problems = run_task(task, None, project, folder, timeout, MUTANT_TIMEOUT)
    where = f"{release.framework} {release.version} (its matrix environment)"
    got = {r.proof: ProofRun(CaseResult(scenario.id, case.id, r.got, r.detail, ""), release, where) for r in results}
    missing = ProofRun(CaseResult(scenario.id, case.id, ERROR, "; ".join(problems) or "no answer", ""), release, where)
    return {proof: got.get(proof, missing) for proof in proofs}


def run_task(
    task: Task, the_plan: Plan | None, project: Project, scenarios_dir: Path, timeout: float, mutant_timeout: float
) -> tuple[list[ProofResult], list[str]]:
    where = task.release or "in process"
    problems: list[str] = []
    if task.release:
        from harness.execution import environments
        from harness.planning import builds

        try:
            build = builds.parse(task.release, project.cache)
            python = environments.ensure(build, project.builds, project.cache).python
        except Exception as exc:  # an install failure is this task's answer, not a crash
            return [], [f"{task.scenario.id}: {task.release}: environment failed: {error_detail(exc, 1)}"]
    else:
        python = Path(sys.executable)
    from harness.execution import environments, isolation

    root = project.root
    spec = {
        "root": str(root),
        "scenarios_dir": str(scenarios_dir),
        "scenario": task.scenario.id,
        "proofs": task.proofs,
        "release": bool(task.release),
        "timeout": timeout,
        "mutant_timeout": mutant_timeout,
        "mutants": None if the_plan is None else [[m.key, m.mutation] for m in the_plan.mutants],
    }
    count = 0 if the_plan is None else len(the_plan.mutants)
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


def run_all(
    every: list[Task],
    plans: dict[str, Plan],
    *,
    jobs: int,
    project: Project,
    scenarios_dir: Path,
    timeout: float,
    mutant_timeout: float,
    done: Callable[[int, Task, list[ProofResult], list[str], float], None],
) -> tuple[dict[str, list[ProofResult]], dict[str, list[str]]]:
    """Run ``every`` task, ``jobs`` at a time, with its scenario's mutants; ``done(n, task, results,
    problems, seconds)`` as the n-th finishes (one at a time). Results and problems per scenario id."""
    results: dict[str, list[ProofResult]] = {sid: [] for sid in plans}
    problems: dict[str, list[str]] = {sid: [] for sid in plans}
    lock = threading.Lock()
    counter = [0]

    def one(task: Task) -> None:
        start = time.monotonic()
        got, trouble = run_task(task, plans[task.scenario.id], project, scenarios_dir, timeout, mutant_timeout)
        with lock:
            counter[0] += 1
            results[task.scenario.id] += got
            problems[task.scenario.id] += trouble
            done(counter[0], task, got, trouble, time.monotonic() - start)

    if jobs <= 1 or len(every) <= 1:
        for task in every:
            one(task)
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(one, every))
    return results, problems
