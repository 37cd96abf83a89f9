"""`nox -s lint`'s steps pass on the tree and fail on a seeded copy of it.

The steps are read from ``LINT_STEPS`` in noxfile.py (a plain literal, so no nox is needed
here) and run as written, with the tools the test environment installs from the same pinned
``lint`` group, in a copy of the files they check (harness/, scenarios/, tests/, noxfile.py,
pyproject.toml, .github/). Each seed is one mistake the step exists to catch: an unused
variable (ruff check), unformatted code (ruff format), an Optional passed where a value is
needed (mypy) and an action pinned by tag instead of commit (zizmor). Nothing is installed.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the test environment's scripts: ruff, mypy, zizmor beside pytest
COPIED = ["harness", "scenarios", "upgrades", "tests", "noxfile.py", "pyproject.toml", ".github"]


def lint_steps() -> list[list[str]]:
    tree = ast.parse((ROOT / "noxfile.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "LINT_STEPS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("noxfile.py has no LINT_STEPS")


def step(tool: str, *args: str) -> list[str]:
    """The step of LINT_STEPS that runs ``tool`` with ``args`` first (e.g. ruff format)."""
    for s in lint_steps():
        if s[0] == tool and s[1 : 1 + len(args)] == list(args):
            return s
    raise AssertionError(f"LINT_STEPS has no {tool} {' '.join(args)} step")


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    executable = BIN / command[0]
    assert executable.exists(), f"{command[0]} is not installed beside pytest; `nox -s tests` installs the lint group"
    return subprocess.run([str(executable), *command[1:]], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what `nox -s lint` checks; tests seed a mistake in it and put it back."""
    copy = tmp_path_factory.mktemp("lint") / "project"
    copy.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", ".mypy_cache", ".ruff_cache", "*.pyc")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=ignore)
        else:
            shutil.copy2(source, copy / name)
    return copy


@contextmanager
def seeded(tree: Path, relative: str, change: Callable[[str], str]) -> Iterator[Path]:
    path = tree / relative
    original = path.read_text()
    path.write_text(change(original))
    try:
        yield path
    finally:
        path.write_text(original)


def test_the_tools_are_the_pinned_versions():
    """The tools here are the ones `nox -s lint` installs: the `lint` group's exact pins."""
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text())["dependency-groups"]["lint"]
    for pin in pins:
        name, _, version = pin.partition("==")
        assert version, f"lint tool {pin!r} is not pinned to one version"
        out = run([name, "--version"], ROOT)
        assert re.search(rf"\b{re.escape(version)}\b", out.stdout + out.stderr), (pin, out.stdout, out.stderr)


def test_every_step_passes_on_the_tree(tree):
    """Before seeding: the copy is the tree, and the tree is clean (what `nox -s lint` checks)."""
    failures = {" ".join(s): (r.stdout + r.stderr)[-3000:] for s in lint_steps() if (r := run(s, tree)).returncode}
    assert failures == {}


# Appended to harness/runtime/timeline.py, each is formatted and typed unless it is the seed.
UNUSED_VARIABLE = """

def _seeded(values: list[int]) -> list[int]:
    count = len(values)
    return values
"""
UNFORMATTED = """

SEEDED = {'a':1}
"""
OPTIONAL_MISUSE = """

def _seeded(path: str | None) -> int:
    return len(path)
"""


def test_ruff_check_fails_on_a_seeded_lint_error(tree):
    with seeded(tree, "harness/runtime/timeline.py", lambda text: text + UNUSED_VARIABLE):
        out = run(step("ruff", "check"), tree)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "F841" in out.stdout and "harness/runtime/timeline.py" in out.stdout, out.stdout


def test_ruff_format_fails_on_seeded_unformatted_code(tree):
    with seeded(tree, "harness/runtime/timeline.py", lambda text: text + UNFORMATTED):
        out = run(step("ruff", "format"), tree)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "harness/runtime/timeline.py" in out.stdout + out.stderr, out.stdout + out.stderr


def test_mypy_fails_on_a_seeded_optional_misuse(tree):
    with seeded(tree, "harness/runtime/timeline.py", lambda text: text + OPTIONAL_MISUSE) as path:
        line = path.read_text().splitlines().index("    return len(path)") + 1
        out = run(step("mypy"), tree)
    assert out.returncode == 1, out.stdout + out.stderr
    assert f"harness/runtime/timeline.py:{line}: error:" in out.stdout and '"str | None"' in out.stdout, out.stdout


def test_zizmor_fails_on_a_seeded_unpinned_action(tree):
    def unpin(text: str) -> str:
        pinned = re.search(r"actions/checkout@[0-9a-f]{40}\s+# v\d[\w.]*", text)
        assert pinned, "checks.yml has no pinned actions/checkout to unpin"
        return text.replace(pinned.group(0), "actions/checkout@v7", 1)

    with seeded(tree, ".github/workflows/checks.yml", unpin):
        out = run(step("zizmor"), tree)
    assert out.returncode != 0, out.stdout + out.stderr
    assert "unpinned-uses" in out.stdout and "actions/checkout@v7" in out.stdout, out.stdout
