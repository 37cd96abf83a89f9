"""The record: ``reports/matrix.json``, its owner (``Reports``). Reads it (validated, migrated, its
timelines read from the snapshot store) into the typed ``Record`` of harness/store/document.py, merges
a run's results into one, and writes it (with the reports rendered from it) all or nothing, under the
record's lock. Its JSON is read here and written by ``Record.to_json``; every caller gets the types.

The record holds the latest result of every (scenario, case, release) of the matrix. A run
of releases of the matrix replaces exactly the results it ran and keeps every other one
byte for byte (``merge``); the reports are always rendered from the whole record, by
harness/rendering/ (which reads the record and writes no record; this package imports nothing
of it: the caller hands the reports' renderer to ``transaction``'s staging).

*The matrix* of a scenario is the releases that matter for it: the framework's default
set (harness/planning/releases.py), every release the scenario stores a snapshot of its own for
(``snapshots/matrix/<scenario>/<case>/<version>.txt``: a release whose behaviour differs
from the one before it), and the releases on either side of a bisect boundary
(``reports/bisect.json``). A run with a local build, or with a release outside the
matrix of a scenario it runs, is a candidate or exploratory run: it writes its reports to a
folder of its own (``reports/runs/<name>/``, ignored by git) and leaves the record alone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from harness.errors import RecordError, UsageError
from harness.planning import interpreters, versions
from harness.project import PROJECT
from harness.runtime.outcomes import OUTCOMES
from harness.store import bisect_record as bisect_file
from harness.store import harness_info, rows, staging
from harness.store.bisect_record import BisectRecord
from harness.store.document import SCHEMA_VERSION, Record
from harness.store.environment import (
    INTERPRETER_KEY,
    Environment,
    as_environments,
    sorted_environments,
    with_interpreter,
)
from harness.store.lock import LOCK_NAME, locked
from harness.store.rows import Row
from harness.store.snapshots import CHANGED, MATCH, MATRIX, NEW, UPDATED, SnapshotStore
from harness.store.staging import Staging

# The typed record and the helpers of harness/store/document.py, environment.py and lock.py, named
# here too for the record's callers.
__all__ = ["INTERPRETER_KEY", "LOCK_NAME", "SCHEMA_VERSION", "Record", "RecordError", "locked", "sorted_environments"]

RECORD_NAME = "matrix.json"
BISECT_NAME = "bisect.json"
RUNS_DIR = "runs"

# 2: each result also holds ``repro`` (the verdict of the case's second, short replay) and
# ``backend``, the database the case ran on (sqlite, or postgresql for a ``<case>-postgresql`` case).
# 3: no ``repro`` (a bug has one reproduction, the one the harness runs), and no ``timeline`` where
# the snapshot store holds it (``rows.TIMELINE_STORED``): it is read from there.
# 4: an ``upgrades`` list beside ``results``: one result per (scenario, case, pair of releases), the
# reader's ``version``/``source`` and the writer's ``from_version``/``from_source`` (rows.FROM_KEYS).
# 5: every result holds ``python``, the CPython minor it was measured on (``3.11``; rows.PYTHON_KEY), and
# its key is (scenario, case, source, python); each environment entry holds ``interpreter`` (its minor;
# ``python`` stays its full version). Records of 1-4 read as measured on 3.11 (interpreters.DEFAULT).
# (SCHEMA_VERSION itself is harness/store/document.py's: the typed record writes it.)
READABLE_SCHEMAS = (1, 2, 3, 4, 5)  # older records read as version 5: repro dropped, backend null, no upgrades
# The keys a result of each schema must hold.
REQUIRED_KEYS = {
    1: tuple(k for k in rows.RESULT_KEYS if k != "backend"),
    2: (*rows.RESULT_KEYS[:-1], "repro", "backend"),
    3: rows.RESULT_KEYS,
    4: rows.RESULT_KEYS,
    5: rows.RESULT_KEYS,
}
UPGRADE_REQUIRED_KEYS = (*rows.RESULT_KEYS, *rows.FROM_KEYS)
SNAPSHOT_WORDS = (MATCH, UPDATED, NEW, CHANGED)


# --- reading: load, validate, migrate ------------------------------------------------------------


def _row_name(i: int, r: dict) -> str:
    return f"result {i} ({r.get('scenario', '?')}:{r.get('case', '?')}@{r.get('source', '?')})"


def _row_problem(r: object, required: tuple[str, ...], releases_only: bool) -> str | None:
    """What is wrong with one result, and what is valid; None when nothing is."""
    if not isinstance(r, dict):
        return "is not an object; valid: an object with " + ", ".join(required)
    missing = [k for k in required if k not in r]
    if missing:
        return f"has no {missing[0]!r}; every result holds " + ", ".join(required)
    for k in ("scenario", "case", "framework", "source"):
        if not isinstance(r[k], str) or not r[k]:
            return f"has {k} {r[k]!r}; valid: a non-empty string"
    if r["outcome"] not in OUTCOMES:
        return f"has outcome {r['outcome']!r}; valid: " + ", ".join(OUTCOMES)
    if not isinstance(r["detail"], str):
        return f"has detail {r['detail']!r}; valid: a string"
    if r["snapshot"] not in SNAPSHOT_WORDS:
        return f"has snapshot {r['snapshot']!r}; valid: " + ", ".join(SNAPSHOT_WORDS)
    python = r.get(rows.PYTHON_KEY, interpreters.DEFAULT)
    if not isinstance(python, str) or not interpreters.MINOR_RE.match(python):
        return f"has python {python!r}; valid: a CPython minor version such as {interpreters.DEFAULT!r}"
    version = r["version"]
    valid_version = isinstance(version, str) and versions.key(version)[0] == 1
    if releases_only or _json_release(r):
        if not valid_version:
            return f"has version {version!r}; valid: a PEP 440 release version, as in its source NAME==VERSION"
        if not _json_release(r):
            return f"has source {r['source']!r} beside version {version!r}; valid: {r['framework']}=={version}"
    elif version is not None and not valid_version:
        return f"has version {version!r}; valid: a PEP 440 version or null"
    return None


def _json_python(r: dict) -> str:
    return r.get(rows.PYTHON_KEY) or interpreters.DEFAULT


def _json_release(r: dict) -> bool:
    return r["source"] == f"{r['framework']}=={r['version']}"


def _json_key(r: dict) -> tuple[str, str, str, str]:
    return (r["scenario"], r["case"], r["source"], _json_python(r))


def _json_pair_key(r: dict) -> tuple[str, str, str, str]:
    return (r["scenario"], r["case"], r.get("from_source") or "", r["source"])


# What no two rows of a list may share, as the one-line error says it.
UNIQUE = {"result": "(scenario, case, source, python)", "upgrade": "(scenario, case, from_source, source)"}


def _upgrade_name(i: int, r: dict) -> str:
    return (
        f"upgrade {i} ({r.get('scenario', '?')}:{r.get('case', '?')}@{r.get('from_source', '?')} -> "
        f"{r.get('source', '?')})"
    )


def _writer_problem(r: dict) -> str | None:
    """What is wrong with an upgrade's writer keys (``rows.FROM_KEYS``); None when nothing is."""
    version = r["from_version"]
    if not (isinstance(version, str) and versions.key(version)[0] == 1):
        return f"has from_version {version!r}; valid: a PEP 440 release version, as in its from_source NAME==VERSION"
    if r["from_source"] != f"{r['framework']}=={version}":
        return (
            f"has from_source {r['from_source']!r} beside from_version {version!r}; valid: {r['framework']}=={version}"
        )
    return None


def validate(document: object, where: str, releases_only: bool = True) -> dict:
    """``document`` when it is a record or shard result this code can read; else a one-line
    ``RecordError`` naming the first bad result (its index and scenario:case@source) and what is
    valid. ``releases_only``: every result is a release's (the record; a shard may hold others)."""
    restore = f"restore it with `git checkout -- {where}` or move it away"
    if not isinstance(document, dict) or not isinstance(document.get("results"), list):
        raise RecordError(f"{where} cannot be read (no results list); {restore}")
    schema = document.get("schema_version")
    if schema not in READABLE_SCHEMAS:
        raise RecordError(f"{where} cannot be read (schema_version {schema!r}, expected {SCHEMA_VERSION}); {restore}")
    upgrades = document.get(rows.UPGRADES, [])
    if not isinstance(upgrades, list):
        raise RecordError(f"{where}: its {rows.UPGRADES} is not a list of results; {restore}")
    # One loop for every list of rows (issue 47: an axis is a field): what each row must carry,
    # the key no two rows may share, and how the one-line error names a row.
    checks = (
        (document["results"], REQUIRED_KEYS[schema], releases_only, _json_key, "result", _row_name),
        (upgrades, UPGRADE_REQUIRED_KEYS, True, _json_pair_key, "upgrade", _upgrade_name),
    )
    for found, required, only_releases, key_of, word, name_of in checks:
        seen: dict[tuple[str, str, str, str], int] = {}
        for i, r in enumerate(found):
            problem = _row_problem(r, required, only_releases)
            if problem is None and word == "upgrade":
                problem = _writer_problem(r)
            if problem is None:
                key = key_of(r)
                if key in seen:
                    problem = f"repeats {word} {seen[key]}; valid: one result per {UNIQUE[word]}"
                seen[key] = i
            if problem is not None:
                name = name_of(i, r) if isinstance(r, dict) else f"{word} {i}"
                raise RecordError(f"{where}: {name} {problem}; fix the row or {restore}")
    environments = document.get("environments", [])
    if not isinstance(environments, list) or not all(
        isinstance(e, dict) and isinstance(e.get("source"), str) and isinstance(e.get("framework"), str)
        for e in environments
    ):
        raise RecordError(
            f"{where}: its environments are not a list of objects with a source and a framework; {restore}"
        )
    return document


def migrate(document: dict) -> dict:
    """The document in the current schema: an older result loses ``repro`` and gains ``backend``
    as null where it has none."""
    if document.get("schema_version") in (4, SCHEMA_VERSION):  # 4 -> 5: every result of 4 was on the default
        return {
            **document,
            "schema_version": SCHEMA_VERSION,
            "results": [
                r if rows.PYTHON_KEY in r else rows.with_python(r, interpreters.DEFAULT) for r in document["results"]
            ],
            rows.UPGRADES: [
                r if rows.PYTHON_KEY in r else rows.with_python(r, interpreters.DEFAULT)
                for r in document.get(rows.UPGRADES, [])
            ],
            "environments": [with_interpreter(e) for e in document.get("environments", [])],
        }
    results = [
        rows.with_python(
            {**{k: v for k, v in r.items() if k != "repro"}, "backend": r.get("backend")}, interpreters.DEFAULT
        )
        for r in document["results"]
    ]
    environments = [with_interpreter(e) for e in document.get("environments", [])]
    return {
        **document,
        "schema_version": SCHEMA_VERSION,
        "results": results,
        rows.UPGRADES: [],
        "environments": environments,
    }


def snapshots_root(path: Path) -> Path:
    """The snapshot store (its ``snapshots/`` folder) of the checkout a record or run folder at
    ``path`` belongs to: the nearest folder above it that has one (the project's, for a document
    elsewhere)."""
    for folder in path.resolve().parents:
        if (folder / "snapshots" / MATRIX).is_dir():
            return folder / "snapshots"
    return PROJECT.snapshots


def with_timelines(document: dict, store_root: Path, where: str) -> Record:
    """The typed record of a validated, migrated document: each result and upgrade result without a
    ``timeline`` gets the one its snapshot holds (``rows.TIMELINE_STORED``); one whose snapshot is
    missing is a damaged record (``RecordError``)."""
    typed = Record.from_json(document)
    store = SnapshotStore(store_root)
    named = [
        (_row_name(i, raw), raw, row)
        for i, (raw, row) in enumerate(zip(document["results"], typed.results, strict=True))
    ]
    named += [
        (f"upgrade {i}", raw, row)
        for i, (raw, row) in enumerate(zip(document.get(rows.UPGRADES, []), typed.upgrades, strict=True))
    ]
    for name, raw, row in named:
        if "timeline" in raw:
            continue
        timeline = store.timeline(row)
        if timeline is None:
            path = store.recorded(row)
            missing = f"{store.name(path)} holds none" if path else "it names no snapshot (snapshot_base)"
            raise RecordError(
                f"{where}: {name} has no timeline and {missing}; restore both with `git checkout -- {where} snapshots/`"
            )
        row.result = dataclasses.replace(row.result, timeline=timeline)
    return typed


def parse(path: Path) -> object:
    """The JSON of a record, run folder's or shard result file as it stands: not validated, migrated
    or given its stored timelines (``read`` is). ``OSError`` or ``ValueError`` when it cannot be read."""
    return json.loads(path.read_text())


def read(path: Path, where: str, releases_only: bool = True) -> Record:
    """The validated, migrated record at ``path`` (the record, a run folder's or a shard's), every timeline in it."""
    try:
        document = parse(path)
    except (OSError, ValueError) as exc:
        raise RecordError(
            f"{where} cannot be read ({exc}); restore it with `git checkout -- {where}` or move it away"
        ) from None
    return with_timelines(migrate(validate(document, where, releases_only)), snapshots_root(path), where)


def load(reports_dir: Path) -> Record | None:
    """The record, validated and in the current schema, or None when there is none yet."""
    return Reports(reports_dir).load()


# --- writing: the document, merge, and the all-or-nothing write under the lock ---------------------


def sort_key(order: dict[tuple[str, str], int]) -> Callable[[Row], tuple]:
    """The record's order of results: its cases' order (``order``), then framework and version."""

    def key(r: Row) -> tuple:
        return (
            order.get((r.scenario, r.case), 1 << 30),
            r.scenario,
            r.case,
            r.framework,
            versions.key(r.version or "0"),
            r.source,
            interpreters.key(r.python),
        )

    return key


def dumps(document: Record, stored: bool = False) -> str:
    """The file's text of ``document`` (``stored``: as the record's file holds it, ``Record.to_json``)."""
    return json.dumps(document.to_json(stored), indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def merge(
    existing: Record | None,
    results: Sequence[Row],
    environments: Iterable[Environment | dict],
    harness: harness_info.HarnessInfo | dict,
    order: dict[tuple[str, str], int],
    prune: Iterable[tuple[str, str, str, str]] = (),
    upgrades: Sequence[Row] = (),
    upgrade_ids: set[str] | None = None,
    upgrade_prune: Iterable[tuple[str, str, str, str]] = (),
) -> Record:
    """The record with ``results`` in place of the ones they re-ran; every other result kept.

    ``order``: (scenario, case) -> position, for every case that exists; results of cases
    that no longer exist are dropped. ``prune``: (scenario, case, source, python) keys to drop too
    (releases that left the matrix; only a full run passes them).
    """
    existing = existing or Record()
    new_keys = {r.key for r in results}
    dropped = set(prune)
    kept = [
        r for r in existing.results if r.key not in new_keys and r.key not in dropped and (r.scenario, r.case) in order
    ]
    merged = sorted([*kept, *results], key=sort_key(order))
    # Upgrade results the same way: a run replaces the pairs it ran and keeps the others (those of an
    # upgrade scenario that no longer exists, when ``upgrade_ids`` says which exist, are dropped).
    new_pairs = {r.pair_key for r in upgrades}
    dropped_pairs = set(upgrade_prune)
    kept_upgrades = [
        r
        for r in existing.upgrades
        if r.pair_key not in new_pairs
        and r.pair_key not in dropped_pairs
        and (upgrade_ids is None or r.scenario in upgrade_ids)
    ]
    all_upgrades = [*kept_upgrades, *upgrades]
    sources = {rows.label(r) for r in merged} | {s for r in all_upgrades for s in (r.source, r.from_source)}
    envs = {e.label: e for e in existing.environments}
    envs.update({e.label: e for e in as_environments(environments)})
    kept_envs = sorted_environments(e for s, e in envs.items() if s in sources)
    return Record.of(merged, kept_envs, harness, all_upgrades)


# Renders a document's reports into a staging (the reports' renderer, harness/rendering/reports.py
# ``render``): its arguments are the document, the folder, the staging and the bisect record.
Renderer = Callable[[Record, Path, Staging, BisectRecord], list[Path]]


class Transaction:
    """One read-merge-write of the record, under its lock: ``existing`` and ``bisects`` are read
    inside the lock; what is written with ``write_record``, ``write_bisects`` and the staging's
    reports takes effect together when the block ends (see ``transaction``)."""

    def __init__(self, reports_dir: Path, stage: Staging) -> None:
        self.reports_dir = reports_dir
        self.stage = stage
        self.existing = Reports(reports_dir).load()
        self.bisects = Reports(reports_dir).bisects()
        self._record: Record | None = None
        self._bisects: BisectRecord | None = None

    def write_record(self, document: Record) -> Path:
        self._record = document
        return self.reports_dir / RECORD_NAME

    def write_bisects(self, document: BisectRecord) -> Path:
        """Write ``document`` as reports/bisect.json (harness/store/bisect_record.py ``dumps``) when the
        block ends; the reports rendered after this call quote it."""
        self._bisects = self.bisects = document
        return self.reports_dir / BISECT_NAME

    def render(self, document: Record, renderer: Renderer) -> list[Path]:
        """The record's reports of ``document`` (with the bisect record as it stands), staged."""
        return renderer(document, self.reports_dir, self.stage, self.bisects)

    def _stage_documents(self) -> None:
        # Last, so they are moved in place after every report: a failure leaves the old record.
        if self._bisects is not None:
            self.stage.write(self.reports_dir / BISECT_NAME, bisect_file.dumps(self._bisects))
        if self._record is not None:
            self.stage.write(self.reports_dir / RECORD_NAME, dumps(self._record, stored=True))


class Reports:
    """The record of a checkout's reports/ folder, and its one owner: ``load`` reads it validated
    (every result's keys, outcome words, versions, no repeated key) and migrated to the current
    schema; ``transaction`` reads it again under the record's lock, merges, and writes it with
    its reports all or nothing. Nothing else writes reports/matrix.json or reports/bisect.json."""

    def __init__(self, reports_dir: Path) -> None:
        self.reports_dir = reports_dir
        self.path = reports_dir / RECORD_NAME

    def load(self) -> Record | None:
        """The record, or None when there is none yet (a damaged one: ``RecordError``).
        A commit a killed run left half made is finished first, so the record and its reports are
        of one run (issue 49)."""
        staging.recover(self.reports_dir)
        if not self.path.exists():
            return None
        return read(self.path, f"reports/{RECORD_NAME}")

    def bisects(self) -> BisectRecord:
        """The bisect record (reports/bisect.json), validated (a half-made commit finished first)."""
        staging.recover(self.reports_dir)
        return bisect_file.load(self.reports_dir / BISECT_NAME)

    @contextlib.contextmanager
    def transaction(self, log: Callable[[str], None] | None = None) -> Iterator[Transaction]:
        """Read, change and write the record (and bisect.json) under the record's lock, all or nothing."""
        with locked(self.reports_dir, log), Staging(self.reports_dir) as stage:
            tx = Transaction(self.reports_dir, stage)
            yield tx
            tx._stage_documents()


def transaction(
    reports_dir: Path, log: Callable[[str], None] | None = None
) -> contextlib.AbstractContextManager[Transaction]:
    """``Reports(reports_dir).transaction(log)``."""
    return Reports(reports_dir).transaction(log)


def write_folder(folder: Path, document: Record, renderer: Renderer, bisects: BisectRecord) -> list[Path]:
    """A run folder (``--out``, reports/runs/<name>/): its own matrix.json and reports, all or
    nothing (no lock: it is not the record)."""
    with Staging(folder) as stage:
        written = renderer(document, folder, stage, bisects)
        stage.write(folder / RECORD_NAME, dumps(document))
    return [folder / RECORD_NAME, *written]


# The project's folders of inputs: a run folder inside one would mix reports into what the
# matrix reads (a matrix.json among the snapshots, .md files among the scenarios).
INPUT_FOLDERS = ("snapshots", "scenarios", "upgrades")


def refuse_record_folder(out: Path, root: Path, flag: str = "--out") -> None:
    """A run folder can never be the record's own folder (it would replace the record), nor a
    folder inside the snapshot store or the scenarios (``INPUT_FOLDERS``)."""
    where = out.resolve()
    if where == (root / "reports").resolve():
        raise UsageError(
            f"{flag} {out} is the record's own folder (reports/); name another folder, "
            f"or leave {flag} out to merge into the record"
        )
    for name in INPUT_FOLDERS:
        if where.is_relative_to((root / name).resolve()):
            raise UsageError(
                f"{flag} {out} is inside the project's {name}/ (what the matrix reads, not a place for "
                f"reports); name a folder outside snapshots/, scenarios/ and upgrades/ "
                f"(such as reports/runs/NAME), or leave {flag} out"
            )


# --- the bisect record (which releases are in the matrix: harness/store/membership.py) ------------


def bisect_record(reports_dir: Path) -> BisectRecord:
    """``Reports(reports_dir).bisects()``."""
    return Reports(reports_dir).bisects()


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
