"""A result of the record (reports/matrix.json): its keys, in the order the file writes them, what
tells a release's result from a candidate's, and ``Row``, the type that carries a case's result
(harness/runtime/result.py ``CaseResult``) with the build's keys. The one place all are defined:
outside harness/store/, a result row is read by its attributes, never by a string key."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

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
# second time (harness/store/record.py ``as_stored`` leaves it out, ``with_timelines`` reads it back).
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

    def fields(self) -> dict:
        """Every field by its record key (what harness/store/ reads; ``written`` keeps the record's)."""
        return {
            "scenario": self.scenario,
            "case": self.case,
            "framework": self.framework,
            "version": self.version,
            "source": self.source,
            "outcome": self.outcome,
            "detail": self.detail,
            "snapshot": self.snapshot,
            "backend": self.backend,
            "snapshot_base": self.snapshot_base,
            "timeline": self.timeline,
            "inputs": self.inputs,
            "release": self.release,
            "snapshot_diff": self.snapshot_diff,
            "from_version": self.from_version,
            "from_source": self.from_source,
            "python": self.python,
        }

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

# What the functions below take: a row, or its JSON object as the record holds it.
AnyRow = Row | Mapping
RowT = TypeVar("RowT", Row, Mapping)


def fields(result: AnyRow) -> Mapping:
    return result.fields() if isinstance(result, Row) else result


def as_rows(results: Iterable[AnyRow]) -> list[Row]:
    """``results`` as rows: a Row kept as it is, a record's JSON object of one result read into one."""
    return [r if isinstance(r, Row) else Row.from_json(r) for r in results]


def upgrades_of(document: Mapping | None) -> list[Row]:
    """A record's (or run folder's) upgrade results (its ``upgrades`` list, schema 4) as rows."""
    return as_rows((document or {}).get(UPGRADES, []))


def pair_key(row: AnyRow) -> tuple[str, str, str, str]:
    """(scenario, case, from_source, source) of an upgrade's result or its JSON object."""
    r = fields(row)
    return (r["scenario"], r["case"], r.get("from_source") or "", r["source"])


def change_key(row: Row) -> str:
    """How a reproduced upgrade pair's schema change is filed (reports/upgrades/<id>.changes.json)."""
    return f"{row.case} {row.from_version} -> {row.version}"


def of_document(document: Mapping | None) -> list[Row]:
    """A record's (or run folder's, or shard's) results as rows (a document whose results are rows
    already, as the reports' renderer passes on, gives them back as they are)."""
    return as_rows((document or {}).get("results", []))


def python_of(result: AnyRow) -> str:
    """The interpreter a result (or its JSON object) was measured on."""
    return fields(result).get(PYTHON_KEY) or interpreters.DEFAULT


def key_of(result: AnyRow) -> tuple[str, str, str, str]:
    """(scenario, case, source, python) of a result or its JSON object: one per record."""
    r = fields(result)
    return (r["scenario"], r["case"], r["source"], python_of(r))


def on(results: Iterable[RowT], python: str = interpreters.DEFAULT) -> list[RowT]:
    """The results measured on ``python``: the release axis of one interpreter, what every view of
    boundaries, grids and audits reads (a view across interpreters compares such slices)."""
    return [r for r in results if python_of(r) == python]


def is_release(result: AnyRow) -> bool:
    """A result of a release from the index (``source`` is ``NAME==VERSION``), not of a local build
    (``local:<name>``) or a direct reference."""
    r = fields(result)
    return r["source"] == f"{r['framework']}=={r['version']}"


# The digest of the scenario code that answered it (harness/store/result_cache.py
# ``scenario_inputs``): written only when known, so results recorded before it keep their bytes.
INPUTS_KEY = "inputs"


def with_python(row: dict, python: str) -> dict:
    """``row`` (a result's JSON object) with its ``python`` right after ``backend``, other keys kept in order."""
    keys = [k for k in row if k != PYTHON_KEY]
    at = keys.index("backend") + 1 if "backend" in keys else len(keys)
    return {**{k: row[k] for k in keys[:at]}, PYTHON_KEY: python, **{k: row[k] for k in keys[at:]}}


def written(result: AnyRow) -> dict:
    """The result as the record holds it: the keys above, in order, missing ones as null."""
    r = fields(result)
    keys: tuple[str, ...] = RESULT_KEYS + EXTRA_KEYS
    if r.get("from_source"):  # an upgrade's: the writer's release before the reader's
        at = keys.index("version")
        keys = keys[:at] + FROM_KEYS + keys[at:]
    out = {k: r.get(k) for k in keys}
    out = with_python(out, python_of(r))
    if r.get(INPUTS_KEY):
        out[INPUTS_KEY] = r[INPUTS_KEY]
    return out


def unjudged(results: Iterable[AnyRow]) -> dict[str, list[Mapping]]:
    """The builds the run could not judge: ``source`` -> its results, where every case of it ended
    in ``error`` (an install failure); or ``source on BACKEND`` where every case of it on a database
    backend did (a server that did not start). Such a run judged nothing there and must say so."""
    by_source: dict[str, list[Mapping]] = {}
    for r in map(fields, results):
        py = python_of(r)
        by_source.setdefault(r["source"] + ("" if py == interpreters.DEFAULT else f" on {py}"), []).append(r)
    out: dict[str, list[Mapping]] = {}
    for source, rs in by_source.items():
        groups = {source: rs}
        if not all(r["outcome"] == ERROR for r in rs):
            groups = {}
            for r in rs:
                if r.get("backend") not in (None, "sqlite"):
                    groups.setdefault(f"{source} on {r['backend']}", []).append(r)
        out.update({name: g for name, g in groups.items() if all(r["outcome"] == ERROR for r in g)})
    return out


def unjudged_lines(results: Iterable[AnyRow]) -> list[str]:
    """One line per build the run could not judge (``unjudged``): the build, how many cases, the
    first error's detail (its first line, cut at 300 characters)."""
    out = []
    for name, rs in unjudged(results).items():
        detail = (str(rs[0]["detail"]).splitlines() or [""])[0]
        detail = detail if len(detail) <= 300 else detail[:297] + "..."
        out.append(f"could not judge {name}: all {len(rs)} cases ended in error: {detail}")
    return out
