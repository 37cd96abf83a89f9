"""The matrix of a scenario: the releases that matter for it (see harness/store/record.py's docstring):
its framework's default set (harness/planning/releases.py), every release it stores a snapshot of its own
for, the releases on either side of a bisect boundary (reports/bisect.json), and those its proofs name."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from harness.planning import index, releases, versions
from harness.project import PROJECT
from harness.store import boundaries, result_cache
from harness.store.bisect_record import BisectRecord
from harness.store.document import Record
from harness.store.rows import Row
from harness.store.snapshots import SnapshotStore

if TYPE_CHECKING:
    from harness.runtime.scenario import Scenario


def scenario_releases(
    scenario: Scenario,
    defaults: list[str],
    store: SnapshotStore,
    bisects: BisectRecord,
    results: list[Row],
    on_index: set[str] | None = None,
) -> list[str]:
    """The releases of ``scenario``'s matrix, oldest first (see the module docstring).

    ``on_index``: the releases the index knows; a stored or bisected release it does not know
    is left out (it cannot be installed).
    """
    own = {v for case in scenario.cases for v in store.stored_versions(scenario.id, case.id)}
    inputs = result_cache.scenario_inputs(PROJECT.root, scenario.module)
    bounds = boundaries.boundary_releases(bisects, results, scenario.id, scenario.framework, inputs)
    # And those older code's probes found (pending, harness/execution/pending.py): a script edit must
    # not drop a boundary's releases from the matrix before its probes are asked again (issue 45).
    bounds |= boundaries.boundary_releases(bisects, results, scenario.id, scenario.framework, None)
    extra = own | bounds | proof_releases(scenario)
    if on_index is not None:
        extra &= on_index
    return sorted(set(defaults) | extra, key=versions.key)


def proof_releases(scenario: Scenario) -> set[str]:
    """The versions its cases' Release proofs and edges name: the matrix runs them, so a proof is
    read from the record (tests/test_oracle_proofs.py) and a run that contradicts one fails."""
    from harness.runtime.scenario import Release

    builds = [b for case in scenario.cases for b in (*case.proofs.values(), *(e.build for e in case.edges))]
    return {b.version for b in builds if isinstance(b, Release) and b.framework == scenario.framework}


def proof_claims(scenario: Scenario) -> dict[tuple[str, str], str]:
    """(case id, release spec) -> the outcome a Release proof of the case claims there."""
    from harness.runtime.scenario import Release

    return {
        (case.id, build.spec): outcome
        for case in scenario.cases
        for outcome, build in case.proofs.items()
        if isinstance(build, Release)
    }


def matrix_releases(
    scenarios: list[Scenario], store: SnapshotStore, bisects: BisectRecord, existing: Record | None, cache_dir: Path
) -> dict[str, list[str]]:
    """scenario id -> the releases of its matrix, as the store is now; ``existing``: the record's
    document (None when there is no record)."""
    defaults = {fw: releases.default_versions(fw, cache_dir) for fw in sorted({s.framework for s in scenarios})}
    results = existing.results if existing else []
    out = {}
    for s in scenarios:
        on_index = set(index.releases(s.framework, cache_dir))
        out[s.id] = scenario_releases(s, defaults[s.framework], store, bisects, results, on_index)
    return out
