"""Worker isolation: a case that hangs in sync code or kills its process does not take the others down."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from pathlib import Path

from harness.driver import run_worker

ROOT = Path(__file__).resolve().parent.parent

MODULE = '''
import os, time
from harness.outcomes import fixed
from harness.scenario import AsInstalled, Case, Observation, Scenario

P = {"reproduced": AsInstalled(), "fixed": AsInstalled()}

async def fine():
    return Observation(timeline=["ok"])

async def hang_in_sync_code():
    time.sleep(600)  # blocks the event loop: only killing the process stops it

async def die():
    os._exit(3)

SCENARIO = Scenario(
    id="adk-isolation", framework="google-adk", links=("https://example.org",), description="d", expected="e",
    cases=(
        Case("before", fine, lambda o: fixed("ok"), P),
        Case("hang", hang_in_sync_code, lambda o: fixed("ok"), P),
        Case("die", die, lambda o: fixed("ok"), P),
        Case("after", fine, lambda o: fixed("ok"), P),
    ),
)
'''


def test_hang_and_crash_are_errors_and_the_other_cases_still_run(tmp_path):
    shutil.copytree(ROOT / "harness", tmp_path / "harness", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "__init__.py").write_text("")
    (tmp_path / "scenarios" / "adk_isolation.py").write_text(textwrap.dedent(MODULE))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    _, results = run_worker(Path(sys.executable), "google-adk", ["adk-isolation"], env, tmp_path, timeout=1.0, grace=120.0, case_slack=2.0)
    by_case = {r["case"]: r for r in results}
    assert list(by_case) == ["before", "hang", "die", "after"]
    assert by_case["before"]["outcome"] == by_case["after"]["outcome"] == "fixed"
    assert by_case["hang"]["outcome"] == "error" and "timed out" in by_case["hang"]["detail"]
    assert by_case["die"]["outcome"] == "error" and "worker died (exit 3)" in by_case["die"]["detail"]
