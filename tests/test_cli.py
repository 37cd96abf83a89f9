"""Bad input: one line saying what was wrong and what is valid, exit 2, reports untouched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def harness(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture
def reports_state():
    reports = ROOT / "reports"
    before = {p.name: p.read_bytes() for p in reports.glob("*") if p.is_file()} if reports.exists() else {}
    yield
    after = {p.name: p.read_bytes() for p in reports.glob("*") if p.is_file()} if reports.exists() else {}
    assert after == before, "a refused command changed reports/"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "nope"], "error: unknown scenario 'nope'; valid: adk-"),
        (["run", "adk-retry-same-invocation-id:nope"], "valid: resumable-resume, non-resumable-retry"),
        (["matrix", "--only", "nope"], "error: unknown scenario 'nope'; valid:"),
        (["matrix", "--only", "adk-retry-same-invocation-id:x"], "error: unknown case 'x'"),
        (
            ["matrix", "--only", "adk-retry-same-invocation-id", "langchain==1.0"],
            "error: unknown framework 'langchain'",
        ),
        (["matrix", "--only", "adk-retry-same-invocation-id,nope", "google-adk==2.13.0"], "unknown scenario 'nope'"),
        (["matrix", "langchain==1.0"], "error: unknown framework 'langchain'; valid: google-adk, openai-agents"),
        (["matrix", "google-adk=2.0"], "error: malformed spec 'google-adk=2.0'; valid: NAME==VERSION"),
        (["matrix", "google-adk"], "pin a release, e.g. google-adk==<version>"),
        (["matrix", "./no/such/dir"], "'./no/such/dir': no such file or directory"),
        (["matrix", "tests"], "tests: no package here"),
        (["matrix", "--shard", "3/2"], "malformed --shard '3/2'; valid: K/N"),
        (["merge", "pyproject.toml"], "pyproject.toml: not a shard result"),
        (["releases", "langchain"], "error: unknown framework 'langchain'; valid: google-adk, openai-agents"),
        (["releases", "google-adk", "--at", "2026/01/31"], "error: malformed date '2026/01/31'; valid: YYYY-MM-DD"),
        (
            ["releases", "google-adk", "--at", "2019-01-01"],
            "no final release of google-adk was on the index on 2019-01-01",
        ),
        (["run", "nope", "--proof", "fixed"], "error: unknown scenario 'nope'"),
        (["matrix", "--pool-memory", "10"], "--pool-memory: 10 is out of range; valid: a number of MB >= 64"),
        (["matrix", "--pool-memory", "lots"], "--pool-memory: 'lots' is not a number"),
        (["matrix", "--warm", "--cold"], "argument --cold: not allowed with argument --warm"),
        (["bisect", "adk-retry-same-invocation-id", "--warm", "--cold"], "not allowed with argument --warm"),
        (["pool", "restart"], "argument action: invalid choice: 'restart'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message, reports_state):
    out = harness(*args)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], out.stderr


def test_a_release_that_does_not_exist_is_refused(reports_state):
    out = harness("matrix", "google-adk==99.0.0")
    assert out.returncode == 2
    line = out.stderr.strip()
    assert "google-adk 99.0.0 is not on the package index; latest releases:" in line and "\n" not in line


def test_unwritable_reports_dir_is_refused_before_any_work(tmp_path):
    import shutil

    for name in ("harness", "scenarios"):
        shutil.copytree(ROOT / name, tmp_path / name)
    (tmp_path / "reports").write_text("a file where the directory should be")
    out = harness("matrix", "--only", "adk-retry-same-invocation-id", cwd=tmp_path)
    assert out.returncode == 2
    assert "reports directory reports/ is not writable" in out.stderr
    assert (tmp_path / "reports").read_text() == "a file where the directory should be"


def test_list_names_every_scenario():
    out = harness("list")
    assert out.returncode == 0 and "adk-retry-same-invocation-id" in out.stdout


def test_releases_lists_final_releases_with_upload_times_and_the_one_current_on_a_date():
    out = harness("releases", "google-adk")
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and "google-adk==2.13.0  20" in out.stdout
    assert all("rc" not in line and "a" not in line.split("==")[1].split()[0] for line in lines)  # finals only
    out = harness("releases", "google-adk", "--at", "2026-02-01")
    assert out.returncode == 0 and out.stdout.startswith("google-adk==1.23.0  (uploaded 2026-01-22T")


def test_current_on_is_the_highest_final_version_out_by_the_end_of_that_day(tmp_path):
    import json

    from harness.planning import index

    files = [
        ("google_adk-1.0.0-py3-none-any.whl", "2026-01-01T10:00:00Z", False),
        ("google_adk-2.0.0-py3-none-any.whl", "2026-02-01T10:00:00Z", False),
        ("google_adk-1.0.1-py3-none-any.whl", "2026-02-03T10:00:00Z", False),  # a patch to the old line, later
        ("google_adk-2.1.0rc1-py3-none-any.whl", "2026-02-04T10:00:00Z", False),
        ("google_adk-2.1.0-py3-none-any.whl", "2026-02-05T10:00:00Z", True),  # yanked
    ]
    (tmp_path / "google-adk.json").write_text(
        json.dumps({"files": [{"filename": f, "upload-time": t, "yanked": y} for f, t, y in files]})
    )
    at = {
        d: index.current_on("google-adk", d, tmp_path).version
        for d in ("2026-01-01", "2026-02-01", "2026-02-01T09:00:00Z", "2026-02-06")
    }
    assert at == {"2026-01-01": "1.0.0", "2026-02-01": "2.0.0", "2026-02-01T09:00:00Z": "1.0.0", "2026-02-06": "2.0.0"}
    assert [r.version for r in index.final_releases("google-adk", tmp_path)] == ["1.0.0", "1.0.1", "2.0.0"]


def test_run_under_a_proof_build_applies_it_and_says_where():
    pytest.importorskip("google.adk")
    out = harness("run", "adk-repeated-tool-call:different-args", "--proof", "reproduced", "--timeline")
    assert out.returncode == 0, out.stdout + out.stderr
    first = out.stdout.splitlines()[0]
    assert first.startswith("adk-repeated-tool-call:different-args under its reproduced proof (an over-eager")
    assert "(patched in process): reproduced: get_weather executed 1 time" in first
    assert "    tool callbacks: reference single-flight dedupe" in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["matrix", "google-adk==2.13.0", "--timeout", "0", "--rerun"],
            "argument --timeout: 0 is out of range; valid: a number of seconds > 0 and <= 86400",
        ),
        (["matrix", "--timeout", "-3"], "argument --timeout: -3 is out of range; valid: a number of seconds > 0"),
        (["matrix", "--timeout", "nan"], "argument --timeout: nan is out of range"),
        (["matrix", "--timeout", "soon"], "argument --timeout: 'soon' is not a number"),
        (
            ["matrix", "--jobs", "0"],
            "argument --jobs: 0 is out of range; valid: a whole number of builds >= 1 and <= 256",
        ),
        (["matrix", "--jobs", "1.5"], "argument --jobs: '1.5' is not a number"),
        (["run", "adk-retry-same-invocation-id", "--timeout", "0"], "argument --timeout: 0 is out of range"),
        (["bisect", "adk-retry-same-invocation-id", "--timeout", "-1"], "argument --timeout: -1 is out of range"),
        (["matrix", "--bogus"], "unrecognized arguments: --bogus; usage: python -m harness"),
    ],
)
def test_numeric_flags_are_range_checked_in_one_line(args, message, reports_state):
    out = harness(*args)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("error: ") and message in out.stderr, out.stderr
    assert out.stderr.count("\n") == 1, out.stderr


def test_bench_reps_are_range_checked():
    out = subprocess.run(
        [sys.executable, "-m", "harness.commands.bench", "--reps", "0"], capture_output=True, text=True, cwd=ROOT
    )
    assert out.returncode == 2 and "argument --reps: 0 is out of range" in out.stderr and out.stderr.count("\n") == 1


def test_a_proof_runs_from_a_python_without_the_framework_in_the_pinned_environment(monkeypatch, capsys):
    """Issue 30: `run ID:CASE --proof` from any Python: an AsInstalled proof whose framework is missing
    here runs in the build environment of the release noxfile.py TEST_PINS pins."""
    import argparse

    from harness.commands import run as run_command
    from harness.execution import environments, proofs
    from harness.runtime import proof_runs

    ensured = []

    def ensure(build, root, cache_dir, today=False, requires=None):
        ensured.append(build.source)
        # This test environment has the pinned release: it stands for the build environment.
        return environments.Environment(build, root / "x", Path(sys.executable), None, True)

    monkeypatch.setattr(proof_runs, "installed_version", lambda framework: None)  # "not installed here"
    monkeypatch.setattr(environments, "ensure", ensure)
    sel = "adk-retry-same-invocation-id:retry-new-state-delta"  # its reproduced proof: AsInstalled
    args = argparse.Namespace(ids=[sel], proof="reproduced", timeout=60.0, timeline=False)
    assert run_command.run(args) == 0
    assert proofs.pinned_spec("google-adk") in ensured and proofs.pinned_spec("google-adk").startswith("google-adk==")
    assert "google-adk is not installed here: running in the environment of google-adk==" in capsys.readouterr().out


def test_a_release_proof_without_packaging_says_so_in_one_line(monkeypatch, capsys):
    import argparse

    from harness.commands import run as run_command

    monkeypatch.setattr(run_command, "_has_packaging", lambda: False)
    sel = "adk-retry-same-invocation-id:resumable-resume"  # its reproduced proof: a Release
    args = argparse.Namespace(ids=[sel], proof="reproduced", timeout=60.0, timeline=False)
    assert run_command.run(args) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "needs the `packaging` module" in out and "Traceback" not in out
