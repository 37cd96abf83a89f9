"""A pull-request comment for one scenario (issue 17): ``python -m harness comment SCENARIO [--run DIR]``.

Reviewers read a short summary, not the 25 kB report: the bug in one line, one table, the
command that reproduces it, a link to each case's standalone script, and the timelines and
diffs folded in ``<details>``. Always under ``LIMIT`` characters: long blocks are cut first,
then dropped, with a visible note pointing to the full report.

- From the record (``reports/matrix.json``): the table is case by release range, a column per
  run of releases in which no case changes outcome (release lines kept apart).
- From a candidate run (``--run reports/runs/<name>/``): the table is before/after, the
  releases of the run beside the candidate builds, and a column saying what changed (a run of
  releases only, an exploratory run, gets the release-range table of its own results).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

from harness.errors import UsageError
from harness.planning import versions
from harness.project import PROJECT_ROOT
from harness.rendering import boundary_evidence, claims, evidence, explanations, reproduce
from harness.rendering.evidence import _esc, _fence
from harness.rendering.metadata import CaseMetadata, ScenarioMetadata
from harness.runtime.outcomes import ERROR, FIXED, REPRODUCED, UNEXPECTED
from harness.runtime.reproduction import SCRIPT
from harness.runtime.scenario import POSTGRESQL
from harness.store import bisect_record
from harness.store.bisect_record import BisectRecord
from harness.store.document import Record
from harness.store.rows import Row

LIMIT = 65_536  # GitHub's limit for a comment's body, in characters
MARGIN = 500  # kept free under LIMIT


class CommentError(UsageError, ValueError):
    """No comment can be written as asked (one line: what, and what to do)."""


def _order(r: Row) -> tuple:
    return (not r.release, versions.key(r.version or "0"), r.source)


def _label(r: Row) -> str:
    return f"{r.framework} {r.version}" if r.release else f"candidate `{r.source}`"


def _script_link(case_id: str) -> str:
    """How the case is run with the bug's reproduction (one script for every case: its argument names the case)."""
    return f"`{SCRIPT} {case_id}`"


def _case_label(case: CaseMetadata) -> str:
    kind = " (control)" if case.control else " (non-regression)" if case.non_regression else ""
    return f"`{case.id}`{kind}"


def _meanings(cases: Sequence[CaseMetadata]) -> list[str]:
    """One sentence per kind of case whose outcome words mean something else than the headline's."""
    out = []
    guards = [f"`{c.id}`" for c in cases if c.non_regression]
    if guards:
        out.append(
            f"Non-regression cases ({', '.join(guards)}): they read `too far` where a fix went too far and "
            "dropped behaviour that must stay (the script says `reproduced` there), `holds` where it stayed."
        )
    if any(c.control for c in cases):
        out.append(
            "Controls: behaviour beside the bug that must hold; they read `holds` where it held, `broke` where not."
        )
    return out


def _control_word(outcome: str | None) -> str | None:
    return {FIXED: "holds", REPRODUCED: "broke"}.get(outcome or "", outcome)


def _guard_word(outcome: str | None) -> str | None:
    """A non-regression case's outcome in its own words: ``reproduced`` is a fix that went too far."""
    return {FIXED: "holds", REPRODUCED: "too far"}.get(outcome or "", outcome)


def _word(case: CaseMetadata, outcome: str | None) -> str | None:
    if case.control:
        return _control_word(outcome)
    return _guard_word(outcome) if case.non_regression else outcome


def _spans(releases: list[Row], cases: list[str], rows: list[Row]) -> list[list[str]]:
    """Runs of consecutive releases (by version, release lines apart) in which no case's outcome changes."""
    outcome = {(r.case, r.source): r.outcome for r in rows}
    spans: list[list[str]] = []
    for i, r in enumerate(releases):
        prev = releases[i - 1] if i else None
        if (
            prev is None
            or versions.line(str(prev.version)) != versions.line(str(r.version))
            or any(outcome.get((c, prev.source)) != outcome.get((c, r.source)) for c in cases)
        ):
            spans.append([])
        spans[-1].append(r.source)
    return spans


def _span_label(span: list[str], version_of: dict[str, str]) -> str:
    first, last = version_of[span[0]], version_of[span[-1]]
    if len(span) == 1:
        return first
    return f"{first} – {last} ({len(span)})"


def _cell(outcome: str | None) -> str:
    if outcome is None:
        return "–"
    return f"**{outcome}**" if outcome in (REPRODUCED, UNEXPECTED, ERROR, "broke", "too far") else outcome


def _record_table(scenario: ScenarioMetadata, rows: list[Row]) -> list[str]:
    releases: list[Row] = []
    for r in sorted((r for r in rows if r.release), key=_order):
        if r.source not in [x.source for x in releases]:
            releases.append(r)
    cases = [c for c in scenario.cases if any(r.case == c.id for r in rows)]
    spans = _spans(releases, [c.id for c in cases], rows)
    version_of = {r.source: str(r.version) for r in releases}
    outcome = {(r.case, r.source): r.outcome for r in rows}
    framework = scenario.framework
    out = [
        f"| case ({framework}) | " + " | ".join(_span_label(s, version_of) for s in spans) + " | script |",
        "|---|" + "---|" * len(spans) + "---|",
    ]
    for c in cases:
        cells = []
        for span in spans:
            seen = {outcome.get((c.id, s)) for s in span}
            word = seen.pop() if len(seen) == 1 else None
            shown = _word(c, word) if word else word
            cells.append(_cell(shown) if len(seen) == 0 else "mixed")
        out.append(f"| {_case_label(c)} | " + " | ".join(cells) + f" | {_script_link(c.id)} |")
    return out


def _run_table(scenario: ScenarioMetadata, rows: list[Row]) -> list[str]:
    builds: list[Row] = []
    for r in sorted(rows, key=_order):
        if r.source not in [b.source for b in builds]:
            builds.append(r)
    releases = [b for b in builds if b.release]
    candidates = [b for b in builds if not b.release]
    base = releases[-1] if releases else None
    by = {(r.case, r.source): r for r in rows}
    heads = [f"{b.version} (before)" for b in releases] + [f"`{b.source}` (after)" for b in candidates]
    out = [
        f"| case ({scenario.framework}) | " + " | ".join(heads) + " | change | script |",
        "|---|" + "---|" * (len(heads) + 2),
    ]
    for c in scenario.cases:
        if not any(r.case == c.id for r in rows):
            continue
        cells = [_cell(_word(c, by[(c.id, b.source)].outcome)) if (c.id, b.source) in by else "–" for b in builds]
        changes = []
        for cand in candidates:
            before = by.get((c.id, base.source)) if base else None
            after = by.get((c.id, cand.source))
            if before and after:
                changes.append(
                    "unchanged" if before.outcome == after.outcome else f"{before.outcome} → {after.outcome}"
                )
        out.append(
            f"| {_case_label(c)} | " + " | ".join(cells) + f" | {'; '.join(changes) or '–'} | {_script_link(c.id)} |"
        )
    return out


def _cut(text: str, limit: int | None, what: str) -> str:
    lines = text.rstrip("\n").splitlines()
    if limit is None or len(lines) <= limit:
        return "\n".join(lines)
    # No path here: the comment stands alone, and the case's command above prints every line.
    return "\n".join(lines[:limit] + [f"… {len(lines) - limit} more {what} lines: the case's command prints them all"])


def timeline_diff(a: Row, b: Row) -> str:
    """The unified diff of two results' timelines, each side named by its build and outcome."""
    return "".join(
        difflib.unified_diff(
            a.timeline.splitlines(keepends=True),
            b.timeline.splitlines(keepends=True),
            fromfile=f"{_label(a)} ({a.outcome})".replace("`", ""),
            tofile=f"{_label(b)} ({b.outcome})".replace("`", ""),
        )
    )


def _evidence_pairs(
    scenario: ScenarioMetadata, rows: list[Row], run: bool
) -> list[tuple[CaseMetadata, Row, tuple[Row, Row] | None]]:
    """Per case: (case, the result whose timeline is shown, the two results diffed, older first, or None)."""
    pairs = []
    for c in scenario.cases:
        mine = sorted((r for r in rows if r.case == c.id and r.timeline), key=_order)
        if not mine:
            continue
        if run:
            base = [r for r in mine if r.release]
            cands = [r for r in mine if not r.release]
            if cands:
                pairs.append((c, cands[-1], (base[-1], cands[-1]) if base else None))
            continue
        # The last change between reproduced and fixed inside a release line, in version order.
        changes = [
            (a, b)
            for a, b in pairwise(mine)
            if versions.line(str(a.version)) == versions.line(str(b.version))
            and {a.outcome, b.outcome} == {REPRODUCED, FIXED}
        ]
        if changes:
            a, b = changes[-1]
            pairs.append((c, a if a.outcome == REPRODUCED else b, (a, b)))
            continue
        repro = [r for r in mine if r.outcome == REPRODUCED]
        odd = [r for r in mine if r.outcome == UNEXPECTED]
        shown = repro[-1] if repro else (odd[-1] if odd else None)
        if shown is not None:
            pairs.append((c, shown, None))
        # else: a case that holds everywhere (a control, or one that never reproduced): the table says so
    return pairs


def _details(
    pairs: list[tuple[CaseMetadata, Row, tuple[Row, Row] | None]],
    timeline_lines: int | None,
    diff_lines: int | None,
    timelines: bool,
) -> list[str]:
    out = []
    for case, shown, pair in pairs:
        blocks = []
        if timelines:
            blocks += [
                f"Timeline on {_label(shown)} ({shown.outcome}):",
                "",
                *_fence(_cut(shown.timeline, timeline_lines, "timeline")),
                "",
            ]
        if pair is not None and pair[0].timeline != pair[1].timeline:
            blocks += [
                f"Diff {_label(pair[0])} ({pair[0].outcome}) → {_label(pair[1])} ({pair[1].outcome}):",
                "",
                *_fence(_cut(timeline_diff(*pair), diff_lines, "diff"), "diff"),
                "",
            ]
        if not blocks:
            continue
        ends = pair or (shown,)
        summary = f"<code>{case.id}</code>: " + " → ".join(
            f"{_esc(r.outcome)} on {_esc(_label(r).replace('`', ''))}" for r in ends
        )
        out += ["<details>", f"<summary>{summary}</summary>", "", *blocks, "</details>", ""]
    return out


def shown_case(case_ids: list[str], reproduced: set[str]) -> str:
    """The case whose commands a comment shows first: the first of ``case_ids`` that
    reproduces somewhere (``reproduced``), else the first."""
    return next((c for c in case_ids if c in reproduced), case_ids[0])


def _too_far_lines(scenario: ScenarioMetadata, rows: list[Row]) -> list[str]:
    """Per non-regression case that failed somewhere: on which releases, and what failed, in the judge's words."""
    out = []
    for case in scenario.cases:
        if not case.non_regression:
            continue
        failed = sorted((r for r in rows if r.case == case.id and r.release and r.outcome == REPRODUCED), key=_order)
        if failed:
            found = [str(r.version) for r in failed]
            out.append(
                f"- `{case.id}` ({case.summary}): the fix goes too far on "
                f"{explanations.releases_words(found)}: {failed[-1].detail}"
            )
    if out:
        out = ["What `too far` means, per non-regression case (behaviour that must stay was dropped):", "", *out, ""]
    return out


def _third_way_lines(scenario: ScenarioMetadata, rows: list[Row]) -> list[str]:
    """Every result that is neither reproduced nor fixed, grouped, with the judge's words and the scenario's why."""
    found = explanations.groups(scenario, rows)
    if not found:
        return []
    out = ["Neither reproduced nor fixed (a third behaviour), with why:", ""]
    for case_id, outcome, versions_found, detail, reason in found:
        why = reason or "not yet explained by this scenario's author; the judge's words are what was measured"
        out.append(
            f"- `{case_id}` on {explanations.releases_words(versions_found)}: **{outcome}**: {detail}. Why: {why}"
        )
    return [*out, ""]


def _command_lines(scenario: ScenarioMetadata, document: Record, rows: list[Row], before_after: bool) -> list[str]:
    """Per case that ran: the command on the newest release that reproduces and on the first fixed after it."""
    bug = reproduce.Bug.of(scenario)
    out = []
    for case in scenario.cases:
        if not any(r.case == case.id for r in rows):
            continue
        runs = [
            f"- {_word(case, run.outcome)} on {run.version}: `{run.command}`"
            for run in reproduce.runs(
                bug, case.id, document, pin=reproduce.pinned(document.results, scenario.id, case.id)
            )
        ]
        if before_after:
            runs.append(f"- on your candidate checkout: `{reproduce.local_command(case.id)}`")
        if runs:
            out += [f"- `{case.id}`:", *[f"  {line}" for line in runs]]
    if any(case.id.endswith(f"-{POSTGRESQL}") for case in scenario.cases):
        out += [
            "",
            f"A `-{POSTGRESQL}` case needs a PostgreSQL server, found through libpq's variables (`PGHOST`, "
            "`PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE` for the maintenance database) as `psql` finds it; "
            "the script creates a database of its own there and drops it at the end.",
        ]
    return out


def render(
    scenario: ScenarioMetadata,
    document: Record,
    run_dir: str | None = None,
    link_base: str = "",
    root_dir: Path = PROJECT_ROOT,
    script: Path | None = None,
    bisects: BisectRecord | None = None,
) -> str:
    """The comment. ``scenario``: metadata as the reports use it (harness/rendering/metadata.py ``ScenarioMetadata``);
    ``document``: the record, or a candidate run's matrix.json when ``run_dir`` names that run; ``script``:
    the bug's script to show (default: scenarios/<id>/repro.py of ``root_dir``); ``bisects``: the bisect
    record (default: ``root_dir``'s reports/bisect.json for the record, none for a run).

    It stands alone: with no repository URL known (``link_base`` empty) it links nothing and names no
    path of this project; the script is in it once, with the commands that run each case."""
    document, _ = evidence.current_results(scenario, document)  # no result older code answered
    rows = [r for r in document.results if r.scenario == scenario.id]
    if not rows:
        where = f"{run_dir}/matrix.json" if run_dir else "reports/matrix.json"
        raise CommentError(
            f"{where} has no results for {scenario.id}; run `nox -s matrix -- --only {scenario.id}` first"
        )
    if bisects is None:
        bisects = BisectRecord() if run_dir else bisect_record.load(root_dir / "reports" / "bisect.json")
    report = f"reports/{scenario.id}.md" if not run_dir else f"{run_dir.rstrip('/')}/{scenario.id}.md"
    first_link = scenario.links[0] if scenario.links else ""
    head = [
        f"**{scenario.id}** ({scenario.framework}, {first_link}): {' '.join(scenario.description.split())}",
        "",
    ]
    head += claims.sentence_lines(scenario, rows, bisects)
    if not run_dir:  # the first screen: the bug, the verdicts, then where the code changed (issue 45)
        head += boundary_evidence.cause_lines(scenario.explained, [c.id for c in scenario.cases])
    for boundary_note in scenario.boundary_notes:
        head += [boundary_note, ""]
    # A run with a candidate build gets before/after; an exploratory run of releases, ranges.
    before_after = bool(run_dir) and any(not r.release for r in rows)
    if before_after:
        table = _run_table(scenario, rows)
        specs = sorted({r.source for r in rows}, key=lambda s: next(_order(r) for r in rows if r.source == s))
        specs = [s if not s.startswith("local:") else f"/path/to/{s[6:]}" for s in specs]
        lead = ["Before and after the candidate build, per case:", ""]
    else:
        table = _record_table(scenario, rows)
        releases = sorted(
            {r.source for r in rows if r.release},
            key=lambda s: next(_order(r) for r in rows if r.source == s),
        )
        # The command names the releases around each change, not all of them.
        keep: set[str] = set()
        for c in scenario.cases:
            mine = sorted((r for r in rows if r.case == c.id and r.release), key=_order)
            for a, b in pairwise(mine):
                if a.outcome != b.outcome:
                    keep.update((a.source, b.source))
        specs = [s for s in releases if s in keep] or releases[-1:]
        n = len({r.source for r in rows})
        lead = [f"Outcome per case and release range ({n} releases run; the count in brackets):", ""]
    published = script or reproduce.script_file(scenario.id, root_dir)
    example = shown_case([c.id for c in scenario.cases], {r.case for r in rows if r.outcome == REPRODUCED})
    reproduce_lines = [
        f"Reproduce without this harness: save the script{{where}} as `{SCRIPT}` (the replay the harness ran on "
        "every release; each case is an argument of it) and run a case with `uv run` on a release "
        "(exit 3 reproduced, 0 fixed, 125 otherwise: `git bisect run` reads them):",
        "",
        *_command_lines(scenario, document, rows, before_after),
        "",
        "Against your own checkout of the framework, in an environment that has its dependencies (the "
        f"checkout's own development environment): `{reproduce.local_command(example)}`.",
        "",
    ]
    folded: list[str] = []
    if published.is_file():
        body = published.read_text(encoding="utf-8")
        folded = [
            "<details>",
            f"<summary>{SCRIPT} ({len(body.splitlines())} lines)</summary>",
            "",
            *_fence(body.rstrip("\n"), "python"),
            "</details>",
            "",
        ]
    path = reproduce.script_path(scenario.id)
    # With a repository known, a script too long to fold in is linked; without one it is always in.
    pointed = [f"The script: [`{path}`]({link_base}{path}).", ""] if link_base else []
    harness_lines = (
        [
            f"With [this harness]({link_base.split('/blob/')[0]}) (a checkout of it, not of the framework):",
            "",
            *_fence(f"nox -s matrix -- --only {scenario.id} " + " ".join(specs), "sh"),
            "",
        ]
        if link_base
        else []
    )
    tail = [f"Full evidence: [`{report}`]({link_base}{report})."] if link_base and not run_dir else []
    if run_dir and not link_base:
        tail = [f"Full evidence: the run's report, `{scenario.id}.md`."]
    # Each boundary's change of the framework's own code that the case executed (python -m harness explain).
    changed: list[str] = []
    if not run_dir:
        case_ids = [case.id for case in scenario.cases]
        changed = boundary_evidence.comment_lines(scenario.explained, case_ids)
        if changed:
            changed = [
                "What changed in the framework at each boundary, among the lines the case executed on either side:",
                "",
                *changed,
            ]
    pairs = _evidence_pairs(scenario, rows, before_after)
    meanings = _meanings(scenario.cases) + [""] + _too_far_lines(scenario, rows) + _third_way_lines(scenario, rows)
    text = ""
    for script_lines in (folded, pointed) if folded and pointed else (folded or pointed,):
        where = " below" if script_lines is folded and folded else ""
        said = [line.replace("{where}", where) for line in reproduce_lines]
        fixed_part = head + lead + table + [""] + meanings + said + script_lines + harness_lines
        # Fit under LIMIT: shorter blocks first, then diffs only, then nothing folded.
        for timeline_lines, diff_lines, timelines in (
            (40, 60, True),
            (20, 30, True),
            (10, 15, True),
            (None, 30, False),
            (None, 10, False),
        ):
            details = _details(pairs, timeline_lines, diff_lines, timelines)
            text = "\n".join(fixed_part + changed + details + tail) + "\n"
            if len(text) <= LIMIT - MARGIN:
                return text
        note = ["Timelines and diffs are too long for a comment" + (f": see `{report}`." if link_base else "."), ""]
        text = "\n".join(fixed_part + note + tail) + "\n"
        if len(text) <= LIMIT - MARGIN:
            return text
    return text[: LIMIT - MARGIN - 80].rsplit("\n", 1)[0] + "\n\n… cut to fit GitHub's limit for a comment.\n"


def load(root: Path, run_dir: str | None) -> Record:
    """The record, or a candidate run's matrix.json."""
    from harness.store import record

    directory = Path(run_dir) if run_dir else root / "reports"
    if run_dir and not (directory / record.RECORD_NAME).is_file():
        raise CommentError(f"{run_dir}: no {record.RECORD_NAME} there; give a run folder, reports/runs/<name>/")
    document = record.load(directory)
    if document is None:
        raise CommentError("reports/matrix.json does not exist yet; run `nox -s matrix` first")
    return document
