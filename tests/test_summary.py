"""`python -m harness.rendering.summary`: the matrix job's summary page, and its exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from harness.rendering import summary
from harness.store.rows import Row
from harness.store.snapshots import SnapshotStore, render

ROOT = Path(__file__).resolve().parent.parent


def result(case: str, version: str, outcome: str = "fixed", snapshot: str = "match", **more: str | None) -> dict:
    r = {
        "scenario": "adk-demo",
        "case": case,
        "framework": "google-adk",
        "version": version,
        "source": f"google-adk=={version}",
        "outcome": outcome,
        "detail": f"detail of {case}",
        "snapshot": snapshot,
        "snapshot_base": version,
        "timeline": "line one\nline two\n",
    }
    r.update(more)
    return r


def write(tmp_path: Path, name: str, results: list[dict]) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"schema_version": 1, "results": results}))
    return path


def test_counts_per_framework_and_nothing_differs(tmp_path):
    results = [result("a", "1.0.0"), result("b", "1.0.0", "reproduced"), result("a", "2.0.0", "not-applicable")]
    text = summary.markdown([Row.from_json(r) for r in results], ["matrix.json"], SnapshotStore(tmp_path))
    assert "## Matrix: 3 results from matrix.json" in text
    assert "| google-adk | 2 | 1 | 1 | 0 | 1 | 0 |" in text
    assert "Every result matches its stored snapshot." in text
    assert "Needs a look" not in text


def test_names_each_result_that_differs_with_its_diff(tmp_path):
    store = SnapshotStore(tmp_path)
    stored = result("a", "1.0.0")
    (store.matrix / "adk-demo" / "a").mkdir(parents=True)
    (store.matrix / "adk-demo" / "a" / "1.0.0.txt").write_text(render(Row.from_json(stored)))
    changed = result("a", "2.0.0", "reproduced", "changed", snapshot_base="1.0.0", timeline="line one\nline 2\n")
    new = result("b", "2.0.0", "error", "new", snapshot_base=None)
    text = summary.markdown(
        [Row.from_json(r) for r in (stored, changed, new)], ["shard-1-of-2.json", "shard-2-of-2.json"], store
    )
    assert "### 2 results differ from the stored snapshot or have none" in text
    assert (
        "- `adk-demo:a` on `google-adk==2.0.0`: **changed** (compared with the snapshot of 1.0.0): reproduced" in text
    )
    assert "  -outcome: fixed\n  +outcome: reproduced" in text
    assert "  -line two\n  +line 2" in text
    assert "- `adk-demo:b` on `google-adk==2.0.0`: **new** (no stored snapshot): error: detail of b" in text
    assert "### Needs a look: 1 unexpected or error" in text


def test_exit_status_is_1_when_any_result_differs_and_2_for_a_file_that_is_not_results(tmp_path):
    def main(*paths: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "harness.rendering.summary", *map(str, paths)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )

    clean = write(tmp_path, "shard-1-of-2.json", [result("a", "1.0.0")])
    new = write(tmp_path, "shard-2-of-2.json", [result("b", "1.0.0", snapshot="new", snapshot_base=None)])
    assert main(clean).returncode == 0
    out = main(clean, new)
    assert out.returncode == 1
    assert "`adk-demo:b` on `google-adk==1.0.0`: **new**" in out.stdout
    (tmp_path / "broken.json").write_text("{")
    out = main(tmp_path / "broken.json")
    assert out.returncode == 2 and out.stderr.startswith("error: ") and len(out.stderr.splitlines()) == 1


def test_an_old_results_repro_verdict_is_no_finding(tmp_path):
    """Issue 35 removed the second replay (a case's short script run beside it): a result of an older
    run that still carries its ``repro`` verdict is read, and a disagreement there fails nothing."""
    from harness.rendering import summary

    row = {
        "scenario": "adk-x",
        "case": "c",
        "framework": "google-adk",
        "version": "2.0.0",
        "source": "google-adk==2.0.0",
        "outcome": "reproduced",
        "detail": "d",
        "snapshot": "new",
        "repro": "fixed",
        "timeline": "a\n",
    }
    path = tmp_path / "matrix.json"
    path.write_text(json.dumps({"results": [row]}))
    text = summary.markdown(summary.load([path]), ["matrix.json"], summary.SnapshotStore(tmp_path))
    assert "short reproduction" not in text and "scenarios/repro/" not in text
    assert "disagree" not in text
