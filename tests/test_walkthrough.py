"""CONTRIBUTING.md's walkthrough, command by command, once per framework, on a throwaway project copy.

Each ``$`` line of the walkthrough that names this framework (or neither) runs in a copy of
the project: ``nox -s matrix -- ARGS`` runs what that session runs (``python -m harness matrix
ARGS``), ``nox -s tests -- ARGS`` runs pytest, and ``PYTHONPATH=. .nox/builds/<env>/bin/python
...`` runs as written, so the test needs no nested nox. Between step 1 and step 2 the "author"
fills in the template with a real reproduction (a converted bug's script with the walkthrough's
cases; the google-adk one proves ``reproduced`` with a real release, google-adk 2.8.0, and has a
control case). After every step, ``python -m harness
list`` must work in a bare virtual environment with no framework installed, the project on
``PYTHONPATH`` only.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

# What the walkthrough's author writes between step 1 and step 2: each framework's bug folder,
# made of a converted bug's script with its cases renamed (the script as the template asks for it),
# and a declaration with the reporter's release as the reproduced proof.
ADK_BUG = '''"""adk-my-bug: an after_model_callback drops the partial flag of streamed deltas (walkthrough)."""

import importlib.util
from pathlib import Path

from harness.runtime.declaration import Bug, CaseRole, Release

_source = Path(__file__).parents[1] / "adk-sse-callback-partial" / "bug.py"
_spec = importlib.util.spec_from_file_location("walkthrough_source", _source)
SOURCE = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(SOURCE)

BUG = Bug(
    links=("https://github.com/google/adk-python/issues/7035",),
    description="In SSE mode an after_model_callback that returns a new LlmResponse drops each delta's partial flag.",
    expected="The deltas stream as partial events and the session stores only the final one.",
    cases={
        "basic": CaseRole(
            "an agent's after_model_callback replaces each streamed response",
            reproduced=Release("google-adk==2.8.0", "the reporter's release"),
            fixed=SOURCE.FIRST_WITH_FIX,
        ),
        "control": CaseRole(
            "no callback: the deltas stream as partial events",
            reproduced=SOURCE.CONTROL_BROKEN,
            fixed=SOURCE.CONTROL_HOLDS,
            control=True,
        ),
    },
)
'''
AGENTS_BUG = '''"""agents-my-bug: a response without usage counts as zero requests (walkthrough)."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Release

REPORTERS = Release("openai-agents==0.18.3", "the reporter's release")

BUG = Bug(
    links=("https://github.com/openai/openai-agents-python/pull/4290",),
    description="A completed Chat Completions request without a usage block counts as zero requests.",
    expected="Every completed request counts once in usage.requests.",
    cases={
        "basic": CaseRole("Runner.run, two replies without usage", reproduced=REPORTERS, fixed=AsInstalled()),
        "streamed": CaseRole("the same, streamed", reproduced=REPORTERS, fixed=AsInstalled()),
    },
)
'''
AUTHORED = {  # framework -> (the converted bug whose script is copied, its cases as the author names them, bug.py)
    "google-adk": (
        "adk-sse-callback-partial",
        {"basic": 'dict(callback="agent")', "control": 'dict(callback="none")'},
        ADK_BUG,
    ),
    "openai-agents": (
        "agents-usage-requests-without-usage",
        {"basic": 'dict(api="chat", streamed=False)', "streamed": 'dict(api="chat", streamed=True)'},
        AGENTS_BUG,
    ),
}


def author(folder: Path, framework: str) -> None:
    """Write the bug folder as its author would: the source bug's script with the walkthrough's cases."""
    source, cases, declaration = AUTHORED[framework]
    script = (folder.parent / source / "repro.py").read_text()
    block = "CASES = {\n" + "".join(f'    "{c}": {params},\n' for c, params in cases.items()) + "}\n"
    script, n = re.subn(r"^CASES = \{\n.*?^\}\n", lambda _: block, script, count=1, flags=re.S | re.M)
    assert n == 1, "the source script has no CASES block"
    (folder / "repro.py").write_text(script)
    (folder / "bug.py").write_text(declaration)


TRACKS = {  # framework -> (its scenario id, the other framework's words, the case ids)
    "google-adk": ("adk-my-bug", ("openai-agents", "agents-my-bug"), ("basic", "control")),
    "openai-agents": ("agents-my-bug", ("google-adk", "adk-my-bug"), ("basic", "streamed")),
}


def walkthrough_commands(framework: str) -> list[str]:
    """The ``$`` lines of CONTRIBUTING.md for ``framework``: those naming it, and those naming neither."""
    text = (ROOT / "CONTRIBUTING.md").read_text()
    others = TRACKS[framework][1]
    lines = [line[2:].strip() for line in text.splitlines() if line.startswith("$ ")]
    return [c for c in lines if not any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", c) for w in others)]


def translate(command: str, cwd: Path) -> tuple[list[str], dict[str, str]]:
    argv = shlex.split(command)
    env = dict(os.environ)
    while argv and re.match(r"^[A-Z_]+=", argv[0]):
        name, _, value = argv.pop(0).partition("=")
        env[name] = str((cwd / value).resolve()) if name == "PYTHONPATH" else value
    if argv[:2] == ["python", "-m"]:
        return [sys.executable, *argv[1:]], env
    if argv[:4] == ["nox", "-s", "matrix", "--"]:
        return [sys.executable, "-m", "harness", "matrix", *argv[4:]], env
    if argv[:4] == ["nox", "-s", "tests", "--"]:
        return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *argv[4:]], env
    if argv and argv[0].startswith(".nox/builds/") and argv[1:3] == ["-m", "harness"]:
        return [str(cwd / argv[0]), *argv[1:]], env
    raise AssertionError(f"the walkthrough has a command this test cannot follow: {command}")


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory) -> Path:
    """A virtual environment with nothing installed: no framework, no test dependencies."""
    where = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    probe = subprocess.run([str(python), "-c", "import google.adk"], capture_output=True)
    assert probe.returncode != 0, "the bare environment has google-adk"
    probe = subprocess.run([str(python), "-c", "import agents"], capture_output=True)
    assert probe.returncode != 0, "the bare environment has openai-agents"
    return python


def list_without_frameworks(bare_python: Path, project: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONPATH"] = str(project)
    out = subprocess.run(
        [str(bare_python), "-m", "harness", "list"], capture_output=True, text=True, cwd=project, env=env
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


@pytest.mark.parametrize("framework", sorted(TRACKS))
def test_the_walkthrough_adds_a_working_scenario(tmp_path, framework, bare_python):
    scenario_id, _, case_ids = TRACKS[framework]
    for name in ("harness", "scenarios", "tests", "snapshots", "docs"):  # test_contract reads docs/ on import
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "noxfile.py"):  # tests read the test pins from noxfile.py
        shutil.copy(ROOT / name, tmp_path)
    (ROOT / ".nox").mkdir(exist_ok=True)
    (tmp_path / ".nox").symlink_to(ROOT / ".nox")  # share environments with every other run
    commands = walkthrough_commands(framework)
    assert commands[0].split()[:3] == ["python", "-m", "harness"] and len(commands) == 9, commands
    folder = tmp_path / "scenarios" / scenario_id
    reporter_release = None
    for step, command in enumerate(commands, 1):
        argv, env = translate(command, tmp_path)
        out = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env)
        said = out.stdout[-2000:] + out.stderr[-2000:]
        if " releases " in command:
            assert out.returncode == 0 and out.stdout.startswith(f"{framework}=="), said
            reporter_release = out.stdout.split()[0]
        elif " new " in command:
            assert out.returncode == 0, said
            assert "TODO" in (folder / "repro.py").read_text() and "TODO" in (folder / "bug.py").read_text()
            templ = subprocess.run(
                [sys.executable, "-m", "harness", "run", scenario_id], capture_output=True, text=True, cwd=tmp_path
            )
            assert templ.stdout.count(": error: ") == 2 and "is a template" in templ.stdout  # never passes vacuously
            assert scenario_id in list_without_frameworks(bare_python, tmp_path)
            author(folder, framework)  # the author writes the reproduction and its declaration
        elif "matrix" in command:
            if "==" in command:  # the reporter's release, as step 0 found it
                assert reporter_release and reporter_release in command, (reporter_release, command)
            assert out.returncode in (0, 1) and "error:" not in out.stderr, said
        elif command.startswith("PYTHONPATH="):  # the fast loop, in the reporter's release's environment
            version = reporter_release.split("==")[1]
            assert out.returncode == 0 and f"{scenario_id}:basic on {framework} {version}: reproduced" in out.stdout, (
                said
            )
            assert out.stdout.count("\n    ") >= 2, said  # the timeline is printed
        elif command.startswith("nox -s tests"):  # the author's checks of the new scenario, every one of them
            passed = re.search(r"\b(\d+) passed\b", out.stdout)
            assert out.returncode == 0 and passed and int(passed.group(1)) >= 8, said
        elif "--proof" in command:
            assert out.returncode == 0 and "under its reproduced proof" in out.stdout, said
            assert f"on {reporter_release.replace('==', ' ')} (its matrix environment): reproduced" in out.stdout, said
        else:
            assert out.returncode == 0, said
        listed = list_without_frameworks(bare_python, tmp_path)
        assert scenario_id in listed or step < 2, f"after step {step} ({command}): {listed}"
    stored = "\n".join(
        p.relative_to(tmp_path / "snapshots" / "matrix").as_posix()
        for p in (tmp_path / "snapshots" / "matrix").rglob("*.txt")
    )
    for case in case_ids:
        assert re.search(rf"{scenario_id}/{case}/\d+\.\d+\.\d+\.txt", stored), stored
    assert f"# {scenario_id}" in (tmp_path / "reports" / f"{scenario_id}.md").read_text()
