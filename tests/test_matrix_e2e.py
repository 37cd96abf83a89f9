"""`python -m harness matrix` end to end: real environments built with uv from the index.

These build environments (slow marker); they run in a copy of the project so the real
reports/ and snapshots/ are never touched.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from harness.planning import index
from harness.runtime.outcomes import OUTCOMES

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow
RETRY = "adk-retry-same-invocation-id"


@pytest.fixture
def project(tmp_path):
    for name in ("harness", "scenarios"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "snapshots").mkdir()
    return tmp_path


def matrix(project, *args):
    return subprocess.run(
        [sys.executable, "-m", "harness", "matrix", *args], capture_output=True, text=True, cwd=project
    )


def validate_matrix_json(path: Path) -> dict:
    """The contract's shape of reports/matrix.json (CONTRACT.md)."""
    text = path.read_text()
    doc = json.loads(text)
    assert doc["schema_version"] == 5
    assert isinstance(doc["results"], list) and doc["results"]
    assert isinstance(doc["upgrades"], list)  # schema 4: the upgrade pairs' results, beside these
    for r in doc["results"]:
        for key in ("scenario", "case", "framework", "version", "source", "outcome", "detail", "snapshot"):
            assert key in r, f"result lacks {key}: {r}"
        assert r["framework"] in ("google-adk", "openai-agents")
        assert r["outcome"] in OUTCOMES
        assert r["snapshot"] in ("match", "new", "changed", "updated")
        assert isinstance(r["detail"], str) and "\n" not in r["detail"]
    assert not re.search(r"/(tmp|work|root|home)/", text), "absolute machine path in matrix.json"
    return doc


def sdist(tmp_path: Path, name: str, version: str) -> Path:
    return index.download_sdist(name, version, tmp_path, ROOT / ".nox" / ".harness-cache")


def test_release_outside_the_default_set_then_snapshots_accepted_then_matched(project):
    first = matrix(project, "google-adk==2.9.1", "--only", RETRY)
    assert first.returncode == 1, first.stderr  # no snapshots yet: every result is new
    # 2.9.1 is not in the matrix (not a default release, no snapshot of its own): the run's
    # reports go to a folder of their own and the record is not created.
    run_dir = project / "reports" / "runs" / f"{RETRY}+google-adk-2.9.1"
    assert f"this run's reports are in reports/runs/{run_dir.name}/" in first.stderr
    assert not (project / "reports" / "matrix.json").exists()
    doc = validate_matrix_json(run_dir / "matrix.json")
    assert {r["snapshot"] for r in doc["results"]} == {"new"}
    assert {r["version"] for r in doc["results"]} == {"2.9.1"}
    env = doc["environments"][0]
    assert env["exclude_newer"] and any(p.startswith("google-adk==2.9.1") for p in env["packages"])

    accept = matrix(project, "google-adk==2.9.1", "--only", RETRY, "--update-snapshots")
    assert accept.returncode == 0, accept.stderr
    assert "env reused" in accept.stderr
    # Its snapshots stored, 2.9.1 has joined the matrix of the scenario: the record holds it.
    assert "record: 4 results written to reports/matrix.json" in accept.stderr
    stored = sorted(
        p.relative_to(project / "snapshots" / "matrix").as_posix()
        for p in (project / "snapshots" / "matrix").rglob("*.txt")
    )
    assert stored == sorted(
        f"{RETRY}/{c}/2.9.1.txt"
        for c in ("resumable-resume", "non-resumable-retry", "retry-new-state-delta", "retry-different-message")
    )

    again = matrix(project, "google-adk==2.9.1", "--only", RETRY)
    assert again.returncode == 0, again.stderr
    before = (project / "reports" / "matrix.json").read_bytes()
    assert {r["snapshot"] for r in json.loads(before)["results"]} == {"match"}
    # A re-run reproduces the record byte for byte.
    matrix(project, "google-adk==2.9.1", "--only", RETRY)
    assert (project / "reports" / "matrix.json").read_bytes() == before


def test_a_later_release_is_compared_with_the_nearest_earlier_snapshot(project):
    matrix(project, "google-adk==2.9.1", "--only", f"{RETRY}:resumable-resume", "--update-snapshots")
    snap = project / "snapshots" / "matrix" / RETRY / "resumable-resume" / "2.9.1.txt"
    later = matrix(project, "google-adk==2.9.2", "--only", f"{RETRY}:resumable-resume")
    [r] = [
        r for r in json.loads((project / "reports" / "matrix.json").read_text())["results"] if r["version"] == "2.9.2"
    ]
    # 2.9.2 has no snapshot of its own; it behaves as 2.9.1 did, so it matches that one.
    assert (later.returncode, r["snapshot"], r["snapshot_base"]) == (0, "match", "2.9.1"), later.stderr
    assert not (snap.parent / "2.9.2.txt").exists()
    # Hand-edit the stored timeline: the run fails and shows the diff.
    snap.write_text(
        snap.read_text().replace(
            "[e-<id-1>] root_agent (model) 'ack'", "[e-<id-1>] root_agent (model) 'hand-edited'", 1
        )
    )
    changed = matrix(project, "google-adk==2.9.2", "--only", f"{RETRY}:resumable-resume")
    assert changed.returncode == 1, changed.stderr
    assert "snapshot changed" in changed.stderr and "-[e-<id-1>] root_agent (model) 'hand-edited'" in changed.stderr


def test_local_checkout_of_a_candidate_fix_and_an_install_failure(project, tmp_path_factory):
    # A candidate fix: the 2.13.0 sdist with the seed PR's guard in runners.py, which
    # skips only an identical message with an identical state_delta.
    work = tmp_path_factory.mktemp("sdist")
    with tarfile.open(sdist(work, "google-adk", "2.13.0")) as tf:
        tf.extractall(work, filter="data")
    checkout = work / "google_adk-2.13.0"
    runners = checkout / "src" / "google" / "adk" / "runners.py"
    text = runners.read_text()
    guard = (
        "    if not is_function_response and self._find_user_message_for_invocation(\n"
        "        invocation_context.session.events, invocation_context.invocation_id\n"
        "    ):\n      return\n"
    )
    assert guard in text, "the 2.13.0 guard moved; update this test's patch"
    seed = (
        "    if not is_function_response and any(\n"
        "        e.author == 'user' and e.invocation_id == invocation_context.invocation_id\n"
        "        and e.content == new_message\n"
        "        and (e.actions.state_delta or {}) == (state_delta or {})\n"
        "        for e in invocation_context.session.events\n"
        "    ):\n      return\n"
    )
    runners.write_text(text.replace(guard, seed))
    # A build that cannot install: its dependency does not exist on the index.
    broken = tmp_path_factory.mktemp("broken") / "broken-adk"
    broken.mkdir()
    (broken / "pyproject.toml").write_text(
        '[project]\nname = "google-adk"\nversion = "0.0.1"\n'
        'dependencies = ["harness-test-no-such-dependency-xyz==1.0"]\n'
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
    )
    out = matrix(project, "google-adk==2.13.0", str(checkout), str(broken), "--only", RETRY)
    # A candidate run leaves the record alone and says where its before/after report is.
    assert not (project / "reports" / "matrix.json").exists()
    [run_dir] = (project / "reports" / "runs").iterdir()
    assert f"before/after report: reports/runs/{run_dir.name}/{RETRY}.md" in out.stderr, out.stderr
    doc = validate_matrix_json(run_dir / "matrix.json")
    by = {(r["source"], r["case"]): r for r in doc["results"]}
    candidate = "local:google_adk-2.13.0"
    assert by[(candidate, "resumable-resume")]["version"] == "2.13.0"
    assert by[("google-adk==2.13.0", "retry-different-message")]["outcome"] == "reproduced"
    assert by[(candidate, "retry-different-message")]["outcome"] == "fixed"
    assert by[(candidate, "retry-new-state-delta")]["outcome"] == "fixed"
    failed = by[("local:broken-adk", "resumable-resume")]
    assert failed["outcome"] == "error" and "install failed" in failed["detail"]
    assert "harness-test-no-such-dependency-xyz" in failed["detail"]
    assert out.returncode == 1
    # The evidence a PR author attaches: what the candidate changed, case by case.
    report = (run_dir / f"{RETRY}.md").read_text()
    assert "reproduced on google-adk 2.13.0, fixed on the candidate build `local:google_adk-2.13.0`" in report
    assert "unchanged: fixed on google-adk 2.13.0 and on the candidate build `local:google_adk-2.13.0`" in report
    assert not re.search(r"/(tmp|work|root|home)/", report)


def test_two_shards_merged_equal_a_single_run(project):
    builds = ["google-adk==2.12.0", "google-adk==2.13.0"]
    single = matrix(project, *builds, "--only", RETRY)
    assert single.returncode == 1, single.stderr
    expected = {p.name: p.read_bytes() for p in (project / "reports").glob("*.*")}
    shutil.rmtree(project / "reports")
    for k in ("1/2", "2/2"):
        out = matrix(project, *builds, "--only", RETRY, "--shard", k)
        assert out.returncode == 1 and "shard" in out.stderr, out.stderr
    shards = sorted((project / "reports" / "shards").glob("*.json"))
    assert [p.name for p in shards] == ["shard-1-of-2.json", "shard-2-of-2.json"]
    merged = subprocess.run(
        [sys.executable, "-m", "harness", "merge", *map(str, shards)], capture_output=True, text=True, cwd=project
    )
    assert merged.returncode == 1, merged.stderr
    got = {p.name: p.read_bytes() for p in (project / "reports").glob("*.*")}
    assert got == expected


def test_a_rerun_with_nothing_changed_skips_every_case(project):
    matrix(project, "google-adk==2.13.0", "--only", RETRY)
    again = matrix(project, "google-adk==2.13.0", "--only", RETRY)
    assert "0 cases run" in again.stderr and "4 unchanged and skipped" in again.stderr
    forced = matrix(project, "google-adk==2.13.0", "--only", RETRY, "--rerun")
    assert "4 cases run" in forced.stderr


def test_a_warm_run_writes_the_reports_a_cold_run_does(project, monkeypatch):
    from harness.execution import pool

    # Short: a Unix socket's path is at most 107 bytes.
    monkeypatch.setenv("HARNESS_POOL_DIR", f"/tmp/hpe-{project.name[-12:]}")
    # A sample of each framework's kinds of case (the Runner, a database, SSE over the real model
    # class, handoffs, a session): warm against cold for every case is tests/test_pool.py's, and the
    # whole library here three times cost 164 s of the suite (issue 51: it must not grow with it).
    sample = (
        "adk-retry-same-invocation-id,adk-database-compaction-dict,adk-sse-function-call-dedupe,"
        "agents-nested-handoff-4hop,agents-usage-requests-without-usage,agents-session-callback-repeated-history"
    )
    builds = ["google-adk==2.13.0", "openai-agents==0.24.0", "--only", sample]
    cold = matrix(project, *builds, "--cold", "--rerun")
    assert cold.returncode == 1, cold.stderr  # no snapshots in the copy: every result is new
    expected = {p.name: p.read_bytes() for p in (project / "reports").glob("*.*")}
    try:
        started = matrix(project, *builds, "--warm", "--rerun")
        assert "warm pool: 2 workers" in started.stderr, started.stderr
        warm = matrix(project, *builds, "--rerun")
        assert "warm pool: 2 workers" in warm.stderr, warm.stderr
        got = {p.name: p.read_bytes() for p in (project / "reports").glob("*.*")}
        assert got == expected
    finally:
        stopped = pool.stop_all()
        shutil.rmtree(pool.pool_dir(), ignore_errors=True)
    assert stopped == 2
