"""Bugs the tests write in ``tmp_path``: a bug folder ``scenarios/<id>/`` with its script
``repro.py`` and its declaration ``bug.py``, as every real one (harness/runtime/reproduction.py),
and a scratch project (this harness and only such folders) for the tests that run a worker.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import sys
import textwrap
from pathlib import Path

from harness.rendering.metadata import CaseMetadata, ScenarioMetadata
from harness.runtime import reproduction

ROOT = Path(__file__).resolve().parent.parent

# The start of a scratch bug's script: each case's entry in ``CASES`` names its step (an async
# function of the script that says its lines with ``say`` and returns its facts, or None) and the
# function that judges those facts (``verdict``: ``ok`` unless it names another).
HEADER = """
import os, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the scratch project (this script: scenarios/<id>/repro.py)


class NotApplicable(Exception):
    pass


async def observe(say, step, verdict="ok"):
    return {**(await globals()[step](say) or {}), "verdict": verdict}


def judge(facts):
    return globals()[facts["verdict"]](facts)


async def fine(say):
    say("ok")


def ok(facts):
    return "fixed", "ok"
"""

# A scratch bug's declaration: every case of its script, both proofs the installed release.
DECLARATION = """
from harness.runtime.declaration import AsInstalled, Bug, CaseRole

BUG = Bug(
    links=("https://example.org",),
    description="d",
    expected="e",
    cases={{case: CaseRole(case, reproduced=AsInstalled(), fixed=AsInstalled()) for case in {cases!r}}},
)
"""


def case_ids(script: str) -> tuple[str, ...]:
    """The keys of the dict literal ``CASES`` in ``script``, in order."""
    for node in ast.parse(textwrap.dedent(script)).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "CASES" for t in node.targets):
            assert isinstance(node.value, ast.Dict), "CASES is not a dict literal"
            return tuple(ast.literal_eval(k) for k in node.value.keys if k is not None)
    raise AssertionError("the script defines no CASES")


def write_bug(
    scenarios: Path, scenario_id: str, script: str, declaration: str | None = None, files: dict[str, str] | None = None
) -> Path:
    """The bug folder ``scenarios/<scenario_id>/``, written: ``repro.py`` (``script``), ``bug.py``
    (``declaration``; by default ``DECLARATION`` for the script's cases) and ``files`` (name -> text).

    This process imports a bug's script once by its folder's name, and its declaration once per
    folder (harness/runtime/importing.py): what it holds of either is dropped here, so a
    ``registry.discover`` in this process reads what was just written."""
    folder = scenarios / scenario_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / reproduction.SCRIPT).write_text(textwrap.dedent(script))
    if declaration is None:
        declaration = DECLARATION.format(cases=case_ids(script))
    (folder / reproduction.DECLARATION).write_text(textwrap.dedent(declaration))
    for name, text in (files or {}).items():
        (folder / name).write_text(text)
    script_module = "repro_" + re.sub(r"\W", "_", scenario_id)  # reproduction.load_script's name for it
    inside = os.path.realpath(folder) + os.sep
    for name, module in list(sys.modules.items()):
        origin = getattr(module, "__file__", None)
        if name == script_module or (isinstance(origin, str) and os.path.realpath(origin).startswith(inside)):
            del sys.modules[name]
    return folder


def scratch_project(tmp_path: Path, bugs: dict[str, str]) -> Path:
    """A project root with this harness and only the given bugs (scenario id -> script, each with
    the default declaration)."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "harness", root / "harness", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "scenarios").mkdir()
    (root / "scenarios" / "__init__.py").write_text("")
    for scenario_id, script in bugs.items():
        write_bug(root / "scenarios", scenario_id, script)
    return root


def demo_metadata(description: str = "the bug") -> ScenarioMetadata:
    """A rendered scenario of two cases, the second a control (the renderers' tests)."""
    return ScenarioMetadata(
        "adk-demo",
        "google-adk",
        (CaseMetadata("one"), CaseMetadata("two", control=True)),
        links=("https://github.com/google/adk-python/issues/1",),
        description=description,
        expected="no bug",
    )
