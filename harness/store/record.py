"""The record: ``reports/matrix.json``, its owner. Loads it, validates and migrates it, merges a
run's results into it, and writes it (with the reports rendered from it) all or nothing, under
the record's lock.

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
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from harness.errors import UsageError
from harness.planning import interpreters, versions
from harness.project import PROJECT
from harness.runtime.outcomes import OUTCOMES
from harness.store import boundaries, harness_info, rows, staging
from harness.store.environment import (
    INTERPRETER_KEY,
    Environment,
    as_environments,
    environments_of,
    of_document,
    of_source,
    recorded_packages,
    sorted_environments,
    with_interpreter,
)
from harness.store.lock import LOCK_NAME, locked
from harness.store.snapshots import CHANGED, MATCH, MATRIX, NEW, UPDATED, SnapshotStore
from harness.store.staging import Staging

# The environments' helpers are harness/store/environment.py's, named here too for the record's callers.
__all__ = ["INTERPRETER_KEY", "LOCK_NAME", "environments_of", "locked", "recorded_packages", "sorted_environments"]

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
SCHEMA_VERSION = 5
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


class RecordError(UsageError, ValueError):
    """reports/matrix.json is not a record this code can read (one line: what, and what to do)."""


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
    if releases_only or rows.is_release(r):
        if not valid_version:
            return f"has version {version!r}; valid: a PEP 440 release version, as in its source NAME==VERSION"
        if not rows.is_release(r):
            return f"has source {r['source']!r} beside version {version!r}; valid: {r['framework']}=={version}"
    elif version is not None and not valid_version:
        return f"has version {version!r}; valid: a PEP 440 version or null"
    return None


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
        (document["results"], REQUIRED_KEYS[schema], releases_only, rows.key_of, "result", _row_name),
        (upgrades, UPGRADE_REQUIRED_KEYS, True, rows.pair_key, "upgrade", _upgrade_name),
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
                r if rows.PYTHON_KEY in r else rows.with_python(r, rows.python_of(r)) for r in document["results"]
            ],
            rows.UPGRADES: [
                r if rows.PYTHON_KEY in r else rows.with_python(r, rows.python_of(r))
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


def with_timelines(document: dict, store_root: Path, where: str) -> dict:
    """Each result and upgrade result without a ``timeline`` gets the one its snapshot holds
    (``rows.TIMELINE_STORED``); one whose snapshot is missing is a damaged record (``RecordError``)."""
    store = SnapshotStore(store_root)
    named = [(_row_name(i, r), r) for i, r in enumerate(document["results"])]
    named += [(f"upgrade {i}", r) for i, r in enumerate(document.get(rows.UPGRADES, []))]
    for name, r in named:
        if "timeline" in r:
            continue
        timeline = store.timeline(r)
        if timeline is None:
            path = store.recorded(r)
            missing = f"{store.name(path)} holds none" if path else "it names no snapshot (snapshot_base)"
            raise RecordError(
                f"{where}: {name} has no timeline and {missing}; restore both with `git checkout -- {where} snapshots/`"
            )
        r["timeline"] = timeline
    return document


def parse(path: Path) -> object:
    """The JSON of a record, run folder's or shard result file as it stands: not validated, migrated
    or given its stored timelines (``read`` is). ``OSError`` or ``ValueError`` when it cannot be read."""
    return json.loads(path.read_text())


def read(path: Path, where: str, releases_only: bool = True) -> dict:
    """The validated, migrated document at ``path`` (a record or a shard result), every timeline in it."""
    try:
        document = parse(path)
    except (OSError, ValueError) as exc:
        raise RecordError(
            f"{where} cannot be read ({exc}); restore it with `git checkout -- {where}` or move it away"
        ) from None
    return with_timelines(migrate(validate(document, where, releases_only)), snapshots_root(path), where)


def as_stored(document: dict) -> dict:
    """The record as its file holds it: each result as ``rows.written`` gives it, without the
    timeline the snapshot store holds (``rows.TIMELINE_STORED``; ``with_timelines`` reads it back)."""
    results = []
    for r in document["results"]:
        out = rows.written(r)
        if out.get("snapshot") in rows.TIMELINE_STORED and out.get("snapshot_base"):
            del out["timeline"]
        results.append(out)
    upgrades = []
    for r in document.get(rows.UPGRADES, []):
        out = rows.written(r)
        if out.get("snapshot") in rows.TIMELINE_STORED:
            del out["timeline"]
        upgrades.append(out)
    return {**document, "results": results, rows.UPGRADES: upgrades}


def load(reports_dir: Path) -> dict | None:
    """The record, validated and in the current schema, or None when there is none yet."""
    return Record(reports_dir).load()


# --- writing: the document, merge, and the all-or-nothing write under the lock ---------------------


def sort_key(order: dict[tuple[str, str], int]) -> Callable[[rows.AnyRow], tuple]:
    """The record's order of results: its cases' order (``order``), then framework and version."""

    def key(row: rows.AnyRow) -> tuple:
        r = rows.fields(row)
        return (
            order.get((r["scenario"], r["case"]), 1 << 30),
            r["scenario"],
            r["case"],
            r["framework"],
            versions.key(r["version"] or "0"),
            r["source"],
            interpreters.key(rows.python_of(r)),
        )

    return key


def document_of(
    results: Iterable[rows.AnyRow],
    environments: Iterable[Environment | dict],
    harness: harness_info.HarnessInfo | dict | None = None,
    upgrades: Iterable[rows.AnyRow] = (),
) -> dict:
    """A record (or run folder's, or shard's) document of these results and upgrade results, as the file holds it."""
    return {
        "schema_version": SCHEMA_VERSION,
        "harness": harness_info.of(harness).to_json(),
        "results": [rows.written(r) for r in results],
        rows.UPGRADES: sorted((rows.written(r) for r in upgrades), key=upgrade_sort_key),
        "environments": [e.to_json() for e in as_environments(environments)],
    }


def environments(document: dict | None) -> list[Environment]:
    """A record's (or run folder's, or shard's) environments (harness/store/environment.py)."""
    return of_document(document)


def info(document: dict | None) -> harness_info.HarnessInfo:
    """What measured a record (or run folder's, or shard's) document: its ``harness`` object."""
    return harness_info.of((document or {}).get("harness"))


def environment_of(document: dict | None, source: str) -> Environment | None:
    """The document's first environment of the release ``source`` (harness/store/environment.py ``of_source``)."""
    return of_source(document, source)


def upgrade_sort_key(row: rows.AnyRow) -> tuple:
    """The record's order of upgrade results: scenario, case, reader, then writer, by version."""
    r = rows.fields(row)
    return (
        r["scenario"],
        r["case"],
        versions.key(r["version"] or "0"),
        versions.key(r.get("from_version") or "0"),
        r.get("from_source") or "",
        r["source"],
    )


def dumps(document: dict) -> str:
    return json.dumps(document, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


_key = rows.key_of


def row_label(row: rows.AnyRow) -> str:
    """The label of the environment a result was measured in (``Environment.label``)."""
    r = rows.fields(row)
    py = rows.python_of(r)
    return r["source"] if py == interpreters.DEFAULT else f"{r['source']} on {py}"


def merge(
    existing: dict | None,
    results: Sequence[rows.AnyRow],
    environments: Iterable[Environment | dict],
    harness: harness_info.HarnessInfo | dict,
    order: dict[tuple[str, str], int],
    prune: Iterable[tuple[str, str, str, str]] = (),
    upgrades: Sequence[rows.AnyRow] = (),
    upgrade_ids: set[str] | None = None,
    upgrade_prune: Iterable[tuple[str, str, str, str]] = (),
) -> dict:
    """The record with ``results`` in place of the ones they re-ran; every other result kept.

    ``order``: (scenario, case) -> position, for every case that exists; results of cases
    that no longer exist are dropped. ``prune``: (scenario, case, source, python) keys to drop too
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
    merged.sort(key=sort_key(order))
    # Upgrade results the same way: a run replaces the pairs it ran and keeps the others (those of an
    # upgrade scenario that no longer exists, when ``upgrade_ids`` says which exist, are dropped).
    new_pairs = {rows.pair_key(r) for r in upgrades}
    dropped_pairs = set(upgrade_prune)
    kept_upgrades = [
        r
        for r in (existing or {}).get(rows.UPGRADES, [])
        if rows.pair_key(r) not in new_pairs
        and rows.pair_key(r) not in dropped_pairs
        and (upgrade_ids is None or r["scenario"] in upgrade_ids)
    ]
    all_upgrades = kept_upgrades + [rows.written(r) for r in upgrades]
    sources = {row_label(r) for r in merged} | {
        s for r in all_upgrades for s in (r["source"], rows.fields(r).get("from_source"))
    }
    envs = {e.label: e for e in of_document(existing)}
    envs.update({e.label: e for e in as_environments(environments)})
    kept_envs = sorted_environments(e for s, e in envs.items() if s in sources)
    return document_of(merged, kept_envs, harness, all_upgrades)


# Renders a document's reports into a staging (the reports' renderer, harness/rendering/reports.py
# ``render``): its arguments are the document, the folder, the staging and the bisect record.
Renderer = Callable[[dict, Path, Staging, dict], list[Path]]


class Transaction:
    """One read-merge-write of the record, under its lock: ``existing`` and ``bisects`` are read
    inside the lock; what is written with ``write_record``, ``write_bisects`` and the staging's
    reports takes effect together when the block ends (see ``transaction``)."""

    def __init__(self, reports_dir: Path, stage: Staging) -> None:
        self.reports_dir = reports_dir
        self.stage = stage
        self.existing = Record(reports_dir).load()
        self.bisects = Record(reports_dir).bisects()
        self._record: dict | None = None
        self._bisects: dict | None = None

    def write_record(self, document: dict) -> Path:
        self._record = document
        return self.reports_dir / RECORD_NAME

    def write_bisects(self, document: dict) -> Path:
        self._bisects = self.bisects = document
        return self.reports_dir / BISECT_NAME

    def render(self, document: dict, renderer: Renderer) -> list[Path]:
        """The record's reports of ``document`` (with the bisect record as it stands), staged."""
        return renderer(document, self.reports_dir, self.stage, self.bisects)

    def _stage_documents(self) -> None:
        # Last, so they are moved in place after every report: a failure leaves the old record.
        if self._bisects is not None:
            self.stage.write(self.reports_dir / BISECT_NAME, boundaries.dumps(self._bisects))
        if self._record is not None:
            self.stage.write(self.reports_dir / RECORD_NAME, dumps(as_stored(self._record)))


class Record:
    """The record of a checkout's reports/ folder, and its one owner: ``load`` reads it validated
    (every result's keys, outcome words, versions, no repeated key) and migrated to the current
    schema; ``transaction`` reads it again under the record's lock, merges, and writes it with
    its reports all or nothing. Nothing else writes reports/matrix.json or reports/bisect.json."""

    def __init__(self, reports_dir: Path) -> None:
        self.reports_dir = reports_dir
        self.path = reports_dir / RECORD_NAME

    def load(self) -> dict | None:
        """The record's document, or None when there is none yet (a damaged one: ``RecordError``).
        A commit a killed run left half made is finished first, so the record and its reports are
        of one run (issue 49)."""
        staging.recover(self.reports_dir)
        if not self.path.exists():
            return None
        return read(self.path, f"reports/{RECORD_NAME}")

    def bisects(self) -> dict:
        """The bisect record (reports/bisect.json), validated (a half-made commit finished first)."""
        staging.recover(self.reports_dir)
        return boundaries.load_record(self.reports_dir / BISECT_NAME)

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
    """``Record(reports_dir).transaction(log)``."""
    return Record(reports_dir).transaction(log)


def write_folder(folder: Path, document: dict, renderer: Renderer, bisects: dict) -> list[Path]:
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


def bisect_record(reports_dir: Path) -> dict:
    return Record(reports_dir).bisects()


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
