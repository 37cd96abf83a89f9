"""The pull-request comment (issues 17, 36): one table, <details> intact, under GitHub's 65,536
characters; with no repository known it stands alone (no link, no path of this project, every case's
command and the script itself), says what a non-regression case's failure is, and why every result
that is neither reproduced nor fixed is so."""

from __future__ import annotations

import dataclasses
import re

import pytest
from markdown_it import MarkdownIt

from conftest import ROOT
from harness.commands import cli
from harness.rendering import comment, reproduce
from harness.rendering.metadata import CaseMetadata, ScenarioMetadata
from harness.runtime import registry, reproduction
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.runtime.scenario import Explanation
from harness.store import record
from harness.store.rows import Row
from scratch import demo_metadata

RECORD = record.load(ROOT / "reports") or record.Record()
SCENARIOS = registry.discover()
PRESENT = [s for s in SCENARIOS.values() if any(r.scenario == s.id for r in RECORD.results)]

DEMO = demo_metadata("the bug,\nin two lines")


def result(case, version, outcome, timeline, source=None):
    return {
        "scenario": "adk-demo",
        "case": case,
        "framework": "google-adk",
        "version": version,
        "source": source or f"google-adk=={version}",
        "outcome": outcome,
        "detail": "d",
        "snapshot": "match",
        "snapshot_base": version,
        "timeline": timeline,
    }


def document(rows: list[dict]) -> record.Record:
    """A record as ``record.load`` gives it: every timeline in its rows (the file leaves out those the
    snapshot store holds, and loading fills them in)."""
    return record.Record.of([Row.from_json(r) for r in rows])


def structure(text: str):
    """(tables, body rows of the table, details opened, closed, summaries) as a markdown parser sees them."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tables = sum(t.type == "table_open" for t in tokens)
    body_rows = sum(t.type == "tr_open" for t in tokens) - tables
    html = "".join(t.content for t in tokens if t.type in ("html_block", "html_inline"))
    return tables, body_rows, html.count("<details>"), html.count("</details>"), html.count("<summary>")


@pytest.mark.parametrize("scenario", PRESENT, ids=[s.id for s in PRESENT])
def test_the_comment_of_every_committed_scenario_parses_and_fits(scenario):
    base = "https://github.com/owner/harness/blob/0123abc/"
    text = comment.render(ScenarioMetadata.of(scenario), RECORD, link_base=base)
    assert len(text) < comment.LIMIT
    tables, rows, opened, closed, summaries = structure(text)
    cases = {r.case for r in RECORD.results if r.scenario == scenario.id}
    assert (tables, rows) == (1, len(cases))
    assert opened == closed == summaries
    outcomes = {r.outcome for r in RECORD.results if r.scenario == scenario.id}
    if outcomes & {REPRODUCED, "unexpected"}:
        assert opened >= 1  # the evidence is folded in, not left out
    assert text.splitlines()[0].startswith(f"**{scenario.id}** ({scenario.framework}, {scenario.links[0]}): ")
    for case in cases:  # one script for every case: its argument names the case
        assert f"| `{reproduction.SCRIPT} {case}` |" in text
    path = reproduce.script_path(scenario.id)
    if reproduce.script_file(scenario.id).is_file():  # the bug's script, folded in or linked
        assert f"<summary>{reproduction.SCRIPT} (" in text or f"[`{path}`]({base}{path})" in text
    assert "](reports/" not in text and "](repro/" not in text and "](scenarios/" not in text  # no relative link
    assert f"nox -s matrix -- --only {scenario.id} " in text
    if any(r.outcome in (REPRODUCED, FIXED) for r in RECORD.results if r.scenario == scenario.id):
        # The framework pinned, with an extra where the release offers it (shell-quoted then).
        assert (
            re.search(rf"`uv run --with '?{re.escape(scenario.framework)}[\[=]", text) and " --exclude-newer " in text
        )
    assert "(a checkout of it, not of the framework)" in text  # the harness-only command says so


@pytest.mark.parametrize("scenario", PRESENT, ids=[s.id for s in PRESENT])
def test_with_no_repository_url_the_comment_stands_alone(scenario):
    """What issue 36 asks of ``python -m harness comment ID`` with no URL known: no link, no relative
    path, no note to the contributor, every case's reproduction, non-regression failures in words,
    and every unexpected or error result explained by the scenario."""
    text = comment.render(ScenarioMetadata.of(scenario), RECORD)
    assert len(text) < comment.LIMIT
    upstream = set(scenario.links)
    prose = re.sub(r"```.*?```", "", text, flags=re.S)  # the script's code is not markdown
    links = [chunk.split(")", 1)[0] for chunk in prose.split("](")[1:]]
    assert all(link in upstream for link in links), links
    for path in ("reports/", "scenarios/", ".nox/"):
        assert path not in text, path
    for note in ("No repository URL", "needs a checkout", "see `reports", "not yet explained"):
        assert note not in text, note
    assert f"<summary>{reproduction.SCRIPT} (" in text and "```python" in text  # the script, once
    rows = [r for r in RECORD.results if r.scenario == scenario.id]
    for case in {r.case for r in rows}:
        assert f"- `{case}`:" in text  # its command(s)
        assert f"repro.py {case}`" in text
    for case in scenario.cases:
        if getattr(case, "non_regression", False):
            line = next(x for x in text.splitlines() if x.startswith(f"| `{case.id}` (non-regression)"))
            assert "reproduced" not in line, line
            if any(r.case == case.id and r.outcome == REPRODUCED for r in rows):
                assert f"- `{case.id}` (" in text and "the fix goes too far on" in text


def test_release_ranges_split_where_any_case_changes_and_between_release_lines():
    rows = [
        result("one", v, o, t)
        for v, o, t in [
            ("1.0.0", REPRODUCED, "a\na\n"),
            ("2.0.0", REPRODUCED, "a\na\n"),
            ("2.1.0", REPRODUCED, "a\na\n"),
            ("2.2.0", FIXED, "a\n"),
        ]
    ]
    rows += [result("two", v, FIXED, "c\n") for v in ("1.0.0", "2.0.0", "2.1.0", "2.2.0")]
    text = comment.render(DEMO, document(rows), link_base="https://github.com/owner/harness/blob/0123abc/")
    assert "| case (google-adk) | 1.0.0 | 2.0.0 – 2.1.0 (2) | 2.2.0 | script |" in text
    assert "| `one` | **reproduced** | **reproduced** | fixed |" in text
    assert "| `two` (control) | holds | holds | holds |" in text
    assert "<summary><code>one</code>: reproduced on google-adk 2.1.0 → fixed on google-adk 2.2.0</summary>" in text
    assert "-a\n" in text  # the diff
    assert "<code>two</code>" not in text  # a control that held needs no evidence folded
    assert "google-adk==2.1.0 google-adk==2.2.0" in text  # the reproduce command names the releases around the change
    assert (
        text.splitlines()[0]
        == "**adk-demo** (google-adk, https://github.com/google/adk-python/issues/1): the bug, in two lines"
    )


def test_a_candidate_run_gives_a_before_after_table(tmp_path):
    rows = [
        result("one", "2.13.0", REPRODUCED, "a\na\n"),
        result("one", "2.13.0", FIXED, "a\n", "local:adk-python"),
        result("two", "2.13.0", FIXED, "c\n"),
        result("two", "2.13.0", FIXED, "c\n", "local:adk-python"),
    ]
    text = comment.render(
        DEMO, document(rows), run_dir="reports/runs/x", link_base="https://github.com/owner/harness/blob/0123abc/"
    )
    assert "| case (google-adk) | 2.13.0 (before) | `local:adk-python` (after) | change | script |" in text
    assert "| `one` | **reproduced** | fixed | reproduced → fixed |" in text
    assert "| `two` (control) | holds | holds | unchanged |" in text
    assert "nox -s matrix -- --only adk-demo google-adk==2.13.0 /path/to/adk-python" in text
    assert structure(text)[:2] == (1, 2)
    # An exploratory run (releases only) gets the release-range table of its own results.
    only_releases = comment.render(DEMO, document(rows[::2]), run_dir="reports/runs/x")
    assert "| case (google-adk) | 2.13.0 | script |" in only_releases
    assert "Full evidence: the run's report, `adk-demo.md`." in only_releases


def test_long_timelines_are_cut_then_dropped_to_stay_under_the_limit():
    huge = "".join(f"line {i} " + "x" * 80 + "\n" for i in range(400))
    rows = [
        result("one", "2.0.0", REPRODUCED, huge),
        result("one", "2.1.0", FIXED, huge[:-500]),
        result("two", "2.0.0", REPRODUCED, huge + "y\n"),
        result("two", "2.1.0", FIXED, "z\n"),
    ]
    text = comment.render(DEMO, document(rows))
    assert len(text) < comment.LIMIT
    assert (
        "more timeline lines: the case's command prints them all" in text
        or "more diff lines" in text
        or "too long for a comment" in text
    )
    tables, _, opened, closed, summaries = structure(text)
    assert tables == 1 and opened == closed == summaries


def test_the_cli_prints_it_and_refuses_bad_input_in_one_line(capsys, tmp_path):
    if not PRESENT:
        pytest.skip("no record")
    assert cli.main(["comment", PRESENT[0].id]) == 0
    assert capsys.readouterr().out == comment.render(ScenarioMetadata.of(PRESENT[0]), RECORD)
    assert cli.main(["comment", "adk-no-such-scenario"]) == 2
    assert cli.main(["comment", PRESENT[0].id, "--run", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("error: ") for line in err)


def test_the_script_is_folded_in_where_it_fits_and_linked_where_it_does_not(tmp_path):
    """A bug's script is most of a comment's budget: one that does not fit is linked, never cut
    inside its fence (which left a <details> open and dropped the harness command and the tail)."""
    rows = [result("one", "2.1.0", REPRODUCED, "a\na\n"), result("one", "2.2.0", FIXED, "a\n")]
    base = "https://github.com/owner/harness/blob/0123abc/"
    small = tmp_path / "small.py"
    small.write_text("print('the bug')\n")
    text = comment.render(DEMO, document(rows), link_base=base, script=small)
    assert "save the script below as `repro.py`" in text
    assert "<summary>repro.py (1 lines)</summary>\n\n```python\nprint('the bug')\n```\n</details>" in text
    big = tmp_path / "big.py"
    big.write_text("".join(f"print({i}, '{'x' * 80}')\n" for i in range(800)))
    text = comment.render(DEMO, document(rows), link_base=base, script=big)
    assert len(text) < comment.LIMIT and "cut to fit" not in text
    assert "save the script as `repro.py`" in text and "<summary>repro.py" not in text
    assert "The script: [`scenarios/adk-demo/repro.py`](" + base + "scenarios/adk-demo/repro.py)." in text
    _, _, opened, closed, summaries = structure(text)
    assert opened == closed == summaries
    assert "nox -s matrix -- --only adk-demo " in text and text.rstrip().endswith("adk-demo.md).")


def test_non_regression_and_third_way_results_read_as_what_they_are():
    """A non-regression case's ``reproduced`` is the fix going too far, said with the judge's words;
    an ``unexpected`` result carries the scenario's explanation where one covers it."""
    scenario = dataclasses.replace(
        DEMO,
        cases=(CaseMetadata("one"), CaseMetadata("guard", "a retry's delta must be kept", non_regression=True)),
        explanations=(Explanation("one", "==2.0.0", "another bug fails first (#9)"),),
    )
    rows = [
        result("one", "2.0.0", "unexpected", "u\n"),
        result("one", "2.1.0", REPRODUCED, "a\na\n"),
        result("one", "2.2.0", FIXED, "a\n"),
        result("guard", "2.0.0", FIXED, "g\n"),
        result("guard", "2.1.0", FIXED, "g\n"),
        {**result("guard", "2.2.0", REPRODUCED, "h\n"), "detail": "the delta was dropped"},
    ]
    text = comment.render(scenario, document(rows))
    assert "| `guard` (non-regression) | holds | holds | **too far** |" in text
    assert "- `guard` (a retry's delta must be kept): the fix goes too far on 2.2.0: the delta was dropped" in text
    assert "  - too far on 2.2.0: `uv run" in text and "  - holds on 2.1.0: `uv run" in text
    assert "- `one` on 2.0.0: **unexpected**: d. Why: another bug fails first (#9)" in text


@pytest.mark.parametrize("scenario", PRESENT, ids=[s.id for s in PRESENT])
def test_a_range_note_under_the_headline_names_only_measured_releases(scenario):
    """A scenario's hand-written range notes (printed under the comment's headline) name only
    releases the record or its bisects measured for it: a note that names another (the database
    headline's "(1.24 on)" where the table shows 1.28.0) disagrees with the table beside it."""
    bisects = record.bisect_record(ROOT / "reports")
    measured = {r.version for r in RECORD.results if r.scenario == scenario.id}
    measured |= {p.version for p in bisects.probes if p.scenario == scenario.id}
    for text in (*scenario.range_notes, scenario.description):
        named = set(re.findall(r"\b\d+\.\d+\.\d+\b", text))
        assert named <= measured, f"{sorted(named - measured)} named but not measured: {text}"
