"""syrupy over the snapshot store (tests/syrupy_store.py), run by pytest on a store in tmp_path: a
changed timeline fails with the store's diff, ``--snapshot-update`` writes through ``SnapshotStore.accept``,
and the unused-snapshot report names the orphaned files only, never another release's."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent

# The case ``adk-x:c`` measured on google-adk 2.5.0 (the store's own tests use such names): its
# nearest stored release is 1.0.0; 3.0.0 is a later release's file no test here compares with.
EXTENSION = """
from pathlib import Path

from syrupy_store import MatrixStoreExtension, Measured


def measure(case):
    return Measured("adk-x", case, "google-adk", "2.5.0", None, "3.11")


class TmpStore(MatrixStoreExtension):
    store_root = Path(__file__).resolve().parent / "snapshots" / "matrix"

    @classmethod
    def measured(cls, test_location):
        return measure(test_location.item.callspec.params["case"])

    @classmethod
    def known(cls):
        return frozenset({("adk-x", "c")})
"""

TEST = """
from pathlib import Path

import pytest
from tmp_store import TmpStore, measure

from harness.runtime.result import CaseResult


@pytest.fixture
def snapshot(snapshot):
    return snapshot.use_extension(TmpStore)


@pytest.mark.parametrize("case", ["c"])
def test_case(case, snapshot):
    timeline = (Path(__file__).parent / "timeline.txt").read_text()
    assert measure(case).row(CaseResult("adk-x", case, "reproduced", "d", timeline)) == snapshot
"""

STORED = "outcome: reproduced\ndetail: d\n\nstep a\n"
LATER = "outcome: fixed\ndetail: d\n\nstep a\n"


@pytest.fixture
def project(pytester, monkeypatch):
    # The inner runs are not workers of this run's xdist: syrupy reports nothing in a worker, and
    # it knows one by these variables, which the inner pytest would inherit under xdist.
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(tmp_store=EXTENSION, test_case=TEST)
    # hypothesis's plugin, unused here, is half of each run's start-up (2 of 4 s on a loaded machine).
    pytester.makeini(f"[pytest]\npythonpath = . {ROOT} {ROOT / 'tests'}\naddopts = -p no:hypothesispytest\n")
    store = pytester.path / "snapshots" / "matrix"
    for name, text in {"adk-x/c/1.0.0.txt": STORED, "adk-x/c/3.0.0.txt": LATER}.items():
        (store / name).parent.mkdir(parents=True, exist_ok=True)
        (store / name).write_text(text)
    (pytester.path / "timeline.txt").write_text("step a\n")
    return store


def files(store: Path) -> dict[str, str]:
    return {p.relative_to(store).as_posix(): p.read_text() for p in sorted(store.rglob("*.txt"))}


def test_a_changed_timeline_fails_with_the_diff_against_the_nearest_release(pytester, project):
    before = files(project)
    assert pytester.runpytest_subprocess().ret == 0  # 2.5.0 is compared with 1.0.0's file
    (pytester.path / "timeline.txt").write_text("step b\n")
    run = pytester.runpytest_subprocess()
    run.assert_outcomes(failed=1)
    out = run.stdout.str()
    for line in ("--- snapshot 1.0.0", "+++ google-adk==2.5.0", "-step a", "+step b", "1 snapshot failed."):
        assert line in out
    assert "unused" not in out  # 3.0.0.txt is another release's file, not this test's
    assert files(project) == before


def test_snapshot_update_stores_the_release_through_the_store(pytester, project):
    before = files(project)
    (pytester.path / "timeline.txt").write_text("step b\n")
    # As `nox -s tests -- --snapshot-update` runs it: on pytest-xdist's workers, which write.
    run = pytester.runpytest_subprocess("--snapshot-update", "-n", "2")
    run.assert_outcomes(passed=1)
    assert "1 snapshot updated." in run.stdout.str()
    # accept wrote 2.5.0's own file; the releases around it kept theirs, and no other file appeared.
    assert files(project) == {**before, "adk-x/c/2.5.0.txt": "outcome: reproduced\ndetail: d\n\nstep b\n"}
    assert pytester.runpytest_subprocess().ret == 0  # now compared with 2.5.0's own file


def test_unused_snapshots_are_the_orphans_and_update_deletes_only_them(pytester, project):
    kept = files(project)
    for name in ("adk-gone/c/1.0.0.txt", "adk-x/renamed/2.0.0.txt", "adk-x/renamed/py3.12/2.0.0.txt"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(STORED)
    run = pytester.runpytest_subprocess("--snapshot-details")
    assert run.ret == 1  # syrupy fails a session with unused snapshots
    out = run.stdout.str()
    assert "3 snapshots unused." in out
    assert "adk-gone:c (snapshots/matrix/adk-gone/c/1.0.0.txt)" in out
    assert "adk-x:renamed (snapshots/matrix/adk-x/renamed/py3.12/2.0.0.txt)" in out
    assert "3.0.0" not in out
    # pytest-xdist's controller deletes them, through the extension it imports by name.
    run = pytester.runpytest_subprocess("--snapshot-update", "-n", "2")
    run.assert_outcomes(passed=1)
    assert "3 unused snapshots deleted." in run.stdout.str()
    assert files(project) == kept
    assert sorted(p.name for p in project.iterdir()) == ["adk-x"]
    assert sorted(p.name for p in (project / "adk-x").iterdir()) == ["c"]
