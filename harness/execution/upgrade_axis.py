"""The upgrade axis of a matrix run (harness/execution/matrix.py): which pairs the run's selectors name,
running them (harness/execution/upgrades.py), checking them against their snapshots, and the proofs
they contradict.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from harness.execution import upgrades
from harness.execution.run import RunSettings
from harness.planning import upgrades as planning
from harness.planning.catalog import Catalog, Selection
from harness.project import PROJECT, Project
from harness.store.rows import Row
from harness.store.snapshots import Key, SnapshotStore


@dataclass
class UpgradePlan:
    """The upgrade axis of a run: its scenarios, the pairs to run, the snapshot store (the matrix's too)."""

    scenarios: dict[str, planning.UpgradeScenario]
    pairs: list[planning.PlannedPair]
    store: SnapshotStore

    @property
    def sources(self) -> frozenset[str]:
        """The releases its pairs step through (``google-adk==1.22.0``), on the default interpreter."""
        return frozenset(f"{p.scenario.framework}=={v}" for p in self.pairs for v in (p.writer, p.reader))


def plan(project: Project, catalog: Catalog, selection: Selection) -> UpgradePlan:
    """The upgrade axis of a run: the pairs its selection names (harness/planning/catalog.py), and the
    project's snapshot store, validated (both its folders) before anything runs."""
    store = SnapshotStore(project.snapshots)
    store.validate()
    return UpgradePlan(catalog.upgrades, selection.pairs, store)


def run(upgrade_plan: UpgradePlan, settings: RunSettings, jobs: int, update_snapshots: bool) -> upgrades.UpgradeRun:
    """The plan's pairs: one whose script and builds are unchanged keeps its last run's result
    (``settings.rerun`` and ``update_snapshots`` run every pair); one with no snapshot to meet runs twice."""
    if not upgrade_plan.pairs:
        return upgrades.UpgradeRun([], [], {})

    def repeat_new(pair: planning.PlannedPair) -> bool:
        key = Key(pair.scenario.id, pair.case, pair.reader, writer=pair.writer)
        return update_snapshots or upgrade_plan.store.stored(key) is None

    if update_snapshots:
        settings = dataclasses.replace(settings, rerun=True)
    return upgrades.run(upgrade_plan.pairs, settings, jobs, repeat_new)


def contradicted_proofs(results: list[Row], upgrades_dir: Path = PROJECT.upgrades) -> list[tuple[Row, str]]:
    """Upgrade results of a pair a scenario's proof names (``Step``), where the pair no longer gives
    the outcome the proof claims."""
    found = planning.discover(upgrades_dir)
    claims = {
        (s.id, step.case, step.writer, step.reader): step.outcome
        for s in found.values()
        for step in s.declaration.proofs
    }
    return [
        (r, claims[key])
        for r in results
        if r.from_version
        and (key := (r.scenario, r.case, r.from_version, r.version or "")) in claims
        and r.outcome != claims[key]
    ]
