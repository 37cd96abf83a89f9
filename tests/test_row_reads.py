"""Issue 34, "every module reads attributes, not strings": outside harness/store/ (which owns the
record and its keys) no module reads a result row of the record by a key's name, and the reports
rendered from rows are the committed ones byte for byte."""

from __future__ import annotations

import ast
from pathlib import Path

from ast_reads import key_read
from harness.project import Project
from harness.rendering import reports
from harness.runtime import registry
from harness.store import record
from harness.store.staging import Staging

HARNESS = Path(__file__).resolve().parents[1] / "harness"
PROJECT = HARNESS.parent


# Every module outside harness/store/ (which owns the record and its keys) reads a result row by
# its attributes. The worker's wire format is read by key in one module, harness/runtime/result.py
# (its other readers, harness/execution/driver.py and run.py, go through its helpers).
ROW_READERS = [
    p.relative_to(HARNESS).as_posix()
    for p in sorted(HARNESS.rglob("*.py"))
    if p.relative_to(HARNESS).parts[0] != "store" and p.relative_to(HARNESS).as_posix() != "runtime/result.py"
]

# Dicts that share a key's name with a result row but are not one: by module, the expression
# subscripted and the keys it may be read by (what each is in the comment). Any other read by a row
# key's name is reported, these expressions included.
NOT_ROWS: dict[str, dict[str, set[str]]] = {
    "execution/trace_runs.py": {"answer": {"outcome", "detail"}},  # a traced run's answer line
    "execution/upgrades.py": {"entry": {"inputs"}},  # a pair's entry of the environment's result cache
    "mutants/equivalents.py": {"entry": {"scenario"}},  # a [[mutant]] of the equivalents file
    "planning/waivers.py": {"entry": {"case"}},  # a [[waiver]] of a framework's .agent-bug-harness.toml
    "execution/proof_worker.py": {"record": {"case", "outcome", "detail"}},  # a proof worker's line
    "mutants/worker.py": {"spec": {"scenario", "release"}},  # the proof worker's task
    "planning/audit_targets.py": {"p": {"version"}},  # a lock file's package
    "planning/builds.py": {"project": {"version"}},  # a pyproject.toml's [project] table
}


def row_subscripts(paths: list[Path], root: Path = HARNESS) -> list[str]:
    """``file:line key`` of every read of a result row by its key's name in ``paths``: a subscript
    (``r["outcome"]``) or a ``get`` (``r.get("outcome")``), unless ``NOT_ROWS`` says what it reads."""
    from harness.store import rows

    keys = {*rows.RESULT_KEYS, *rows.EXTRA_KEYS, rows.INPUTS_KEY, "release", "snapshot_diff"}
    found = []
    for path in paths:
        name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
        exempt = NOT_ROWS.get(name, {})
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            found_read = key_read(node)
            if found_read is None:
                continue
            read, key = found_read
            if key in keys and key not in exempt.get(ast.unparse(read), set()):
                found.append(f"{name}:{node.lineno} {key}")
    return found


def test_no_result_row_is_read_by_a_string_key_outside_the_store(tmp_path):
    """Fault: a result passed through five shapes (CaseResult, worker dict, CaseRun, the `_result`
    dict, the `written` dict) read by string keys everywhere (410 subscripts in 20 modules; this
    check found 235 reads in 9 modules before they took rows, 226 in rendering/). From the worker
    to the record it is one type (harness/runtime/result.py ``CaseResult``, carried by
    harness/store/rows.py ``Row``), read by attributes in every module outside harness/store/; the
    check is shown to catch a seeded module, and an exempt name only in the module it is exempt in."""
    # Every module outside harness/store/, not a hand list.
    assert {"rendering/evidence.py", "mutants/schedule.py", "execution/explain.py", "commands/osv.py"} <= {*ROW_READERS}
    assert row_subscripts([HARNESS / p for p in ROW_READERS]) == []
    # Nor the project's other Python that could see a row: the bugs' declarations, the exported pytest
    # tests and the nox sessions. (A bug's repro.py never sees a row: it stands alone, and the dicts
    # it reads are its own facts, whose keys may be called "case" or "outcome".)
    project = HARNESS.parent
    others = [p for p in sorted((project / "scenarios").rglob("*.py")) if p.name != "repro.py"]
    assert row_subscripts([*others, project / "noxfile.py"], project) == []
    seeded = tmp_path / "seeded.py"
    seeded.write_text(
        "def f(r, env, scenario, entry):\n"
        '    return r["outcome"], env["source"], r.get("timeline"), scenario["framework"], entry["case"]\n'
    )
    assert row_subscripts([seeded], tmp_path) == [
        "seeded.py:2 outcome",
        "seeded.py:2 source",
        "seeded.py:2 timeline",
        "seeded.py:2 framework",
        "seeded.py:2 case",
    ]
    planning = tmp_path / "planning"
    planning.mkdir()
    (planning / "waivers.py").write_text(seeded.read_text())
    # In planning/waivers.py a waiver entry may be read by "case"; an environment or a scenario's
    # metadata by a key nowhere (issue 47: they are Environment and ScenarioMetadata, read by attributes).
    assert row_subscripts([planning / "waivers.py"], tmp_path) == [
        "planning/waivers.py:2 outcome",
        "planning/waivers.py:2 source",
        "planning/waivers.py:2 timeline",
        "planning/waivers.py:2 framework",
    ]


def test_the_reports_rendered_from_rows_are_the_committed_ones(tmp_path):
    """Rendering takes the typed record (harness/store/document.py ``Record``, its results as
    harness/store/rows.py ``Row``s): the committed record renders into exactly the committed reports
    (matrix.md, every scenario's report and grid, every framework's grid)."""
    document = record.load(PROJECT / "reports")
    assert document is not None
    bisects = record.bisect_record(PROJECT / "reports")
    scenarios = registry.discover(PROJECT / "scenarios")
    with Staging(tmp_path) as stage:
        written = reports.write_all(document, scenarios, tmp_path, stage, bisects, Project(PROJECT))
    assert len(written) > 2 * len(scenarios)  # a report and a grid per scenario, and more
    for path in written:
        relative = path.relative_to(tmp_path)
        assert path.read_bytes() == (PROJECT / "reports" / relative).read_bytes(), relative
