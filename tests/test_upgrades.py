"""Upgrades across two releases (issue 40): the record's ``upgrades`` (schema 4), the grid's pairs, and
the two steps of a pair run as separate processes on one folder.

The steps here run a toy script with this Python as both "releases"; tests/test_upgrade_releases.py
runs the real scenarios on real releases, both ways.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import itertools
import json
import os
import platform
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from harness.execution import scratch, upgrade_steps
from harness.execution import upgrades as upgrades_run
from harness.planning import upgrades as planning
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED
from harness.runtime.result import CaseResult
from harness.runtime.upgrade import Pair, Step, Upgrade, UpgradeCase
from harness.store import record
from harness.store.rows import Row
from harness.store.snapshots import SnapshotStore
from scratch import HEADER, scratch_project, write_bug
from tests.test_faults_worker import pool_dir

__all__ = ["pool_dir"]  # the fixture, for the warm steps

TOY = '''
"""A toy upgrade: the writer stores a number; the reader refuses one above its own."""
import json, os, sys, time
from pathlib import Path

CASES = {"carry-over": {}, "hang": {}, "silent": {}, "missing-api": {}}


def main(step, case, state):
    state = Path(state)
    version = int(os.environ.get("TOY_VERSION", "1"))
    print(f"state folder: {state}")
    if step == "write":
        if case == "missing-api":
            print("verdict: not-applicable: this release cannot write it")
            return 125
        (state / "value.json").write_text(json.dumps(version))
        print(f"wrote {version}; id 123e4567-e89b-12d3-a456-426614174000")
        print(f"verdict: written: value {version}")
        return 0
    if case == "hang":
        time.sleep(600)
    if case == "silent":
        return 1
    stored = json.loads((state / "value.json").read_text())
    if stored > version:
        print(f"verdict: reproduced: release {version} cannot read value {stored}")
        return 3
    print(f"verdict: fixed: read value {stored}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
'''


def toy_scenario(tmp_path: Path, **declared) -> planning.UpgradeScenario:
    folder = tmp_path / "upgrades" / "adk-toy-upgrade"
    folder.mkdir(parents=True)
    (folder / "repro.py").write_text(TOY)
    declaration = Upgrade(
        links=("https://github.com/google/adk-python/issues/1",),
        description="a toy",
        expected="the reader reads it",
        cases={"carry-over": UpgradeCase("a number carried over")},
        releases=declared.pop("releases", ("1.0.0", "1.1.0", "2.0.0", "2.1.0")),
        **declared,
    )
    return planning.UpgradeScenario("adk-toy-upgrade", "google-adk", declaration, folder)


def pair(scenario, case="carry-over", writer="1.0.0", reader="1.1.0") -> planning.PlannedPair:
    return planning.PlannedPair(scenario, case, writer, reader, "test")


class Pythons(dict):
    """Each "release" is this Python with TOY_VERSION set by a wrapper script."""

    def __init__(self, tmp_path: Path, versions: dict[str, int]):
        super().__init__()
        for name, number in versions.items():
            wrapper = tmp_path / f"python-{name}"
            wrapper.write_text(f'#!/bin/sh\nTOY_VERSION={number} exec {sys.executable} "$@"\n')
            wrapper.chmod(0o755)
            self[name] = wrapper


def test_the_grid_pairs_adjacent_releases_each_line_to_the_next_and_the_named_pairs():
    declaration = Upgrade(
        links=(),
        description="",
        expected="",
        cases={"c": UpgradeCase("")},
        releases=("0.1.0", "0.2.0", "1.0.0", "1.2.0", "2.0.0"),
        pairs=(Pair("0.1.0", "1.2.0", "#1184"),),
        proofs=(Step("c", "0.2.0", "2.0.0", FIXED),),
        downgrades=(Pair("1.2.0", "1.0.0"),),
    )
    got = [(p.writer, p.reader, p.why) for p in planning.grid_pairs(declaration)]
    assert got == [
        ("0.1.0", "0.2.0", "the next release of its line"),
        ("0.2.0", "1.0.0", "the last of 0.x to the first of 1.x"),
        ("1.0.0", "1.2.0", "the next release of its line"),
        ("1.2.0", "2.0.0", "the last of 1.x to the first of 2.x"),
        ("0.1.0", "1.2.0", "#1184"),
        ("0.2.0", "2.0.0", "a proof: must give fixed"),
        ("1.2.0", "1.0.0", "a downgrade (control)"),
    ]


def test_a_case_runs_only_on_the_readers_it_admits(tmp_path):
    scenario = toy_scenario(tmp_path)
    scenario = planning.UpgradeScenario(
        scenario.id,
        scenario.framework,
        Upgrade(**{**scenario.declaration.__dict__, "cases": {"carry-over": UpgradeCase("", readers=">=2.0")}}),
        scenario.folder,
    )
    assert [(p.writer, p.reader) for p in planning.plan(scenario)] == [("1.1.0", "2.0.0"), ("2.0.0", "2.1.0")]


def test_a_pair_breaks_and_a_pair_works_each_in_its_own_process_on_one_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    scenario = toy_scenario(tmp_path)
    pythons = Pythons(tmp_path, {"1.0.0": 1, "1.1.0": 2, "2.0.0": 1})
    works = upgrades_run.run_pair(pair(scenario, writer="1.0.0", reader="1.1.0"), pythons, tmp_path, repeat=2)
    breaks = upgrades_run.run_pair(pair(scenario, writer="1.1.0", reader="2.0.0"), pythons, tmp_path)
    assert (works.outcome, works.detail) == (FIXED, "read value 1")
    assert (breaks.outcome, breaks.detail) == (REPRODUCED, "release 1 cannot read value 2")
    # The timeline: each step under its command, the folder's path and the uuid as placeholders.
    assert works.timeline.splitlines() == [
        "== google-adk 1.0.0: repro.py write carry-over STATE",
        "state folder: STATE",
        "wrote 1; id <id-1>",
        "verdict: written: value 1",
        "== google-adk 1.1.0: repro.py read carry-over STATE",
        "state folder: STATE",
        "verdict: fixed: read value 1",
    ]
    assert list((tmp_path / "tmp").iterdir()) == []  # each pair's folder removed


def test_a_writer_without_the_api_is_not_applicable_and_a_reader_without_a_verdict_an_error(tmp_path):
    scenario = toy_scenario(tmp_path)
    pythons = Pythons(tmp_path, {"1.0.0": 1, "1.1.0": 2})
    missing = upgrades_run.run_pair(pair(scenario, "missing-api"), pythons, tmp_path)
    silent = upgrades_run.run_pair(pair(scenario, "silent"), pythons, tmp_path)
    assert (missing.outcome, missing.detail) == (
        NOT_APPLICABLE,
        "the writer (1.0.0) cannot write this state: this release cannot write it",
    )
    assert silent.outcome == ERROR and silent.detail.startswith("exit 1 with no verdict line")


def test_a_step_past_its_deadline_is_killed_with_its_children_and_the_pair_is_an_error(tmp_path, monkeypatch):
    """Fault: a reader that never ends (aiosqlite >= 0.22 keeps a process alive) must not hang the run."""
    monkeypatch.setattr(upgrade_steps, "STEP_TIMEOUT", 3.0)
    scenario = toy_scenario(tmp_path)
    pythons = Pythons(tmp_path, {"1.0.0": 1, "1.1.0": 2})
    started = time.monotonic()
    hung = upgrades_run.run_pair(pair(scenario, "hang"), pythons, tmp_path)
    assert time.monotonic() - started < 30
    assert hung.outcome == ERROR and hung.detail.startswith("no verdict within 3 s")


def _row(case, writer, reader, outcome=FIXED, detail="read", snapshot="match") -> Row:
    r = Row(
        CaseResult("adk-toy-upgrade", case, outcome, detail, "timeline\n"),
        "google-adk",
        reader,
        f"google-adk=={reader}",
        backend="sqlite",
        from_version=writer,
        from_source=f"google-adk=={writer}",
    )
    r.snapshot, r.snapshot_base = snapshot, f"{writer}-to-{reader}"
    return r


def test_a_run_replaces_the_pairs_it_ran_and_keeps_every_other_byte_for_byte():
    existing = record.Record.of([], [], {}, [_row("c", "1.0.0", "1.1.0"), _row("c", "1.1.0", "2.0.0", REPRODUCED)])
    again = _row("c", "1.0.0", "1.1.0", detail="read again")
    merged = record.merge(existing, [], [], {}, {}, upgrades=[again]).to_json()
    by_pair = {(r["from_version"], r["version"]): r for r in merged["upgrades"]}
    assert by_pair[("1.0.0", "1.1.0")]["detail"] == "read again"
    assert by_pair[("1.1.0", "2.0.0")] == existing.to_json()["upgrades"][1]
    # The writer's keys sit before the reader's, as the contract names them.
    assert list(by_pair[("1.0.0", "1.1.0")])[:7] == [
        "scenario",
        "case",
        "framework",
        "from_version",
        "from_source",
        "version",
        "source",
    ]


def test_an_older_record_is_read_with_no_upgrades_and_written_in_the_current_schema():
    older = {"schema_version": 3, "results": [], "environments": []}
    migrated = record.migrate(record.validate(older, "reports/matrix.json"))
    assert migrated["schema_version"] == record.SCHEMA_VERSION == 5 and migrated["upgrades"] == []


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"from_source": "google-adk==1.0.1"}, "has from_source 'google-adk==1.0.1' beside from_version '1.0.0'"),
        ({"from_version": "latest"}, "has from_version 'latest'"),
        ({"outcome": "broken"}, "has outcome 'broken'"),
    ],
)
def test_a_damaged_upgrade_row_is_refused_in_one_line_naming_it(change, says):
    document = record.Record.of([], [], {}, [_row("c", "1.0.0", "1.1.0")]).to_json()
    document["upgrades"][0].update(change)
    with pytest.raises(record.RecordError) as caught:
        record.validate(document, "reports/matrix.json")
    message = str(caught.value)
    assert "\n" not in message and says in message and "upgrade 0 (adk-toy-upgrade:c@" in message


def test_a_repeated_pair_is_refused():
    document = record.Record.of([], [], {}, [_row("c", "1.0.0", "1.1.0"), _row("c", "1.0.0", "1.1.0")]).to_json()
    with pytest.raises(record.RecordError, match="repeats upgrade 0"):
        record.validate(document, "reports/matrix.json")


def test_the_pairs_timeline_lives_in_its_snapshot_and_is_read_back(tmp_path):
    store = SnapshotStore(tmp_path / "snapshots")
    row = _row("c", "1.0.0", "1.1.0", snapshot="new")
    assert store.check(row).status == "new"
    assert store.accept(row)
    assert store.check(row).status == "match"
    (tmp_path / "snapshots" / "matrix").mkdir()
    (tmp_path / "reports").mkdir()
    document = record.Record.of([], [], {}, [_row("c", "1.0.0", "1.1.0")]).to_json(stored=True)
    assert "timeline" not in document["upgrades"][0]
    path = tmp_path / "reports" / "matrix.json"
    path.write_text(json.dumps(document))
    assert record.read(path, "reports/matrix.json").upgrades[0].timeline == "timeline\n"


def test_a_damaged_upgrade_snapshot_is_refused(tmp_path):
    store = SnapshotStore(tmp_path / "snapshots")
    bad = store.upgrades / "adk-toy-upgrade" / "c" / "1.0.0-2.0.0.txt"
    bad.parent.mkdir(parents=True)
    bad.write_text("outcome: fixed\n")
    with pytest.raises(Exception, match="is not where an upgrade's snapshot belongs"):
        store.validate()


def test_a_reproduced_pair_is_explained_by_the_hunk_that_names_the_missing_column(tmp_path):
    def site(name, body):
        folder = tmp_path / name / "lib" / "python3.11" / "site-packages" / "pkg"
        folder.mkdir(parents=True)
        (folder / "models.py").write_text(textwrap.dedent(body))
        return tmp_path / name

    filler = "".join(f"# line {i}\n" for i in range(10))
    writer = site("a", f"class Event:\n    id = Column()\n    text = Column()\n{filler}def helper():\n    return 1\n")
    reader = site(
        "b",
        f"class Event:\n    id = Column()\n    text = Column()\n    usage_metadata = Column()\n{filler}"
        "def helper():\n    return 2\n",
    )
    change = upgrades_run.schema_change(
        ("pkg/models.py",), writer, reader, "get_session: column events.usage_metadata does not exist"
    )
    assert change["matched"] is True
    assert "+    usage_metadata = Column()" in change["excerpt"]
    assert "+    return 2" not in change["excerpt"]  # a hunk that does not name the detail's words is left out


# --- the record's upgrades (reports/matrix.json) ----------------------------------------------------


def _recorded() -> dict[tuple[str, str, str, str], Row]:
    from harness.project import PROJECT

    document = record.load(PROJECT.reports) or record.Record()
    return {(r.scenario, r.case, r.from_version or "", r.version or ""): r for r in document.upgrades}


def test_every_upgrade_proof_holds_in_the_record():
    """The proofs both ways (real releases on each side): each pair gives the outcome it claims."""
    recorded = _recorded()
    scenarios = planning.discover()
    assert scenarios, "no upgrade scenario"
    for s in scenarios.values():
        outcomes = {step.outcome for step in s.declaration.proofs}
        assert outcomes == {REPRODUCED, FIXED}, f"{s.id}: a proof each way"
        for step in s.declaration.proofs:
            row = recorded.get((s.id, step.case, step.writer, step.reader))
            assert row is not None, f"{s.id}:{step.case} {step.writer} -> {step.reader} is not in the record"
            assert row.outcome == step.outcome, f"{s.id}:{step.case} {step.writer} -> {step.reader}: {row.detail}"


def test_the_record_holds_every_pair_of_every_grid_and_explains_every_pair_that_breaks():
    """Each planned pair has its result (none an error), and each reproduced pair its schema change,
    matched to the detail's words (the missing column, the refused version)."""
    from harness.project import PROJECT
    from harness.rendering import upgrade_report

    recorded = _recorded()
    for s in planning.discover().values():
        changes = upgrade_report.load_changes(
            (upgrade_report.changes_path(PROJECT.reports, s.id)).read_text()
            if upgrade_report.changes_path(PROJECT.reports, s.id).exists()
            else None
        )
        for p in planning.plan(s):
            row = recorded.get((s.id, p.case, p.writer, p.reader))
            assert row is not None, f"{p.name} is not in the record"
            assert row.outcome != ERROR, f"{p.name}: {row.detail}"
            if row.outcome == REPRODUCED:
                change = changes.get(f"{p.case} {p.writer} -> {p.reader}")
                assert change is not None and change["matched"], f"{p.name}: no schema change names {row.detail!r}"


def test_the_threads_pairs_reproduce_and_their_change_is_the_column_they_name():
    """#3272 (1.16 -> 1.17: events.usage_metadata) and #3681 (1.17 -> 1.19: events.input_transcription),
    on SQLite and PostgreSQL: reproduced, and the report's change adds that column."""
    from harness.project import PROJECT
    from harness.rendering import upgrade_report

    recorded = _recorded()
    adk = "adk-database-session-upgrade"
    changes = upgrade_report.load_changes(upgrade_report.changes_path(PROJECT.reports, adk).read_text())
    for case in ("carry-over", "carry-over-postgresql"):
        for writer, reader, column in (
            ("1.16.0", "1.17.0", "usage_metadata"),
            ("1.17.0", "1.19.0", "input_transcription"),
        ):
            row = recorded[(adk, case, writer, reader)]
            assert row.outcome == REPRODUCED and column in row.detail, row.detail
            excerpt = changes[f"{case} {writer} -> {reader}"]["excerpt"]
            assert any(line.startswith("+") and column in line for line in excerpt), excerpt


def test_an_upgrade_selector_that_names_nothing_is_refused_in_one_line_with_what_is_valid():
    import subprocess

    from harness.project import PROJECT

    for argv, says in (
        (
            ["--only", "agents-run-state-upgrade:nope"],
            "unknown case 'nope' of upgrade agents-run-state-upgrade; valid:",
        ),
        (["--only", "no-such-id"], "upgrade scenarios: "),
        (["--only", "agents-run-state-upgrade", "openai-agents==0.24.0"], "runs on its own grid of releases"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "harness", "matrix", *argv], cwd=PROJECT.root, capture_output=True, text=True
        )
        assert proc.returncode == 2, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and says in proc.stderr, proc.stderr


def test_every_upgrade_script_is_read_without_its_framework():
    """Fault: agents-run-state-upgrade read openai-agents' version at import, so the orchestrator (which
    has no framework) could not list it. A script's top level must need the standard library only."""
    import subprocess

    from harness.project import PROJECT

    code = (
        "import sys, importlib.metadata as m\n"
        "sys.modules.update(agents=None, google=None)\n"
        "def version(name):\n"
        "    raise m.PackageNotFoundError(name)\n"
        "m.version = version\n"
        "from harness.planning import upgrades\n"
        "print(sorted(upgrades.discover()))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=PROJECT.root, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "adk-database-session-upgrade" in proc.stdout and "agents-run-state-upgrade" in proc.stdout


def test_a_pair_is_kept_until_its_script_or_either_build_changes(tmp_path):
    """The reader's environment remembers a pair's result with what answered it: the script's digest
    and both environments' markers; any change re-runs it, and an error is never kept."""
    scenario = toy_scenario(tmp_path)
    writer_env, reader_env = tmp_path / "env-a", tmp_path / "env-b"
    for env in (writer_env, reader_env):
        env.mkdir()
        (env / "harness-build.json").write_text(json.dumps({"spec": env.name}))
    planned = pair(scenario)
    result = CaseResult(scenario.id, planned.case, FIXED, "read value 1", "timeline\n")
    upgrades_run._remember(planned, reader_env, writer_env, result)
    assert upgrades_run._cached(planned, reader_env, writer_env) == result
    (writer_env / "harness-build.json").write_text('{"spec": "rebuilt"}')
    assert upgrades_run._cached(planned, reader_env, writer_env) is None
    upgrades_run._remember(planned, reader_env, writer_env, result)
    scenario.script.write_text(TOY + "\n# edited\n")
    assert upgrades_run._cached(planned, reader_env, writer_env) is None
    upgrades_run._remember(planned, reader_env, writer_env, CaseResult(scenario.id, planned.case, ERROR, "boom"))
    assert upgrades_run._cached(planned, reader_env, writer_env) is None


def test_every_adjacent_pair_that_breaks_is_a_boundary_with_no_release_between_on_the_index():
    """A grid's pair of neighbours that breaks is where the stored shape changed: no release lies
    between its two on the package index, so the boundary needs no bisecting (the grid is the bisect)."""
    from harness.planning import index, versions
    from harness.project import PROJECT

    recorded = _recorded()
    for s in planning.discover().values():
        known = sorted(
            (v for v, r in index.releases(s.framework, PROJECT.cache).items() if not r.yanked and versions.is_final(v)),
            key=versions.key,
        )
        releases = list(s.declaration.releases)
        for older, newer in itertools.pairwise(releases):
            broken = [
                r
                for (sid, _, w, v), r in recorded.items()
                if (sid, w, v) == (s.id, older, newer) and r.outcome == REPRODUCED
            ]
            if broken:
                between = known[known.index(older) + 1 : known.index(newer)]
                assert between == [], f"{s.id}: {older} -> {newer} breaks, with {between} between: bisect it"


def test_sigterm_during_a_step_ends_the_step_and_removes_the_pairs_folder(tmp_path):
    """Fault: the steps ran in process groups of their own, so a signal that ended the run left a
    step running (up to its 240 s) and its folder behind. Now the run's handlers end both."""
    import signal
    import subprocess

    from harness.project import PROJECT

    temp = tmp_path / "tmp"
    temp.mkdir()
    toy_scenario(tmp_path)
    Pythons(tmp_path, {"1.0.0": 1, "1.1.0": 2})
    code = textwrap.dedent(
        f"""
        from pathlib import Path
        from harness.execution import postgres, upgrades
        from harness.planning.upgrades import PlannedPair, UpgradeScenario
        from harness.runtime.upgrade import Upgrade, UpgradeCase
        postgres.install_signal_handlers()
        root = Path({str(tmp_path)!r})
        declaration = Upgrade((), "", "", {{"carry-over": UpgradeCase("")}}, ("1.0.0", "1.1.0"))
        scenario = UpgradeScenario("adk-toy-upgrade", "google-adk", declaration, root / "upgrades" / "adk-toy-upgrade")
        pythons = {{v: root / f"python-{{v}}" for v in ("1.0.0", "1.1.0")}}
        upgrades.run_pair(PlannedPair(scenario, "hang", "1.0.0", "1.1.0", ""), pythons, root)
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], cwd=PROJECT.root, env={**os.environ, "TMPDIR": str(temp)}, text=True
    )
    deadline = time.monotonic() + 60
    while not list(temp.glob("harness-upgrade-*/value.json")):
        assert proc.poll() is None and time.monotonic() < deadline, "the writer did not write"
        time.sleep(0.1)
    time.sleep(1.0)  # the reader is sleeping in its step now
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    time.sleep(0.5)
    assert list(temp.iterdir()) == []
    left = subprocess.run(
        ["pgrep", "-f", f"{tmp_path}/upgrades/adk-toy-upgrade/repro.py"], capture_output=True, text=True
    )
    assert left.stdout.strip() == "", left.stdout


def test_a_pair_folder_of_a_killed_run_is_removed_by_the_next(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = tmp_path / f"{scratch.PREFIX}{upgrade_steps.STATE_KIND}-999999999-abc"
    mine = tmp_path / f"{scratch.PREFIX}{upgrade_steps.STATE_KIND}-{os.getpid()}-abc"
    dead.mkdir()
    mine.mkdir()
    assert upgrade_steps.sweep() == [dead]
    assert mine.exists() and not dead.exists()


def test_an_accepted_pair_names_its_own_snapshot_as_its_base(tmp_path):
    """Fault: --update-snapshots wrote an upgrade result with snapshot_base null, so the next run
    rewrote every such row of the record (null -> the pair's file) though nothing had changed."""
    store = SnapshotStore(tmp_path / "snapshots")
    row = _row("c", "1.0.0", "1.1.0", snapshot="new")
    store.check_all([row], update=True)
    assert (row.snapshot, row.snapshot_base) == ("updated", "1.0.0-to-1.1.0")
    again = _row("c", "1.0.0", "1.1.0", snapshot="new")
    store.check_all([again], update=False)
    assert (again.snapshot, again.snapshot_base) == ("match", "1.0.0-to-1.1.0")


def test_a_step_that_prints_two_verdict_lines_is_an_error_not_judged_by_the_last():
    """Issue 49: an upgrade reader that printed two verdict lines was judged by the last one."""
    two = ["== read", "verdict: reproduced: the state was lost", "verdict: fixed: the state was read"]
    word, detail = upgrade_steps._verdict(two, 0, False)
    assert word == ERROR and detail.startswith("2 verdict lines, where a step prints one")
    assert upgrade_steps._verdict(["verdict: fixed: read"], 0, False) == ("fixed", "read")


def test_the_record_line_counts_the_upgrade_pair_results_a_run_wrote():
    """Issue 49: a run of upgrade pairs only said "0 results written" after writing 7."""
    from harness.execution import publication

    assert publication.written_words(0, 7, 2714) == (
        "record: 0 results and 7 upgrade pair results written to reports/matrix.json, "
        "2714 other results kept as they were"
    )
    assert publication.written_words(4, 0, 0).startswith("record: 4 results written to reports/matrix.json")


def test_a_documented_downgrade_refusal_is_not_an_upgrade_that_breaks():
    """Issue 50: openai-agents 0.9.3 -> 0.8.4, the refusal #2502 documents ('schema version 1.2 is not
    supported'), showed as a bold R. A downgrade with a documented refusal is D, counted and listed
    apart; google-adk 1.22.0 -> 1.21.0, a downgrade no thread documents that fails on a missing
    column, stays R among the pairs that break."""
    from harness.project import PROJECT
    from harness.rendering import upgrade_report

    scenarios = planning.discover()
    document = record.load(PROJECT.reports)
    agents = upgrade_report.render(scenarios["agents-run-state-upgrade"], document, {})
    assert "| 0.9.3 | D |" in agents and "**R**" not in agents.split("## resume-approval")[1].split("##")[0]
    assert "18 fixed, 2 documented downgrade refusals of 20 pairs." in agents
    assert "## Downgrades refused as documented" in agents and "## Pairs that break" not in agents
    adk = upgrade_report.render(scenarios["adk-database-session-upgrade"], document, {})
    breaks = adk.split("## Pairs that break")[1]
    assert "carry-over: 1.22.0 -> 1.21.0" in breaks and "| D |" not in adk


WHERE = '''
"""Says where it runs, in its timeline and (for the test alone) in a file beside it."""
import json, os, sys
from pathlib import Path

CASES = {"look": {}, "hang": {}, "message": {}}
SEEN = Path(__file__).resolve().parent / "seen.jsonl"


def main(step, case, state):
    if case == "hang" and step == "read":
        import time
        time.sleep(600)
    with SEEN.open("a") as f:
        f.write(json.dumps({"warm": "google" in sys.modules or "harness.runtime.worker" in sys.modules}) + "\\n")
    print(f"cwd is the state folder: {os.getcwd() == str(Path(state).resolve())}")
    print(f"argv: {sys.argv[1:3]}; script folder first on the path: {sys.path[0] == str(SEEN.parent)}")
    print(f"the project on the path: {any(Path(p, 'harness', 'runtime').is_dir() for p in sys.path if p)}")
    print(f"PYTHONPATH: {os.environ.get('PYTHONPATH')}; bytecode written: {not sys.dont_write_bytecode}")
    if case == "message" and step == "read":
        sys.exit("a message, then exit 1")
    print("verdict: written: here" if step == "write" else "verdict: fixed: read")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
'''


def where_project(tmp_path: Path) -> tuple[Path, Path, planning.UpgradeScenario]:
    """A project with this harness and the WHERE script as the toy upgrade's: (root, its folder, it)."""
    root = scratch_project(tmp_path, {})
    folder = root / "upgrades" / "adk-toy-upgrade"
    folder.mkdir(parents=True)
    (folder / "repro.py").write_text(WHERE)
    declaration = toy_scenario(tmp_path / "decl").declaration
    return root, folder, planning.UpgradeScenario("adk-toy-upgrade", "google-adk", declaration, folder)


def test_a_step_in_a_fork_of_the_release_s_warm_worker_sees_what_the_command_gives_it(tmp_path, monkeypatch, pool_dir):
    """Issue 47: each step was a cold process importing the framework (about 3.4 s a pair); now it
    runs in a fork of its release's warm worker (harness/runtime/step.py). The script sees what
    ``python repro.py STEP CASE STATE`` gives it (its folder on the path and not the project's, the
    state folder as cwd, no PYTHONPATH, no bytecode written), so the timelines are the same warm
    and cold; an exit message and a step past its deadline are judged as cold ones are, and the
    worker survives a killed step."""
    from harness.execution import environments, pool

    root, folder, scenario = where_project(tmp_path)
    pythons = {"1.0.0": Path(sys.executable), "1.1.0": Path(sys.executable)}
    env = environments.worker_environment(root)
    member = pool.start(Path(sys.executable), root, env, None, "google-adk", "json")
    assert member is not None, "the warm worker did not start"
    warm = upgrade_steps.WarmStep(member, "google-adk", env)

    def both(case):
        cold = upgrades_run.run_pair(pair(scenario, case), pythons, root)
        forked = upgrades_run.run_pair(pair(scenario, case), pythons, root, warm=lambda version: warm)
        return cold, forked

    cold, forked = both("look")
    seen = [json.loads(line)["warm"] for line in (folder / "seen.jsonl").read_text().splitlines()]
    assert seen == [False, False, True, True]  # two cold processes, then two forks of the worker
    assert (forked.outcome, forked.detail, forked.timeline) == (cold.outcome, cold.detail, cold.timeline)
    assert cold.timeline.splitlines()[1:5] == [
        "cwd is the state folder: True",
        "argv: ['write', 'look']; script folder first on the path: True",
        "the project on the path: False",
        "PYTHONPATH: None; bytecode written: False",
    ]
    cold, forked = both("message")
    assert (forked.outcome, forked.detail) == (cold.outcome, cold.detail)
    assert forked.outcome == ERROR and forked.detail.startswith("exit 1 with no verdict line")
    assert "a message, then exit 1" in forked.detail
    monkeypatch.setattr(upgrade_steps, "STEP_TIMEOUT", 3.0)
    started = time.monotonic()
    hung = upgrades_run.run_pair(pair(scenario, "hang"), pythons, root, warm=lambda version: warm)
    assert time.monotonic() - started < 30
    assert hung.outcome == ERROR and hung.detail.startswith("no verdict within 3 s")
    again = upgrades_run.run_pair(pair(scenario, "look"), pythons, root, warm=lambda version: warm)
    assert again.outcome == FIXED and pool.find(Path(sys.executable), root, env) is not None


@pytest.mark.parametrize("mode", ["auto", "cold"])
def test_the_axis_runs_a_release_s_steps_in_its_worker_and_stops_it_after_its_last_pair(
    tmp_path, monkeypatch, pool_dir, mode
):
    """upgrades.run: with the pool "auto", a release's steps and its environment's record come from
    forks of a worker the axis starts at the release's first step and stops after its last pair (no
    process of the run outlives it); with "cold", every step is a process of its own. The release
    here is the test environment's own (its build stands in for a release's)."""
    from harness.execution import environments, pool
    from harness.execution.run import RunSettings
    from harness.planning import builds as builds_mod
    from harness.project import Project

    root, folder, scenario = where_project(tmp_path)
    version = importlib.metadata.version("google-adk")
    env_path = tmp_path / "env"
    env_path.mkdir()
    (env_path / environments.MARKER).write_text("{}")
    build = builds_mod.Build("google-adk", f"google-adk=={version}", f"google-adk=={version}", version, release=True)
    monkeypatch.setattr(upgrades_run.builds_mod, "parse", lambda spec, cache_dir: build)
    monkeypatch.setattr(
        upgrades_run.environments,
        "ensure",
        lambda *a, **k: environments.Environment(build, env_path, Path(sys.executable), None, reused=True),
    )
    pairs = [pair(scenario, "look", version, version), pair(scenario, "message", version, version)]
    run = upgrades_run.run(pairs, RunSettings(Project(root), pool=mode), 1, lambda p: False, log=lambda line: None)
    assert [(r.case, r.outcome) for r in run.rows] == [("look", FIXED), ("message", ERROR)]
    [described] = run.environments
    assert (described.version, described.source) == (version, f"google-adk=={version}")
    assert described.packages and described.python == platform.python_version()
    seen = [json.loads(line)["warm"] for line in (folder / "seen.jsonl").read_text().splitlines()]
    assert seen == [mode != "cold"] * 4
    assert pool.members(root) == []  # the worker the axis started is stopped


KEPT_BUG = (
    HEADER
    + """
CASES = {"look": dict(step="fine")}
"""
)


def test_the_axis_forks_from_the_worker_the_release_axis_kept_and_the_run_stops_it(tmp_path, monkeypatch, pool_dir):
    """Issue 47: each of the upgrade axis's builds imported its framework twice in a matrix run:
    once for its cases (a cold worker), once more for the axis's worker. A release the axis steps
    through now keeps a warm worker from its cases (``RunSettings.keep_warm``), its steps fork from
    that one (one worker started over both axes), the axis stops it after its last pair, and
    ``pool.stop_run`` stops one the axis never came to, as the matrix does on every exit path."""
    from harness import owners
    from harness.execution import environments, pool, postgres
    from harness.execution import run as run_mod
    from harness.execution.run import RunSettings
    from harness.planning import builds as builds_mod
    from harness.project import Project

    root, folder, scenario = where_project(tmp_path)
    write_bug(root / "scenarios", "adk-kept", KEPT_BUG)
    version = importlib.metadata.version("google-adk")
    env_path = tmp_path / "env"
    env_path.mkdir()
    (env_path / environments.MARKER).write_text("{}")
    build = builds_mod.Build("google-adk", f"google-adk=={version}", f"google-adk=={version}", version, release=True)
    made = environments.Environment(build, env_path, Path(sys.executable), None, reused=True)
    monkeypatch.setattr(upgrades_run.builds_mod, "parse", lambda spec, cache_dir: build)
    monkeypatch.setattr(environments, "ensure", lambda *a, **k: made)
    started = []
    real_start = pool.start
    monkeypatch.setattr(pool, "start", lambda *a, **k: started.append(real_start(*a, **k)) or started[-1])
    case = (SimpleNamespace(id="adk-kept"), SimpleNamespace(id="look", backend="sqlite"))
    settings = RunSettings(Project(root), timeout=30, keep_warm=frozenset({build.source}))

    done = run_mod.run_cases(build, [case], settings)  # type: ignore[list-item]
    assert [r.outcome for r in done.results] == ["fixed"], done.results
    [kept] = pool.members(root)
    assert pool.started_by_this_run(kept)
    axis = upgrades_run.run([pair(scenario, "look", version, version)], settings, 1, lambda p: False, log=print)
    assert [r.outcome for r in axis.rows] == [FIXED]
    seen = [json.loads(line)["warm"] for line in (folder / "seen.jsonl").read_text().splitlines()]
    assert seen == [True, True]  # both steps forks of a worker
    assert [m.pid for m in started] == [kept.pid]  # the one the cases ran in: no second import
    assert pool.members(root) == []  # the axis stopped it after its last pair

    # A release whose cases ran but whose pairs never did (the axis failed before them): the run's end.
    run_mod.run_cases(build, [case], dataclasses.replace(settings, rerun=True))  # type: ignore[list-item]
    assert len(pool.members(root)) == 1
    assert pool.stop_run() == 1 and pool.members(root) == []
    # A signal that ends the run runs no finally: its handler ends them (harness/execution/postgres.py).
    run_mod.run_cases(build, [case], dataclasses.replace(settings, rerun=True))  # type: ignore[list-item]
    [signalled] = pool.members(root)
    assert pool.end_run in postgres._signal_cleanups
    pool.end_run()
    deadline = time.monotonic() + 10
    while owners.pid_runs(signalled.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not owners.pid_runs(signalled.pid) and pool.members(root) == []
    assert not any(p.name.startswith(signalled.key) for p in pool.pool_dir().iterdir())  # its files went with it
    # Not kept for an axis: the cases' run ("auto") starts no worker, as before.
    run_mod.run_cases(build, [case], dataclasses.replace(settings, rerun=True, keep_warm=frozenset()))  # type: ignore[list-item]
    assert pool.members(root) == [] and len(started) == 3


def test_one_selection_names_bug_cases_and_upgrade_pairs_together():
    """Issue 47: the upgrade axis had its own discovery and selection beside the scenarios'. One
    catalog (harness/planning/catalog.py) selects both kinds: each selector by its id's kind, every
    case and pair with none, no pair in a run of given builds, and an unknown id names both kinds."""
    from harness.planning.catalog import Catalog
    from harness.project import PROJECT
    from harness.runtime import registry as registry_mod

    catalog = Catalog.discover(PROJECT)
    bug = next(iter(catalog.scenarios))
    both = catalog.select([bug, "agents-run-state-upgrade"])
    assert {s.id for s, _ in both.cases} == {bug} and {p.scenario.id for p in both.pairs} == {
        "agents-run-state-upgrade"
    }
    every = catalog.select([])
    assert len(every.cases) == len(registry_mod.select(catalog.scenarios, []))
    assert {p.scenario.id for p in every.pairs} == set(catalog.upgrades)
    assert catalog.select([], of_given_builds=True).pairs == []
    assert catalog.select([bug], of_given_builds=True).cases == both.cases
    with pytest.raises(registry_mod.UnknownId, match="; upgrade scenarios: adk-database-session-upgrade"):
        catalog.select(["no-such-id"])
