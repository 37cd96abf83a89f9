"""Issue 49: each fault the issue lists, reproduced and shown held.

Each test's docstring names the fault it guards and what the unchanged code did.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.errors import UsageError
from harness.execution import matrix
from harness.runtime.result import CaseResult
from harness.runtime.runner import strip_paths
from harness.store.rows import Row
from harness.store.snapshots import Key, SnapshotCorrupt, SnapshotStore
from test_record import RETRY, TOOL, Table, every_adk, files, make_project, run

ROOT = Path(__file__).resolve().parent.parent


def harness(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, cwd=cwd)


def reports(project: Path) -> dict[Path, bytes]:
    """Every report's bytes (not the record's lock file, .record.lock, which a run leaves)."""
    return {p: p.read_bytes() for p in (project / "reports").rglob("*") if p.is_file() and p.name != ".record.lock"}


def copy_project(to: Path, *names: str) -> Path:
    """A copy of the project's folders ``names`` under ``to`` (its root)."""
    for name in names:
        shutil.copytree(ROOT / name, to / name, ignore=shutil.ignore_patterns("__pycache__", ".tmp-*"))
    return to


@pytest.mark.parametrize(
    "text",
    ["/" * 10_000, "/a" * 5_000, "/a" * 4_999 + " x", "/" * 9_998 + "a/", "a/" * 5_000, "/:" * 5_000],
    ids=["slashes", "a-path", "a-path-and-word", "slashes-then-name", "relative", "colons"],
)
def test_strip_paths_is_linear_on_adversarial_details(text):
    """A detail of 10k characters without spaces is stripped within 1 s. The old pattern
    (nested repeats, ``(?:/[^\\s'\\":]+)+/``) backtracked for minutes on a run of slashes."""

    def too_slow(signum, frame):
        raise TimeoutError("strip_paths ran longer than 2 s")

    # An alarm, so a super-linear version fails here instead of hanging the suite for minutes.
    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(2)
    try:
        started = time.monotonic()
        strip_paths(text)
        assert time.monotonic() - started < 1.0
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_strip_paths_keeps_its_output_on_ordinary_details():
    """The linear version strips what the pattern stripped: a path's folders, up to a package."""
    assert strip_paths("at /work/x/y.py: /usr/lib/python3/site-packages/a/b.py and /srv/src/p/q.py") == (
        "at y.py: a/b.py and p/q.py"
    )
    assert strip_paths("a/b c/d/e /x /x/ //y") == "a/b ce /x /x/ //y"


# --- a lone surrogate in a case's detail or timeline ------------------------------------------

SURROGATE = "got b'\\xff' as \udcff"  # what bytes decoded with errors="surrogateescape" give


def surrogate_table():
    """A fake run_build (tests/test_record.py ``Table``) whose RETRY case at 2.9.1 has SURROGATE
    in its detail and its timeline."""
    table = Table(every_adk)

    def build_run(build, cases, options, cache_dir, recorded=None, store=None, keep_warm=frozenset()):
        env, rows = table(build, cases, options, cache_dir, recorded, store)
        for i, row in enumerate(rows):
            if row.result.scenario == RETRY and build.version == "2.9.1":
                s, c = next((s, c) for s, c in cases if (s.id, c.id) == (RETRY, row.result.case))
                rows[i] = matrix._result(s, c, build, build.version, row.result.outcome, SURROGATE, SURROGATE + "\n")
        return env, rows

    return build_run


def test_a_lone_surrogate_marks_its_case_only_and_the_run_keeps_every_result(tmp_path, monkeypatch):
    """A case whose timeline and detail hold "\\udcff" is stored with the character escaped
    (``\\udcff``), the same way every run, and every other result is kept. Before, staging the
    record raised UnicodeEncodeError after every case had run, and the run's results were lost."""
    project = make_project(tmp_path, monkeypatch)
    args = ("--only", RETRY, "--only", TOOL, "--update-snapshots")
    assert run(project, monkeypatch, surrogate_table(), *args) == 0
    rows = json.loads((project / "reports" / "matrix.json").read_text(encoding="utf-8"))["results"]
    marked = [r for r in rows if r["detail"] != r["outcome"]]
    assert {(r["scenario"], r["version"], r["detail"]) for r in marked} == {(RETRY, "2.9.1", "got b'\\xff' as \\udcff")}
    cases = {(r["scenario"], r["case"]) for r in rows}
    assert len(rows) == 3 * len(cases)  # every case at 2.8.0, 2.9.1 and 2.10.0: nothing lost
    stored = files(project)

    # Deterministic: a second run from scratch writes the same bytes.
    shutil.rmtree(project / "reports")
    shutil.rmtree(project / "snapshots")
    (project / "snapshots" / "matrix").mkdir(parents=True)
    assert run(project, monkeypatch, surrogate_table(), *args) == 0
    assert files(project) == stored
    # Read back: a run compared with the stored timelines finds every one the same.
    assert run(project, monkeypatch, surrogate_table(), "--only", RETRY, "--only", TOOL) == 0
    again = json.loads((project / "reports" / "matrix.json").read_text(encoding="utf-8"))["results"]
    assert {r["snapshot"] for r in again} == {"match"}
    assert files(project / "snapshots") == {
        k.removeprefix("snapshots/"): v for k, v in stored.items() if k.startswith("snapshots/")
    }
    assert any(b"\\udcff" in v for k, v in stored.items() if k.startswith("snapshots/"))  # the timeline, escaped


def test_a_result_escapes_a_lone_surrogate_when_made():
    """The escaping happens where a result is made (the worker's, the wire's, the record's), once:
    an escaped result made again is unchanged."""
    made = CaseResult("s", "c", "error", "a \udcff b", "\udcff\n")
    assert (made.detail, made.timeline) == ("a \\udcff b", "\\udcff\n")
    assert CaseResult.from_dict(made.to_dict()) == made
    assert CaseResult("s", "c", "fixed", "é ✓", "日本\n").detail == "é ✓"  # other text as it was


# --- a snapshot file with a byte that is not UTF-8 ---------------------------------------------


def test_a_snapshot_that_is_not_utf8_is_a_damaged_store_in_one_line(tmp_path):
    """Reading a stored snapshot (to compare with it, or for its timeline) refuses a file that is
    not UTF-8 in one line naming it. Before, the read raised UnicodeDecodeError."""
    store = SnapshotStore(tmp_path / "snapshots")
    row = Row(CaseResult("adk-x", "c", "fixed", "d", "a\n"), "google-adk", "1.0.0", "google-adk==1.0.0")
    assert store.accept(row)
    (store.matrix / "adk-x" / "c" / "1.0.0.txt").write_bytes(b"outcome: fixed\ndetail: \xff\n\na\n")
    pair = dataclasses.replace(row, version="2.0.0", source="google-adk==2.0.0", from_version="1.0.0")
    store.own(Key.of(pair)).parent.mkdir(parents=True)
    store.own(Key.of(pair)).write_bytes(b"outcome: fixed\ndetail: \xff\n\na\n")
    for read in (
        lambda: store.timeline(dataclasses.replace(row, snapshot_base="1.0.0")),
        lambda: store.check(row),
        store.validate,
        lambda: store.timeline(pair),
        lambda: store.check(pair),
    ):
        with pytest.raises(SnapshotCorrupt) as err:
            read()
        assert "\n" not in str(err.value) and "is not UTF-8 text (a damaged snapshot store)" in str(err.value)
        assert str(err.value).startswith("snapshots/")


def test_report_refuses_a_snapshot_that_is_not_utf8_with_exit_2(tmp_path):
    """`python -m harness report` (which reads the record's timelines from the snapshots) names
    the damaged file in one line, exit 2, and rewrites no report. Before: a UnicodeDecodeError
    traceback."""
    project = copy_project(tmp_path, "harness", "scenarios", "snapshots", "reports", "upgrades")
    bad = sorted((project / "snapshots" / "matrix").glob("*/*/*.txt"))[0]
    bad.write_bytes(bad.read_bytes().replace(b"\n\n", b" \xff\n\n", 1))
    before = reports(project)
    out = harness("report", cwd=project)
    rel = bad.relative_to(project).as_posix()
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith(f"error: {rel} is not UTF-8 text") and out.stderr.count("\n") == 1
    assert reports(project) == before


# --- HARNESS_POOL_DIR naming a file --------------------------------------------------------------


@pytest.mark.parametrize(
    ("below", "said"),
    [("", "is a file, not a folder"), ("sub", "lies inside a file, not a folder")],
    ids=["the-file", "a-folder-in-the-file"],
)
@pytest.mark.parametrize("command", [("pool", "status"), ("matrix", "google-adk==2.13.0"), ("bisect", RETRY)])
def test_a_pool_dir_that_is_a_file_is_refused_in_one_line(tmp_path, command, below, said):
    """HARNESS_POOL_DIR naming a regular file (or a folder inside one) is refused before any work:
    one line naming the variable and what is valid, exit 2, the file as it was. Before: a
    FileExistsError (NotADirectoryError) traceback."""
    project = copy_project(tmp_path / "project", "harness", "scenarios")
    taken = tmp_path / "a-file"
    taken.write_text("mine")
    env = {**os.environ, "HARNESS_POOL_DIR": str(taken / below if below else taken)}
    out = subprocess.run(
        [sys.executable, "-m", "harness", *command], capture_output=True, text=True, cwd=project, env=env
    )
    assert out.returncode == 2, out.stderr
    line = out.stderr
    assert line.startswith("error: HARNESS_POOL_DIR=") and line.count("\n") == 1, line
    assert said in line and "valid for HARNESS_POOL_DIR: a folder that is this user's own private folder" in line
    assert "or unset" in line
    assert taken.read_text() == "mine" and not (project / "reports").exists()


# --- --out inside the snapshot store or the scenarios -----------------------------------------


@pytest.mark.parametrize(
    "given",
    ["snapshots/matrix", "snapshots", "./snapshots/upgrades/x", "scenarios", f"scenarios/{RETRY}", "upgrades/u"],
)
def test_out_cannot_name_a_folder_of_the_snapshots_or_the_scenarios(tmp_path, monkeypatch, given):
    """``--out snapshots/matrix`` (any folder in snapshots/, scenarios/ or upgrades/) is refused in
    one line before any work, like ``--out reports``. Before: the run's reports were written into
    the snapshot store (a matrix.json and .md files among the snapshots), exit 0."""
    project = make_project(tmp_path, monkeypatch)
    run(project, monkeypatch, Table(every_adk), "--only", RETRY, "--update-snapshots")
    before = files(project)
    table = Table(every_adk)
    monkeypatch.setattr(matrix, "run_build", table)
    monkeypatch.chdir(project)
    options = matrix.Options(root=project, jobs=1, specs=["google-adk==2.10.0"], only=[RETRY], out=Path(given))
    with pytest.raises(
        UsageError, match=r"^--out .* is inside the project's (snapshots|scenarios|upgrades)/"
    ) as raised:
        matrix.run(options)
    assert "\n" not in str(raised.value) and "name a folder outside" in str(raised.value)
    assert table.ran == []
    assert files(project) == before


def test_candidate_out_cannot_name_the_snapshot_store(tmp_path, monkeypatch):
    """The same refusal for ``candidate --out`` (it writes a run folder too)."""
    from harness.execution import candidate

    project = make_project(tmp_path, monkeypatch)
    with pytest.raises(UsageError, match=r"--out .* is inside the project's snapshots/"):
        candidate.run("/nonexistent-checkout", project / "snapshots" / "matrix", project)


def test_out_may_still_name_a_run_folder_in_reports(tmp_path, monkeypatch):
    """reports/runs/<name>/ (the default run folder) and folders outside the project stay valid."""
    from harness.store import record

    project = make_project(tmp_path, monkeypatch)
    for fine in (project / "reports" / "runs" / "x", tmp_path / "elsewhere", project / "snapshots-old"):
        record.refuse_record_folder(fine, project)


# --- an empty SPEC ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["", " ", "\t"])
def test_an_empty_spec_is_refused_not_read_as_the_current_folder(tmp_path, monkeypatch, spec):
    """An empty SPEC names no build. Before, ``Path("")`` is ``.``, which exists: ``''`` was read as
    a local build of the current folder (the project root)."""
    from harness.planning import builds

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "google-adk"\nversion = "9.9.9"\n')
    with pytest.raises(builds.SpecError, match=r"^an empty SPEC names no build; valid: NAME==VERSION") as err:
        builds.parse(spec, tmp_path / "cache")
    assert "\n" not in str(err.value)


def test_matrix_refuses_an_empty_spec_with_exit_2(tmp_path):
    """`python -m harness matrix ''`: one line, exit 2, the record untouched."""
    project = copy_project(tmp_path, "harness", "scenarios", "snapshots", "reports")
    before = reports(project)
    out = harness("matrix", "", cwd=project)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("error: an empty SPEC names no build") and out.stderr.count("\n") == 1
    assert reports(project) == before


# --- a bug folder whose bug.py fails to import -----------------------------------------------------


def test_a_bug_py_that_fails_to_import_is_named_by_its_folder(tmp_path):
    """Every bug folder's declaration is a ``bug.py``: the error names the file by its folder
    (scenarios/<id>/bug.py) and gives the exception's type and message. Before: "scenario module
    bug failed to import", which does not say which of the 43 folders."""
    from harness.runtime import registry
    from harness.runtime.scenario import ScenarioError

    scenarios = tmp_path / "scenarios"
    (scenarios / "adk-broken-one").mkdir(parents=True)
    (scenarios / "adk-broken-one" / "bug.py").write_text("import no_such_module_anywhere\n")
    with pytest.raises(ScenarioError) as err:
        registry.discover(scenarios)
    assert str(err.value) == (
        "scenario module scenarios/adk-broken-one/bug.py failed to import: "
        "ModuleNotFoundError: No module named 'no_such_module_anywhere'"
    )


def test_list_names_the_bug_folder_whose_bug_py_fails_with_exit_2(tmp_path):
    """Through the command line: one line naming scenarios/<id>/bug.py, exit 2."""
    project = copy_project(tmp_path, "harness", "scenarios")
    (project / "scenarios" / RETRY / "bug.py").write_text("raise RuntimeError('half-edited')\n")
    out = harness("list", cwd=project)
    assert out.returncode == 2, out.stderr
    assert (
        out.stderr == f"error: scenario module scenarios/{RETRY}/bug.py failed to import: RuntimeError: half-edited\n"
    )


# --- SPECs after --only ID -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "specs", "only"),
    [
        (["--only", RETRY, "google-adk==2.9.1"], ["google-adk==2.9.1"], [RETRY]),
        (
            ["google-adk==2.9.0", "--only", RETRY, "google-adk==2.9.1"],
            ["google-adk==2.9.0", "google-adk==2.9.1"],
            [RETRY],
        ),
        (["a==1", "--only", RETRY, "b==2", "--warm", "c==3", "--only", TOOL], ["a==1", "b==2", "c==3"], [RETRY, TOOL]),
        (["--only", f"{RETRY},{TOOL}", "--jobs", "2", "a==1"], ["a==1"], [f"{RETRY},{TOOL}"]),
    ],
    ids=["after", "both-sides", "between-flags", "after-a-valued-flag"],
)
def test_specs_may_follow_only(argv, specs, only):
    """The README's flag table: ``--only ID`` takes one value, "SPECs may follow it". Parsing only
    (no build runs). Before, SPECs on both sides of ``--only`` (or of another flag) were refused:
    "unrecognized arguments: google-adk==2.9.1"."""
    from harness.commands import cli

    args = cli.parse(["matrix", *argv])
    assert (args.specs, args.only) == (specs, only)


@pytest.mark.parametrize("argv", [["matrix", "--bogus"], ["matrix", "a==1", "--bogus", "b==2"], ["list", "extra"]])
def test_what_is_not_a_spec_is_still_refused_in_one_line(argv):
    """An unknown flag (or an argument a command takes none of) stays a one-line refusal."""
    from harness.commands import cli, flags

    with pytest.raises(flags.FlagError, match=r"^unrecognized arguments: ") as err:
        cli.parse(argv)
    assert "\n" not in str(err.value)
