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
        (["matrix", "--only", "adk-retry-same-invocation-id", "langchain==1.0"], "error: unknown framework 'langchain'"),
        (["matrix", "--only", "adk-retry-same-invocation-id,nope", "google-adk==2.13.0"], "unknown scenario 'nope'"),
        (["matrix", "langchain==1.0"], "error: unknown framework 'langchain'; valid: google-adk, openai-agents"),
        (["matrix", "google-adk=2.0"], "error: malformed spec 'google-adk=2.0'; valid: NAME==VERSION"),
        (["matrix", "google-adk"], "pin a release, e.g. google-adk==<version>"),
        (["matrix", "./no/such/dir"], "'./no/such/dir': no such file or directory"),
        (["matrix", "tests"], "tests: no package here"),
        (["matrix", "--shard", "3/2"], "malformed --shard '3/2'; valid: K/N"),
        (["merge", "pyproject.toml"], "pyproject.toml: not a shard result"),
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
