"""CONTRIBUTING.md's walkthrough, command by command, on a throwaway scenario.

Each ``$`` line of the walkthrough runs in a copy of the project; ``nox -s matrix -- ARGS``
runs what that session runs (``python -m harness matrix ARGS``) and ``nox -s tests -- ARGS``
runs pytest, so the test needs no nested nox. Between step 1 and step 2 the "author" fills
in the template with a real reproduction.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

FILLED_IN = '''"""google-adk: the same message retried under the same invocation_id is recorded twice (walkthrough)."""

from functools import partial

from harness.scenario import Case, Scenario
from scenarios.adk_retry_same_invocation_id import NO_GUARD, SEED_GUARD, judge_duplicate, replay

SCENARIO = Scenario(
    id="adk-my-bug",
    framework="google-adk",
    links=("https://github.com/google/adk-python/issues/4506",),
    description="A resumed invocation records its user turn twice.",
    expected="The user turn is recorded once.",
    cases=(Case("basic", partial(replay, resumable=True), judge_duplicate,
                {"reproduced": NO_GUARD, "fixed": SEED_GUARD}, "resume with the same message"),),
)
'''


def walkthrough_commands() -> list[str]:
    text = (ROOT / "CONTRIBUTING.md").read_text()
    return [line[2:].strip() for line in text.splitlines() if line.startswith("$ ")]


def translate(command: str) -> list[str]:
    argv = shlex.split(command)
    if argv[:2] == ["python", "-m"]:
        return [sys.executable, *argv[1:]]
    if argv[:4] == ["nox", "-s", "matrix", "--"]:
        return [sys.executable, "-m", "harness", "matrix", *argv[4:]]
    if argv[:4] == ["nox", "-s", "tests", "--"]:
        return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *argv[4:]]
    raise AssertionError(f"the walkthrough has a command this test cannot follow: {command}")


def test_the_walkthrough_adds_a_working_scenario(tmp_path):
    for name in ("harness", "scenarios", "tests", "snapshots"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (ROOT / ".nox").mkdir(exist_ok=True)
    (tmp_path / ".nox").symlink_to(ROOT / ".nox")  # share environments with every other run
    commands = walkthrough_commands()
    assert [c.split()[0:3] for c in commands][0] == ["python", "-m", "harness"] and len(commands) == 5
    module = tmp_path / "scenarios" / "adk_my_bug.py"
    for step, command in enumerate(commands, 1):
        out = subprocess.run(translate(command), capture_output=True, text=True, cwd=tmp_path)
        if step == 1:
            assert out.returncode == 0, out.stderr
            assert "TODO" in module.read_text()
            templ = subprocess.run([sys.executable, "-m", "harness", "run", "adk-my-bug"], capture_output=True,
                                   text=True, cwd=tmp_path)
            assert ": error: " in templ.stdout and "is a template" in templ.stdout  # never passes vacuously
            module.write_text(FILLED_IN)  # the author writes the reproduction and the oracle
        elif "matrix" in command:
            assert out.returncode in (0, 1) and "error:" not in out.stderr, out.stderr
        else:
            assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert re.search(r"adk-my-bug/basic/\d+\.\d+\.\d+\.txt", "\n".join(
        p.relative_to(tmp_path / "snapshots" / "matrix").as_posix() for p in (tmp_path / "snapshots" / "matrix").rglob("*.txt")))
    report = (tmp_path / "reports" / "adk-my-bug.md").read_text()
    assert "# adk-my-bug" in report and "first release where it is fixed" in report
    again = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "adk-my-bug"],
                           capture_output=True, text=True, cwd=tmp_path)
    assert again.returncode == 0, again.stdout[-2000:]
