"""The snapshot store: nearest-earlier comparison, no duplicates, corruption and orphans, a bug case's
file and an upgrade pair's found by the row's key."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from harness.runtime import registry
from harness.runtime.result import CaseResult
from harness.store.rows import Row
from harness.store.snapshots import Key, SnapshotCorrupt, SnapshotStore, render

ROOT = Path(__file__).resolve().parent.parent


def result(version, outcome="reproduced", timeline="a\n", release=True, scenario="adk-x", case="c") -> Row:
    return Row(
        CaseResult(scenario, case, outcome, "d", timeline), "google-adk", version, f"google-adk=={version}", release
    )


@pytest.fixture
def store(tmp_path):
    return SnapshotStore(tmp_path / "snapshots")


def test_identical_results_are_stored_once_and_later_releases_compare_with_it(store):
    assert store.check(result("2.0.0")).status == "new"
    assert store.accept(result("2.0.0"))
    assert store.accept(result("2.1.0"))  # identical: covered by 2.0.0's file
    assert store.stored_versions("adk-x", "c") == ["2.0.0"]
    check = store.check(result("2.5.0"))
    assert (check.status, check.base) == ("match", "2.0.0")
    changed = store.check(result("2.5.0", outcome="fixed"))
    assert changed.status == "changed" and "-outcome: reproduced" in changed.diff and "+outcome: fixed" in changed.diff
    store.accept(result("2.5.0", outcome="fixed"))
    assert store.stored_versions("adk-x", "c") == ["2.0.0", "2.5.0"]
    assert store.check(result("2.1.0")).base == "2.0.0"


def test_local_builds_and_errors_are_never_stored(store):
    assert not store.accept(result("2.0.0", release=False))
    assert not store.accept(result("2.0.0", outcome="error"))
    assert store.stored_versions("adk-x", "c") == []


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("2.0.0.txt", b"\xff\xfe garbage", "is not UTF-8 text"),
        ("2.0.0.txt", b"hand edited\n", "does not start with 'outcome:"),
        ("2.0.0.txt", b"outcome: maybe\ndetail: x\n\n", "does not start with 'outcome:"),
        ("notes.md", b"x", "is not where a snapshot belongs"),
    ],
)
def test_a_corrupted_or_hand_edited_file_is_refused_in_one_line(store, name, content, message):
    store.accept(result("1.0.0"))
    (store.matrix / "adk-x" / "c" / name).write_bytes(content)
    with pytest.raises(SnapshotCorrupt) as err:
        store.validate()
    assert message in str(err.value) and "\n" not in str(err.value)
    assert "snapshots/matrix/adk-x/c/" in str(err.value)


def test_matrix_refuses_a_corrupted_store_before_running(tmp_path):
    import shutil

    for name in ("harness", "scenarios"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    bad = tmp_path / "snapshots" / "matrix" / "adk-retry-same-invocation-id" / "resumable-resume" / "2.0.0.txt"
    bad.parent.mkdir(parents=True)
    bad.write_text("not a snapshot")
    out = subprocess.run(
        [sys.executable, "-m", "harness", "matrix", "google-adk==2.13.0"], capture_output=True, text=True, cwd=tmp_path
    )
    assert out.returncode == 2 and "2.0.0.txt does not start with" in out.stderr
    assert not (tmp_path / "reports" / "matrix.json").exists()
    assert bad.read_text() == "not a snapshot"


def test_orphans_are_found(store):
    store.accept(result("1.0.0"))
    assert store.orphans({("adk-x", "c")}) == []
    assert store.orphans(set()) == ["matrix/adk-x/c"]


def test_orphan_files_are_every_file_of_an_undefined_case_and_only_they_are_removed(store):
    store.accept(result("1.0.0"))
    store.accept(dataclasses.replace(result("2.0.0", outcome="fixed"), python="3.12"))  # an interpreter's own file
    known = {("adk-x", "c")}
    assert store.orphan_files(known) == []
    orphans = store.orphan_files(set())
    assert [p.relative_to(store.matrix).as_posix() for p in orphans] == [
        "adk-x/c/1.0.0.txt",
        "adk-x/c/py3.12/2.0.0.txt",
    ]
    with pytest.raises(ValueError, match="no orphaned snapshot"):
        store.remove_orphan(orphans[0], known)  # a defined case's file is never deleted
    for path in orphans:
        store.remove_orphan(path, set())
    assert list(store.matrix.iterdir()) == []  # the folders they leave empty go too


def test_path_is_the_nearest_file_or_where_the_first_is_stored(store):
    assert store.path(Key("adk-x", "c", "2.0.0")) == store.matrix / "adk-x/c/2.0.0.txt"
    assert store.path(Key("adk-x", "c", "2.0.0", "3.12")) == store.matrix / "adk-x/c/py3.12/2.0.0.txt"
    store.accept(result("1.0.0"))
    assert store.path(Key("adk-x", "c", "2.0.0")) == store.matrix / "adk-x/c/1.0.0.txt"
    assert store.path(Key("adk-x", "c", "2.0.0", "3.12")) == store.matrix / "adk-x/c/1.0.0.txt"
    assert store.path(Key.of(result("2.0.0"))) == store.matrix / "adk-x/c/1.0.0.txt"


def upgrade(writer, reader, outcome="fixed"):
    return dataclasses.replace(result(reader, outcome), from_version=writer, from_source=f"google-adk=={writer}")


def test_an_upgrade_pair_is_its_own_file_and_inherits_nothing(store):
    """An upgrade pair's row (its writer release set) is stored at <writer>-to-<reader>.txt under
    snapshots/upgrades/, beside the bug cases' folder, and is compared with that file only."""
    store.accept(result("1.0.0"))  # a bug case's file of the same (scenario, case) stands for no pair
    pair = upgrade("1.0.0", "1.1.0")
    assert store.path(Key.of(pair)) == store.upgrades / "adk-x/c/1.0.0-to-1.1.0.txt"
    assert store.check(pair).status == "new"
    assert not store.accept(upgrade("1.0.0", "1.1.0", "error"))
    assert store.accept(dataclasses.replace(pair, release=False))  # the release rule is a bug case's: a pair is of two
    check = store.check(pair)
    assert (check.status, check.base) == ("match", "1.0.0-to-1.1.0")
    assert store.check(upgrade("1.0.0", "1.2.0")).status == "new"  # a later reader inherits nothing
    changed = store.check(upgrade("1.0.0", "1.1.0", "reproduced"))
    assert changed.status == "changed" and "+++ google-adk==1.0.0 -> google-adk==1.1.0" in changed.diff
    assert store.timeline(dataclasses.replace(pair, snapshot_base=None)) == "a\n"
    assert store.orphans({("adk-x", "c")}) == []  # the upgrades' files are judged only when their cases are given
    assert store.orphans({("adk-x", "c")}, set()) == ["upgrades/adk-x/c"]
    store.validate()


def test_a_misplaced_upgrade_snapshot_is_refused_saying_where_it_belongs(store):
    bad = store.upgrades / "adk-x" / "c" / "1.0.0-1.1.0.txt"
    bad.parent.mkdir(parents=True)
    bad.write_text("outcome: fixed\ndetail: d\n\n")
    with pytest.raises(SnapshotCorrupt, match=r"<scenario>/<case>/<writer>-to-<reader>\.txt"):
        store.validate()


def test_the_committed_store_is_valid_and_has_no_orphans():
    from harness.planning import upgrades

    committed = SnapshotStore(ROOT / "snapshots")
    committed.validate()
    pairs = {(s.id, c.id) for s, c in registry.select(registry.discover(), [])}
    upgrade_cases = {(s.id, c) for s in upgrades.discover(ROOT / "upgrades").values() for c in s.case_ids()}
    assert committed.orphans(pairs, upgrade_cases) == [], "stale snapshots of deleted cases: delete them"
    assert committed.orphan_files(pairs, upgrade_cases) == []


def test_render_is_outcome_detail_then_timeline():
    assert render(result("1.0.0")) == "outcome: reproduced\ndetail: d\n\na\n"


def test_a_case_runs_twice_where_no_stored_timeline_is_its_second_run(tmp_path):
    """Issue 27: a result compared with a stored snapshot is checked against another run; one
    with nothing to meet (or about to be stored) runs twice in its worker instead."""
    from harness.execution.matrix import needs_repeat
    from harness.planning import builds

    scenario = registry.discover()["adk-retry-same-invocation-id"]
    first, second = scenario.cases[0], scenario.cases[1]
    pairs = [(scenario, first), (scenario, second)]
    store = SnapshotStore(tmp_path)
    assert store.accept(result("1.2.0", scenario=scenario.id, case=first.id))  # stored from 1.2.0 on
    later, earlier = builds.parse("google-adk==1.5.0", tmp_path), builds.parse("google-adk==1.0.0", tmp_path)
    key = f"{scenario.id}:{{}}".format
    assert needs_repeat(pairs, later, store, update=False) == {key(second.id)}
    assert needs_repeat(pairs, earlier, store, update=False) == {key(first.id), key(second.id)}
    assert needs_repeat(pairs, later, store, update=True) == {key(first.id), key(second.id)}


def test_accepting_new_timelines_never_takes_a_release_out_of_the_matrix(store):
    """Issue 35: the one-time rewrite of every timeline (the bugs' scripts replaced the modules) made
    some releases' results equal to an earlier release's; accepting them deleted those releases' own
    files, and with them the releases left their scenarios' matrices and their results the record
    (openai-agents 0.2.0 and google-adk 1.27.1, 16 results). A release with a file keeps it."""
    store.accept(result("2.0.0"))
    store.accept(result("2.5.0", outcome="fixed"))
    assert store.stored_versions("adk-x", "c") == ["2.0.0", "2.5.0"]
    store.accept(result("2.0.0", timeline="b\n"))
    store.accept(result("2.5.0", timeline="b\n"))  # now equal to 2.0.0's: its file stays, updated
    assert store.stored_versions("adk-x", "c") == ["2.0.0", "2.5.0"]
    assert store.check(result("2.5.0", timeline="b\n")).status == "match"
    store.accept(result("2.6.0", timeline="b\n"))  # a release without a file of its own gets none
    assert store.stored_versions("adk-x", "c") == ["2.0.0", "2.5.0"]
