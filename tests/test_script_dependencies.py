"""A script's dependencies are one fact (issue 47): the PEP 723 header of each bug folder's
repro.py, which a maintainer's `uv run` installs, names exactly the framework and the packages its
bug.py `requires=` gives the harness's builds, no more and no less. agents-mcp-error-aborts-run's
header listed `mcp` where its bug.py did not (every openai-agents release with `agents.mcp`, 0.0.7
on, declares mcp itself)."""

from __future__ import annotations

import re
import tomllib

import pytest

from conftest import ROOT
from harness.runtime import registry

# PEP 723's reference regular expression for a script's metadata block.
BLOCK = re.compile(r"(?m)^# /// (?P<type>[a-zA-Z0-9-]+)$\s(?P<content>(^#(| .*)$\s)+)^# ///$")


def header_dependencies(text: str) -> list[str]:
    """The `dependencies` of a script's `# /// script` block."""
    match = next(m for m in BLOCK.finditer(text) if m.group("type") == "script")
    lines = match.group("content").splitlines(True)
    content = "".join(line[2:] if line.startswith("# ") else line[1:] for line in lines)
    return tomllib.loads(content)["dependencies"]


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement).group(0)).lower()


BUG_FOLDERS = sorted(p.parent.name for p in (ROOT / "scenarios").glob("*/repro.py"))


@pytest.mark.parametrize("scenario_id", BUG_FOLDERS)
def test_the_scripts_header_names_what_its_bug_py_requires(scenario_id):
    scenario = registry.discover()[scenario_id]
    header = header_dependencies((ROOT / "scenarios" / scenario_id / "repro.py").read_text(encoding="utf-8"))
    expected = list(scenario.requires)
    if not any(_name(r) == scenario.framework for r in expected):
        expected.insert(0, scenario.framework)
    assert sorted(header) == sorted(expected), (
        f"{scenario_id}: repro.py's header says {header}, bug.py's requires= gives {expected}"
    )


def test_the_header_parser_reads_a_block_as_pep_723_writes_it():
    text = (
        '# /// script\n# requires-python = ">=3.10"\n# dependencies = ["google-adk[db]", "mcp<2"]\n# ///\n"""doc"""\n'
    )
    assert header_dependencies(text) == ["google-adk[db]", "mcp<2"]
