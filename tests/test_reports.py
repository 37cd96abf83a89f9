"""Scenario reports: valid GitHub-flavoured markdown, under the comment limit, deterministic."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from markdown_it import MarkdownIt

from harness.rendering import evidence, reports
from harness.rendering.metadata import CaseMetadata, ScenarioMetadata
from harness.store import boundaries, record
from harness.store.bisect_record import BisectRecord, Probe, Range
from harness.store.rows import Row

SCENARIO = ScenarioMetadata(
    "adk-demo",
    "google-adk",
    (CaseMetadata("one", "the only case"),),
    links=("https://github.com/google/adk-python/issues/1",),
    description="the bug",
    expected="no bug",
)


def result(version, outcome, timeline, source=None, detail="d"):
    return {
        "scenario": "adk-demo",
        "case": "one",
        "framework": "google-adk",
        "version": version,
        "source": source or f"google-adk=={version}",
        "outcome": outcome,
        "detail": detail,
        "snapshot": "match",
        "snapshot_base": version,
        "timeline": timeline,
    }


def document(results):
    envs = [
        {
            "source": r["source"],
            "framework": "google-adk",
            "version": r["version"],
            "python": "3.11.7",
            "exclude_newer": "2026-01-01T00:00:00Z",
            "packages": ["google-adk==" + r["version"], "pydantic==2.0"],
        }
        for r in results
    ]
    harness = {"python": "3.11.7", "platform": "linux-x86_64", "version": "0.1.0"}
    return record.Record.of([Row.from_json(r) for r in results], envs, harness)


def parse(text):
    return MarkdownIt("commonmark").enable("table").parse(text)


def test_report_structure_tables_and_details_parse_as_gfm():
    doc = document(
        [
            result("2.8.0", "reproduced", "a\nb\nb\n"),
            result("2.9.0", "reproduced", "a\nb\nb\n"),
            result("2.10.0", "fixed", "a\nb\n"),
        ]
    )
    text = evidence.render(SCENARIO, doc)
    tokens = parse(text)
    tables = [t for t in tokens if t.type == "table_open"]
    assert len(tables) == 2  # the thread's claim beside the measurement, then the outcomes
    rows = [t for t in tokens if t.type == "tr_open"]
    # claim table: header + claim + measurement; outcomes: header + two grouped rows
    # (2.8.0 – 2.9.0 reproduced, 2.10.0 fixed)
    assert len(rows) == 3 + 3
    html_blocks = [t.content for t in tokens if t.type == "html_block"]
    opened = sum(b.count("<details>") for b in html_blocks)
    assert opened == 6  # timeline shapes A and B, their diff, one per environment (3)
    assert opened == sum(b.count("</details>") for b in html_blocks) == sum(b.count("<summary>") for b in html_blocks)
    fences = [t for t in tokens if t.type == "fence"]
    assert {f.info for f in fences} == {"sh", "text", "diff"}
    assert "last release where it reproduces: **2.9.0**; first release where it is fixed: **2.10.0**" in text
    assert "-b\n" in text  # the diff between the reproduced and fixed shapes
    assert "nox -s matrix -- --only adk-demo google-adk==2.8.0 google-adk==2.9.0 google-adk==2.10.0" in text


def test_before_after_a_candidate_build():
    doc = document(
        [result("2.13.0", "reproduced", "x\nx\n"), result("2.13.0", "fixed", "x\n", source="local:google_adk-2.13.0")]
    )
    text = evidence.render(SCENARIO, doc)
    assert "reproduced on google-adk 2.13.0, fixed on the candidate build `local:google_adk-2.13.0`" in text
    assert "/path/to/google_adk-2.13.0" in text


def test_long_timelines_are_cut_visibly_and_the_report_fits_github():
    huge = "".join(f"[inv-1] user 'line {i}' {'x' * 200}\n" for i in range(5000))
    doc = document([result(f"2.{i}.0", "reproduced" if i % 2 else "fixed", huge + str(i)) for i in range(40)])
    text = evidence.render(SCENARIO, doc)
    assert len(text) <= evidence.GITHUB_LIMIT
    assert "more timeline lines cut to fit GitHub's comment limit" in text


def test_same_results_render_byte_identical_reports():
    doc = document([result("2.8.0", "reproduced", "a\n"), result("2.10.0", "unexpected", "c\n")])
    again = record.Record.from_json(json.loads(record.dumps(doc)))  # written and read back
    assert evidence.render(SCENARIO, doc) == evidence.render(SCENARIO, again)
    assert "unexpected on: 2.10.0" in evidence.render(SCENARIO, doc)


def test_matrix_md_links_each_scenario_report():
    doc = document([result("2.8.0", "reproduced", "a\n")])
    text = reports.matrix_markdown(doc, {"adk-demo": "adk-demo"})
    assert "[adk-demo](adk-demo.md)" in text
    assert any(t.type == "table_open" for t in parse(text))


def bisect_record(ranges, probes, releases):
    record = BisectRecord()
    for (a, b), pts in zip(ranges, probes, strict=True):
        record = record.with_bisect(
            [Probe("adk-demo", "one", "google-adk", v, o, "") for v, o in pts.items()],
            Range("adk-demo", "one", "google-adk", a, b),
            releases,
            "google-adk",
        )
    return record


def test_bisect_boundaries_from_two_ranges_and_the_record_are_quoted_per_case():
    doc = document([result("2.8.0", "reproduced", "a\n"), result("2.10.0", "fixed", "b\n")])
    releases = ["1.0.0", "1.1.0", "1.2.0", "2.8.0", "2.8.5", "2.9.0", "2.10.0"]
    bisects = bisect_record(
        [("1.0.0", "1.2.0"), ("2.8.0", "2.10.0")],
        [
            {"1.0.0": "not-applicable", "1.1.0": "reproduced", "1.2.0": "reproduced"},
            {"2.8.5": "error", "2.9.0": "fixed"},
        ],
        releases,
    )
    text = evidence.render(SCENARIO, doc, bisects)
    assert (
        "Bisect (5 probes over 1.0.0 – 1.2.0; 2.8.0 – 2.10.0, with the record's results: 6 releases with an "
        "answer): **first measurable in 1.1.0 (reproduces; not applicable before); first fixed between 2.8.0 and "
        "2.9.0, not bisected (untested: 2.8.5)**. No answer from 2.8.5."
    ) in text
    # The line's own words take the bisect's probes: the fix is before 2.10.0, and 2.8.5 gave no answer.
    assert "fixed between **2.8.0** and **2.9.0**, not bisected (untested: 2.8.5)" in text
    assert "first release where it is fixed" not in text


def test_a_fix_between_two_releases_run_is_a_range_until_a_bisect_answers_every_release_between():
    """Issue 45: "first release where it is fixed: 0.6.9" from a sample, where the truth was 0.3.1."""
    doc = document([result("0.2.11", "reproduced", "a\n"), result("0.6.9", "fixed", "b\n")])
    releases = ["0.2.11", "0.3.0", "0.3.1", "0.4.0", "0.5.0", "0.6.9"]
    unbisected = bisect_record([("0.6.9", "0.6.9")], [{}], releases)
    text = evidence.render(SCENARIO, doc, unbisected)
    assert "fixed between **0.2.11** and **0.6.9**, not bisected (4 untested releases 0.3.0 .. 0.5.0)" in text
    assert "first release where it is fixed" not in text
    answers = {"0.3.0": "reproduced", "0.3.1": "fixed", "0.4.0": "fixed", "0.5.0": "fixed"}
    bisected = bisect_record([("0.2.11", "0.6.9")], [answers], releases)
    text = evidence.render(SCENARIO, doc, bisected)
    assert "last release where it reproduces: **0.3.0**; first release where it is fixed: **0.3.1**" in text
    assert "not bisected" not in text


def test_release_lines_that_overlap_in_time_are_summarised_apart():
    """google-adk 1.39.1 came out after 2.4.0: a 2.x fix must not hide a 1.x that still has the bug."""
    doc = document(
        [
            result("1.27.1", "reproduced", "a\n"),
            result("1.39.1", "reproduced", "a\n"),
            result("2.0.0", "reproduced", "a\n"),
            result("2.3.0", "reproduced", "a\n"),
            result("2.4.0", "fixed", "b\n"),
        ]
    )
    text = evidence.render(SCENARIO, doc)
    assert (
        "**google-adk 1.x**: last release where it reproduces: **1.39.1**; fixed on no release run; "
        "unexpected on: none. **google-adk 2.x**: last release where it reproduces: **2.3.0**; first release where "
        "it is fixed: **2.4.0**; changes: 2.3.0 → 2.4.0: reproduced → fixed; unexpected on: none."
    ) in text
    # Table rows never span two lines, and name what was run.
    assert "| google-adk 1.27.1, 1.39.1 | reproduced |" in text
    assert "| google-adk 2.0.0, 2.3.0 | reproduced |" in text
    assert "1.39.1 → 2.0.0" not in text


def test_a_grouped_row_says_how_many_releases_were_run():
    doc = document([result(v, "reproduced", "a\n") for v in ("2.0.0", "2.1.0", "2.3.0", "2.6.0")])
    assert "| google-adk 2.0.0 – 2.6.0, 4 run | reproduced |" in evidence.render(SCENARIO, doc)


def test_a_control_case_is_reported_as_held_or_broken_never_as_first_fixed():
    control = dataclasses.replace(SCENARIO, cases=(CaseMetadata("one", "the control", control=True),))
    held = evidence.render(control, document([result("2.8.0", "fixed", "a\n"), result("2.9.0", "fixed", "a\n")]))
    assert "## one (control)" in held and "control: held on every release run (2)." in held
    assert "first release where it is fixed" not in held
    broke = evidence.render(control, document([result("2.8.0", "fixed", "a\n"), result("2.9.0", "reproduced", "b\n")]))
    assert "control: **broke** on 2.9.0 (reproduced); held on 1 of 2 releases run." in broke


def test_a_control_reads_held_or_broke_only_where_it_ran():
    """Issue 30: not-applicable is neither held nor broke."""
    control = dataclasses.replace(SCENARIO, cases=(CaseMetadata("one", "the control", control=True),))
    rows = [result("2.7.0", "not-applicable", "n\n"), result("2.8.0", "fixed", "a\n"), result("2.9.0", "fixed", "a\n")]
    text = evidence.render(control, document(rows))
    assert "control: held on every release run (2); not applicable on 1." in text and "broke" not in text
    rows[2] = result("2.9.0", "reproduced", "b\n")
    text = evidence.render(control, document(rows))
    assert "control: **broke** on 2.9.0 (reproduced); held on 1 of 2 releases run; not applicable on 1." in text
    only_na = evidence.render(control, document([result("2.7.0", "not-applicable", "n\n")]))
    assert "control: not applicable on every release run (1)." in only_na


def test_the_reproduced_fixed_diff_stays_within_a_release_line():
    """Issue 30: 2.x reproduces, only 1.x is fixed: no diff of 2.7.1 against 1.9.0."""
    across = [result("1.9.0", "fixed", "fixed\n"), result("2.7.1", "reproduced", "broken\n")]
    assert "<summary>diff:" not in evidence.render(SCENARIO, document(across))
    within = [*across, result("1.8.0", "reproduced", "old broken\n"), result("2.8.0", "fixed", "new fixed\n")]
    text = evidence.render(SCENARIO, document(within))
    assert "<summary>diff: reproduced (google-adk 2.7.1) → fixed (google-adk 2.8.0)</summary>" in text
    assert text.count("<summary>diff:") == 1


def test_bisected_ranges_from_one_release_are_listed_in_one_order_whatever_the_hash_seed():
    """Two ranges starting at one release came out in the set's order, which follows the hash seed
    (seen in a fresh clone's report of adk-database-postgres-aware-datetime)."""
    from harness.rendering import evidence
    from harness.store import boundaries

    ranges = [("1.21.0", "1.25.1"), ("1.24.0", "1.25.1"), ("1.21.0", "1.24.0")]
    for order in (ranges, ranges[::-1]):
        k = boundaries.Known({"1.21.0": "fixed", "1.24.0": "reproduced"}, 2, order, ["1.21.0", "1.24.0"])
        [line] = [x for x in evidence._bisect_lines(k) if x.startswith("Bisect")]
        assert "over 1.21.0 – 1.24.0; 1.21.0 – 1.25.1; 1.24.0 – 1.25.1," in line


def test_no_report_says_introduced_at_a_not_applicable_step():
    """Issue 45: "introduced in 1.0.0" was printed where 0.5.0 was only not-applicable (the script
    awaited a then-synchronous create_session; the 0.5.0 wheel has the same buggy code). The
    committed reports are the rendered ones (the golden test), so reading them reads every report."""
    reports_dir = Path(__file__).resolve().parents[1] / "reports"
    pages = sorted(reports_dir.glob("*.md")) + sorted((reports_dir / "upgrades").glob("*.md"))
    assert len(pages) > 40
    step = re.compile(r"not-applicable (→|->) [^:\n]*: introduced in")
    found = [p.name for p in pages if step.search(p.read_text())]
    assert found == []
    for page in pages:
        for line in page.read_text().splitlines():
            heading = re.match(r"\*\*Executed code, \S+ (\S+) → \S+ (\S+)\*\*: (.*)", line)
            if heading and heading.group(3).startswith("introduced in"):
                assert heading.group(1) == "fixed" and heading.group(2) == "reproduced", f"{page.name}: {line}"


def test_a_not_applicable_to_reproduced_step_reads_first_measurable():
    assert boundaries.summary("not-applicable", "reproduced", "1.0.0", ["not-applicable"]) == (
        "first measurable in 1.0.0 (reproduces; not applicable before)"
    )
    assert boundaries.summary("fixed", "reproduced", "2.4.0", ["fixed"]) == "introduced in 2.4.0"
    assert boundaries.summary("not-applicable", "reproduced", "2.0.0", ["reproduced", "not-applicable"]) == (
        "came back in 2.0.0"
    )


def test_a_result_older_code_answered_is_not_rendered_as_measured():
    """Issue 45: after the script changed (and its proof's release left the matrix), the report kept
    "last release where it reproduces: 0.4.0" and its command while audit said "not run"."""
    old = {**result("0.4.0", "reproduced", "a\n"), "inputs": "old-digest"}
    new = {**result("1.0.0", "fixed", "b\n"), "inputs": "new-digest"}
    text = evidence.render(dataclasses.replace(SCENARIO, inputs="new-digest"), document([old, new]))
    assert "0.4.0" not in text
    assert "**1 result of reports/matrix.json was answered by an older version of this scenario's code**" in text
    assert "reproduces on no release run" in text
