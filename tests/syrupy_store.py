"""syrupy over the matrix's snapshot store (harness/store/snapshots.py): one store of timelines.

A case's assertion is located at the store's own file, the one ``SnapshotStore.check`` compares the
pinned release's result with (``SnapshotStore.path`` of its key: ``<scenario>/<case>/<version>.txt``
of the nearest earlier stored release, or an interpreter's own); ``--snapshot-update`` stores the
result through the matrix's writer (``SnapshotStore.accept``, with the pins of ``SnapshotStore.check_all``),
never a copy of its own.
Unused-snapshot detection sees only the store's orphaned files (a scenario or case no scenario
defines any more): the files of the other releases are the matrix's, which this suite does not run.
syrupy relates an unused snapshot to the run's selection by the test file's name (its report's
``_candidates``: the snapshot's file stem or folder must be the test module's name), which no file
of the store has: a run given test paths or deselecting by ``-m`` reports no orphan, a plain run
(``testpaths``) or a ``-k`` run does, by the ``scenario:case`` name ``-k`` matches.
"""

from __future__ import annotations

import difflib
import functools
import importlib.metadata
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from syrupy.data import Snapshot, SnapshotCollection, SnapshotCollections
from syrupy.extensions.base import AbstractSyrupyExtension

from harness.runtime.result import CaseResult
from harness.runtime.scenario import Case, Scenario
from harness.store.rows import Row
from harness.store.snapshots import UPDATED, Key, SnapshotStore, read_text, render

if TYPE_CHECKING:
    from syrupy.location import PyTestLocation
    from syrupy.types import PropertyFilter, PropertyMatcher, SerializableData, SerializedData, SnapshotIndex

ROOT = Path(__file__).resolve().parent.parent


class Rendered(str):
    """A result's stored text (``render``) that keeps its row: a write stores the row, not the text."""

    row: Row

    def __new__(cls, row: Row) -> Rendered:
        text = super().__new__(cls, render(row))
        text.row = row
        return text


class Stored(str):
    """A stored snapshot's text and its name under the case's folder (``0.6.9``, ``py3.12/0.0.12``)."""

    base: str

    def __new__(cls, text: str, base: str) -> Stored:
        stored = super().__new__(cls, text)
        stored.base = base
        return stored


@dataclass(frozen=True)
class Measured:
    """What a test's result is stored as: its case, the release it ran on, the interpreter."""

    scenario: str
    case: str
    framework: str
    version: str
    backend: str | None
    python: str

    @property
    def key(self) -> Key:
        """The key its result is stored by (harness/store/snapshots.py)."""
        return Key(self.scenario, self.case, self.version, self.python)

    def row(self, result: CaseResult) -> Row:
        """The case's result as a row of that release (what the matrix stores for ``framework==version``)."""
        source = f"{self.framework}=={self.version}"
        return Row(result, self.framework, self.version, source, True, self.backend, python=self.python)


def measure(scenario: Scenario, case: Case) -> Measured:
    """``case`` on the release of its framework installed here, on this interpreter."""
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return Measured(scenario.id, case.id, scenario.framework, _installed(scenario.framework), case.backend, python)


@functools.cache
def _installed(framework: str) -> str:
    return importlib.metadata.version(framework)


@functools.cache
def _registry_pairs() -> frozenset[tuple[str, str]]:
    from harness.runtime import registry

    return frozenset((s.id, c.id) for s, c in registry.select(registry.discover(), []))


@functools.cache
def _recorded(reports: Path) -> list[Row]:
    from harness.store import record

    return (record.load(reports) or record.Record()).results


class MatrixStoreExtension(AbstractSyrupyExtension):
    """The snapshot of a test parametrized by ``scenario`` and ``case`` (tests/conftest.py
    ``case_params``), on the release of its framework installed here."""

    # The store's folder of the bug cases' snapshots (the upgrade pairs' beside it are no test's here).
    store_root: ClassVar[Path] = ROOT / "snapshots" / "matrix"
    file_extension = "txt"
    # One file a snapshot, so nothing is gained by holding writes until the session ends.
    write_immediately = True

    # --- what a test is, and which files the store has -----------------------------------------

    @classmethod
    def measured(cls, test_location: PyTestLocation) -> Measured:
        """The test's case and the release it runs on (its framework's installed version)."""
        params = test_location.item.callspec.params  # type: ignore[attr-defined]
        return measure(params["scenario"], params["case"])

    @classmethod
    def known(cls) -> frozenset[tuple[str, str]]:
        """Every (scenario, case) the scenarios define: the store's files of any other are orphans."""
        return _registry_pairs()

    @classmethod
    def store(cls) -> SnapshotStore:
        return SnapshotStore(cls.store_root.parent)

    # --- where a snapshot is ----------------------------------------------------------------------

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(cls.store_root)

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        # Not a test's own folder: every test discovers the same store, once a session.
        return str(cls.store_root)

    @classmethod
    def get_location(cls, *, test_location: PyTestLocation, index: SnapshotIndex) -> str:
        m = cls.measured(test_location)
        return str(cls.store().path(m.key))

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation, snapshot_location: str) -> bool:
        m = cls.measured(test_location)
        return Path(snapshot_location).is_relative_to(cls.store_root / m.scenario / m.case)

    def discover_snapshots(
        self, *, test_location: PyTestLocation, ignore_extensions: list[str] | None = None
    ) -> SnapshotCollections:
        """The store's orphaned files, one collection each. The other releases' files of a known case
        are left out: syrupy would report every file no test of this session read as unused (and
        delete it on --snapshot-update), while the store holds every release's and tests run one."""
        discovered = SnapshotCollections()
        for path in self.store().orphan_files(set(self.known())):
            discovered.add(self.read_snapshot_collection(snapshot_location=str(path)))
        return discovered

    def read_snapshot_collection(self, *, snapshot_location: str) -> SnapshotCollection:
        """One snapshot, named by its case (``scenario:case``, as the test ids are) for syrupy's report."""
        path = Path(snapshot_location)
        scenario, case = path.relative_to(self.store_root).parts[:2]
        collection = SnapshotCollection(location=snapshot_location)
        collection.add(Snapshot(name=f"{scenario}:{case}"))
        return collection

    # --- reading, comparing, writing -------------------------------------------------------------

    def serialize(
        self,
        data: SerializableData,
        *,
        exclude: PropertyFilter | None = None,
        include: PropertyFilter | None = None,
        matcher: PropertyMatcher | None = None,
    ) -> SerializedData:
        if not isinstance(data, Row):
            raise TypeError(f"a matrix snapshot compares a result row (harness/store/rows.py Row), not {type(data)}")
        return Rendered(data)

    def read_snapshot_data_from_location(
        self, *, snapshot_location: str, snapshot_name: str, session_id: str
    ) -> SerializableData | None:
        path = Path(snapshot_location)
        try:
            text = read_text(path, self.store_root.parent.parent)
        except FileNotFoundError:
            return None
        return Stored(text, self.store().base(path))

    @classmethod
    def write_snapshot_collection(
        cls, *, snapshot_collection: SnapshotCollection, name_order: dict[str, int] | None = None
    ) -> None:
        """Store the result through the matrix's writer: ``accept``, which keeps one file where
        releases agree, and pins the later recorded releases that matched the base it replaces."""
        data = next(iter(snapshot_collection)).data
        if not isinstance(data, Rendered):
            raise TypeError(f"{snapshot_collection.location}: only a result row is stored, not {type(data)}")
        row = data.row
        cls.store().check_all([row], True, _recorded(cls.store_root.parent.parent / "reports"))
        if row.snapshot != UPDATED:
            raise ValueError(f"{row.source} {row.scenario}:{row.case}: not stored ({row.outcome}: {row.detail})")
        # The record (reports/matrix.json) points at the store for its timelines; a test run does
        # not write it, so say how to bring it along rather than leave it silently behind.
        stored = cls.store().path(Key.of(row))
        warnings.warn(
            f"stored {stored.relative_to(cls.store_root.parent.parent).as_posix()} ({row.source}); reports/ "
            f"still holds its last matrix run: `nox -s matrix -- {row.source} --only {row.scenario}` brings it along",
            stacklevel=1,
        )

    def delete_snapshots(self, *, snapshot_location: str, snapshot_names: set[str]) -> None:
        """Delete an orphaned file (only those are ever unused here, ``discover_snapshots``)."""
        self.store().remove_orphan(Path(snapshot_location), set(self.known()))

    # --- the failure message: the unified diff the store's check writes ---------------------------

    def diff_lines(self, serialized_data: SerializedData, snapshot_data: SerializedData) -> Iterator[str]:
        base = f"snapshot {snapshot_data.base}" if isinstance(snapshot_data, Stored) else "no snapshot"
        received = serialized_data.row.source if isinstance(serialized_data, Rendered) else "received"
        lines = difflib.unified_diff(
            str(snapshot_data).splitlines(keepends=True),
            str(serialized_data).splitlines(keepends=True),
            base,
            received,
        )
        for line in lines:
            yield line.rstrip("\n")
