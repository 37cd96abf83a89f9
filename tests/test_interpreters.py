"""The interpreter axis (issue 46): interpreters found and refused, a release an interpreter cannot
install, results keyed by interpreter, snapshots stored per interpreter only where they differ, the
report's words and the audit's answers for one interpreter."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path

import pytest

from harness.commands.cli import main
from harness.execution import interpreter_axis
from harness.planning import builds, index, interpreters, versions
from harness.rendering import audit_report, interpreter_words
from harness.runtime import registry
from harness.runtime.result import CaseResult
from harness.store import audit, bisect_record, boundaries, record, rows
from harness.store.bisect_record import BisectRecord
from harness.store.rows import Row
from harness.store.snapshots import SnapshotStore, render

ROOT = Path(__file__).resolve().parent.parent
GENERIC = "agents-output-schema-generic-dict"


def row(version, outcome, python=interpreters.DEFAULT, case="dict-str-int", timeline="t\n", detail="d") -> Row:
    return Row(
        CaseResult(GENERIC, case, outcome, detail, timeline),
        "openai-agents",
        version,
        f"openai-agents=={version}",
        snapshot="match",
        snapshot_base=version,
        python=python,
    )


def test_an_interpreter_not_on_the_machine_is_one_line_naming_what_was_found():
    with pytest.raises(interpreters.InterpreterError) as exc:
        interpreters.parse("3.99")
    assert str(exc.value).startswith("--python 3.99: no CPython 3.99 on this machine (none is downloaded); found: ")
    assert interpreters.DEFAULT in str(exc.value)
    with pytest.raises(interpreters.InterpreterError, match="is not an interpreter version"):
        interpreters.parse("python3")
    assert interpreters.parse(f"{interpreters.DEFAULT},{interpreters.DEFAULT}") == [interpreters.DEFAULT]


def test_bad_python_through_the_command_is_exit_2_and_touches_nothing(capsys):
    before = (ROOT / "reports" / "matrix.json").read_bytes()
    assert main(["matrix", "--python", "3.99", "--only", GENERIC]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no CPython 3.99" in err[0]
    assert (ROOT / "reports" / "matrix.json").read_bytes() == before


def test_requires_python_decides_what_an_interpreter_can_install(monkeypatch, tmp_path):
    assert interpreters.supports(">=3.10", "3.13") and not interpreters.supports(">=3.10", "3.9")
    assert not interpreters.supports(">=3.9,<3.13", "3.13") and interpreters.supports(None, "3.9")
    monkeypatch.setattr(
        index,
        "releases",
        lambda name, cache_dir: {"2.13.0": index.Release("2.13.0", "2026-01-01T00:00:00Z", False, ">=3.10")},
    )
    build = builds.Build("google-adk", "google-adk==2.13.0", "google-adk==2.13.0", "2.13.0", True)
    assert interpreter_axis.unsupported(build, tmp_path) is None  # the default interpreter: never refused here
    assert interpreter_axis.unsupported(interpreter_axis.on(build, "3.12"), tmp_path) is None
    said = interpreter_axis.unsupported(interpreter_axis.on(build, "3.9"), tmp_path)
    assert said == "google-adk 2.13.0 does not support CPython 3.9: its Requires-Python is >=3.10"
    assert interpreter_words.UNSUPPORTED in said  # the report tells it from a verdict


def test_an_interpreter_is_a_field_of_the_key_and_the_default_build_keeps_its_folder():
    from harness.execution.environments import env_name

    build = builds.Build("google-adk", "google-adk==2.13.0", "google-adk==2.13.0", "2.13.0", True)
    assert interpreter_axis.on(build, interpreters.DEFAULT) == build
    assert env_name(build, False) == "google-adk-2.13.0"
    assert env_name(interpreter_axis.on(build, "3.10"), False) == "google-adk-2.13.0-py3.10"
    assert interpreter_axis.on(build, "3.10").label == "google-adk==2.13.0 on 3.10"
    a, b = row("0.17.0", "reproduced"), row("0.17.0", "fixed", python="3.10")
    assert a.key != b.key
    document = record.Record.of([a, b], []).to_json()
    assert [r["python"] for r in document["results"]] == ["3.11", "3.10"]
    assert list(document["results"][0])[8:10] == ["backend", "python"]
    assert record.validate(document, "x") is document  # two interpreters of one release: two results
    again = record.Record.of([a, a], []).to_json()
    with pytest.raises(
        record.RecordError, match=r"repeats result 0; valid: one result per \(scenario, case, source, python\)"
    ):
        record.validate(again, "x")
    bad = record.Record.of([a], []).to_json()
    bad["results"][0]["python"] = "three"
    with pytest.raises(record.RecordError, match="has python 'three'"):
        record.validate(bad, "x")


def test_a_schema_4_record_reads_as_measured_on_the_default_interpreter():
    document = record.Record.of(
        [row("0.17.0", "reproduced")],
        [{"source": "openai-agents==0.17.0", "framework": "openai-agents", "version": "0.17.0", "python": "3.11.7"}],
    ).to_json()
    for r in document["results"]:
        del r["python"]
    document["schema_version"] = 4
    migrated = record.migrate(record.validate(document, "x"))
    assert migrated["schema_version"] == record.SCHEMA_VERSION == 5
    assert [r["python"] for r in migrated["results"]] == [interpreters.DEFAULT]
    assert migrated["environments"][0] == {
        "source": "openai-agents==0.17.0",
        "framework": "openai-agents",
        "version": "0.17.0",
        "interpreter": interpreters.DEFAULT,
        "python": "3.11.7",
    }
    assert rows.Row.from_json(migrated["results"][0]).python == interpreters.DEFAULT


def test_an_interpreter_s_snapshot_is_stored_only_where_it_differs_and_is_inherited(tmp_path):
    store = SnapshotStore(tmp_path / "snapshots")
    for v in ("0.0.12", "0.17.1"):
        store.accept(row(v, "reproduced" if v == "0.0.12" else "fixed"))
    same = row("0.17.1", "fixed", python="3.10")
    assert store.check(same).status == "match" and store.check(same).base == "0.17.1"
    assert store.accept(same)
    assert not (tmp_path / "snapshots" / "matrix" / GENERIC / "dict-str-int" / "py3.10").exists()
    other = row("0.0.12", "fixed", python="3.10", timeline="not wrapped\n")
    assert store.check(other).status == "changed"
    assert store.accept(other)
    assert store.stored_versions(GENERIC, "dict-str-int", "3.10") == ["0.0.12"]
    # Inherited by the next releases on 3.10, until the default's own newer snapshot.
    assert store.nearest(GENERIC, "dict-str-int", "0.17.0", "3.10") == "py3.10/0.0.12"
    assert store.check(row("0.17.0", "fixed", python="3.10", timeline="not wrapped\n")).status == "match"
    assert store.nearest(GENERIC, "dict-str-int", "0.17.1", "3.10") == "0.17.1"
    assert store.nearest(GENERIC, "dict-str-int", "0.17.0") == "0.0.12"  # the default never sees it
    assert store.timeline(dataclasses.replace(other, snapshot_base="py3.10/0.0.12")) == "not wrapped\n"
    assert render(other).startswith("outcome: fixed\n")
    store.validate()  # the interpreter's folder is where a snapshot belongs


def test_an_interpreter_s_stored_result_names_its_own_file_as_its_base(tmp_path):
    """Fault: --update-snapshots stored an interpreter's changed result in <case>/py3.10/<version>.txt
    but wrote its snapshot_base as <version>, the default's file: the record, which leaves out the
    timeline of an updated row, read it back from the default's file (another timeline) or from none."""
    store = SnapshotStore(tmp_path / "snapshots")
    assert store.accept(row("0.0.12", "reproduced"))
    changed = row("0.0.12", "reproduced", python="3.10", timeline="not wrapped\n")
    store.check_all([changed], update=True)
    assert (changed.snapshot, changed.snapshot_base) == ("updated", "py3.10/0.0.12")
    assert store.timeline(changed) == "not wrapped\n"
    default = row("0.17.1", "fixed")
    store.check_all([default], update=True)
    assert (default.snapshot, default.snapshot_base) == ("updated", "0.17.1")


def test_boundaries_are_per_interpreter():
    results = [row(v, o) for v, o in (("0.17.0", "reproduced"), ("0.17.1", "fixed"))]
    results += [row(v, "fixed", python="3.10") for v in ("0.17.0", "0.17.1")]
    record_ = BisectRecord({"openai-agents": ("0.17.0", "0.17.1")})
    default = boundaries.known(record_, results, GENERIC, "dict-str-int", "openai-agents")
    on_310 = boundaries.known(record_, results, GENERIC, "dict-str-int", "openai-agents", python="3.10")
    assert [(b.before.version, b.after.version) for b in default.boundaries] == [("0.17.0", "0.17.1")]
    assert on_310.boundaries == [] and on_310.points == {"0.17.0": "fixed", "0.17.1": "fixed"}


def test_the_report_names_the_interpreters_and_only_measured_differences():
    default = [row(v, o) for v, o in (("0.0.12", "reproduced"), ("0.17.0", "reproduced"), ("0.17.1", "fixed"))]
    assert interpreter_words.lines(GENERIC, default) == ["Interpreters: measured on CPython 3.11 only.", ""]
    same = default + [row("0.17.1", "fixed", python="3.13")]
    text = "\n".join(interpreter_words.lines(GENERIC, same))
    assert "3.13 (1 release)" in text and "same verdicts" in text and "differ" not in text
    differ = default + [row(v, "fixed", python="3.10") for v in ("0.0.12", "0.17.0", "0.17.1")]
    differ.append(
        row("0.0.12", "not-applicable", python="3.9", detail="openai-agents 0.0.12 does not support CPython 3.9: x")
    )
    text = "\n".join(interpreter_words.lines(GENERIC, differ))
    assert "**Verdicts differ by interpreter** (measured)" in text
    assert "  - on 3.10: fixed 0.0.12-0.17.1" in text
    assert "  - on 3.11: reproduced 0.0.12-0.17.0, fixed 0.17.1" in text
    assert "on 3.9:" not in text.split("Not installable")[0]  # an uninstallable release is no verdict
    assert "so not measured: on 3.9: 0.0.12." in text
    assert f"`nox -s matrix -- --python 3.10 --only {GENERIC}`" in text


def _root_with(tmp_path: Path, results: list[Row]) -> Path:
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "matrix.json").write_text(record.dumps(record.Record.of(results, [])))
    (tmp_path / "reports" / "bisect.json").write_text(bisect_record.dumps(BisectRecord()))
    return tmp_path


def test_the_audit_answers_for_one_interpreter_and_infers_only_where_the_others_agree(tmp_path):
    results = [row("0.17.0", "reproduced"), row("0.17.0", "fixed", python="3.10")]
    results += [row("0.16.1", "reproduced"), row("0.16.1", "reproduced", python="3.10")]
    root = _root_with(tmp_path, results)
    scenario = [registry.discover()[GENERIC]]
    key = f"{GENERIC}:dict-str-int"
    on_310 = audit.knowledge(root, scenario, "3.10")[key]
    assert on_310.answer("0.17.0").outcome == "fixed" and on_310.answer("0.17.0").basis == audit.MEASURED
    on_312 = audit.knowledge(root, scenario, "3.12")[key]
    agreed = on_312.answer("0.16.1")
    assert (agreed.outcome, agreed.basis) == ("reproduced", audit.INFERRED)
    assert agreed.reason == (
        "0.16.1 was not run on CPython 3.12; every interpreter that ran it (3.10, 3.11) says reproduced, "
        "and this bug's results on the two agree wherever both ran"
    )
    assert agreed.elsewhere == ("3.10", "3.11")
    assert on_312.answer("0.17.0").basis == audit.UNKNOWN  # 3.10 and 3.11 disagree there


def test_an_interpreter_known_to_differ_is_unknown_where_it_was_not_run(tmp_path):
    """3.10 measured fixed where 3.11 reproduces: 3.11's answers stand for 3.10 nowhere else, since
    this bug is known to depend on the interpreter (an audit on 3.10 said 'reproduced' from 3.11)."""
    results = [row("0.17.0", "reproduced"), row("0.17.0", "fixed", python="3.10"), row("0.16.1", "reproduced")]
    root = _root_with(tmp_path, results)
    on_310 = audit.knowledge(root, [registry.discover()[GENERIC]], "3.10")[f"{GENERIC}:dict-str-int"]
    assert on_310.answer("0.16.1").basis == audit.UNKNOWN


def test_an_interpreter_that_cannot_install_a_release_gave_no_verdict_to_agree_with(tmp_path):
    """google-adk 2.x on 3.10 is not-applicable for its Requires-Python: that is no answer about the bug,
    so it neither disagrees with 3.12's verdicts nor stands for 3.12 (an audit of 1.30.0 on 3.12 said
    86 unknown for it, then failed to render an answer inferred from interpreters)."""
    unsupported = f"openai-agents 0.17.1{interpreters.UNSUPPORTED}3.10: Requires-Python >=3.11"
    results = [row("0.17.1", "fixed"), row("0.17.1", "fixed", python="3.12")]
    results += [row("0.17.1", "not-applicable", python="3.10", detail=unsupported), row("0.16.1", "reproduced")]
    root = _root_with(tmp_path, results)
    on_312 = audit.knowledge(root, [registry.discover()[GENERIC]], "3.12")[f"{GENERIC}:dict-str-int"]
    inferred = on_312.answer("0.16.1")
    assert (inferred.outcome, inferred.basis, inferred.elsewhere) == ("reproduced", audit.INFERRED, ("3.11",))
    assert audit_report._basis_words(inferred).startswith("inferred: 0.16.1 was not run on CPython 3.12;")
    # Nor does its own refusal disagree with the others (an audit of google-adk 1.20.0 on 3.10 said 84 unknown).
    on_310 = audit.knowledge(root, [registry.discover()[GENERIC]], "3.10")[f"{GENERIC}:dict-str-int"]
    assert (on_310.answer("0.16.1").outcome, on_310.answer("0.16.1").basis) == ("reproduced", audit.INFERRED)
    assert on_310.answer("0.17.1").outcome == "not-applicable"


def test_the_record_s_audit_of_0_17_0_differs_on_3_10(capsys):
    """Done-when of issue 46: the audit for openai-agents==0.17.0 --python 3.10 says what 3.10 measured."""
    for python, outcome in (("3.10", "fixed"), ("3.12", "reproduced")):
        code = main(["audit", "openai-agents==0.17.0", "--python", python, "--format", "json", "--only", GENERIC])
        document = json.loads(capsys.readouterr().out)
        assert document["target"]["interpreter"] == python
        (bugs,) = [a["bugs"] for a in document["releases"]]
        answer = {b["id"]: b for b in bugs}[f"{GENERIC}:dict-str-int"]
        assert (answer["outcome"], answer["basis"]) == (outcome, "measured")
        assert code == (1 if outcome == "reproduced" else 0)


FRAMEWORK_FLOOR = {"openai-agents": "3.10", "google-adk": "3.11"}  # the newest releases' Requires-Python floors


def test_each_script_s_requires_python_floor_was_measured_or_is_the_framework_s():
    """A script's header names the oldest interpreter it is for: one the record measured it on with a
    verdict (not not-applicable), or its framework's own floor (the guide: CONTRIBUTING.md)."""
    document = json.loads((ROOT / "reports" / "matrix.json").read_text())
    judged: dict[str, set[str]] = {}
    for r in document["results"]:
        if r["outcome"] not in ("not-applicable", "error"):
            judged.setdefault(r["scenario"], set()).add(r["python"])
    wrong = []
    for s in registry.discover().values():
        script = ROOT / "scenarios" / s.id / "repro.py"
        header = re.search(r'^# requires-python = ">=(3\.\d+)"', script.read_text(), re.M)
        floor = header.group(1) if header else None
        if floor not in judged.get(s.id, set()) | {FRAMEWORK_FLOOR[s.framework]}:
            wrong.append(f"{s.id}: requires-python >={floor}")
    assert wrong == []


def test_the_framework_floors_are_the_newest_releases_own():
    cache = ROOT / ".nox" / ".harness-cache"
    if not (cache / "openai-agents.json").exists():
        pytest.skip("no cached package index")
    for framework, floor in FRAMEWORK_FLOOR.items():
        newest = list(index.releases(framework, cache).values())[-1]
        assert interpreters.supports(newest.requires_python, floor), (framework, newest)
        older = f"3.{int(floor.split('.')[1]) - 1}"
        assert not interpreters.supports(newest.requires_python, older), (framework, newest)


def test_the_interpreter_running_the_tests_is_found_as_itself():
    minor = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert interpreters.find(minor) == Path(sys.executable)


def test_a_full_run_adds_the_newest_release_of_each_line_and_a_differing_scenario_s_whole_matrix(monkeypatch):
    known = {v: index.Release(v, "2026-01-01T00:00:00Z", False, ">=3.10") for v in ("0.16.1", "0.17.0", "0.17.1")}
    monkeypatch.setattr(index, "releases", lambda name, cache_dir: dict(known))
    scenarios = registry.discover()
    generic, other = scenarios[GENERIC], scenarios["agents-docstring-args-first"]
    selected = [(generic, c) for c in generic.cases] + [(other, c) for c in other.cases]
    members = {GENERIC: ["0.16.1", "0.17.0", "0.17.1"], other.id: ["0.16.1", "0.17.1"]}
    plan = interpreter_axis.extras(selected, members, [], Path("."), found=["3.10", "3.11", "3.13"])
    assert sorted((b.version, b.python, len(cases)) for b, cases in plan) == [
        ("0.17.1", "3.10", len(selected)),
        ("0.17.1", "3.13", len(selected)),
    ]
    differing = [row("0.17.0", "reproduced"), row("0.17.0", "fixed", python="3.10")]
    plan = interpreter_axis.extras(selected, members, differing, Path("."), found=["3.10", "3.11", "3.13"])
    on_310 = sorted((b.version, len(cases)) for b, cases in plan if b.python == "3.10")
    # 3.10 lacks results of 0.16.1 and 0.17.1: the whole matrix, to find its boundaries there.
    assert on_310 == [("0.16.1", len(generic.cases)), ("0.17.0", len(generic.cases)), ("0.17.1", len(selected))]
    assert all(b.python != interpreters.DEFAULT for b, _ in plan)


def test_a_differing_scenario_whose_matrix_is_measured_keeps_both_sides_of_its_steps_measured(monkeypatch):
    """Once the record holds an interpreter's result for every release of the matrix, a full run
    measures there only the newest release of each line and both sides of each step, on that
    interpreter or the default one: rerunning generic-dict's 24 releases on 3.10 and mcp-stdio's 25
    on three interpreters made the default cold run 1.45x the release axis's (issue 46: at most 1.3x)."""
    versions_ = ("0.0.11", "0.0.12", "0.16.1", "0.17.0", "0.17.1", "0.24.0")
    known = {v: index.Release(v, "2026-01-01T00:00:00Z", False, ">=3.10") for v in versions_}
    monkeypatch.setattr(index, "releases", lambda name, cache_dir: dict(known))
    generic = registry.discover()[GENERIC]
    selected = [(generic, c) for c in generic.cases if c.id == "dict-str-int"]
    on_311 = ("not-applicable", "reproduced", "reproduced", "reproduced", "fixed", "fixed")
    on_310 = ("not-applicable", "fixed", "fixed", "fixed", "fixed", "fixed")
    recorded = [row(v, o) for v, o in zip(versions_, on_311, strict=True)]
    recorded += [row(v, o, python="3.10") for v, o in zip(versions_, on_310, strict=True)]
    plan = interpreter_axis.extras(selected, {GENERIC: list(versions_)}, recorded, Path("."), found=["3.10", "3.11"])
    # 0.0.11 | 0.0.12 (both interpreters), 0.17.0 | 0.17.1 (3.11's step), 0.24.0 (the newest): not 0.16.1.
    assert sorted((b.version for b, _ in plan), key=versions.key) == ["0.0.11", "0.0.12", "0.17.0", "0.17.1", "0.24.0"]


def test_a_report_lists_the_default_interpreter_s_environment_once(tmp_path):
    """The first full run with the axis listed a release's 3.10 environment beside its 3.11 one in
    every report of the release axis (which shows the default interpreter's results)."""
    from harness.rendering import reports
    from harness.store.staging import Staging

    env = {"source": "openai-agents==0.17.0", "framework": "openai-agents", "version": "0.17.0"}
    environments = [
        {**env, "interpreter": py, "python": f"{py}.1", "packages": [f"pkg-on-{py}==1"]} for py in ("3.10", "3.11")
    ]
    document = record.Record.of([row("0.17.0", "reproduced"), row("0.17.0", "fixed", python="3.10")], environments)
    with Staging(tmp_path) as stage:
        reports.write_all(document, {GENERIC: registry.discover()[GENERIC]}, tmp_path, stage)
    text = (tmp_path / f"{GENERIC}.md").read_text()
    assert text.count("<summary>openai-agents==0.17.0: 1 packages") == 1
    assert "pkg-on-3.11==1" in text and "pkg-on-3.10==1" not in text


def test_a_candidate_is_judged_against_the_baseline_on_the_same_interpreter():
    """``candidate --python``: each interpreter's candidate result against that interpreter's baseline
    result, the summary naming the interpreter; a lost fix on 3.10 alone fails the check."""
    from harness.execution import candidate

    def local(outcome, python):
        r = row("0.17.1", outcome, python)
        return Row(r.result, r.framework, "0.17.2.dev0", "local:openai-agents", snapshot="match", python=python)

    results = [
        row("0.17.1", "fixed"),
        row("0.17.1", "fixed", "3.10"),
        local("fixed", interpreters.DEFAULT),
        local("reproduced", "3.10"),
    ]
    found = candidate.changes(results, "openai-agents==0.17.1", "local:openai-agents")
    assert [(c.label, c.kind, c.fails) for c in found] == [
        (f"{GENERIC}:dict-str-int", "unchanged", False),
        (f"{GENERIC}:dict-str-int on CPython 3.10", "regression", True),
    ]


def test_bisect_and_candidate_take_python_in_nox_s_spelling(capsys):
    assert main(["bisect", GENERIC, "--python", "3.99"]) == 2
    assert main(["candidate", str(ROOT), "--python", "3.99"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(
        line.startswith("error: --python 3.99: no CPython 3.99 on this machine") for line in err
    )


@pytest.mark.parametrize(
    ("only", "said"),
    [
        ("no-such-bug", "unknown scenario 'no-such-bug'"),
        ("agents-run-sync-closed-loop", "--only agents-run-sync-closed-loop: not a google-adk scenario"),
    ],
)
def test_candidate_only_refuses_what_is_not_the_candidate_s_in_one_line(tmp_path, only, said, capsys):
    """``candidate --only``: an unknown id or another framework's scenario is one line, exit 2, before
    anything is built or written."""
    tree = tmp_path / "checkout"
    tree.mkdir()
    (tree / "pyproject.toml").write_text('[project]\nname = "google-adk"\nversion = "2.13.0"\n')
    out = tmp_path / "evidence"
    assert main(["candidate", str(tree), "--out", str(out), "--only", only]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and said in err and err.count("\n") == 1
    assert not out.exists()
