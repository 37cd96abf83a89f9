"""Every case renders byte-identical timelines and verdicts, run after run, in any order.

One run per case in this process in a shuffled order, then another process that runs every
case once in its own shuffled order, on the pinned releases: order and process are what this
test varies (tests/test_scenarios.py runs each case twice in a row, the first against the
snapshot another process stored; issue 51: five runs of every case here were 107 s of the
suite). A case that flickers fails here, naming the variants it produced; it is never retried
until green. On every other
release the matrix checks the same: each case runs twice in its worker and must agree
(harness/execution/matrix.py ``MATRIX_REPEAT``), and each result is compared with the
snapshot an earlier process stored.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import case_params, keyword_cases
from harness.runtime.runner import run_case

ROOT = Path(__file__).resolve().parent.parent
IN_PROCESS_RUNS = 1
PROCESSES, RUNS_PER_PROCESS = 1, 1

CHILD = """
import json, random, sys
from harness.runtime import registry
from harness.runtime.runner import run_case
seed, runs, selectors = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
pairs = registry.select(registry.discover(), selectors) * runs
random.Random(seed).shuffle(pairs)
seen = {}
for s, c in pairs:
    r = run_case(s, c)
    seen.setdefault(f"{s.id}:{c.id}", []).append([r.outcome, r.detail, r.timeline])
print(json.dumps(seen))
"""


def runnable_pairs():
    return [p.values for p in case_params() if not p.marks]


@pytest.mark.every_case
def test_every_case_is_deterministic_in_and_across_processes(request):
    pairs = keyword_cases(request.config, runnable_pairs())
    seen: dict[str, list] = defaultdict(list)
    order = pairs * IN_PROCESS_RUNS
    random.Random(2026).shuffle(order)
    for scenario, case in order:
        r = run_case(scenario, case)
        seen[f"{scenario.id}:{case.id}"].append((r.outcome, r.detail, r.timeline))
    selectors = sorted(seen)
    for seed in range(PROCESSES):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(seed), str(RUNS_PER_PROCESS), *selectors],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        for key, runs in json.loads(out.stdout.strip().splitlines()[-1]).items():
            seen[key].extend(tuple(r) for r in runs)
    flickering = {key: len(set(runs)) for key, runs in seen.items() if len(set(runs)) > 1}
    assert not flickering, f"cases with more than one variant across runs: {flickering}"
    assert all(len(runs) == IN_PROCESS_RUNS + PROCESSES * RUNS_PER_PROCESS for runs in seen.values())


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
    assert "tests/test_determinism.py::test_every_case_is_deterministic_in_and_across_processes" in collected
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
    assert keyword_cases(Config("test_every_case_is_deterministic"), pairs) == pairs  # names no scenario
    assert keyword_cases(Config(""), pairs) == pairs
