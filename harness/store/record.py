"""The record: ``reports/matrix.json`` and every report rendered from it.

The record holds the latest result of every (scenario, case, release) of the matrix. A run
of releases of the matrix replaces exactly the results it ran and keeps every other one
byte for byte (``merge``); the reports are always rendered from the whole record.

*The matrix* of a scenario is the releases that matter for it: the framework's default
set (harness/planning/releases.py), every release the scenario stores a snapshot of its own for
(``snapshots/matrix/<scenario>/<case>/<version>.txt``: a release whose behaviour differs
from the one before it), and the releases on either side of a bisect boundary
(``reports/bisect.json``). A run with a local build, or with a release outside the
matrix of a scenario it runs, is a candidate or exploratory run: it writes its reports to a
folder of its own (``reports/runs/<name>/``, ignored by git) and leaves the record alone.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from harness.errors import UsageError
from harness.planning import index, versions
from harness.project import PROJECT
from harness.rendering import reports
from harness.store import boundaries, result_cache, rows
from harness.store.snapshots import SnapshotStore

if TYPE_CHECKING:
    from harness.runtime.scenario import Scenario

RECORD_NAME = "matrix.json"
RUNS_DIR = "runs"


class RecordError(UsageError, ValueError):
    """reports/matrix.json is not a record this code can read (one line: what, and what to do)."""


def load(reports_dir: Path) -> dict | None:
    """The record, or None when there is none yet."""
    path = reports_dir / RECORD_NAME
    if not path.exists():
        return None
    try:
        document = json.loads(path.read_text())
        if not isinstance(document, dict) or not isinstance(document.get("results"), list):
            raise ValueError("no results list")
        if document.get("schema_version") not in reports.READABLE_SCHEMAS:
            raise ValueError(f"schema_version {document.get('schema_version')!r}, expected {reports.SCHEMA_VERSION}")
    except ValueError as exc:
        raise RecordError(
            f"reports/{RECORD_NAME} cannot be read ({exc}); restore it with "
            f"`git checkout -- reports/{RECORD_NAME}` or move it away"
        ) from None
    return document


def recorded_packages(document: dict | None) -> dict[str, tuple[str, ...]]:
    """source -> the ``name==version`` packages of the record's environment of that release:
    the lock a new environment of it is checked against (harness/execution/environments.py)."""
    return {
        e["source"]: tuple(e["packages"])
        for e in (document or {}).get("environments", [])
        if e.get("packages") and e.get("exclude_newer") and not e.get("error")
    }


def _key(r: dict) -> tuple[str, str, str]:
    return (r["scenario"], r["case"], r["source"])


def merge(
    existing: dict | None,
    results: list[dict],
    environments: list[dict],
    harness: dict,
    order: dict[tuple[str, str], int],
    prune: Iterable[tuple[str, str, str]] = (),
) -> dict:
    """The record with ``results`` in place of the ones they re-ran; every other result kept.

    ``order``: (scenario, case) -> position, for every case that exists; results of cases
    that no longer exist are dropped. ``prune``: (scenario, case, source) keys to drop too
    (releases that left the matrix; only a full run passes them).
    """
    new_keys = {_key(r) for r in results}
    dropped = set(prune)
    kept = [
        r
        for r in (existing or {}).get("results", [])
        if _key(r) not in new_keys and _key(r) not in dropped and (r["scenario"], r["case"]) in order
    ]
    merged = kept + [rows.written(r) for r in results]
    merged.sort(key=reports.sort_key(order))
    sources = {r["source"] for r in merged}
    envs = {e["source"]: e for e in (existing or {}).get("environments", [])}
    envs.update({e["source"]: e for e in environments})
    kept_envs = sorted((e for s, e in envs.items() if s in sources), key=lambda e: (e["framework"], e["source"]))
    return reports.matrix_document(merged, kept_envs, harness)


# --- which releases are in the matrix ---------------------------------------------------------


def bisect_record(reports_dir: Path) -> dict:
    return boundaries.load_record(reports_dir / "bisect.json")


def scenario_releases(
    scenario: Scenario,
    defaults: list[str],
    store: SnapshotStore,
    bisects: dict,
    results: list[dict],
    on_index: set[str] | None = None,
) -> list[str]:
    """The releases of ``scenario``'s matrix, oldest first (see the module docstring).

    ``on_index``: the releases the index knows; a stored or bisected release it does not know
    is left out (it cannot be installed).
    """
    own = {v for case in scenario.cases for v in store.stored_versions(scenario.id, case.id)}
    inputs = result_cache.scenario_inputs(PROJECT.root, scenario.module, scenario.id)
    bounds = boundaries.boundary_releases(bisects, results, scenario.id, scenario.framework, inputs)
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
    scenarios: Iterable,
    defaults: dict[str, list[str]],
    store: SnapshotStore,
    bisects: dict,
    results: list[dict],
    cache_dir: Path,
) -> dict[str, list[str]]:
    """scenario id -> the releases of its matrix."""
    out = {}
    for s in scenarios:
        on_index = set(index.releases(s.framework, cache_dir))
        out[s.id] = scenario_releases(s, defaults[s.framework], store, bisects, results, on_index)
    return out


# --- where a run's reports go --------------------------------------------------------------------


def run_name(sources: list[str], only: list[str]) -> str:
    """A folder name for a candidate or exploratory run: what it ran, readable and short."""
    words = [
        re.sub(r"[^A-Za-z0-9._-]+", "-", s.replace("==", "-").replace("local:", "local-")).strip("-")
        for s in sorted(sources)
    ]
    name = "+".join(words)
    if only:
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", ",".join(only)) + "+" + name
    if len(name) > 80:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        name = f"{name[:70].rstrip('+-.')}-{digest}"
    return name


def render(root: Path, scenarios: dict, reports_dir: Path | None = None, document: dict | None = None) -> list[Path]:
    """Write every report of ``document`` (by default the record) into ``reports_dir``."""
    record_dir = root / "reports"
    reports_dir = reports_dir or record_dir
    document = document if document is not None else load(record_dir)
    if document is None:
        return []
    return reports.write_all(document, scenarios, reports_dir, bisect_record(record_dir), root)
