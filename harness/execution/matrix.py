"""``nox -s matrix``: every selected case on every build, checked against snapshots.

Pipeline: select cases -> resolve builds -> build environments and run workers (in
parallel, one worker process per environment) -> check snapshots -> write reports
(harness/execution/publication.py).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from harness.execution import checkout, interpreter_axis, pending, pool, postgres, progress, publication, upgrade_axis
from harness.execution.run import NO_SERVER, RunSettings, run_cases
from harness.planning import builds as builds_mod
from harness.planning import interpreters, versions
from harness.planning.catalog import Catalog
from harness.project import PROJECT, Project
from harness.runtime import registry
from harness.runtime.outcomes import ERROR, NOT_APPLICABLE, OUTCOMES
from harness.runtime.result import CaseResult
from harness.runtime.scenario import Case, Scenario
from harness.store import membership, record, result_cache, staging
from harness.store.bisect_record import Probe
from harness.store.environment import Environment, one_per_build
from harness.store.rows import Row, unjudged_lines
from harness.store.snapshots import CHANGED, MATCH, NEW, UPDATED, SnapshotStore

PROJECT_ROOT = PROJECT.root


@dataclass
class Options:
    specs: list[str] = field(default_factory=list)
    only: list[str] = field(default_factory=list)
    update_snapshots: bool = False
    today_deps: bool = False
    timeout: float = 60.0
    jobs: int = max(1, os.cpu_count() or 1)
    rerun: bool = False  # run every case even when its inputs are unchanged
    shard: tuple[int, int] | None = None  # (K, N): only the K-th of N slices of the builds
    out: Path | None = None  # write this run's reports here and leave the record alone
    root: Path = PROJECT_ROOT
    # Warm workers (harness/execution/pool.py): "auto" uses those present, "warm" also starts them for
    # the builds that have none (they stay for the next run), "cold" runs every build afresh.
    pool: str = "auto"
    pool_memory_mb: float | None = None  # the pool's memory budget (default: half the machine's)
    # Run for another command (candidate): its progress lines name the step (``title``) and what
    # comes after it (``then``); ``history`` holds the build durations an earlier step measured
    # (its estimate); ``evidence_only``: the outcomes are the point, so no snapshot verdicts, no
    # hints about the record or --update-snapshots (flags the calling command does not have).
    title: str = "matrix"
    then: str = ""
    history: list[float] | None = None
    evidence_only: bool = False
    # The interpreters --python names (harness/execution/interpreter_axis.py); None: the default plan.
    python: list[str] | None = None


# One progress line on stderr, written whole (builds log from parallel threads).
log = progress.log


def resolve_builds(
    options: Options, selected: list[tuple[Scenario, Case]], members: dict[str, list[str]] | None, cache_dir: Path
) -> list[tuple[builds_mod.Build, list[tuple[Scenario, Case]]]]:
    """(build, its cases): the SPECs given, each with every selected case of its framework; or,
    with no SPECs, every release of each selected scenario's matrix (``members``)."""
    if options.specs:
        found: dict[str, builds_mod.Build] = {}
        for spec in options.specs:
            build = builds_mod.parse(spec, cache_dir)
            found.setdefault(build.source, build)
        return [(b, [(s, c) for s, c in selected if s.framework == b.framework]) for b in found.values()]
    assert members is not None
    wanted = sorted(
        {(s.framework, v) for s, _ in selected for v in members[s.id]}, key=lambda fv: (fv[0], versions.key(fv[1]))
    )
    plan = []
    for framework, version in wanted:
        build = builds_mod.parse(f"{framework}=={version}", cache_dir)
        plan.append((build, [(s, c) for s, c in selected if s.framework == framework and version in members[s.id]]))
    return plan


def _row(result: CaseResult, case: Case, build: builds_mod.Build, version: str | None, inputs: str | None) -> Row:
    """The case's result with the build's keys: a row of the record."""
    return Row(
        result,
        build.framework,
        version,
        build.source,
        build.release,
        case.backend,
        inputs,
        python=build.python or interpreters.DEFAULT,
    )


def _result(
    scenario: Scenario,
    case: Case,
    build: builds_mod.Build,
    version: str | None,
    outcome: str,
    detail: str,
    timeline: str = "",
    inputs: str | None = None,
) -> Row:
    """A row made of its parts (a build that could not install; the tests' fake builds)."""
    return _row(CaseResult(scenario.id, case.id, outcome, detail, timeline), case, build, version, inputs)


# A result compared with a stored timeline is a second run of the case (the one that stored it,
# on another day or machine): two runs that must agree. A case whose result has no stored
# timeline to meet (a new case, a release before its first snapshot), or one whose result may
# be stored (--update-snapshots), runs twice in its worker instead and the two must agree; so
# every result is checked against another run (tests/test_determinism.py checks the harness).
# Repeating every case cost 17% of a matrix run (256 s against 213 s, 89 builds, kept).
MATRIX_REPEAT = 2


def needs_repeat(
    cases: list[tuple[Scenario, Case]], build: builds_mod.Build, store: SnapshotStore, update: bool
) -> set[str]:
    """The ``scenario:case`` keys of ``cases`` that run twice in ``build`` (``MATRIX_REPEAT``)."""
    version, python = build.version or "0", build.python or interpreters.DEFAULT
    return {f"{s.id}:{c.id}" for s, c in cases if update or store.nearest(s.id, c.id, version, python) is None}


def run_build(
    build: builds_mod.Build,
    cases: list[tuple[Scenario, Case]],
    options: Options,
    project: Project,
    recorded: dict[str, tuple[str, ...]] | None = None,
    store: SnapshotStore | None = None,
    keep_warm: frozenset[str] = frozenset(),
) -> tuple[Environment | None, list[Row]]:
    """Run the cases in the build (harness/execution/run.py); every case gets a result, errors included,
    and the build its environment (None where no environment was made).
    ``project``: the run's folders (``run`` makes it once from ``options.root``);
    ``recorded``: the record's packages per release (``Record.recorded_packages``); ``store``:
    the snapshots the results will be compared with (without one, every case runs twice);
    ``keep_warm``: the releases whose warm worker the run keeps for its upgrade axis (``RunSettings``)."""

    def inputs(s: Scenario) -> str:
        """The scenario code that answered (bisect and the reports ignore a result of older code)."""
        return result_cache.scenario_inputs(project.root, s.module)

    excluded = interpreter_axis.unsupported(build, project.cache)
    if excluded:  # no environment: the release does not install on this interpreter
        log(f"  {build.label}: not-applicable: {excluded}")
        return None, [
            _result(s, c, build, build.version, outcome=NOT_APPLICABLE, detail=excluded, inputs=inputs(s))
            for s, c in cases
        ]
    settings = RunSettings.of(options, project, repeat=MATRIX_REPEAT, recorded=recorded or {}, keep_warm=keep_warm)
    twice = None if store is None else needs_repeat(cases, build, store, options.update_snapshots)
    run = run_cases(build, cases, settings, repeat_only=twice)
    interpreter = build.python or interpreters.DEFAULT

    unresolvable = interpreter_axis.unresolvable(build, run.install_error or "")
    if unresolvable:  # uv found no dependencies on this interpreter: it cannot run there, no verdict
        log(f"  {build.label}: not-applicable: {unresolvable}")
        return None, [
            _result(s, c, build, build.version, outcome=NOT_APPLICABLE, detail=unresolvable, inputs=inputs(s))
            for s, c in cases
        ]
    if run.install_error:
        log(f"  {build.label}: {run.install_error}")
        return (
            Environment(build.source, build.framework, build.version, interpreter, error=run.install_error),
            [
                _result(s, c, build, build.version, outcome=ERROR, detail=run.install_error, inputs=inputs(s))
                for s, c in cases
            ],
        )
    assert run.env is not None
    entry = Environment.measured(
        build.source, build.framework, build.version, interpreter, run.env.exclude_newer, run.env_record
    )
    version = entry.version
    results = [_row(r, c, build, version, inputs(s)) for (s, c), r in zip(cases, run.results, strict=True)]
    for note in run.notes:
        log(f"  {build.label}: {note}")
    counts = {o: sum(r.outcome == o for r in results) for o in OUTCOMES}
    log(
        f"  {build.label}: {', '.join(f'{n} {o}' for o, n in counts.items() if n)}"
        f" (env {run.env.made} in {run.build_seconds:.1f}s, {run.ran} cases run"
        f" in {run.run_seconds:.1f}s, {len(cases) - run.ran} unchanged and skipped)"
    )
    return entry, results


def _plan(
    options: Options, project: Project
) -> tuple[list, record.Record | None, SnapshotStore, dict[str, Scenario], upgrade_axis.UpgradePlan]:
    """The builds to run with their cases, after every check of the input (one line, exit 2)."""
    cache_dir = project.cache
    catalog = Catalog.discover(project)
    scenarios = catalog.scenarios
    selection = catalog.select(options.only, bool(options.specs or options.shard))
    selected = selection.cases
    upgrade_plan = upgrade_axis.plan(project, catalog, selection)
    reports_dir = project.reports
    if options.out is not None:
        record.refuse_record_folder(options.out, project.root)
    staging.check_writable(reports_dir)
    if options.out is not None:
        staging.check_writable(options.out)
    existing = record.load(reports_dir)  # an unreadable record is refused before any work
    bisects = record.bisect_record(reports_dir)
    store = upgrade_plan.store  # the one snapshot store, validated (both its folders) by upgrade_axis.plan
    chosen = [scenarios[i] for i in dict.fromkeys(s.id for s, _ in selected)]
    members = None if options.specs else membership.matrix_releases(chosen, store, bisects, existing, cache_dir)
    plan = resolve_builds(options, selected, members, cache_dir)
    for b, cases in plan:
        if not cases:
            log(f"note: no selected scenario uses {b.framework}; skipping {b.source}")
    plan = [(b, cases) for b, cases in plan if cases]
    if not selected:
        plan = []
    if options.python:
        plan = interpreter_axis.named(plan, options.python)
    elif members is not None and not options.only:  # a full run: the other interpreters' share
        plan += interpreter_axis.extras(selected, members, existing.results if existing else [], cache_dir)
    if options.shard:
        k, n = options.shard
        # Deterministic slice: builds in a fixed order, every N-th from the K-th.
        plan.sort(
            key=lambda item: (
                item[0].framework,
                versions.key(item[0].version or "0"),
                item[0].source,
                item[0].python or "",
            )
        )
        plan = plan[k - 1 :: n]
        log(f"shard {k}/{n}: {', '.join(b.source for b, _ in plan) or 'no builds'}")
    if not plan and not options.shard and not upgrade_plan.pairs:
        raise builds_mod.SpecError("nothing to run: no selected scenario uses the given builds' frameworks")
    return plan, existing, store, scenarios, upgrade_plan


def run(options: Options) -> int:
    """Run the matrix; return the exit status (0: every result matches its snapshot)."""
    begun = time.monotonic()
    # The one place the matrix makes its project's folders from ``options.root``: what runs below
    # gets them (``project``, ``RunSettings``), not the options and a root to make them again from.
    project = Project(options.root)
    # Planning reads the package index: said after a few seconds' silence, so bad input stays one line.
    with progress.Tracker(f"{options.title}: planning (the record, the snapshots, the package index)", 0):
        plan, existing, store, scenarios, upgrade_plan = _plan(options, project)
    locks = (existing or record.Record()).recorded_packages()
    # The releases the upgrade axis steps through keep the warm worker their cases ran in, so its
    # steps fork from it instead of importing the framework again (issue 47). In the plan's own order:
    # run last, in one fresh-clone run, their 19 google-adk environments took 3.5-21.8 s each to make
    # instead of 1-2 s (cause not found), and the run was slower in all; in their place, not.
    keep = upgrade_plan.sources if options.pool != "cold" else frozenset()
    total_cases = sum(len(c) for _, c in plan)
    log(
        f"{options.title}: {len(plan)} build{'s' if len(plan) != 1 else ''}, {total_cases} case runs, "
        f"{options.jobs} in parallel"
    )
    started = time.monotonic()
    tracker = progress.Tracker(options.title, len(plan), min(options.jobs, len(plan)) or 1, options.history)

    def one(item):
        build, cases = item
        tracker.begin(build.label)
        out = run_build(build, cases, options, project, recorded=locks, store=store, keep_warm=keep)
        done = tracker.finish(build.label)
        left = len(plan) - done
        after = f"{left} left, {tracker.estimate()}" if left else (options.then or "0 left")
        log(f"[{done}/{len(plan)}] {build.label} done; {after}")
        return out

    ours = postgres.running() is None  # a server this run starts (not one a caller, a test, started)
    try:
        with tracker, ThreadPoolExecutor(max_workers=options.jobs) as executor:
            outcomes = list(executor.map(one, plan))
        upgrade_run = upgrade_axis.run(
            upgrade_plan, RunSettings.of(options, project, recorded=locks), options.jobs, options.update_snapshots
        )
        fresh = _pending_probes(options, project, plan, [r for _, rows in outcomes for r in rows], locks)
    finally:
        pool.stop_run()  # the workers kept for the upgrade axis that it did not stop (it failed, or had none)
        if ours:
            postgres.stop()  # the server and its data directory (atexit and SIGTERM do it too)
    ran = time.monotonic()
    upgrade_rows = upgrade_run.rows
    # A pair kept from its last run keeps its builds' entries (a run folder's commands need their dates).
    kept_builds = (existing or record.Record()).environments_of(
        {s for r in upgrade_rows for s in (r.source, r.from_source or "")}
    )
    environments_records = record.sorted_environments(
        one_per_build([*kept_builds, *upgrade_run.environments, *(rec for rec, _ in outcomes if rec)])
    )
    results = [r for _, rs in outcomes for r in rs]
    store.check_all(upgrade_rows, options.update_snapshots)
    if postgres.failure():
        unserved = sum(r.detail.startswith(NO_SERVER) for r in results)
        log(f"postgresql: the server could not start; {unserved} cases on it are errors: {postgres.failure()}")
    order = {(s.id, c.id): i for i, (s, c) in enumerate(registry.select(scenarios, []))}
    results.sort(key=record.sort_key(order))
    store.check_all(results, options.update_snapshots, existing.results if existing else [])
    all_pairs = {(s.id, c.id) for s, c in registry.select(scenarios, [])}
    upgrade_cases = {(s.id, c) for s in upgrade_plan.scenarios.values() for c in s.case_ids()}
    for orphan in store.orphans(all_pairs, upgrade_cases):
        log(f"warning: snapshots/{orphan}/ belongs to no scenario's case any more; delete it")

    harness = checkout.harness_info(project.root)
    if options.shard:
        k, n = options.shard
        document = record.Record.of(results, environments_records, harness)
        shard_path = project.reports / "shards" / f"shard-{k}-of-{n}.json"
        staging.write_file(shard_path, record.dumps(document))
        log(
            f"wrote reports/shards/{shard_path.name}; "
            "merge the shards with `python -m harness merge reports/shards/*.json`"
        )
    else:
        full = not options.only and not options.specs
        publication.publish(
            publication.Publication(
                project,
                scenarios,
                results,
                environments_records,
                harness,
                store,
                options.out,
                full=full,
                only=options.only,
                quiet=options.evidence_only,
                upgrades=upgrade_rows,
                upgrade_plan=upgrade_plan,
                upgrade_changes=upgrade_run.changes,
                fresh_probes=fresh,
            )
        )
    log(
        f"time: {started - begun:.1f}s to plan, {ran - started:.1f}s to run the builds, "
        f"{time.monotonic() - ran:.1f}s to check snapshots and write reports"
        + (f"; {pool.summary(project.root)}" if options.pool != "cold" and pool.members(project.root) else "")
    )
    if options.evidence_only:
        counts = {o: sum(r.outcome == o for r in results) for o in OUTCOMES}
        log(f"{options.title}: {len(results)} results: " + ", ".join(f"{n} {o}" for o, n in counts.items() if n))
        return 1 if unjudged_lines(results) else 0
    return summarise([*results, *upgrade_rows], time.monotonic() - started, scenarios)


def _pending_probes(options: Options, project: Project, plan: list, results: list[Row], locks: dict) -> list[Probe]:
    """The bisect probes of this run's scenarios that older code answered, asked again (pending.py),
    when the run writes the record: not for a run folder, a shard or named builds. ``results``: this
    run's, which answer every release of its matrix (no probe there is asked)."""
    if options.out is not None or options.shard or options.specs or not plan:
        return []
    ran = {f"{s.id}:{c.id}": s for _, cases in plan for s, c in cases}
    chosen = list({s.id: s for s in ran.values()}.values())
    bisects = record.bisect_record(project.reports)
    todo = pending.find(bisects, results, chosen, project.root, set(ran) if options.only else None)
    settings = pending.settings_for(RunSettings.of(options, project, recorded=locks))
    return pending.measure(todo, settings, options.jobs, log)


def summarise(results: list[Row], elapsed: float, scenarios: dict[str, Scenario] | None = None) -> int:
    """The run's summary on stderr; its exit status. A build the run could not judge (every case of
    it an error) comes first, and fails the run."""
    cannot_judge = unjudged_lines(results)
    for line in cannot_judge:
        log(line)
    counts = {o: sum(r.outcome == o for r in results) for o in OUTCOMES}
    bad = [r for r in results if r.snapshot not in (MATCH, UPDATED)]
    for r in bad:
        log(
            f"\nsnapshot {r.snapshot}: {r.scenario}:{r.case} on "
            + (f"{r.from_source} -> " if r.from_source else "")
            + f"{r.source}"
            + (f" (compared with {r.snapshot_base})" if r.snapshot_base else " (no stored snapshot)")
        )
        log(f"  {r.outcome}: {r.detail}")
        if r.snapshot_diff:
            log("".join("  " + line for line in r.snapshot_diff.splitlines(keepends=True)).rstrip())
    log(f"\n{len(results)} results in {elapsed:.1f}s: " + ", ".join(f"{n} {o}" for o, n in counts.items() if n))
    inherited = sum(r.snapshot == MATCH and r.snapshot_base != r.version and not r.from_source for r in results)
    if inherited:
        log(f"{inherited} results have no snapshot of their own and match an earlier release's snapshot")
    log(
        "snapshots: "
        + ", ".join(
            f"{sum(r.snapshot == s for r in results)} {s}"
            for s in (MATCH, UPDATED, NEW, CHANGED)
            if any(r.snapshot == s for r in results)
        )
    )
    broken = contradicted_proofs(results, scenarios or {}) + upgrade_axis.contradicted_proofs(results)
    for r, claim in broken:
        log(
            f"\nproof contradicted: {r.scenario}:{r.case} on "
            + (f"{r.from_source} -> " if r.from_source else "")
            + f"{r.source} says {r.outcome}; "
            f"its {claim} proof names this release ({r.detail})"
        )
    if bad:
        log(f"{len(bad)} results differ from their snapshots; if the change is right, re-run with --update-snapshots")
    if cannot_judge:
        log(f"{len(cannot_judge)} builds could not be judged (every case of them an error): see the first lines above")
    return 1 if bad or broken or cannot_judge else 0


def contradicted_proofs(results: list[Row], scenarios: dict[str, Scenario]) -> list[tuple[Row, str]]:
    """Results of a release a case's Release proof names, where the case no longer says the
    outcome the proof claims: the proof test reads the record, so the matrix is where it fails.
    A proof names a release on the default interpreter (a verdict may differ on another: issue 46)."""
    claims = {s.id: membership.proof_claims(s) for s in scenarios.values()}
    out = []
    for r in results:
        if r.python != interpreters.DEFAULT:
            continue
        claim = claims.get(r.scenario, {}).get((r.case, r.source))
        if claim is not None and r.outcome != claim:
            out.append((r, claim))
    return out
