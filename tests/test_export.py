"""Bundled reproduction scripts (``python -m harness export --bundle``): self-contained, and they
say what the harness says.

The tests read the bundles (inline metadata, no machine path, nothing imported from the project,
the bundle is the project's code verbatim) and run one case per framework in this environment.
What a script says on every release of the record is the matrix's to check, through each case's
short reproduction (tests/test_short_repro.py); bundles are made on demand and never committed.
"""

from __future__ import annotations

import ast
import os
import re
import runpy
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

import pytest

from conftest import ROOT, installed
from harness.rendering import export, reports
from harness.runtime import registry, short_repro
from harness.runtime.runner import run_case
from harness.store import record
from harness.store.staging import Staging

SCENARIOS = registry.discover()
CASES = registry.select(SCENARIOS, [])
RECORD = record.load(ROOT / "reports") or {"results": [], "environments": []}
# PEP 723's reference regular expression for inline metadata blocks.
PEP723 = re.compile(r"(?m)^# /// (?P<type>[a-zA-Z0-9-]+)$\s(?P<content>(^#(| .*)$\s)+)^# ///$")
STATUS = {"fixed": 0, "reproduced": 3}  # the bundle exits as every reproduction script does
# noxfile.py's TEST_PINS (the releases `nox -s tests` installs), read without importing nox.
TEST_PINS = dict(
    pin.split("==")
    for pin in re.findall(
        r'"([a-z-]+==[0-9.]+)"', re.search(r"(?m)^TEST_PINS = \[(.*)\]$", (ROOT / "noxfile.py").read_text()).group(1)
    )
)


def pin_for(scenario, case) -> export.Pin:
    return export.record_pin(RECORD, scenario, case) or export.Pin(
        scenario.framework, TEST_PINS[scenario.framework], None, "the test pin"
    )


@cache
def exported(scenario_id: str, case_id: str) -> str:
    scenario = SCENARIOS[scenario_id]
    case = scenario.case(case_id)
    return export.script(
        scenario, case, pin_for(scenario, case), rows=export.case_results(RECORD, scenario.id, case.id)
    )


def metadata(text: str) -> dict:
    blocks = [m for m in PEP723.finditer(text) if m.group("type") == "script"]
    assert len(blocks) == 1
    content = "".join(
        line[2:] if line.startswith("# ") else line[1:] for line in blocks[0].group("content").splitlines(keepends=True)
    )
    return tomllib.loads(content)


def run_script(python: str | Path, path: Path, *flags: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run an export as a maintainer would: from its own folder, nothing of this project on the path."""
    if env is None:
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    return subprocess.run(
        [str(python), *flags, path.name], cwd=path.parent, env=env, capture_output=True, text=True, timeout=600
    )


def split_output(stdout: str) -> tuple[str, str]:
    """(timeline, verdict line) of an export's stdout."""
    body, _, verdict = stdout.rstrip("\n").rpartition("\n")
    return (body + "\n" if body else ""), verdict


# --- fast ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("scenario", SCENARIOS.values(), ids=list(SCENARIOS))
def test_the_bundle_is_the_scenario_and_every_project_module_it_imports(scenario):
    sources = export.bundle(scenario)
    assert f"scenarios/{scenario.module}.py" in sources
    assert {
        "harness/__init__.py",
        "harness/runtime/runner.py",
        "harness/runtime/timeline.py",
        "harness/runtime/outcomes.py",
        "harness/runtime/scenario.py",
        "scenarios/__init__.py",
    } <= set(sources)
    # Nothing of the orchestrator: the case runs with the standard library and the framework only.
    assert not {
        "harness/execution/matrix.py",
        "harness/planning/versions.py",
        "harness/runtime/registry.py",
        "harness/execution/environments.py",
    } & set(sources)
    for path, source in sources.items():
        assert source == (ROOT / path).read_text(encoding="utf-8")  # verbatim
        for node in ast.walk(ast.parse(source)):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            )
            for name in names:
                if name.split(".")[0] in export.PACKAGES and (ROOT / (name.replace(".", "/") + ".py")).exists():
                    assert name.replace(".", "/") + ".py" in sources, f"{path} imports {name}, not bundled"


@pytest.mark.parametrize(("scenario", "case"), CASES, ids=[f"{s.id}:{c.id}" for s, c in CASES])
def test_an_export_is_self_contained_with_inline_metadata_and_no_machine_path(scenario, case, tmp_path):
    text = exported(scenario.id, case.id)
    meta = metadata(text)
    pin = pin_for(scenario, case)
    assert meta["requires-python"] == ">=3.11"
    framework_dep = meta["dependencies"][0]
    assert framework_dep.startswith(scenario.framework) and framework_dep.endswith(f"=={pin.version}")
    for req in scenario.requires:  # the scenario's extras and packages are there
        name = re.match(r"[A-Za-z0-9._-]+", req).group(0)
        assert any(d.startswith(name) for d in meta["dependencies"]), (req, meta["dependencies"])
    if pin.exclude_newer:
        assert meta["tool"]["uv"]["exclude-newer"] == pin.exclude_newer
    for machine in {str(ROOT), str(ROOT.parent) + "/", str(Path.home()) + "/", sys.prefix}:
        assert machine not in text
    tree = ast.parse(text)
    doc = ast.get_docstring(tree)
    assert scenario.description.split()[0] in doc and scenario.links[0] in doc and "Expected:" in doc
    top_imports = {a.name.split(".")[0] for n in tree.body if isinstance(n, ast.Import) for a in n.names}
    top_imports |= {n.module.split(".")[0] for n in tree.body if isinstance(n, ast.ImportFrom) and n.module}
    assert top_imports <= {"__future__", "contextlib", "importlib", "os", "sys", "types"}
    path = tmp_path / "repro.py"
    path.write_text(text)
    namespace = runpy.run_path(str(path), run_name="not_main")  # defines, runs nothing
    assert namespace["BUNDLE"] == export.bundle(scenario)
    assert (namespace["SCENARIO"], namespace["CASE"], namespace["FRAMEWORK"]) == (
        scenario.id,
        case.id,
        scenario.framework,
    )


@pytest.mark.parametrize(
    "source",
    [
        "plain\n",
        'a """docstring""" and \'\'\'\n',
        "ends with a backslash \\",
        "ends with a quote'",
        'ends with a double quote"',
        "r'\\n' and \\x00\n",
        "",
    ],
)
def test_a_source_survives_its_literal(source):
    assert ast.literal_eval(export._literal(source)) == source


def test_without_the_framework_an_export_says_so_and_exits_125(tmp_path):
    """The contract's code for every failure of a reproduction script of its own, a missing framework
    included: 125, git bisect run's "skip" (2 would read as "bad", the bug)."""
    scenario, case = CASES[0]
    path = tmp_path / "repro.py"
    path.write_text(exported(scenario.id, case.id))
    proc = run_script(sys.executable, path, "-I", "-S")  # -S: no site-packages, so no framework
    assert proc.returncode == short_repro.EXIT_CANNOT_JUDGE == 125, proc.stderr
    assert (
        proc.stdout == f"{scenario.id}:{case.id}: error: {scenario.framework} is not installed in this Python; "
        f"`uv run` this file, or install {scenario.framework} (or your checkout of it) first\n"
    )


def one_case_per_framework():
    seen, params = set(), []
    for s, c in CASES:
        if s.framework not in seen:
            seen.add(s.framework)
            marks = [] if installed(s.framework) else [pytest.mark.skip(reason=f"{s.framework} not installed")]
            params.append(pytest.param(s, c, id=f"{s.id}:{c.id}", marks=marks))
    return params


@pytest.mark.parametrize(("scenario", "case"), one_case_per_framework())
def test_an_export_prints_the_harness_timeline_and_verdict_here(scenario, case, tmp_path):
    path = tmp_path / "repro.py"
    path.write_text(exported(scenario.id, case.id))
    proc = run_script(sys.executable, path, "-I")
    expected = run_case(scenario, case)
    timeline, verdict = split_output(proc.stdout)
    assert timeline == expected.timeline
    assert (
        verdict == f"{scenario.id}:{case.id} on {scenario.framework} {installed(scenario.framework)}: "
        f"{expected.outcome}: {expected.detail}"
    )
    assert proc.returncode == STATUS.get(expected.outcome, 125)


def test_the_cli_writes_one_case_or_every_case_and_refuses_bad_input(tmp_path, capsys):
    from harness.commands import cli

    scenario, case = next((s, c) for s, c in CASES if export.record_pin(RECORD, s, c))
    assert cli.main(["export", f"{scenario.id}:{case.id}", "--bundle", "-o", str(tmp_path / "one.py")]) == 0
    assert (tmp_path / "one.py").read_text() == export.script(
        scenario, case, pin_for(scenario, case), "one.py", export.case_results(RECORD, scenario.id, case.id)
    )
    # Without --bundle: the case's short reproduction as published, its header stamped from the record.
    assert cli.main(["export", f"{scenario.id}:{case.id}", "-o", str(tmp_path / "short.py")]) == 0
    assert (tmp_path / "short.py").read_text() == (
        ROOT / "reports" / "repro" / export.script_name(scenario.id, case.id)
    ).read_text()
    assert cli.main(["export", scenario.id, "-o", str(tmp_path / "all")]) == 0
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == sorted(
        export.script_name(scenario.id, c.id) for c in scenario.cases
    )
    capsys.readouterr()
    assert cli.main(["export", f"{scenario.id}:no-such-case"]) == 2
    other = "openai-agents==0.24.0" if scenario.framework == "google-adk" else "google-adk==2.13.0"
    assert cli.main(["export", f"{scenario.id}:{case.id}", "--release", other, "-o", "-"]) == 2
    assert cli.main(["export", f"{scenario.id}:{case.id}", "--release", "./some/checkout", "-o", "-"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("error: ") for line in err)


def test_the_reports_link_every_case_script_and_a_rerender_is_byte_identical(tmp_path):
    if not RECORD["results"]:
        pytest.skip("no record")
    present = [s for s in SCENARIOS.values() if any(r["scenario"] == s.id for r in RECORD["results"])]
    with Staging(tmp_path) as stage:
        reports.write_all(RECORD, SCENARIOS, tmp_path, stage)
    first = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    for s in present:
        text = (tmp_path / f"{s.id}.md").read_text()
        assert f"]({s.id}.svg)" in text
        for c in s.cases:
            name = export.script_name(s.id, c.id)
            assert f"](repro/{name})" in text
            assert f"repro/{name}" in first
    (tmp_path / "repro" / f"{present[0].id}--gone-case.py").write_text("stale")
    with Staging(tmp_path) as stage:
        reports.write_all(RECORD, SCENARIOS, tmp_path, stage)
    again = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert again == first  # the stale script of a case that no longer exists is gone too
