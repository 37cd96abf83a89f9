"""The record tells the truth about every release (issue 13), without building environments.

``matrix.run_build`` is replaced by a table of outcomes and the index by a fixed list of
releases, so the whole pipeline (plan, snapshots, merge, reports, run folders) runs in
milliseconds on a copy of the project's scenarios.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.execution import matrix
from harness.planning import index, releases
from harness.runtime import registry
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.runtime.result import CaseResult
from harness.store import bisect_record, record
from harness.store.bisect_record import BisectRecord, Probe, Range
from harness.store.rows import Row

RETRY = "adk-retry-same-invocation-id"
TOOL = "adk-repeated-tool-call"
ADK = ["2.8.0", "2.9.0", "2.9.1", "2.10.0"]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An empty project root; the index knows ADK and openai-agents 0.5.0 .. 0.6.1."""
    return make_project(tmp_path, monkeypatch)


def make_project(tmp_path, monkeypatch):
    """The ``project`` fixture's root (other test modules make theirs with it)."""
    (tmp_path / "snapshots" / "matrix").mkdir(parents=True)
    known = {"google-adk": ADK, "openai-agents": ["0.5.0", "0.6.0", "0.6.1"]}
    monkeypatch.setattr(
        index,
        "releases",
        lambda name, cache_dir: {v: index.Release(v, "2026-01-01T00:00:00Z", False) for v in known[name]},
    )
    # Default set: the latest patch of each minor line (as harness/planning/releases.py does).
    monkeypatch.setitem(releases.DEFAULT_SETS, "google-adk", {"minors_from": "2.8", "last_of_major": []})
    monkeypatch.setitem(releases.DEFAULT_SETS, "openai-agents", {"minors_from": "0.5", "last_of_major": []})
    return tmp_path


class Table:
    """A fake run_build: outcome per (scenario, version), the timeline says which."""

    def __init__(self, outcome, local=FIXED):
        self.outcome = outcome
        self.local = local  # what every local build (a candidate fix) says
        self.ran: list[tuple[str, str]] = []

    def __call__(self, build, cases, options, cache_dir, recorded=None, store=None, keep_warm=frozenset()):
        results = []
        for s, c in cases:
            self.ran.append((f"{s.id}:{c.id}", build.source))
            o = self.local if not build.release else self.outcome(s.id, c.id, build.version)
            results.append(matrix._result(s, c, build, build.version, outcome=o, detail=o, timeline=f"{o}\n"))
        env = {
            "source": build.source,
            "framework": build.framework,
            "version": build.version,
            "python": "3.11.7",
            "exclude_newer": None,
            "packages": [f"{build.framework}=={build.version}"],
        }
        return env, results


def run(project, monkeypatch, table, *args: str) -> int:
    monkeypatch.setattr(matrix, "run_build", table)
    monkeypatch.setattr(matrix.checkout, "harness_info", lambda root: {"python": "3.11.7", "version": "0.1.0"})
    # The tables' outcomes are made up, not the releases': the real proofs do not apply to them.
    monkeypatch.setattr(matrix, "contradicted_proofs", lambda results, scenarios: [])
    options = matrix.Options(root=project, jobs=1)
    specs, only, i = [], [], 0
    while i < len(args):
        if args[i] == "--only":
            only.append(args[i + 1])
            i += 2
        elif args[i] == "--update-snapshots":
            options.update_snapshots = True
            i += 1
        else:
            specs.append(args[i])
            i += 1
    options.specs, options.only = specs, only
    return matrix.run(options)


def files(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def every_adk(scenario, case, version):
    return REPRODUCED if version in ("2.8.0", "2.9.1") else FIXED


def test_a_narrowed_run_replaces_only_what_it_ran(project, monkeypatch):
    run(project, monkeypatch, Table(every_adk), "--only", RETRY, "--only", TOOL, "--update-snapshots")
    before = files(project / "reports")
    doc = json.loads(before["matrix.json"])
    assert {(r["scenario"], r["version"]) for r in doc["results"]} == {
        (s, v) for s in (RETRY, TOOL) for v in ("2.8.0", "2.9.1", "2.10.0")
    }

    changed = Table(lambda s, c, v: REPRODUCED)  # the new code reproduces everywhere
    run(project, monkeypatch, changed, "google-adk==2.10.0", "--only", RETRY)
    assert {src for _, src in changed.ran} == {"google-adk==2.10.0"}
    after = files(project / "reports")
    assert after[f"{TOOL}.md"] == before[f"{TOOL}.md"]  # another scenario's report: byte for byte
    new = json.loads(after["matrix.json"])["results"]
    old = doc["results"]
    assert [r for r in new if not (r["scenario"] == RETRY and r["version"] == "2.10.0")] == [
        r for r in old if not (r["scenario"] == RETRY and r["version"] == "2.10.0")
    ]
    assert {r["outcome"] for r in new if r["scenario"] == RETRY and r["version"] == "2.10.0"} == {REPRODUCED}


def test_a_candidate_run_leaves_the_record_alone_and_says_where_its_report_is(project, monkeypatch, capsys, tmp_path):
    run(project, monkeypatch, Table(every_adk), "--only", RETRY, "--update-snapshots")
    before = files(project / "reports")
    checkout = tmp_path / "adk-python"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text('[project]\nname = "google-adk"\nversion = "2.9.1"\n')
    status = run(
        project, monkeypatch, Table(every_adk, local=FIXED), "google-adk==2.9.1", str(checkout), "--only", RETRY
    )
    assert status == 1  # the local build has no snapshot
    assert {k: v for k, v in files(project / "reports").items() if not k.startswith("runs/")} == before
    err = capsys.readouterr().err
    run_dir = project / "reports" / "runs" / f"{RETRY}+google-adk-2.9.1+local-adk-python"
    assert f"this run's reports are in reports/runs/{run_dir.name}/" in err
    assert "is unchanged: local:adk-python is not in the matrix" in err
    report = (run_dir / f"{RETRY}.md").read_text()
    assert "reproduced on google-adk 2.9.1, fixed on the candidate build `local:adk-python`" in report
    assert f"before/after report: reports/runs/{run_dir.name}/{RETRY}.md" in err


def test_a_bug_of_one_x_y_0_release_joins_the_matrix_once_its_snapshot_is_stored(project, monkeypatch, capsys):
    only_290 = Table(lambda s, c, v: REPRODUCED if v == "2.9.0" else FIXED)
    run(project, monkeypatch, only_290, "--only", RETRY, "--update-snapshots")
    assert "google-adk==2.9.0" not in {src for _, src in only_290.ran}  # the default set skips 2.9.0
    report = (project / "reports" / f"{RETRY}.md").read_text()
    assert "reproduces on no release run" in report

    # The exploratory run of 2.9.0 stores its (different) snapshot: 2.9.0 joins the matrix ...
    run(project, monkeypatch, only_290, "google-adk==2.9.0", "--only", RETRY, "--update-snapshots")
    assert (project / "snapshots" / "matrix" / RETRY / "resumable-resume" / "2.9.0.txt").exists()
    assert "record: 4 results written" in capsys.readouterr().err
    # ... so plain `nox -s matrix` runs it, and the report names it; 2.9.1, which matched
    # 2.8.0's snapshot, is still compared with that one (pinned), not with 2.9.0's.
    again = Table(only_290.outcome)
    assert run(project, monkeypatch, again, "--only", RETRY) == 0
    assert "google-adk==2.9.0" in {src for _, src in again.ran}
    report = (project / "reports" / f"{RETRY}.md").read_text()
    assert "last release where it reproduces: **2.9.0**; first release where it is fixed: **2.9.1**" in report


def test_a_release_outside_the_matrix_goes_to_a_run_folder(project, monkeypatch, capsys):
    run(project, monkeypatch, Table(every_adk), "--only", RETRY, "--update-snapshots")
    before = files(project / "reports")
    run(project, monkeypatch, Table(every_adk), "google-adk==2.9.0", "--only", RETRY)
    assert {k: v for k, v in files(project / "reports").items() if not k.startswith("runs/")} == before
    assert "google-adk==2.9.0 is not in the matrix" in capsys.readouterr().err


def test_bisect_boundary_releases_join_the_matrix(project, monkeypatch):
    bisects = BisectRecord().with_bisect(
        [
            Probe(RETRY, "resumable-resume", "google-adk", v, o, "")
            for v, o in (("2.8.0", REPRODUCED), ("2.9.0", FIXED))
        ],
        Range(RETRY, "resumable-resume", "google-adk", "2.8.0", "2.10.0"),
        ADK,
        "google-adk",
    )
    (project / "reports").mkdir()
    (project / "reports" / "bisect.json").write_text(bisect_record.dumps(bisects))
    table = Table(lambda s, c, v: REPRODUCED if v == "2.8.0" else FIXED)
    run(project, monkeypatch, table, "--only", RETRY)
    assert {src for _, src in table.ran} == {
        "google-adk==2.8.0",
        "google-adk==2.9.0",
        "google-adk==2.9.1",
        "google-adk==2.10.0",
    }
    text = (project / "reports" / "matrix.md").read_text()
    assert "| 2.8.0 | 2.9.0 | 2.9.1 | 2.10.0 |" in text


def test_an_unreadable_record_is_refused_in_one_line(project, monkeypatch):
    (project / "reports").mkdir()
    (project / "reports" / "matrix.json").write_text("{")
    with pytest.raises(record.RecordError, match=r"reports/matrix\.json cannot be read"):
        run(project, monkeypatch, Table(every_adk), "--only", RETRY)


def test_run_names_are_readable_and_short():
    assert (
        record.run_name(["google-adk==2.13.0", "local:adk-python"], ["adk-x"])
        == "adk-x+google-adk-2.13.0+local-adk-python"
    )
    long = record.run_name([f"google-adk==2.{i}.0" for i in range(30)], [])
    assert len(long) <= 80


def test_a_result_that_contradicts_a_release_proof_is_named():
    """The proof test reads the record (tests/test_oracle_proofs.py), so the matrix is where a
    release that stopped saying what a case's Release proof claims must fail (summarise exits 1)."""

    def row(outcome: str) -> Row:
        result = CaseResult(RETRY, "resumable-resume", outcome, "d")
        return Row(result, "google-adk", "2.8.0", "google-adk==2.8.0", snapshot="match", snapshot_base="2.8.0")

    scenarios = registry.discover()
    contradicted = matrix.contradicted_proofs([row(FIXED)], scenarios)
    assert [(r.case, claim) for r, claim in contradicted] == [("resumable-resume", REPRODUCED)]
    assert matrix.contradicted_proofs([row(REPRODUCED)], scenarios) == []
    assert matrix.summarise([row(FIXED)], 1.0, scenarios) == 1


def test_a_timeline_the_snapshot_store_holds_is_not_held_again_by_the_record(tmp_path):
    """Issue 35: each timeline was stored in snapshots/matrix/ and again in every row of the record.
    A row whose snapshot matched (or was updated) is written without its timeline and read back with
    the one its snapshot holds; a row whose snapshot is gone is a damaged record, named in one line."""
    from harness.store import rows
    from harness.store.snapshots import SnapshotStore

    store_dir = tmp_path / "snapshots" / "matrix" / "adk-x" / "basic"
    store_dir.mkdir(parents=True)
    (store_dir / "1.0.0.txt").write_text("outcome: fixed\ndetail: ok\n\nevent 1\nevent 2\n")
    row = {
        "scenario": "adk-x", "case": "basic", "framework": "google-adk", "version": "1.1.0",
        "source": "google-adk==1.1.0", "outcome": "fixed", "detail": "ok", "snapshot": "match",
        "backend": "sqlite", "snapshot_base": "1.0.0", "timeline": "event 1\nevent 2\n",
    }  # fmt: skip
    changed = {**row, "source": "google-adk==1.2.0", "version": "1.2.0", "snapshot": "changed", "timeline": "x\n"}
    document = record.Record.of([rows.Row.from_json(row), rows.Row.from_json(changed)])
    written = document.to_json(stored=True)["results"]
    assert "timeline" not in written[0] and written[1]["timeline"] == "x\n"
    (tmp_path / "reports").mkdir()
    path = tmp_path / "reports" / "matrix.json"
    path.write_text(record.dumps(document, stored=True))
    read = record.read(path, "reports/matrix.json")
    assert [r.timeline for r in read.results] == ["event 1\nevent 2\n", "x\n"]
    assert SnapshotStore(tmp_path / "snapshots").timeline(rows.Row.from_json(row)) == "event 1\nevent 2\n"
    (store_dir / "1.0.0.txt").unlink()
    with pytest.raises(record.RecordError) as err:
        record.read(path, "reports/matrix.json")
    assert "adk-x:basic@google-adk==1.1.0" in str(err.value) and "\n" not in str(err.value)


def test_a_record_written_back_as_loaded_does_not_hold_the_stored_timelines_again(tmp_path):
    """Issue 35: `python -m harness report` writes the record back as it loaded it, and the loaded
    record carries every timeline its snapshots hold: written as is, the file held 1,772 timelines
    again. The transaction writes each result as the record holds it."""
    store_dir = tmp_path / "snapshots" / "matrix" / "adk-x" / "basic"
    store_dir.mkdir(parents=True)
    (store_dir / "1.0.0.txt").write_text("outcome: fixed\ndetail: ok\n\nevent 1\n")
    (tmp_path / "reports").mkdir()
    row = {
        "scenario": "adk-x", "case": "basic", "framework": "google-adk", "version": "1.0.0",
        "source": "google-adk==1.0.0", "outcome": "fixed", "detail": "ok", "snapshot": "match",
        "backend": "sqlite", "snapshot_base": "1.0.0",
    }  # fmt: skip
    path = tmp_path / "reports" / "matrix.json"
    path.write_text(json.dumps({"schema_version": 3, "harness": {}, "results": [row], "environments": []}))
    with record.transaction(tmp_path / "reports") as tx:
        assert tx.existing is not None and tx.existing.results[0].timeline == "event 1\n"
        tx.write_record(tx.existing)
    assert "timeline" not in json.loads(path.read_text())["results"][0]


def test_the_reports_of_a_run_show_the_timelines_its_record_does_not_hold(tmp_path):
    """Issue 35: a run renders its reports from the document it writes, which holds no timeline the
    snapshot store holds: every report of a fresh clone's `nox -s matrix` showed "–" for each
    timeline. The renderer gets the document with the stored timelines read back."""
    store_dir = tmp_path / "snapshots" / "matrix" / "adk-x" / "basic"
    store_dir.mkdir(parents=True)
    (store_dir / "1.0.0.txt").write_text("outcome: fixed\ndetail: ok\n\nevent 1\n")
    row = {
        "scenario": "adk-x", "case": "basic", "framework": "google-adk", "version": "1.0.0",
        "source": "google-adk==1.0.0", "outcome": "fixed", "detail": "ok", "snapshot": "match",
        "backend": "sqlite", "snapshot_base": "1.0.0", "timeline": "event 1\n",
    }  # fmt: skip
    document = record.Record.of([Row.from_json(row)])
    assert "timeline" not in document.to_json(stored=True)["results"][0]
    seen = []

    def renderer(doc, folder, stage, bisects):
        seen.append(doc.results[0].timeline)
        return []

    record.write_folder(tmp_path / "reports" / "runs" / "x", document, renderer, {})
    with record.transaction(tmp_path / "reports") as tx:
        tx.render(document, renderer)
    assert seen == ["event 1\n", "event 1\n"]


def test_an_environment_of_the_record_is_read_and_written_back_byte_for_byte():
    """Issue 47: a record's environment is a typed ``Environment`` (harness/store/environment.py) to
    its readers, and its JSON object round-trips through ``from_json``/``to_json`` exactly: every entry
    of the committed record, an entry of an older shape (keys missing, a key this code does not know)
    and one made by the matrix (a built environment, a build that failed to install)."""
    from harness.store.environment import Environment
    from harness.store.harness_info import HarnessInfo

    reports = Path(__file__).resolve().parents[1] / "reports"
    document = record.load(reports)
    assert document is not None
    raw = json.loads((reports / record.RECORD_NAME).read_text())
    envs = document.environments
    assert all(isinstance(e, Environment) for e in envs) and len(envs) == len(raw["environments"])
    assert [e.to_json() for e in envs] == raw["environments"]
    # The record's harness object is a HarnessInfo the same way (harness/store/harness_info.py).
    assert list(document.harness.to_json().items()) == list(raw["harness"].items())
    assert record.Record().harness.to_json() == {}
    assert HarnessInfo.from_json({"version": "1", "x": 2}).to_json() == {"version": "1", "x": 2}
    again = record.Record.of(document.results, envs, document.harness, document.upgrades)
    assert record.dumps(again, stored=True) == (reports / record.RECORD_NAME).read_text()
    old = {"source": "a==1", "framework": "a", "packages": None, "later": {"x": 1}, "version": "1"}
    assert json.dumps(Environment.from_json(old).to_json()) == json.dumps(old)
    assert Environment.from_json(old).label == "a==1"
    assert Environment("a==1", "a", "1", "3.10", error="no wheel").to_json() == {
        "source": "a==1",
        "framework": "a",
        "version": "1",
        "interpreter": "3.10",
        "error": "no wheel",
    }
    built = Environment.measured(
        "a==1", "a", None, "3.10", "2025-01-01T00:00:00Z", {"version": "1", "python": "3.10.13"}
    )
    assert built.label == "a==1 on 3.10"
    assert list(built.to_json().items()) == [
        ("source", "a==1"),
        ("framework", "a"),
        ("version", "1"),
        ("interpreter", "3.10"),
        ("python", "3.10.13"),
        ("exclude_newer", "2025-01-01T00:00:00Z"),
        ("packages", []),
        ("extras", None),
        ("isolation", None),
    ]
