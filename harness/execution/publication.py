"""Where a matrix run's results go (``nox -s matrix``, ``python -m harness merge``): merged into the
record (reports/matrix.json and its reports) under the record's lock, or written to a run folder of
their own when the run asks for one (--out) or a result is outside its scenario's matrix."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from harness.execution import progress, upgrade_axis
from harness.project import Project
from harness.rendering import reports
from harness.runtime import registry
from harness.runtime.scenario import Scenario
from harness.store import membership, record
from harness.store.bisect_record import Probe
from harness.store.environment import Environment
from harness.store.harness_info import HarnessInfo
from harness.store.rows import Row
from harness.store.snapshots import SnapshotStore

# One progress line on stderr, written whole.
log = progress.log


def written_words(results: int, pairs: int, kept: int) -> str:
    """The record line of a run: what it wrote, upgrade pair results too (issue 49: a run of pairs
    said "0 results written" after writing 7), and what it kept."""
    also = f" and {pairs} upgrade pair result{'s' if pairs != 1 else ''}" if pairs else ""
    return (
        f"record: {results} results{also} written to reports/{record.RECORD_NAME}, "
        f"{kept} other results kept as they were"
    )


@dataclass(frozen=True)
class Publication:
    """A run's results and what ``publish`` needs to write them.

    - ``project``: the project's folders; its reports/ holds the record.
    - ``scenarios``: every scenario by id (the record's order, the reports' declarations).
    - ``results``: the run's rows, checked against their snapshots.
    - ``environments``: the environments of the builds the rows were run in.
    - ``harness``: the harness info the record carries (``checkout.harness_info``).
    - ``store``: the snapshots as this run left them (they decide each scenario's matrix).
    - ``out``: the run folder ``--out`` names; None: the record, or a run folder of its own when
      a result is outside the matrix.
    - ``full``: the run was the whole matrix (no --only, no SPEC): results of releases and pairs
      that left it are dropped from the record.
    - ``only``: the --only selectors (they name a run folder of its own).
    - ``quiet``: no lines about a run folder (the calling command says where its evidence is).
    - ``upgrades``: the upgrade pairs' rows.
    - ``upgrade_plan``: the run's upgrade axis; None: a run with none (merged shards).
    - ``upgrade_changes``: the schema changes of the pairs the run measured
      (harness/execution/upgrades.py ``UpgradeRun.changes``).
    - ``fresh_probes``: the pending bisect probes the run asked again (pending.py).
    """

    project: Project
    scenarios: dict[str, Scenario]
    results: list[Row]
    environments: list[Environment]
    harness: HarnessInfo
    store: SnapshotStore
    out: Path | None
    full: bool = False
    only: list[str] = field(default_factory=list)
    quiet: bool = False
    upgrades: list[Row] = field(default_factory=list)
    upgrade_plan: upgrade_axis.UpgradePlan | None = None
    upgrade_changes: dict | None = None
    fresh_probes: list[Probe] = field(default_factory=list)


def publish(p: Publication) -> Path:
    """Merge the results into the record, or write them to a run folder of their own; return where.

    The record and bisect.json are read again under the record's lock (harness/store/record.py
    ``transaction``): a run that wrote meanwhile keeps its results. The pending probes asked again
    go to bisect.json in the same transaction, so the reports are rendered once (issue 49: a second
    transaction rendered all of them again, 0.5 s of an author's warm loop)."""
    reports_dir = p.project.reports
    order = {(s.id, c.id): i for i, (s, c) in enumerate(registry.select(p.scenarios, []))}
    ran = [p.scenarios[i] for i in dict.fromkeys(r.scenario for r in p.results) if i in p.scenarios]
    render = reports.renderer(p.scenarios, p.project, upgrade_changes=p.upgrade_changes)
    with record.transaction(reports_dir, log) as tx:
        existing, bisects = tx.existing, tx.bisects
        # Membership as the store is now: a release whose snapshot --update-snapshots just stored
        # has joined its scenario's matrix, and its results go to the record.
        members = membership.matrix_releases(ran, p.store, bisects, existing, p.project.cache) if ran else {}
        outside = sorted({r.source for r in p.results if not r.release or r.version not in members[r.scenario]})
        if p.out is None and not outside:
            prune: list[tuple[str, str, str, str]] = []
            if p.full and existing:
                # A full run is the whole matrix: results of releases that left it are dropped.
                every = membership.matrix_releases(
                    list(p.scenarios.values()), p.store, bisects, existing, p.project.cache
                )
                prune = [
                    r.key
                    for r in existing.results
                    if r.scenario in every and (not r.release or r.version not in every[r.scenario])
                ]
                for key in prune:
                    log(
                        f"note: {key[2]} left the matrix of {key[0]}; its result for {key[1]} "
                        "is dropped from the record"
                    )
            upgrade_ids = set(p.upgrade_plan.scenarios) if p.upgrade_plan is not None else None
            upgrade_prune = []
            if p.full and existing and p.upgrade_plan is not None:
                # A full run is the whole grid: results of pairs that left it are dropped.
                planned = {r.pair_key for r in p.upgrades}
                upgrade_prune = [r.pair_key for r in existing.upgrades if r.pair_key not in planned]
            merged = record.merge(
                existing,
                p.results,
                p.environments,
                p.harness,
                order,
                prune,
                upgrades=p.upgrades,
                upgrade_ids=upgrade_ids,
                upgrade_prune=upgrade_prune,
            )
            if p.fresh_probes:
                tx.write_bisects(tx.bisects.with_probes(p.fresh_probes))
            tx.render(merged, render)
            tx.write_record(merged)
        elif p.fresh_probes:  # the results go to a run folder; the probes still to the bisect record
            tx.write_bisects(tx.bisects.with_probes(p.fresh_probes))
            if existing is not None:
                tx.render(existing, render)
    if p.out is None and not outside:
        log(written_words(len(p.results), len(p.upgrades), len(merged.results) - len(p.results)))
    if p.fresh_probes:
        log(f"wrote reports/bisect.json: {len(p.fresh_probes)} pending probes measured again")
    if p.out is None and not outside:
        return reports_dir
    out = p.out
    if out is None:
        out = reports_dir / record.RUNS_DIR / record.run_name(sorted({r.source for r in p.results}), p.only)
        why = f"{', '.join(outside)} {'is' if len(outside) == 1 else 'are'} not in the matrix"
    else:
        why = "--out was given"
    document = record.Record.of(p.results, p.environments, p.harness, p.upgrades)
    written = record.write_folder(out, document, render, bisects)
    if p.quiet:  # the calling command says where its evidence is
        return out
    shown = _shown(out, p.project.root)
    log(
        f"this run's reports are in {shown}/ ({len(written)} files); the record (reports/{record.RECORD_NAME}) "
        f"is unchanged: {why}"
    )
    before_after = [path for path in written if path.suffix == ".md" and path.name != "matrix.md"]
    if any(not r.release for r in p.results) and before_after:
        log(f"before/after report: {', '.join(_shown(path, p.project.root) for path in before_after)}")
    return out


def _shown(path: Path, root: Path) -> str:
    """A path as the user should read it: relative to the project when inside it."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
