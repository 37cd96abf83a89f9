"""Bisect: the search with a fake evaluator (fast), the command's input errors and record, and
one real bisect over google-adk releases (slow: builds environments with uv)."""

from __future__ import annotations

import io
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.commands import cli
from harness.execution import bisect, environments
from harness.execution.run import RunSettings
from harness.planning import index
from harness.project import Project
from harness.runtime import registry
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED
from harness.store import bisect_record, boundaries, record, result_cache
from harness.store.rows import Row

ROOT = Path(__file__).resolve().parent.parent
RETRY = "adk-retry-same-invocation-id"


def releases(n: int) -> list[str]:
    return [f"1.{i}.0" for i in range(n)]


class Fake:
    """An evaluator from a table: version -> {case: outcome or (outcome, detail)}; counts calls."""

    def __init__(self, table: dict[str, dict]):
        self.table = table
        self.calls: list[str] = []

    def __call__(self, version: str):
        self.calls.append(version)
        return self.table[version]


def one_case(vs: list[str], outcome_of, case: str = "c") -> Fake:
    return Fake({v: {case: outcome_of(i)} for i, v in enumerate(vs)})


def run_search(vs, fake, cases=("c",)):
    lines: list[str] = []
    search, results = bisect.bisect(vs, list(cases), fake, progress=lines.append)
    return search, results, lines


def sides(boundary) -> tuple:
    return (boundary.before.version, boundary.before.outcome, boundary.after.version, boundary.after.outcome)


# --- the search -------------------------------------------------------------------------


@pytest.mark.parametrize("n,first_fixed", [(2, 1), (7, 3), (64, 37), (91, 1), (91, 90), (100, 50)])
def test_a_single_boundary_is_found_with_about_log2_probes(n, first_fixed):
    vs = releases(n)
    fake = one_case(vs, lambda i: REPRODUCED if i < first_fixed else FIXED)
    _search, [result], lines = run_search(vs, fake)
    [b] = result.boundaries
    assert sides(b) == (vs[first_fixed - 1], REPRODUCED, vs[first_fixed], FIXED)
    assert b.summary == f"first fixed in {vs[first_fixed]}"
    assert len(fake.calls) == len(set(fake.calls)) <= 2 + math.ceil(math.log2(n - 1))
    assert lines[0].startswith("[probe 1] 1.0.0: reproduced")
    assert result.skipped == []


def test_reproduced_fixed_reproduced_gives_every_boundary_visible_at_probed_releases():
    vs = releases(32)
    fake = one_case(
        vs, lambda i: NOT_APPLICABLE if i < 4 else REPRODUCED if i < 12 else FIXED if i < 24 else REPRODUCED
    )
    _, [result], _ = run_search(vs, fake)
    assert [sides(b) for b in result.boundaries] == [
        ("1.3.0", NOT_APPLICABLE, "1.4.0", REPRODUCED),
        ("1.11.0", REPRODUCED, "1.12.0", FIXED),
        ("1.23.0", FIXED, "1.24.0", REPRODUCED),
    ]
    assert [b.summary for b in result.boundaries] == [
        "first measurable in 1.4.0 (reproduces; not applicable before)",
        "first fixed in 1.12.0",
        "came back in 1.24.0",
    ]
    assert len(fake.calls) <= 2 + 3 * math.ceil(math.log2(31))


def test_probes_made_for_one_case_reveal_a_flip_back_in_another():
    # Case b's ends agree (reproduced); case a's probes land in b's fixed stretch.
    vs = releases(40)
    fake = Fake(
        {
            v: {"a": REPRODUCED if i < 12 else FIXED, "b": FIXED if 12 <= i < 30 else REPRODUCED}
            for i, v in enumerate(vs)
        }
    )
    _, [a, b], _ = run_search(vs, fake, cases=("a", "b"))
    assert [x.summary for x in a.boundaries] == ["first fixed in 1.12.0"]
    assert [sides(x) for x in b.boundaries] == [
        ("1.11.0", REPRODUCED, "1.12.0", FIXED),
        ("1.29.0", FIXED, "1.30.0", REPRODUCED),
    ]
    assert [x.summary for x in b.boundaries] == ["first fixed in 1.12.0", "came back in 1.30.0"]
    assert len(fake.calls) == len(set(fake.calls))


def test_not_applicable_then_reproduced_is_first_measurable_never_introduced():
    """Issue 45: a not-applicable release is a script's limit, not a release without the bug."""
    vs = releases(20)
    fake = one_case(vs, lambda i: NOT_APPLICABLE if i < 5 else REPRODUCED if i < 14 else FIXED)
    _, [result], _ = run_search(vs, fake)
    assert [b.summary for b in result.boundaries] == [
        "first measurable in 1.5.0 (reproduces; not applicable before)",
        "first fixed in 1.14.0",
    ]
    # A non-regression case: correct when its API arrives, the guard breaks it later.
    fake = one_case(vs, lambda i: NOT_APPLICABLE if i < 5 else FIXED if i < 14 else REPRODUCED)
    _, [result], _ = run_search(vs, fake)
    assert [b.summary for b in result.boundaries] == [
        "first applicable in 1.5.0, already fixed",
        "introduced in 1.14.0",
    ]


def test_a_flip_and_flip_back_inside_an_interval_with_equal_ends_is_not_seen():
    # Documented limitation: ends agree (reproduced), so the interval is never split.
    vs = releases(16)
    fake = one_case(vs, lambda i: FIXED if i in (3, 4) else REPRODUCED)
    _, [result], _ = run_search(vs, fake)
    assert result.boundaries == [] and fake.calls == ["1.0.0", "1.15.0"]


def test_error_and_install_failure_are_skipped_and_reported_never_boundaries():
    vs = releases(16)
    install = (ERROR, "install failed: no matching distribution for pydantic<2")

    def outcome(i):
        if i == 7:  # the first midpoint
            return install
        if i == 11:
            return (ERROR, "timed out after 60s (worker killed)")
        return REPRODUCED if i < 12 else FIXED

    fake = one_case(vs, outcome)
    _, [result], lines = run_search(vs, fake)
    [b] = result.boundaries
    assert sides(b) == ("1.10.0", REPRODUCED, "1.12.0", FIXED)
    assert b.skipped_between == ("1.11.0",)
    assert b.summary == "first fixed between 1.10.0 and 1.12.0, not bisected (untested: 1.11.0)"
    assert result.skipped == [("1.7.0", install[1]), ("1.11.0", "timed out after 60s (worker killed)")]
    assert "[probe 3] 1.7.0: error" in lines
    assert len(fake.calls) == len(set(fake.calls))  # each release evaluated once


def test_skipped_ends_walk_inward_to_the_nearest_release_with_an_answer():
    vs = releases(12)
    fake = one_case(
        vs, lambda i: (ERROR, "worker died") if i in (0, 1, 11) else NOT_APPLICABLE if i < 6 else REPRODUCED
    )
    _, [result], _ = run_search(vs, fake)
    assert [sides(b) for b in result.boundaries] == [("1.5.0", NOT_APPLICABLE, "1.6.0", REPRODUCED)]
    assert [v for v, _ in result.skipped] == ["1.0.0", "1.1.0", "1.11.0"]
    assert fake.calls[:4] == ["1.0.0", "1.1.0", "1.2.0", "1.11.0"]


def test_a_release_with_no_answer_at_all_gives_no_boundary():
    vs = releases(5)
    fake = one_case(vs, lambda i: (ERROR, "install failed: x"))
    _, [result], _ = run_search(vs, fake)
    assert result.boundaries == [] and not result.answered and len(result.skipped) == 5


def test_all_cases_are_evaluated_per_release_and_each_release_once():
    vs = releases(30)

    def row(i):
        return {
            "a": REPRODUCED if i < 20 else FIXED,
            "b": REPRODUCED if i < 20 else FIXED,  # same boundary: no extra probe
            "c": NOT_APPLICABLE if i < 6 else FIXED if i < 20 else REPRODUCED,
        }

    fake = Fake({v: row(i) for i, v in enumerate(vs)})
    search, results, lines = run_search(vs, fake, cases=("a", "b", "c"))
    assert [[b.summary for b in r.boundaries] for r in results] == [
        ["first fixed in 1.20.0"],
        ["first fixed in 1.20.0"],
        ["first applicable in 1.6.0, already fixed", "introduced in 1.20.0"],
    ]
    assert len(fake.calls) == len(set(fake.calls)) == len(search.order)
    after_a = len(search.order)
    assert after_a <= 2 + math.ceil(math.log2(29)) + math.ceil(math.log2(29))
    assert lines[0] == "[probe 1] 1.0.0: a reproduced, b reproduced, c not-applicable"


# --- the command: input errors, the record -------------------------------------------------


@pytest.fixture
def fake_index(monkeypatch):
    known = {
        v: index.Release(v, "2025-01-01T00:00:00Z", yanked=False)
        for v in ("2.7.0", "2.7.1", "2.8.0", "2.9.0a1", "2.9.0", "2.9.1", "2.10.0")
    }
    known["2.9.1"] = index.Release("2.9.1", "2025-01-01T00:00:00Z", yanked=True)
    monkeypatch.setattr(index, "releases", lambda name, cache_dir: known)
    return known


@pytest.mark.parametrize(
    "argv,message",
    [
        (["no-such-scenario"], "unknown scenario 'no-such-scenario'"),
        ([f"{RETRY}:no-such-case"], "unknown case 'no-such-case'"),
        ([RETRY, "--framework", "langchain"], "unknown framework 'langchain'"),
        ([RETRY, "--framework", "openai-agents"], f"scenario {RETRY} runs on google-adk, not openai-agents"),
        ([RETRY, "--from", "9.9.9"], "--from 9.9.9: google-adk 9.9.9 is not on the package index"),
        ([RETRY, "--to", "2.9.0a1"], "--to 2.9.0a1: google-adk 2.9.0a1 is a pre-release"),
        ([RETRY, "--to", "2.9.1"], "--to 2.9.1: google-adk 2.9.1 is yanked"),
        ([RETRY, "--from", "2.10.0", "--to", "2.7.0"], "--from 2.10.0 is newer than --to 2.7.0"),
        ([RETRY, "--timeout", "soon"], "argument --timeout: 'soon' is not a number"),
        ([], "bisect needs SCENARIO[:CASE] (or --commits CLONE --all)"),
    ],
)
def test_bad_input_is_refused_in_one_line_with_exit_2(argv, message, fake_index, capsys):
    assert cli.main(["bisect", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: ") and message in captured.err
    assert captured.err.count("\n") == 1


def test_the_record_is_merged_deterministic_and_says_each_side(fake_index, tmp_path, capsys):
    (tmp_path / "reports").mkdir()
    record = tmp_path / "reports" / "bisect.json"
    other = {
        "scenario": "adk-other",
        "case": "x",
        "framework": "google-adk",
        "from": "1.0.0",
        "to": "2.0.0",
        "boundaries": [],
        "skipped": [],
    }
    stale = {**other, "scenario": RETRY, "case": "resumable-resume"}
    record.write_text(json.dumps({"schema_version": 1, "bisects": [stale, other]}))
    table = {
        "2.7.0": REPRODUCED,
        "2.7.1": REPRODUCED,
        "2.8.0": REPRODUCED,
        "2.9.0": (ERROR, "install failed: nope"),
        "2.10.0": FIXED,
    }
    fake = Fake({v: {"resumable-resume": o} for v, o in table.items()})
    out = io.StringIO()
    options = bisect.Options(selector=f"{RETRY}:resumable-resume", root=tmp_path)
    assert bisect.run(options, evaluate=fake, out=out) == 0
    text = out.getvalue()
    assert (
        f"{RETRY}:resumable-resume: reproduced on google-adk 2.8.0 -> fixed on google-adk 2.10.0 "
        "(first fixed between 2.8.0 and 2.10.0, not bisected (untested: 2.9.0))"
    ) in text
    assert f"nox -s matrix -- --only {RETRY}:resumable-resume google-adk==2.8.0" in text
    assert f"nox -s matrix -- --only {RETRY}:resumable-resume google-adk==2.10.0" in text
    assert f"{RETRY}:resumable-resume: skipped google-adk 2.9.0: install failed: nope" in text
    assert "wall time" in text
    err = capsys.readouterr().err
    assert "not tested (pre-releases and yanked): 2.9.0a1, 2.9.1" in err

    first = record.read_bytes()
    doc = json.loads(first)
    # Schema 1 is upgraded: its ranges are kept beside the new one; every probe is recorded.
    assert doc["schema_version"] == bisect_record.SCHEMA_VERSION
    assert [(b["scenario"], b["case"], b["from"], b["to"]) for b in doc["bisects"]] == [
        ("adk-other", "x", "1.0.0", "2.0.0"),
        (RETRY, "resumable-resume", "1.0.0", "2.0.0"),
        (RETRY, "resumable-resume", "2.7.0", "2.10.0"),
    ]
    assert [(p["version"], p["outcome"], p["detail"]) for p in doc["probes"]] == [
        ("2.7.0", REPRODUCED, ""),
        ("2.8.0", REPRODUCED, ""),
        ("2.9.0", ERROR, "install failed: nope"),
        ("2.10.0", FIXED, ""),
    ]
    assert doc["releases"] == {"google-adk": ["2.7.0", "2.7.1", "2.8.0", "2.9.0", "2.10.0"]}
    assert first.decode() == json.dumps(doc, indent=2, sort_keys=True) + "\n"
    again = Fake(fake.table)
    bisect.run(options, evaluate=again, out=io.StringIO())
    assert record.read_bytes() == first  # a re-run writes the same bytes
    assert again.calls == ["2.9.0"]  # ... and asks only the release that gave no answer


def test_two_bisects_over_different_ranges_both_stand(fake_index, tmp_path):
    (tmp_path / "reports").mkdir()
    table = {"2.7.0": REPRODUCED, "2.7.1": FIXED, "2.8.0": FIXED, "2.9.0": REPRODUCED, "2.10.0": REPRODUCED}
    fake = Fake({v: {"resumable-resume": o} for v, o in table.items()})
    sel = f"{RETRY}:resumable-resume"
    bisect.run(
        bisect.Options(selector=sel, start="2.7.0", end="2.7.1", root=tmp_path), evaluate=fake, out=io.StringIO()
    )
    out = io.StringIO()
    bisect.run(bisect.Options(selector=sel, start="2.8.0", end="2.10.0", root=tmp_path), evaluate=fake, out=out)
    doc = json.loads((tmp_path / "reports" / "bisect.json").read_text())
    assert [(b["from"], b["to"]) for b in doc["bisects"]] == [("2.7.0", "2.7.1"), ("2.8.0", "2.10.0")]
    typed = bisect_record.load(tmp_path / "reports" / "bisect.json")
    known = boundaries.known(typed, [], RETRY, "resumable-resume", "google-adk")
    assert [b.summary for b in known.boundaries] == ["first fixed in 2.7.1", "came back in 2.9.0"]
    assert f"{sel}: from every bisect and the record: first fixed in 2.7.1; came back in 2.9.0" in out.getvalue()
    assert (
        "boundary releases joining the matrix of adk-retry-same-invocation-id: 2.7.0, 2.7.1, 2.8.0, 2.9.0"
        in out.getvalue()
    )


def test_a_bisect_starts_from_the_record_and_sees_a_release_reproducing_in_the_middle(fake_index, tmp_path):
    """Both ends fixed, the record holds 2.8.0 reproduced: the search must look around it."""
    (tmp_path / "reports").mkdir()
    result = {
        "scenario": RETRY,
        "case": "resumable-resume",
        "framework": "google-adk",
        "version": "2.8.0",
        "source": "google-adk==2.8.0",
        "outcome": REPRODUCED,
        "detail": "d",
        "snapshot": "match",
        "snapshot_base": "2.8.0",
        "timeline": "",
    }
    (tmp_path / "reports" / "matrix.json").write_text(record.dumps(record.Record.of([Row.from_json(result)], [], {})))
    table = {"2.7.0": FIXED, "2.7.1": FIXED, "2.8.0": REPRODUCED, "2.9.0": FIXED, "2.10.0": FIXED}
    fake = Fake({v: {"resumable-resume": o} for v, o in table.items()})
    out = io.StringIO()
    bisect.run(bisect.Options(selector=f"{RETRY}:resumable-resume", root=tmp_path), evaluate=fake, out=out)
    assert "2.8.0" not in fake.calls  # known from the record, not evaluated again
    assert "introduced in 2.8.0" in out.getvalue() and "fixed again in 2.9.0" in out.getvalue()


def test_an_unmergeable_record_is_refused_before_any_work(fake_index, tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "bisect.json").write_text("{not json")
    fake = Fake({})
    with pytest.raises(record.RecordError, match=r"bisect\.json cannot be read"):
        bisect.run(bisect.Options(selector=RETRY, root=tmp_path), evaluate=fake)
    assert fake.calls == []


def test_an_install_failure_is_an_error_for_every_case_of_that_release(monkeypatch, tmp_path):
    def fail(build, root, cache_dir, today=False, recorded=None):
        raise environments.BuildFailed(f"No solution found: {tmp_path}/x/y.whl needs pydantic<1")

    monkeypatch.setattr(
        bisect.builds_mod,
        "parse",
        lambda spec, cache_dir: bisect.builds_mod.Build("google-adk", spec, spec, "2.0.0", True),
    )
    monkeypatch.setattr(environments, "ensure", fail)
    scenario = registry.discover()[RETRY]
    cases = ["resumable-resume", "non-resumable-retry"]
    evaluator = bisect.EnvironmentEvaluator("google-adk", scenario, cases, RunSettings(Project(tmp_path)))
    detail = "install failed: No solution found: y.whl needs pydantic<1"
    assert evaluator("2.0.0") == dict.fromkeys(cases, (ERROR, detail))
    assert evaluator.failed == ["2.0.0"] and evaluator.built == evaluator.reused == []


# --- end to end: real environments ----------------------------------------------------------


@pytest.mark.slow
def test_bisect_finds_where_google_adk_fixed_the_duplicate_user_event_on_resume(tmp_path):
    for name in ("harness", "scenarios"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    argv = [f"{RETRY}:resumable-resume", "--from", "2.7.0", "--to", "2.10.0"]
    command = [
        sys.executable,
        "-c",
        "import sys; from harness.commands import cli; sys.exit(cli.main(['bisect', *sys.argv[1:]]))",
        *argv,
    ]
    first = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    # 2.7.0 2.7.1 2.8.0 2.9.0 2.9.1 2.9.2 2.10.0: the duplicate check arrived in 2.9.0.
    assert (
        f"{RETRY}:resumable-resume: reproduced on google-adk 2.8.0 -> fixed on google-adk 2.9.0 (first fixed in 2.9.0)"
    ) in first.stdout
    assert f"nox -s matrix -- --only {RETRY}:resumable-resume google-adk==2.9.0" in first.stdout
    assert "[probe 1] google-adk==2.7.0: reproduced" in first.stderr
    doc = json.loads((tmp_path / "reports" / "bisect.json").read_text())
    [entry] = doc["bisects"]
    assert (entry["from"], entry["to"]) == ("2.7.0", "2.10.0")
    assert [(p["version"], p["outcome"]) for p in doc["probes"]] == [
        ("2.7.0", "reproduced"),
        ("2.7.1", "reproduced"),
        ("2.8.0", "reproduced"),
        ("2.9.0", "fixed"),
        ("2.10.0", "fixed"),
    ]
    # 2.7.0 and 2.10.0, then 2.9.0 (fixed), 2.7.1 and 2.8.0 (reproduced): 2 + log2(6) probes.
    assert "bisect: 5 probes (2.7.0, 2.10.0, 2.9.0, 2.7.1, 2.8.0); 5 environments built, 0 reused" in first.stdout
    # Environments live where the matrix keeps them, so a second bisect builds nothing.
    assert sorted(p.name for p in (tmp_path / ".nox" / "builds").iterdir() if p.is_dir()) == [
        f"google-adk-{v}" for v in ("2.10.0", "2.7.0", "2.7.1", "2.8.0", "2.9.0")
    ]
    # A second bisect starts from the probes: nothing to evaluate.
    known = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert known.returncode == 0, known.stderr
    assert (
        "bisect: 0 probes" in known.stdout and "starting from 5 releases whose outcome is already known" in known.stderr
    )
    again = subprocess.run([*command, "--rerun"], capture_output=True, text=True, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "0 environments built, 5 reused" in again.stdout
    assert "1 cases run" in again.stderr  # --rerun runs the case again, in the kept environment
    assert (tmp_path / "reports" / "bisect.json").read_text() == json.dumps(doc, indent=2, sort_keys=True) + "\n"


def test_a_widened_case_is_bisected_and_reported_from_its_new_code_only(fake_index, tmp_path, capsys):
    """Issue 30: a probe or result answered by an older version of the case is not knowledge about
    the new one. The old code said not-applicable on 2.7.0-2.8.0; the edited one applies there."""
    scenario = registry.discover()[RETRY]
    (tmp_path / "scenarios").mkdir()
    folder = tmp_path / "scenarios" / RETRY  # the bug folder: its script and its declaration
    shutil.copytree(ROOT / "scenarios" / RETRY, folder, ignore=shutil.ignore_patterns("__pycache__"))
    script = folder / "repro.py"
    (tmp_path / "reports").mkdir()
    sel, case = f"{RETRY}:resumable-resume", "resumable-resume"
    old_inputs = result_cache.scenario_inputs(tmp_path, scenario.module)
    row = {
        "scenario": RETRY,
        "case": case,
        "framework": "google-adk",
        "version": "2.7.1",
        "source": "google-adk==2.7.1",
        "outcome": NOT_APPLICABLE,
        "detail": "d",
        "snapshot": "match",
        "snapshot_base": "2.7.1",
        "timeline": "",
        "inputs": old_inputs,
    }
    (tmp_path / "reports" / "matrix.json").write_text(record.dumps(record.Record.of([Row.from_json(row)], [], {})))
    old = {"2.7.0": NOT_APPLICABLE, "2.7.1": NOT_APPLICABLE, "2.8.0": NOT_APPLICABLE, "2.9.0": FIXED, "2.10.0": FIXED}
    first = io.StringIO()
    bisect.run(
        bisect.Options(selector=sel, root=tmp_path), evaluate=Fake({v: {case: o} for v, o in old.items()}), out=first
    )
    assert "first applicable in 2.9.0, already fixed" in first.getvalue()
    assert {p["inputs"] for p in json.loads((tmp_path / "reports" / "bisect.json").read_text())["probes"]} == {
        old_inputs
    }

    script.write_text(script.read_text() + "\n# widened: the case now applies to every release\n")
    new_inputs = result_cache.scenario_inputs(tmp_path, scenario.module)
    assert new_inputs != old_inputs
    new = {"2.7.0": REPRODUCED, "2.7.1": REPRODUCED, "2.8.0": REPRODUCED, "2.9.0": FIXED, "2.10.0": FIXED}
    fake = Fake({v: {case: o} for v, o in new.items()})
    capsys.readouterr()
    out = io.StringIO()
    bisect.run(bisect.Options(selector=sel, root=tmp_path), evaluate=fake, out=out)
    text, err = out.getvalue(), capsys.readouterr().err
    # Every release the old code answered is asked again; nothing old is reused or contradicts.
    assert {"2.7.0", "2.8.0", "2.9.0", "2.10.0"} <= set(fake.calls)
    assert "already known" not in err and "ignoring 5 probes and results answered by an older version" in err
    assert f"{sel}: from every bisect and the record: first fixed in 2.9.0\n" in text
    assert "applicable" not in text
    typed = bisect_record.load(tmp_path / "reports" / "bisect.json")
    assert boundaries.known(typed, [Row.from_json(row)], RETRY, case, "google-adk", new_inputs).points == {
        v: new[v] for v in fake.calls
    }
    # The reports quote the same boundaries: the scenario's report is re-rendered from the record.
    report = (tmp_path / "reports" / f"{RETRY}.md").read_text()
    assert "first fixed in 2.9.0" in report and "applicable in" not in report


def test_the_declarations_words_are_not_the_scenarios_digest(tmp_path):
    """Editing bug.py (a claim's or an explanation's words) keeps every result and probe current;
    editing the script or a data file of the folder does not (result_cache.scenario_inputs)."""
    scenario = registry.discover()[RETRY]
    folder = tmp_path / "scenarios" / RETRY
    shutil.copytree(ROOT / "scenarios" / RETRY, folder, ignore=shutil.ignore_patterns("__pycache__"))
    digest = result_cache.scenario_inputs(tmp_path, scenario.module)
    (folder / "bug.py").write_text((folder / "bug.py").read_text() + "\n# the thread's claim, reworded\n")
    assert result_cache.scenario_inputs(tmp_path, scenario.module) == digest
    (folder / "data.json").write_text("{}\n")
    with_data = result_cache.scenario_inputs(tmp_path, scenario.module)
    assert with_data != digest
    (folder / "repro.py").write_text((folder / "repro.py").read_text() + "\n# widened\n")
    assert result_cache.scenario_inputs(tmp_path, scenario.module) not in (digest, with_data)


def test_a_bisect_on_another_interpreter_is_its_own_knowledge(fake_index, tmp_path, capsys):
    """Issue 46: ``bisect --python 3.12`` records probes and its range with the interpreter, prints the
    matrix command with --python, and neither what it found nor the default's probes stand for the other."""
    (tmp_path / "reports").mkdir()
    sel = f"{RETRY}:resumable-resume"
    table = {"2.7.0": REPRODUCED, "2.7.1": REPRODUCED, "2.8.0": FIXED, "2.9.0": FIXED, "2.10.0": FIXED}
    on_default = Fake({v: {"resumable-resume": o} for v, o in table.items()})
    bisect.run(bisect.Options(selector=sel, root=tmp_path), evaluate=on_default, out=io.StringIO())
    elsewhere = Fake({v: {"resumable-resume": REPRODUCED} for v in table})
    out = io.StringIO()
    assert bisect.run(bisect.Options(selector=sel, root=tmp_path, python=["3.12"]), evaluate=elsewhere, out=out) == 0
    text = out.getvalue()
    assert f"{sel} on 3.12: no boundary: reproduced on every tested release" in text
    assert "from every bisect and the record on CPython 3.12: no outcome change" in text
    assert elsewhere.calls == ["2.7.0", "2.10.0"]  # the default's probes are not 3.12's knowledge
    doc = json.loads((tmp_path / "reports" / "bisect.json").read_text())
    assert sorted((p["version"], p.get("python", "")) for p in doc["probes"]) == [
        ("2.10.0", ""),
        ("2.10.0", "3.12"),
        ("2.7.0", ""),
        ("2.7.0", "3.12"),
        ("2.7.1", ""),
        ("2.8.0", ""),
    ]
    assert [b.get("python") for b in doc["bisects"]] == [None, "3.12"]
    typed = bisect_record.load(tmp_path / "reports" / "bisect.json")
    default = boundaries.known(typed, [], RETRY, "resumable-resume", "google-adk")
    assert [b.summary for b in default.boundaries] == ["first fixed in 2.8.0"]
    assert boundaries.known(typed, [], RETRY, "resumable-resume", "google-adk", python="3.12").boundaries == []
    assert boundaries.boundary_releases(typed, [], RETRY, "google-adk") == {"2.7.1", "2.8.0"}


def test_the_evaluator_says_not_applicable_where_the_release_excludes_the_interpreter(fake_index, tmp_path):
    """A release whose Requires-Python excludes the interpreter is not-applicable there, with the reason,
    and nothing is built for it."""
    fake_index["2.10.0"] = index.Release("2.10.0", "2025-01-01T00:00:00Z", False, ">=3.10")
    scenario = registry.discover()[RETRY]
    evaluator = bisect.EnvironmentEvaluator(
        "google-adk", scenario, ["resumable-resume"], RunSettings(Project(tmp_path)), python="3.9"
    )
    said = evaluator("2.10.0")
    assert said == {
        "resumable-resume": (
            NOT_APPLICABLE,
            "google-adk 2.10.0 does not support CPython 3.9: its Requires-Python is >=3.10",
        )
    }
    assert evaluator.built == evaluator.reused == evaluator.failed == []
