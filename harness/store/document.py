"""``Record``: the contents of a record (reports/matrix.json), a run folder's matrix.json or a shard's
result file, as typed data (issue 47, after asv's ``Results``): its results and upgrade results as
``Row``s, its environments as ``Environment``s and what measured it as ``HarnessInfo``. Its callers never
see the JSON: harness/store/record.py reads a file into one (``read``: validated, migrated, every
timeline in it) and writes one back (``to_json``). The shard merge (harness/execution/shards.py) builds
one with ``from_json`` from a shard that ``record.parse``, ``validate`` and ``migrate`` read, since a
shard holds every timeline; the job summary reads rows alone (``Row.from_json``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.planning import versions
from harness.store import harness_info, rows
from harness.store.environment import Environment, as_environments
from harness.store.harness_info import HarnessInfo
from harness.store.rows import Row

# The record's schema (docs/CONTRACT.md; the history of each version is in harness/store/record.py).
SCHEMA_VERSION = 5
# The document's keys in the order its file writes them.
KEYS = ("schema_version", "harness", "results", rows.UPGRADES, "environments")


def upgrade_sort_key(row: Row) -> tuple:
    """The record's order of upgrade results: scenario, case, reader, then writer, by version."""
    return (
        row.scenario,
        row.case,
        versions.key(row.version or "0"),
        versions.key(row.from_version or "0"),
        row.from_source or "",
        row.source,
    )


@dataclass
class Record:
    """A record's (or run folder's, or shard's) contents. ``results``: one per (scenario, case, source,
    python), in the order given; ``upgrades``: one per (scenario, case, writer, reader), in the record's
    order (``upgrade_sort_key``); ``environments``: one per build, as given."""

    results: list[Row] = field(default_factory=list)
    upgrades: list[Row] = field(default_factory=list)
    environments: list[Environment] = field(default_factory=list)
    harness: HarnessInfo = field(default_factory=HarnessInfo)
    # Top-level keys this code does not know, kept so a read and a write give the file back byte for byte.
    others: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def of(
        cls,
        results: Iterable[Row] = (),
        environments: Iterable[Environment | Mapping[str, Any]] = (),
        harness: HarnessInfo | Mapping[str, Any] | None = None,
        upgrades: Iterable[Row] = (),
    ) -> Record:
        """A record of these results, environments (an ``Environment`` or a worker's JSON object of one)
        and upgrade results (sorted in the record's order)."""
        return cls(
            list(results),
            sorted(upgrades, key=upgrade_sort_key),
            as_environments(environments),
            harness_info.of(harness),
        )

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> Record:
        """From a document in the current schema whose every result holds its timeline
        (harness/store/record.py ``read`` validates, migrates and fills them in first)."""
        return cls(
            [Row.from_json(r) for r in document["results"]],
            [Row.from_json(r) for r in document.get(rows.UPGRADES, [])],
            as_environments(document.get("environments", [])),
            harness_info.of(document.get("harness")),
            tuple((k, v) for k, v in document.items() if k not in KEYS),
        )

    def to_json(self, stored: bool = False) -> dict[str, Any]:
        """The document as its file holds it. ``stored``: as the record's file does, without the
        timelines the snapshot store holds (``rows.TIMELINE_STORED``; ``read`` reads them back)."""

        def written(row: Row, upgrade: bool) -> dict:
            out = row.to_json()
            # A pair's file is its own; a result's is the one its snapshot_base names.
            if stored and row.snapshot in rows.TIMELINE_STORED and (upgrade or row.snapshot_base):
                del out["timeline"]
            return out

        return {
            "schema_version": SCHEMA_VERSION,
            "harness": self.harness.to_json(),
            "results": [written(r, False) for r in self.results],
            rows.UPGRADES: [written(r, True) for r in self.upgrades],
            "environments": [e.to_json() for e in self.environments],
            **dict(self.others),
        }

    def replace(self, **changes: Any) -> Record:
        """A copy with ``changes`` (``results=``, ``environments=``...)."""
        return dataclasses.replace(self, **changes)

    # --- its environments ---------------------------------------------------------------------------

    def environment(self, source: str) -> Environment | None:
        """The first environment of the release ``source`` (its date and extras are the release's, the
        same on every interpreter), or None when it has none."""
        return next((e for e in self.environments if e.source == source), None)

    def environments_of(self, labels: set[str]) -> list[Environment]:
        """The environments of ``labels`` (a run that kept a result keeps its build's entry)."""
        return [e for e in self.environments if e.label in labels]

    def recorded_packages(self) -> dict[str, tuple[str, ...]]:
        """label -> the ``name==version`` packages of the environment of that build: the lock a new
        environment of it is checked against (harness/execution/environments.py)."""
        return {e.label: e.packages for e in self.environments if e.packages and e.exclude_newer and not e.error}
