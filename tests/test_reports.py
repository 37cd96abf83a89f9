"""Scenario reports: valid GitHub-flavoured markdown, under the comment limit, deterministic."""

from __future__ import annotations

import json

from markdown_it import MarkdownIt

from harness import evidence, reports

SCENARIO = {
    "id": "adk-demo", "framework": "google-adk", "links": ["https://github.com/google/adk-python/issues/1"],
    "description": "the bug", "expected": "no bug",
    "cases": [{"id": "one", "summary": "the only case"}],
}


def result(version, outcome, timeline, source=None, detail="d"):
    return {"scenario": "adk-demo", "case": "one", "framework": "google-adk", "version": version,
            "source": source or f"google-adk=={version}", "outcome": outcome, "detail": detail,
            "snapshot": "match", "snapshot_base": version, "timeline": timeline}


def document(results):
    envs = [{"source": r["source"], "framework": "google-adk", "version": r["version"], "python": "3.11.7",
             "exclude_newer": "2026-01-01T00:00:00Z", "packages": ["google-adk==" + r["version"], "pydantic==2.0"]}
            for r in results]
    return reports.matrix_document(results, envs, {"python": "3.11.7", "platform": "linux-x86_64", "version": "0.1.0"})


def parse(text):
    return MarkdownIt("commonmark").enable("table").parse(text)


def test_report_structure_tables_and_details_parse_as_gfm():
    doc = document([result("2.8.0", "reproduced", "a\nb\nb\n"), result("2.9.0", "reproduced", "a\nb\nb\n"),
                    result("2.10.0", "fixed", "a\nb\n")])
    text = evidence.render(SCENARIO, doc)
    tokens = parse(text)
    tables = [t for t in tokens if t.type == "table_open"]
    assert len(tables) == 1
    rows = [t for t in tokens if t.type == "tr_open"]
    assert len(rows) == 3  # header + two grouped rows (2.8.0 – 2.9.0 reproduced, 2.10.0 fixed)
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
    doc = document([result("2.13.0", "reproduced", "x\nx\n"),
                    result("2.13.0", "fixed", "x\n", source="local:google_adk-2.13.0")])
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
    again = json.loads(json.dumps(doc))
    assert evidence.render(SCENARIO, doc) == evidence.render(SCENARIO, again)
    assert "unexpected on: 2.10.0" in evidence.render(SCENARIO, doc)


def test_matrix_md_links_each_scenario_report():
    doc = document([result("2.8.0", "reproduced", "a\n")])
    text = reports.matrix_markdown(doc, {"adk-demo": "adk-demo"})
    assert "[adk-demo](adk-demo.md)" in text
    assert any(t.type == "table_open" for t in parse(text))


def test_bisect_boundaries_are_quoted_per_case():
    doc = document([result("2.8.0", "reproduced", "a\n"), result("2.10.0", "fixed", "b\n")])
    bisects = [{"scenario": "adk-demo", "case": "one", "framework": "google-adk", "from": "1.0.0", "to": "2.10.0",
                "boundaries": [{"before": {"version": "2.8.0", "outcome": "reproduced"},
                                "after": {"version": "2.9.0", "outcome": "fixed"}, "summary": "first fixed in 2.9.0"}],
                "skipped": [{"version": "2.8.5", "reason": "install failed"}]}]
    text = evidence.render(SCENARIO, doc, bisects)
    assert ("bisect over every google-adk release 1.0.0 – 2.10.0: **first fixed in 2.9.0** (skipped: 2.8.5)." in text)
