"""Pending probes: bisect probes answered by an older version of a scenario's code.

A probe (harness/store/bisect_record.py ``Probe``) carries the digest of the bug folder that
answered it (harness/store/boundaries.py ``is_current``). After the script or declaration changes,
the old answers are no knowledge about the new code, and the reports and ``audit`` ignore them: a
bisected range would read "unknown" until someone re-ran every bisect by hand (issue 45: adk #295's
contributor saw 0.3-0.5 and 1.0-1.7 turn unknown after one edit). Instead the next matrix or bisect
run of the scenario asks each such release again, with the current code, and writes the answers back
as probes of the same range (``BisectRecord.with_probes``).

A probe at a release the record itself holds a current result for is not asked again: the record
wins there (boundaries.known).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from harness.execution import interpreter_axis, pool, progress
from harness.execution.run import RunSettings, run_cases
from harness.planning import builds as builds_mod
from harness.planning import interpreters, versions
from harness.runtime.scenario import Scenario
from harness.store import boundaries, result_cache
from harness.store.bisect_record import BisectRecord, Probe
from harness.store.rows import Row


@dataclass(frozen=True)
class Pending:
    """The releases one scenario's stale probes name, each with the cases to ask there."""

    scenario: Scenario
    inputs: str | None  # the scenario's current digest: the fresh probes carry it
    cases: dict[str, list[str]]  # version -> case ids
    python: str = interpreters.DEFAULT  # the interpreter the stale probes were measured on, asked again there

    @property
    def count(self) -> int:
        return sum(len(c) for c in self.cases.values())


def find(
    record: BisectRecord,
    results: Iterable[Row],
    scenarios: Iterable[Scenario],
    root: Path,
    only_cases: set[str] | None = None,
    python: str = interpreters.DEFAULT,
) -> list[Pending]:
    """Every scenario's probes on ``python`` that older code answered, where the record has no current
    result (on the default interpreter; another's stale probes are asked again by ``bisect --python``).

    ``only_cases``: ``scenario:case`` keys to look at (a run of some cases); None for every case."""
    results = list(results)
    out = []
    for scenario in scenarios:
        inputs = result_cache.scenario_inputs(root, scenario.module)
        answered = (
            boundaries.current_answers(results, scenario.id, scenario.framework, inputs)
            if python == interpreters.DEFAULT
            else set()
        )
        case_ids = {c.id for c in scenario.cases}
        cases: dict[str, list[str]] = {}
        for p in record.probes:
            if (p.scenario, p.framework) != (scenario.id, scenario.framework) or p.case not in case_ids:
                continue
            if p.interpreter != python:
                continue
            if only_cases is not None and f"{scenario.id}:{p.case}" not in only_cases:
                continue
            if boundaries.is_current(p, inputs) or (p.case, p.version) in answered:
                continue
            cases.setdefault(p.version, [])
            if p.case not in cases[p.version]:
                cases[p.version].append(p.case)
        if cases:
            ordered = dict(sorted(cases.items(), key=lambda kv: versions.key(kv[0])))
            out.append(Pending(scenario, inputs, ordered, python))
    return out


def settings_for(run: RunSettings) -> RunSettings:
    """The settings the probes are asked with: the run's, with warm workers started for the probes'
    releases when the run is warm (``--warm``, or the default "auto" with this checkout's workers
    present). Issue 49: an author's warm loop (edit repro.py, `matrix --only ID`) asked every
    probe release again in a cold process, 4 s a release for google-adk, 16 s of its 20 s, since the
    pool held workers only for the releases of the matrix."""
    if run.pool == "auto" and pool.members(run.root):
        return replace(run, pool="warm")
    return run


def measure(pending: list[Pending], settings: RunSettings, jobs: int, log: Callable[[str], None]) -> list[Probe]:
    """Ask every pending release again, ``jobs`` builds at a time: the fresh probes, one per case."""
    work = [(p, version, case_ids) for p in pending for version, case_ids in p.cases.items()]
    if not work:
        return []
    total = sum(len(c) for _, _, c in work)
    log(
        f"pending probes: {total} answered by an older version of {len(pending)} scenario(s)' code, "
        f"on {len(work)} release(s): asked again with the current code"
    )
    started = time.monotonic()
    tracker = progress.Tracker("pending probes", len(work), max(1, min(jobs, len(work))))

    def one(item: tuple[Pending, str, list[str]]) -> list[Probe]:
        p, version, case_ids = item
        build = interpreter_axis.on(
            builds_mod.parse(f"{p.scenario.framework}=={version}", settings.cache_dir), p.python
        )
        tracker.begin(build.source)
        try:
            run = run_cases(build, [(p.scenario, p.scenario.case(c)) for c in case_ids], settings)
        finally:
            tracker.finish(build.source)
        return [
            Probe.of(p.scenario.id, r.case, p.scenario.framework, version, r.outcome, r.detail, p.inputs, p.python)
            for r in run.results
        ]

    with tracker, ThreadPoolExecutor(max_workers=max(1, jobs)) as executor:
        fresh = [probe for probes in executor.map(one, work) for probe in probes]
    log(f"pending probes: {len(fresh)} asked again in {time.monotonic() - started:.1f}s")
    return fresh
