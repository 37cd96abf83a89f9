"""Each boundary explained by the framework's own code (issue 36, first bullet).

Fast: the line tracer, the restriction of the diff to executed lines, the bound of the excerpt
and the unexplained boundary, on synthetic source trees. Slow: the two boundaries the issue
names, traced in their real builds.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
import threading
from pathlib import Path

import pytest

from harness.commands import cli
from harness.execution import explain, trace_runs
from harness.project import PROJECT
from harness.rendering import boundary_evidence
from harness.runtime import line_trace, registry, trace_case
from harness.store import boundaries, boundary_files, changed_lines

# --- the tracer -------------------------------------------------------------------------------

TRACED_MODULE = """\
import threading


def add(a, b):
    total = a + b
    return total


def in_thread():
    out = []
    t = threading.Thread(target=lambda: out.append(add(1, 2)))
    t.start()
    t.join()
    return out


def define():
    class Defined:
        value = 1
    return Defined
"""


def _load(tmp_path: Path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "mod.py").write_text(TRACED_MODULE)
    spec = importlib.util.spec_from_file_location("_explain_traced_mod", package / "mod.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return package, module


def test_the_tracer_counts_the_lines_of_the_package_only_in_every_thread(tmp_path):
    """The tracer records the package's lines (function bodies, each function's first line),
    in threads the block starts too, and no module or class body, nor any other file."""
    package, module = _load(tmp_path)
    with line_trace.executed([str(package)]) as lines:
        module.add(1, 2)
        module.add(3, 4)
        module.in_thread()
        module.define()
    [(path, counts)] = lines.by_file.items()
    assert path.endswith("pkg/mod.py")
    assert counts[5] == 3 and counts[6] == 3  # add's body: twice here, once in the thread
    assert counts[4] == 3  # add's def line: its calls
    assert {10, 11, 12, 13, 14} <= set(counts)
    assert 1 not in counts  # the module body (import threading) ran before, and is never counted
    assert {18, 20} <= set(counts) and 19 not in counts  # a class body defines, at import: not counted
    assert sys.gettrace() is None and threading.gettrace() is None


def test_executed_lines_are_reported_relative_to_site_packages():
    """The traced run names files as paths under site-packages, never absolute."""
    got = trace_case.relative_lines({"/x/site-packages/agents/run.py": {3: 1, 2: 4}}, "/x/site-packages")
    assert got == {"agents/run.py": [[2, 4], [3, 1]]}


# --- the diff, restricted and bounded -----------------------------------------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, body in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
    return root


def _lines(n: int, changed: dict[int, str] | None = None) -> str:
    """n numbered lines of a function body, some replaced."""
    changed = changed or {}
    body = ["def f():"] + [changed.get(i, f"    x{i} = {i}") for i in range(2, n + 1)]
    return "\n".join(body) + "\n"


def _ran(lines: range | list[int], times: int = 1) -> dict[int, int]:
    return dict.fromkeys(lines, times)


def test_only_hunks_that_change_an_executed_line_are_kept(tmp_path):
    """Old-side lines count against the old release's executed lines, new-side ones against the
    new release's; a change elsewhere, or in a file the case never ran, is dropped; an executed
    file of one release only is kept."""
    old = _tree(tmp_path / "old", {"pkg/a.py": _lines(40), "pkg/c.py": _lines(5), "pkg/gone.py": _lines(3)})
    new = _tree(
        tmp_path / "new",
        {
            "pkg/a.py": _lines(40, {5: "    x5 = 'new'", 30: "    x30 = 'new'"}),
            "pkg/c.py": _lines(5, {3: "    x3 = 'new'"}),
            "pkg/b.py": _lines(3),
        },
    )
    # Line 5 ran on the old release only, line 30 on neither: one hunk, from the old side.
    ran_old = {"pkg/a.py": _ran(range(2, 10)), "pkg/gone.py": _ran([2])}
    ran_new = {"pkg/a.py": _ran(range(2, 5)), "pkg/b.py": _ran([2, 3])}
    hunks, one_sided = changed_lines.executed_changes(old, new, ran_old, ran_new)
    assert [(h.file, h.executed_old, h.executed_new) for h in hunks] == [("pkg/a.py", (5,), ())]
    assert "-    x5 = 5" in hunks[0].body and "+    x5 = 'new'" in hunks[0].body
    assert [(f.file, f.side, f.executed) for f in one_sided] == [("pkg/b.py", "new", 2), ("pkg/gone.py", "old", 1)]
    # The same change seen from the new side only.
    hunks, _ = changed_lines.executed_changes(old, new, {}, {"pkg/a.py": _ran([30])})
    assert [(h.executed_old, h.executed_new, h.new_start) for h in hunks] == [((), (30,), 27)]


def test_a_boundary_where_no_executed_line_changed_is_unexplained(tmp_path):
    """The changes lie outside what the case ran: the boundary is marked unexplained, saying why."""
    old = _tree(tmp_path / "old", {"pkg/a.py": _lines(20)})
    new = _tree(tmp_path / "new", {"pkg/a.py": _lines(20, {15: "    x15 = 'changed where nothing ran'"})})
    ran = {"pkg/a.py": _ran(range(2, 8))}
    sides = [
        trace_runs.Traced("1.0.0", "reproduced", "", ran, old),
        trace_runs.Traced("1.1.0", "fixed", "", ran, new),
    ]
    case = registry.discover()["adk-retry-same-invocation-id"].cases[0]
    b = boundaries.Boundary(boundaries.Side("1.0.0", "reproduced"), boundaries.Side("1.1.0", "fixed"), "first fixed")
    e = explain.entry(explain.Wanted(case, b), *sides)
    assert (e.status, e.reason) == ("unexplained", changed_lines.UNEXPLAINED)
    assert e.excerpt == () and e.hunks == ()
    assert "unexplained (no executed framework line changed" in "\n".join(boundary_evidence.terminal_lines(e))


def test_a_boundary_explained_by_a_class_body_says_so(tmp_path):
    """openai-agents 0.6.9 -> 0.7.0 (agents-to-input-list-after-handoff): only a dataclass field's
    default changed (RunConfig.nest_handoff_history True -> False). Class bodies run at import and
    are not traced, so no executed line changed; the class-level hunk of a file the case ran is the
    explanation, with a note saying so. A change in a function the case never ran still is not."""
    before = (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass RunConfig:\n"
        "    nest: bool = True\n\n    def f(self):\n        return 1\n"
    )
    old = _tree(tmp_path / "old", {"pkg/run.py": before})
    new = _tree(tmp_path / "new", {"pkg/run.py": before.replace("nest: bool = True", "nest: bool = False")})
    ran = {"pkg/run.py": _ran([9])}
    sides = [
        trace_runs.Traced("0.6.9", "reproduced", "", ran, old),
        trace_runs.Traced("0.7.0", "fixed", "", ran, new),
    ]
    case = registry.discover()["adk-retry-same-invocation-id"].cases[0]
    b = boundaries.Boundary(boundaries.Side("0.6.9", "reproduced"), boundaries.Side("0.7.0", "fixed"), "first fixed")
    e = explain.entry(explain.Wanted(case, b), *sides)
    assert (e.status, e.reason) == ("explained", changed_lines.DEFINITION_LEVEL)
    assert "-    nest: bool = True" in e.excerpt and "+    nest: bool = False" in e.excerpt
    inside = before.replace("return 1", "return 2")
    new2 = _tree(tmp_path / "new2", {"pkg/run.py": inside})
    assert changed_lines.definition_changes(old, new2, ran, ran) == []


def test_the_excerpt_is_bounded_and_counts_the_rest(tmp_path):
    """Ten executed hunks of 9 lines: about 80 lines are shown, whole hunks only, and the rest is
    counted in hunks and lines."""
    n = 400
    changed = {i: f"    x{i} = 'new'" for i in range(20, n, 38)}  # 10 changes, far apart
    old = _tree(tmp_path / "old", {"pkg/a.py": _lines(n)})
    new = _tree(tmp_path / "new", {"pkg/a.py": _lines(n, changed)})
    ran = {"pkg/a.py": _ran(range(2, n + 1))}
    hunks, one_sided = changed_lines.executed_changes(old, new, ran, ran)
    assert len(hunks) == 10 and all(len(h.lines()) == 9 for h in hunks)
    shown = changed_lines.excerpt(hunks, one_sided, "1.0.0", "1.1.0")
    assert len(shown.lines) <= changed_lines.EXCERPT_LINES
    assert len(shown.lines) == 2 + 8 * 9  # the file's --- +++ pair, then eight whole hunks
    assert (shown.more_hunks, shown.more_lines) == (2, 18)
    assert shown.tail() == "and 2 more hunks, 18 more lines"


def test_a_single_hunk_longer_than_the_bound_is_cut_and_counted(tmp_path):
    """Something is always shown: a first hunk over the bound is cut to it."""
    old = _tree(tmp_path / "old", {"pkg/a.py": _lines(200)})
    new = _tree(tmp_path / "new", {"pkg/a.py": _lines(200, {i: f"    y{i} = 0" for i in range(10, 150)})})
    ran = {"pkg/a.py": _ran(range(2, 201))}
    hunks, _ = changed_lines.executed_changes(old, new, ran, ran)
    shown = changed_lines.excerpt(hunks, [], "1.0.0", "1.1.0")
    assert len(shown.lines) == changed_lines.EXCERPT_LINES
    assert shown.more_hunks == 0 and shown.more_lines == 2 + len(hunks[0].lines()) - changed_lines.EXCERPT_LINES


def test_the_hunk_where_the_runs_went_different_ways_is_shown_first(tmp_path):
    """Two executed changes: a rewrite that behaves the same, and a guard after which the
    unchanged lines ran fewer times on the new release. The guard leads the excerpt."""
    old_text = "def same():\n    a = 1\n    return a\n\n\n" + "\n" * 20 + "def guarded():\n    b = 2\n    c = 3\n"
    new_text = old_text.replace("    a = 1\n", "    a = 0 + 1\n").replace(
        "def guarded():\n", "def guarded():\n    if seen():\n        return\n"
    )
    old = _tree(tmp_path / "old", {"pkg/a.py": old_text})
    new = _tree(tmp_path / "new", {"pkg/a.py": new_text})
    ran_old = {"pkg/a.py": {1: 1, 2: 1, 3: 1, 26: 2, 27: 2, 28: 2}}
    ran_new = {"pkg/a.py": {1: 1, 2: 1, 3: 1, 26: 2, 27: 2, 28: 1, 29: 1, 30: 1}}
    hunks, _ = changed_lines.executed_changes(old, new, ran_old, ran_new)
    assert [h.divergence for h in hunks] == [0, 2]
    shown = changed_lines.excerpt(hunks, [], "1.0.0", "1.1.0")
    assert shown.lines[2].endswith("def guarded():") and "+    if seen():" in shown.lines


def test_diverged_functions_lead_then_the_most_code_that_ran(tmp_path):
    """The misranked boundaries of issue 45, in small. adk-planreact 1.21.0 -> 1.22.0: the cause is
    a check that now skips an event (lines after it ran on the old release only; 4 changed lines
    ran), ahead of tracing code downstream that ran a different number of times (2 changed lines
    ran). agents-streamed-tool-called-arguments 0.2.9 -> 0.2.10, where nothing diverged: new
    emission code that ran leads one-line parameter plumbing. agents-nested-handoff-4hop: code
    that ran a lot but did not diverge comes after the diverged."""
    gap = "\n" * 10
    old_text = (
        "def plumbing(a):\n    return call(a)\n"
        + gap
        + "def downstream(items):\n    for i in items:\n        trace(i)\n    return 1\n"
        + gap
        + "def check(e):\n    if e.empty:\n        return True\n    keep(e)\n    return False\n"
        + gap
        + "def emit(x):\n    y = x\n    return y\n"
    )
    new_text = (
        old_text.replace("return call(a)", "return call(a, b=None)")
        .replace("    return 1\n", "    return 1 + 0\n")
        .replace("    if e.empty:", "    if e.empty or e.thought:")
        .replace("        return True", "        return True  # skipped")
        .replace("    y = x\n", "    y = x\n" + "".join(f"    y{i} = y\n" for i in range(4)))
    )
    old = _tree(tmp_path / "old", {"pkg/a.py": old_text})
    new = _tree(tmp_path / "new", {"pkg/a.py": new_text})
    lines = old_text.splitlines()
    at = {text.strip(): n for n, text in enumerate(lines, 1)}
    ran_old = {"pkg/a.py": {n: 1 for n in range(1, len(lines) + 1) if lines[n - 1].strip()}}
    ran_old["pkg/a.py"][at["trace(i)"]] = 3
    ran_new = {"pkg/a.py": dict(ran_old["pkg/a.py"])}
    ran_new["pkg/a.py"][at["trace(i)"]] = 2  # one event fewer downstream: ran on both, fewer times
    del ran_new["pkg/a.py"][at["keep(e)"]]  # the check now returns early: ran on the old side only
    ran_new["pkg/a.py"][at["return True"]] = 1
    del ran_new["pkg/a.py"][at["return False"]]
    for i in range(4):  # the new emission lines, each once (unchanged lines keep their numbers above)
        ran_new["pkg/a.py"][len(lines) + i] = 1
    ran_new["pkg/a.py"][len(lines) + 4] = 1
    hunks, _ = changed_lines.executed_changes(old, new, ran_old, ran_new)
    ordered = [h.where for h in changed_lines.cause_order(hunks)]
    assert ordered == ["def check(e):", "def downstream(items):", "def emit(x):", "def plumbing(a):"], ordered
    by_where = {h.where: h for h in hunks}
    assert by_where["def check(e):"].ran_one_side == 2 and by_where["def downstream(items):"].ran_one_side == 0
    assert by_where["def downstream(items):"].divergence == 1
    shown = changed_lines.excerpt(hunks, [], "1.0.0", "1.1.0")
    assert shown.lines[2].endswith("def check(e):")


def _entry_for(case_id: str, old: str, new: str, tmp_path: Path, failed: bool = False) -> boundary_files.Entry:
    scenario = registry.discover()["adk-retry-same-invocation-id"]
    root = _tree(tmp_path / f"src-{case_id}-{old}", {"pkg/a.py": _lines(5)})
    sides = [
        trace_runs.Traced(old, "reproduced", "", {"pkg/a.py": _ran([2])}, root),
        trace_runs.Traced(new, "error", "install failed: no solution", {}, None)
        if failed
        else trace_runs.Traced(new, "fixed", "", {"pkg/a.py": _ran([2])}, root),
    ]
    b = boundaries.Boundary(boundaries.Side(old, "reproduced"), boundaries.Side(new, "fixed"), f"first fixed in {new}")
    return explain.entry(explain.Wanted(scenario.case(case_id), b), *sides)


def _save(root: Path, scenario, entries: list[boundary_files.Entry], replace_all: bool) -> Path:
    """``python -m harness explain``'s write of ``scenario``'s entries under ``root``."""
    ids = [c.id for c in scenario.cases]
    return boundary_files.save(root / "reports", scenario.id, scenario.framework, ids, entries, replace_all)


def test_a_build_that_cannot_be_traced_is_an_error_naming_it(tmp_path):
    """An install or a traced run that fails is no explanation and no 'unexplained': it says which release failed."""
    e = _entry_for("resumable-resume", "2.8.0", "2.9.0", tmp_path, failed=True)
    assert (e.status, e.reason) == ("error", "2.9.0: install failed: no solution")
    assert boundary_evidence.terminal_lines(e)[-1] == "  not explained: 2.9.0: install failed: no solution"


def test_the_document_is_merged_sorted_and_holds_no_machine_path(tmp_path):
    """Explaining one boundary again replaces its entry and keeps the others; entries are in the
    scenario's case order, then by release; the same entries give the same bytes, no absolute path."""
    scenario = registry.discover()["adk-retry-same-invocation-id"]
    later = _entry_for("non-resumable-retry", "2.8.0", "2.9.0", tmp_path)
    earlier = _entry_for("non-resumable-retry", "2.3.0", "2.4.0", tmp_path)
    first_case = _entry_for("resumable-resume", "2.8.0", "2.9.0", tmp_path)
    path = _save(tmp_path, scenario, [later, earlier], replace_all=True)
    assert path == tmp_path / "reports" / "boundaries" / "adk-retry-same-invocation-id.json"
    _save(tmp_path, scenario, [first_case, dataclasses.replace(later, summary="again")], replace_all=False)
    document = json.loads(path.read_text())
    assert [(e["case"], e["before"]["version"], e["summary"]) for e in document["boundaries"]] == [
        ("resumable-resume", "2.8.0", "first fixed in 2.9.0"),
        ("non-resumable-retry", "2.3.0", "first fixed in 2.4.0"),
        ("non-resumable-retry", "2.8.0", "again"),
    ]
    assert str(tmp_path) not in path.read_text()
    before = path.read_bytes()
    _save(tmp_path, scenario, [first_case], replace_all=False)
    assert path.read_bytes() == before


def test_every_committed_boundaries_file_reads_and_writes_back_to_its_bytes():
    """The typed entries (harness/store/boundary_files.py ``Entry``) hold all a file holds: each
    committed reports/boundaries/<scenario>.json, read and written again, is byte for byte the same."""
    reports_dir = PROJECT.root / "reports"
    paths = sorted((reports_dir / boundary_files.FOLDER).glob("*.json"))
    assert paths
    for path in paths:
        document = json.loads(path.read_text())
        entries = boundary_files.read(reports_dir, path.stem)
        assert len(entries) == len(document["boundaries"]), path.name
        assert boundary_files.dumps(document["scenario"], document["framework"], entries) == path.read_text(), path


def test_the_boundaries_file_is_written_under_the_records_lock_all_or_nothing(tmp_path):
    """Before, explain.py wrote the file with ``write_text``, outside the staging and the lock: now a
    write waits for the record's lock, and leaves no staging folder behind."""
    from harness.store.lock import locked

    scenario = registry.discover()["adk-retry-same-invocation-id"]
    entry = _entry_for("non-resumable-retry", "2.8.0", "2.9.0", tmp_path)
    reports_dir = tmp_path / "reports"
    written = threading.Event()

    def write() -> None:
        _save(tmp_path, scenario, [entry], replace_all=True)
        written.set()

    with locked(reports_dir, log=lambda line: None):
        writer = threading.Thread(target=write)
        writer.start()
        assert not written.wait(0.5)
        assert not boundary_files.path_of(reports_dir, scenario.id).exists()
    writer.join(10)
    assert written.is_set()
    assert boundary_files.read(reports_dir, scenario.id) == [entry]
    assert [p.name for p in reports_dir.iterdir() if p.name.startswith(".tmp-stage-")] == []


# --- the command --------------------------------------------------------------------------------


def test_explain_between_releases_that_are_no_boundary_is_a_usage_error(capsys):
    """A pair of releases that is not a boundary of the record: one line naming the boundaries, exit 2."""
    code = cli.main(["explain", "adk-retry-same-invocation-id:resumable-resume", "--between", "2.5.0", "2.6.3"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "no boundary between 2.5.0 and 2.6.3" in err and "2.8.0 2.9.0" in err


def test_explain_of_an_unknown_scenario_is_a_usage_error(capsys):
    assert cli.main(["explain", "no-such-scenario"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown scenario 'no-such-scenario'")


# --- slow: the two boundaries the issue names, in their real builds ---------------------------------


def _explained(selector: str, old: str, new: str) -> boundary_files.Entry:
    scenario_id, _, case_id = selector.partition(":")
    scenario = registry.discover()[scenario_id]
    chosen = explain.wanted(scenario, case_id, (old, new), PROJECT)
    [entry] = explain.explain(scenario, chosen, PROJECT, timeout=120)
    assert entry.traced == (entry.before.outcome, entry.after.outcome)
    assert entry.status == "explained"
    assert len(entry.excerpt) <= changed_lines.EXCERPT_LINES
    return entry


@pytest.mark.slow
def test_the_adk_fix_of_2_9_0_is_shown_as_the_user_message_guard_in_runners():
    """adk-retry-same-invocation-id, 2.8.0 -> 2.9.0: the excerpt leads with the guard that skips a
    user message already in the session for the invocation (google/adk/runners.py)."""
    entry = _explained("adk-retry-same-invocation-id:resumable-resume", "2.8.0", "2.9.0")
    first = entry.hunks[0]
    assert (first["file"], first["where"]) == ("google/adk/runners.py", "async def _handle_new_message(")
    assert entry.excerpt[:2] == ("--- google/adk/runners.py (2.8.0)", "+++ google/adk/runners.py (2.9.0)")
    shown = "\n".join(entry.excerpt)
    assert "+    if not is_function_response and self._find_user_message_for_invocation(" in shown
    assert "+      return" in shown


@pytest.mark.slow
def test_the_agents_fix_of_0_19_0_is_shown_in_the_handoff_history_code():
    """agents-nested-handoff-4hop, 0.18.3 -> 0.19.0: the excerpt leads with agents/handoffs/history.py."""
    entry = _explained("agents-nested-handoff-4hop:nested-4hop", "0.18.3", "0.19.0")
    assert entry.hunks[0]["file"] == "agents/handoffs/history.py"
    assert entry.excerpt[0] == "--- agents/handoffs/history.py (0.18.3)"
    assert any(h["where"] == "def nest_handoff_history(" for h in entry.hunks)
