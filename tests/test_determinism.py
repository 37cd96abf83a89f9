"""Every case renders its stored timeline and verdict whatever ran before it in its process.

Every case runs once in this process in a shuffled order, and each result must equal its stored
snapshot on the pinned release: a case whose result depends on what an earlier case left fails,
naming the cases that differ; it is never retried until green. The process is what the other
checks vary: tests/test_scenarios.py runs each case twice in a row in a pytest worker, the first
against the snapshot another process (the matrix's worker) stored, and tests/test_pool.py twice
in forks of a warm worker. Issue 51: this test ran every case in a second process too (half its
48 s), which those comparisons with the stored snapshot already cover. On every other release
the matrix checks the same: each case runs twice in its worker and must agree
(harness/execution/matrix.py ``MATRIX_REPEAT``), and each result is compared with the snapshot
an earlier process stored.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import case_params, installed, keyword_cases
from harness.runtime.runner import run_case
from harness.store.snapshots import Key, SnapshotStore, render

ROOT = Path(__file__).resolve().parent.parent
STORE = SnapshotStore(ROOT / "snapshots")


def runnable_pairs():
    return [p.values for p in case_params() if not p.marks]


@pytest.mark.every_case
def test_every_case_gives_its_snapshot_in_a_shuffled_order(request):
    pairs = keyword_cases(request.config, runnable_pairs())
    order = list(pairs)
    random.Random(2026).shuffle(order)
    differ = []
    for scenario, case in order:
        r = run_case(scenario, case)
        python = f"{sys.version_info.major}.{sys.version_info.minor}"
        stored = STORE.stored(Key(scenario.id, case.id, installed(scenario.framework), python))
        assert stored is not None, f"no snapshot of {scenario.id}:{case.id}: run the matrix"
        if render(r) != stored.read_text(encoding="utf-8"):
            differ.append(f"{scenario.id}:{case.id}")
    assert not differ, f"cases whose result differs from their snapshot after others ran first: {differ}"


def test_a_scenario_id_selects_every_check_that_covers_it_and_only_its_cases():
    """Issue 30: `nox -s tests -- -k ID` runs the checks over every case too, on ID's cases."""
    sid = "adk-retry-same-invocation-id"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:xdist",
            "-k",
            sid,
            "tests/test_determinism.py",
            "tests/test_pool.py",
            "tests/test_scenarios.py",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    collected = [line for line in out.stdout.splitlines() if "::" in line]
    assert "tests/test_determinism.py::test_every_case_gives_its_snapshot_in_a_shuffled_order" in collected
    assert any(
        "test_a_warm_run_gives_the_matrix_s_results_byte_for_byte_for_every_case[google-adk]" in line
        for line in collected
    )
    assert any(f"test_case_matches_its_stored_snapshot[{sid}:" in line for line in collected)
    assert not any("agents-" in line for line in collected), collected

    class Config:
        def __init__(self, keyword):
            self.keyword = keyword

        def getoption(self, name):
            return self.keyword

    pairs = [p.values for p in case_params()]
    assert {s.id for s, _ in keyword_cases(Config(sid), pairs)} == {sid}
    assert keyword_cases(Config("test_every_case_gives_its_snapshot"), pairs) == pairs  # names no scenario
    assert keyword_cases(Config(""), pairs) == pairs
