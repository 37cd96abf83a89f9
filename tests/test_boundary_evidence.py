"""Issue 36, "each boundary explained by the framework's own code": the boundaries file that
``python -m harness explain`` writes (reports/boundaries/<scenario>.json) is shown in the
scenario's report (summary, then the excerpt in a folded diff block, or why there is none) and
every boundary no executed line explains is listed in the run's summary. Before: neither the
report nor the summary read the file, so a computed explanation reached nobody."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from conftest import ROOT
from harness.project import PROJECT, Project
from harness.rendering import comment, evidence, summary
from harness.rendering.metadata import ScenarioMetadata
from harness.runtime import registry
from harness.store import boundary_files, record
from harness.store.rows import Row
from harness.store.snapshots import SnapshotStore
from tests.test_reports import SCENARIO, document, result

EXCERPT = [
    "--- 2.8.0/google/adk/runners.py",
    "+++ 2.9.0/google/adk/runners.py",
    "@@ -10,2 +10,4 @@ class Runner:",
    "     def run_async(self):",
    "+        if new_message is not None:",
    "+            append(new_message)",
    "     ```not a fence```",
]


def boundaries_file(root: Path) -> Path:
    """A synthetic file with one explained, one unexplained and one failed boundary of case ``one``."""

    def entry(before: str, after: str, status: str, reason: str = "", excerpt: list[str] | None = None) -> dict:
        return {
            "case": "one",
            "summary": f"reproduced up to {before}, fixed from {after}",
            "before": {"version": before, "outcome": "reproduced"},
            "after": {"version": after, "outcome": "fixed"},
            "status": status,
            "reason": reason,
            "traced": {"before": "reproduced", "after": "fixed"},
            "excerpt": excerpt or [],
            "more": {"hunks": 1, "lines": 12, "words": "and 1 more hunk, 12 more lines" if excerpt else ""},
        }

    path = root / "reports" / "boundaries" / "adk-demo.json"
    path.parent.mkdir(parents=True)
    entries = [
        entry("2.8.0", "2.9.0", "explained", excerpt=EXCERPT),
        entry("1.9.0", "1.10.0", "unexplained", "unexplained (no executed framework line changed: a dependency)"),
        entry("1.2.0", "1.3.0", "error", "1.3.0: worker failed in /home/someone/.nox/builds/x/lib/runner.py:3"),
    ]
    path.write_text(json.dumps({"schema_version": 1, "scenario": "adk-demo", "boundaries": entries}))
    return path


def rendered(root: Path) -> str:
    doc = document([result("2.8.0", "reproduced", "a\n"), result("2.9.0", "fixed", "b\n")])
    return evidence.render(
        dataclasses.replace(SCENARIO, explained=tuple(boundary_files.read(root / "reports", "adk-demo"))), doc
    )


def test_the_report_shows_each_boundary_its_excerpt_folded_or_why_not(tmp_path):
    boundaries_file(tmp_path)
    text = rendered(tmp_path)
    assert "**Executed code, 2.8.0 reproduced → 2.9.0 fixed**: reproduced up to 2.8.0, fixed from 2.9.0" in text
    block = text.split("2.9.0 fixed</summary>", 1)[1].split("</details>", 1)[0]
    assert "```diff\n--- 2.8.0/google/adk/runners.py\n" in block
    assert "+        if new_message is not None:" in block
    assert "(and 1 more hunk, 12 more lines)" in block
    # An excerpt's own fence cannot close the block early.
    assert block.count("```") == 2
    assert "1.10.0 fixed**: reproduced up to 1.9.0, fixed from 1.10.0\n\nunexplained (no executed" in text
    assert "not explained: the traced runs failed (1.3.0: worker failed in …/runner.py:3)" in text
    assert "/home/someone" not in text
    tokens = MarkdownIt("commonmark").parse(text)
    assert any(t.type == "fence" and t.info == "diff" for t in tokens)
    assert rendered(tmp_path) == text


def test_a_report_without_a_boundaries_file_is_unchanged(tmp_path):
    text = rendered(tmp_path)
    assert "Executed code" not in text
    assert text == evidence.render(
        SCENARIO, document([result("2.8.0", "reproduced", "a\n"), result("2.9.0", "fixed", "b\n")])
    )
    (tmp_path / "reports" / "boundaries").mkdir(parents=True)
    (tmp_path / "reports" / "boundaries" / "adk-demo.json").write_text("not json")
    assert rendered(tmp_path) == text


def test_the_summary_lists_every_boundary_no_executed_line_explains(tmp_path):
    boundaries_file(tmp_path)
    results = [Row.from_json(result("2.8.0", "reproduced", "a\n")), Row.from_json(result("2.9.0", "fixed", "b\n"))]
    text = summary.markdown(results, ["matrix.json"], SnapshotStore(tmp_path), Project(tmp_path))
    assert "### 2 boundaries no executed framework line explains" in text
    assert (
        "- `adk-demo:one` 1.9.0 reproduced → 1.10.0 fixed: unexplained (no executed framework line changed: "
        "a dependency)" in text
    )
    assert "- `adk-demo:one` 1.2.0 reproduced → 1.3.0 fixed: not explained: the traced runs failed (" in text
    assert "2.8.0 reproduced → 2.9.0 fixed:" not in text
    assert "/home/someone" not in text
    # Without the project's boundaries (or for scenarios with none) nothing is listed.
    assert "no executed framework line" not in summary.markdown(results, ["matrix.json"], SnapshotStore(tmp_path))


@pytest.mark.parametrize("scenario_id", sorted(registry.discover()))
def test_every_boundary_of_the_record_has_its_executed_code_change_or_says_why_not(scenario_id):
    """Issue 36: each boundary of the record (reports/matrix.json and bisect.json, as explain finds
    them) is in reports/boundaries/<scenario>.json with the same two sides and outcomes: its
    executed-line change, or unexplained with the reason. A boundary that moved (the record re-run,
    a bisect) fails here until ``python -m harness explain SCENARIO`` is run again."""
    from harness.execution import explain

    scenario = registry.discover()[scenario_id]
    wanted = {
        (
            w.case.id,
            w.boundary.before.version,
            w.boundary.before.outcome,
            w.boundary.after.version,
            w.boundary.after.outcome,
        )
        for w in explain.wanted(scenario, None, None, PROJECT)
    }
    have = {
        (e.case, e.before.version, e.before.outcome, e.after.version, e.after.outcome)
        for e in boundary_files.read(ROOT / "reports", scenario_id)
    }
    assert wanted <= have, f"not explained: {sorted(wanted - have)}; run python -m harness explain {scenario_id}"
    stale = sorted(have - wanted)
    assert not stale, f"no boundary of the record: {stale}; run python -m harness explain {scenario_id}"
    for e in boundary_files.read(ROOT / "reports", scenario_id):
        assert e.status == boundary_files.EXPLAINED or e.reason, e


def test_an_excerpt_several_cases_share_is_shown_once_per_comment():
    """Issue 45: one 545-line 0.5.0 -> 1.0.0 excerpt was printed four times in one comment."""
    from harness.rendering import boundary_evidence

    def entry(case, excerpt):
        return boundary_files.Entry.from_json(
            {
                "case": case,
                "summary": "first fixed in 1.0.0",
                "before": {"version": "0.5.0", "outcome": "reproduced"},
                "after": {"version": "1.0.0", "outcome": "fixed"},
                "status": "explained",
                "excerpt": excerpt,
            }
        )

    shared = ["--- a/x.py", "+++ b/x.py", "-old", "+new"]
    entries = [entry("a", shared), entry("b", shared), entry("c", ["-other", "+lines"])]
    text = "\n".join(boundary_evidence.comment_lines(entries, ["a", "b", "c"]))
    assert text.count("+new") == 1 and text.count("+lines") == 1
    assert "The same framework lines as for `a` above." in text
    assert text.index("`a`:") < text.index("`b`:") < text.index("`c`:")


def test_the_comments_first_screen_names_where_the_code_changed_at_each_flip():
    """Issue 45: the comment's first screen says the bug, the verdicts and the cause. One line per
    release pair where a case flips between reproduced and fixed, naming the changed functions in
    the entry's order (the likeliest cause first); a not-applicable side is no cause, and the real
    comment puts the line above the table and the script."""
    from harness.rendering import boundary_evidence

    def entry(case, before, after, hunks, status="explained"):
        return boundary_files.Entry.from_json(
            {
                "case": case,
                "before": {"version": before[0], "outcome": before[1]},
                "after": {"version": after[0], "outcome": after[1]},
                "status": status,
                "reason": "" if status == "explained" else "unexplained (no executed framework line changed)",
                "hunks": hunks,
            }
        )

    cause = {"file": "pkg/contents.py", "where": "def _contains_empty_content(event) -> bool:"}
    tracing = {"file": "pkg/tracing.py", "where": "def _trace(request):"}
    entries = [
        entry("a", ("0.5.0", "not-applicable"), ("1.0.0", "reproduced"), [tracing]),
        entry("b", ("1.21.0", "fixed"), ("1.22.0", "reproduced"), [tracing]),
        entry("a", ("1.21.0", "reproduced"), ("1.22.0", "fixed"), [cause, tracing, cause]),
        entry("b", ("2.0.0", "reproduced"), ("2.1.0", "fixed"), [], status="unexplained"),
    ]
    lines = boundary_evidence.cause_lines(entries, ["a", "b"])
    flips = [line for line in lines if line.startswith("- ")]
    assert flips == [
        "- 1.21.0 → 1.22.0 (`a` reproduced → fixed, `b` fixed → reproduced): the framework code the case ran "
        "changed in `pkg/contents.py` `_contains_empty_content`, `pkg/tracing.py` `_trace`.",
        "- 2.0.0 → 2.1.0 (`b` reproduced → fixed): unexplained (no executed framework line changed).",
    ]
    scenario = registry.discover()["adk-planreact-final-answer-tags"]
    text = comment.render(ScenarioMetadata.of(scenario, PROJECT), record.load(ROOT / "reports"), root_dir=ROOT)
    assert text.index("**Where it changed**") < text.index("Outcome per case") < text.index("<summary>repro.py")
