"""The coordinator's runs: the tasks a scenario's proofs and edges need (one in process, one per
Release named), each run in a proof worker with the scenario's mutants
(harness/execution/proof_worker.py), several tasks at a time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from harness.execution.proof_worker import ProofResult, Task, run_task
from harness.mutants.mutations import Plan
from harness.project import Project
from harness.runtime.scenario import Build, Release, Scenario


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
        mutants = [(m.key, m.mutation) for m in plans[task.scenario.id].mutants]
        got, trouble = run_task(task, mutants, project, scenarios_dir, timeout, mutant_timeout)
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
