"""A result of the record (reports/matrix.json): its keys, in the order the file writes them, what
tells a release's result from a candidate's, and ``Row``, the type that carries a case's result
(harness/runtime/result.py ``CaseResult``) with the build's keys. The one place all are defined:
outside harness/store/, a result row is read by its attributes, never by a string key."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from harness.planning import interpreters
from harness.runtime.outcomes import ERROR
from harness.runtime.result import CaseResult

# The contract's keys (../shared/CONTRACT.md; schema_version 2 added ``backend``, and ``repro``, the
# verdict of a second replay that schema 3 no longer has), then the keys the reports read; a result
# is written with exactly these, in this order.
RESULT_KEYS = (
    "scenario",
    "case",
    "framework",
    "version",
    "source",
    "outcome",
    "detail",
    "snapshot",
    "backend",
)
EXTRA_KEYS = ("snapshot_base", "timeline")
# The interpreter a result was measured on (schema 5, issue 46: ``3.11``), written after ``backend``; a
# record of schema 4 reads as measured on the default (harness/planning/interpreters.py ``DEFAULT``), as
# every result before 5 was.
PYTHON_KEY = "python"
# A result of an upgrade (the record's ``upgrades`` list, schema 4): the state was written by the
# release ``from_source`` names and read by the one ``source`` names (../shared/CONTRACT.md, "Results
# that span two releases"); written just before ``version``.
FROM_KEYS = ("from_version", "from_source")
# A result whose snapshot word is one of these has its timeline in the snapshot store
# (snapshots/matrix/<scenario>/<case>/<snapshot_base>.txt): the record's file does not hold it a
# second time (harness/store/document.py ``Record.to_json(stored=True)`` leaves it out,
# harness/store/record.py ``with_timelines`` reads it back).
TIMELINE_STORED = ("match", "updated")


@dataclass
class Row:
    """One result of a run or of the record: the case's result and the build's keys. The snapshot
    fields are set when it is checked against its stored snapshot (harness/execution/matrix.py)."""

    result: CaseResult
    framework: str
    version: str | None
    source: str
    release: bool = True  # a release of the index (not a local build nor a direct reference)
    backend: str | None = None
    inputs: str | None = None  # the digest of the scenario code that answered it
    snapshot: str | None = None
    snapshot_base: str | None = None
    snapshot_diff: str = ""
    from_version: str | None = None  # an upgrade's writer release (its reader is ``version``)
    from_source: str | None = None
    python: str = interpreters.DEFAULT  # the interpreter it was measured on (``3.10``)

    @property
    def scenario(self) -> str:
        return self.result.scenario

    @property
    def case(self) -> str:
        return self.result.case

    @property
    def outcome(self) -> str:
        return self.result.outcome

    @property
    def detail(self) -> str:
        return self.result.detail

    @property
    def timeline(self) -> str:
        return self.result.timeline

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What identifies it in the record: (scenario, case, source, python)."""
        return (self.scenario, self.case, self.source, self.python)

    @property
    def pair_key(self) -> tuple[str, str, str, str]:
        """What identifies an upgrade's result in the record: (scenario, case, from_source, source)."""
        return (self.scenario, self.case, self.from_source or "", self.source)

    def to_json(self) -> dict:
        """The result as the record holds it: ``RESULT_KEYS`` then ``EXTRA_KEYS`` in order (an upgrade's
        writer keys just before ``version``), ``python`` after ``backend``, ``inputs`` where known."""
        values = {
            "scenario": self.scenario,
            "case": self.case,
            "framework": self.framework,
            "from_version": self.from_version,
            "from_source": self.from_source,
            "version": self.version,
            "source": self.source,
            "outcome": self.outcome,
            "detail": self.detail,
            "snapshot": self.snapshot,
            "backend": self.backend,
            "snapshot_base": self.snapshot_base,
            "timeline": self.timeline,
        }
        keys: tuple[str, ...] = RESULT_KEYS + EXTRA_KEYS
        if self.from_source:  # an upgrade's: the writer's release before the reader's
            at = keys.index("version")
            keys = keys[:at] + FROM_KEYS + keys[at:]
        out = with_python({k: values[k] for k in keys}, self.python)
        if self.inputs:
            out[INPUTS_KEY] = self.inputs
        return out

    @classmethod
    def from_json(cls, row: Mapping) -> Row:
        """From the record's (or a shard's, or a run folder's) JSON object of one result."""
        return cls(
            CaseResult(row["scenario"], row["case"], row["outcome"], row["detail"], row.get("timeline") or ""),
            row["framework"],
            row["version"],
            row["source"],
            release=row["source"] == f"{row['framework']}=={row['version']}",
            backend=row.get("backend"),
            inputs=row.get("inputs"),
            snapshot=row.get("snapshot"),
            snapshot_base=row.get("snapshot_base"),
            from_version=row.get("from_version"),
            from_source=row.get("from_source"),
            python=row.get(PYTHON_KEY) or interpreters.DEFAULT,
        )


# The record's list of upgrade results (schema 4), beside ``results``: one per (scenario, case, pair).
UPGRADES = "upgrades"


def change_key(row: Row) -> str:
    """How a reproduced upgrade pair's schema change is filed (reports/upgrades/<id>.changes.json)."""
    return f"{row.case} {row.from_version} -> {row.version}"


def on(results: Iterable[Row], python: str = interpreters.DEFAULT) -> list[Row]:
    """The results measured on ``python``: the release axis of one interpreter, what every view of
    boundaries, grids and audits reads (a view across interpreters compares such slices)."""
    return [r for r in results if r.python == python]


# The digest of the scenario code that answered it (harness/store/result_cache.py
# ``scenario_inputs``): written only when known, so results recorded before it keep their bytes.
INPUTS_KEY = "inputs"


def with_python(row: dict, python: str) -> dict:
    """``row`` (a result's JSON object) with its ``python`` right after ``backend``, other keys kept in order."""
    keys = [k for k in row if k != PYTHON_KEY]
    at = keys.index("backend") + 1 if "backend" in keys else len(keys)
    return {**{k: row[k] for k in keys[:at]}, PYTHON_KEY: python, **{k: row[k] for k in keys[at:]}}


def label(row: Row) -> str:
    """The label of the build a result was measured in (``Environment.label``): its source, and its
    interpreter where that is not the default."""
    return row.source if row.python == interpreters.DEFAULT else f"{row.source} on {row.python}"


def unjudged(results: Iterable[Row]) -> dict[str, list[Row]]:
    """The builds the run could not judge: ``source`` -> its results, where every case of it ended
    in ``error`` (an install failure); or ``source on BACKEND`` where every case of it on a database
    backend did (a server that did not start). Such a run judged nothing there and must say so."""
    by_source: dict[str, list[Row]] = {}
    for r in results:
        by_source.setdefault(label(r), []).append(r)
    out: dict[str, list[Row]] = {}
    for source, rs in by_source.items():
        groups = {source: rs}
        if not all(r.outcome == ERROR for r in rs):
            groups = {}
            for r in rs:
                if r.backend not in (None, "sqlite"):
                    groups.setdefault(f"{source} on {r.backend}", []).append(r)
        out.update({name: g for name, g in groups.items() if all(r.outcome == ERROR for r in g)})
    return out


def unjudged_lines(results: Iterable[Row]) -> list[str]:
    """One line per build the run could not judge (``unjudged``): the build, how many cases, the
    first error's detail (its first line, cut at 300 characters)."""
    out = []
    for name, rs in unjudged(results).items():
        detail = (rs[0].detail.splitlines() or [""])[0]
        detail = detail if len(detail) <= 300 else detail[:297] + "..."
        out.append(f"could not judge {name}: all {len(rs)} cases ended in error: {detail}")
    return out
