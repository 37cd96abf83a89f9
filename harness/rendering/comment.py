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
from itertools import pairwise
from pathlib import Path

from harness.errors import UsageError
from harness.planning import versions
from harness.project import PROJECT_ROOT
from harness.rendering import reproduce
from harness.rendering.evidence import _esc, _fence
from harness.runtime.outcomes import FIXED, REPRODUCED, UNEXPECTED
from harness.runtime.reproduction import SCRIPT
from harness.store.rows import Row
from harness.store.rows import of_document as rows_of

LIMIT = 10_000  # the bound for a comment a reviewer reads (GitHub allows 65,536)
MARGIN = 200  # kept free under LIMIT


class CommentError(UsageError, ValueError):
    """No comment can be written as asked (one line: what, and what to do)."""


def _order(r: Row) -> tuple:
    return (not r.release, versions.key(r.version or "0"), r.source)


def _label(r: Row) -> str:
    return f"{r.framework} {r.version}" if r.release else f"candidate `{r.source}`"


def _script_link(scenario_id: str, case_id: str, link_base: str) -> str:
    """How the case is run with the bug's reproduction (one script for every case: its argument names the case)."""
    return f"`{SCRIPT} {case_id}`"


def link_base_of(root: Path) -> str:
    """``<repository>/blob/<commit of the record>/``: the repository URL from pyproject.toml's
    ``[project.urls]`` (Repository, Source or Homepage, a GitHub-style URL) and the last commit
    that changed reports/matrix.json; "" when either is unknown."""
    import subprocess
    import tomllib

    try:
        urls = tomllib.loads((root / "pyproject.toml").read_text())["project"].get("urls", {})
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return ""
    repo = next((urls[k] for k in ("Repository", "Source", "Homepage") if k in urls), "")
    if not repo:
        return ""
    commit = subprocess.run(
        ["git", "log", "-1", "--format=%H", "--", "reports/matrix.json"], cwd=root, capture_output=True, text=True
    ).stdout.strip()
    return f"{repo.rstrip('/')}/blob/{commit}/" if commit else ""


def _case_label(case: dict) -> str:
    kind = " (control)" if case.get("control") else " (non-regression)" if case.get("non_regression") else ""
    return f"`{case['id']}`{kind}"


def _meanings(cases: list[dict]) -> list[str]:
    """One sentence per kind of case whose outcome words mean something else than the headline's."""
    out = []
    guards = [f"`{c['id']}`" for c in cases if c.get("non_regression")]
    if guards:
        out.append(
            f"Non-regression cases ({', '.join(guards)}): `reproduced` there means a fix went too far "
            "and dropped behaviour that must stay."
        )
    if any(c.get("control") for c in cases):
        out.append(
            "Controls: behaviour beside the bug that must hold; they read `holds` where it held, `broke` where not."
        )
    return out


def _control_word(outcome: str | None) -> str | None:
    return {FIXED: "holds", REPRODUCED: "broke"}.get(outcome or "", outcome)


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
    return f"**{outcome}**" if outcome in (REPRODUCED, UNEXPECTED) else outcome


def _record_table(scenario: dict, rows: list[Row], link_base: str) -> list[str]:
    releases: list[Row] = []
    for r in sorted((r for r in rows if r.release), key=_order):
        if r.source not in [x.source for x in releases]:
            releases.append(r)
    cases = [c for c in scenario["cases"] if any(r.case == c["id"] for r in rows)]
    spans = _spans(releases, [c["id"] for c in cases], rows)
    version_of = {r.source: str(r.version) for r in releases}
    outcome = {(r.case, r.source): r.outcome for r in rows}
    framework = scenario["framework"]
    out = [
        f"| case ({framework}) | " + " | ".join(_span_label(s, version_of) for s in spans) + " | script |",
        "|---|" + "---|" * len(spans) + "---|",
    ]
    for c in cases:
        cells = []
        for span in spans:
            seen = {outcome.get((c["id"], s)) for s in span}
            word = seen.pop() if len(seen) == 1 else None
            shown = _control_word(word) if c.get("control") and word else word
            cells.append(_cell(shown) if len(seen) == 0 else "mixed")
        out.append(
            f"| {_case_label(c)} | " + " | ".join(cells) + f" | {_script_link(scenario['id'], c['id'], link_base)} |"
        )
    return out


def _run_table(scenario: dict, rows: list[Row], link_base: str) -> list[str]:
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
        f"| case ({scenario['framework']}) | " + " | ".join(heads) + " | change | script |",
        "|---|" + "---|" * (len(heads) + 2),
    ]
    for c in scenario["cases"]:
        if not any(r.case == c["id"] for r in rows):
            continue
        cells = [_cell(by[(c["id"], b.source)].outcome) if (c["id"], b.source) in by else "–" for b in builds]
        changes = []
        for cand in candidates:
            before = by.get((c["id"], base.source)) if base else None
            after = by.get((c["id"], cand.source))
            if before and after:
                changes.append(
                    "unchanged" if before.outcome == after.outcome else f"{before.outcome} → {after.outcome}"
                )
        out.append(
            f"| {_case_label(c)} | " + " | ".join(cells) + f" | {'; '.join(changes) or '–'} | "
            f"{_script_link(scenario['id'], c['id'], link_base)} |"
        )
    return out


def _cut(text: str, limit: int | None, what: str, report: str) -> str:
    lines = text.rstrip("\n").splitlines()
    if limit is None or len(lines) <= limit:
        return "\n".join(lines)
    return "\n".join(lines[:limit] + [f"… {len(lines) - limit} more {what} lines: see {report}"])


def _diff(a: Row, b: Row) -> str:
    return "".join(
        difflib.unified_diff(
            a.timeline.splitlines(keepends=True),
            b.timeline.splitlines(keepends=True),
            fromfile=f"{_label(a)} ({a.outcome})".replace("`", ""),
            tofile=f"{_label(b)} ({b.outcome})".replace("`", ""),
        )
    )


def _evidence_pairs(scenario: dict, rows: list[Row], run: bool) -> list[tuple[dict, Row, tuple[Row, Row] | None]]:
    """Per case: (case, the result whose timeline is shown, the two results diffed, older first, or None)."""
    pairs = []
    for c in scenario["cases"]:
        mine = sorted((r for r in rows if r.case == c["id"] and r.timeline), key=_order)
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
    pairs: list[tuple[dict, Row, tuple[Row, Row] | None]],
    report: str,
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
                *_fence(_cut(shown.timeline, timeline_lines, "timeline", report)),
                "",
            ]
        if pair is not None and pair[0].timeline != pair[1].timeline:
            blocks += [
                f"Diff {_label(pair[0])} ({pair[0].outcome}) → {_label(pair[1])} ({pair[1].outcome}):",
                "",
                *_fence(_cut(_diff(*pair), diff_lines, "diff", report), "diff"),
                "",
            ]
        if not blocks:
            continue
        ends = pair or (shown,)
        summary = f"<code>{case['id']}</code>: " + " → ".join(
            f"{_esc(r.outcome)} on {_esc(_label(r).replace('`', ''))}" for r in ends
        )
        out += ["<details>", f"<summary>{summary}</summary>", "", *blocks, "</details>", ""]
    return out


def shown_case(case_ids: list[str], reproduced: set[str]) -> str:
    """The case whose commands a comment shows: the first of ``case_ids`` that
    reproduces somewhere (``reproduced``), else the first."""
    return next((c for c in case_ids if c in reproduced), case_ids[0])


def render(
    scenario: dict,
    document: dict,
    run_dir: str | None = None,
    link_base: str = "",
    root_dir: Path = PROJECT_ROOT,
    script: Path | None = None,
) -> str:
    """The comment. ``scenario``: metadata as the reports use it (harness/rendering/reports.py ``scenario_metadata``);
    ``document``: the record, or a candidate run's matrix.json when ``run_dir`` names that run; ``script``:
    the bug's script to show (default: scenarios/<id>/repro.py of ``root_dir``)."""
    rows = [r for r in rows_of(document) if r.scenario == scenario["id"]]
    if not rows:
        where = f"{run_dir}/matrix.json" if run_dir else "reports/matrix.json"
        raise CommentError(
            f"{where} has no results for {scenario['id']}; run `nox -s matrix -- --only {scenario['id']}` first"
        )
    report = f"reports/{scenario['id']}.md" if not run_dir else f"{run_dir.rstrip('/')}/{scenario['id']}.md"
    first_link = scenario["links"][0] if scenario["links"] else ""
    head = [
        f"**{scenario['id']}** ({scenario['framework']}, {first_link}): {' '.join(scenario['description'].split())}",
        "",
    ]
    for note in scenario.get("boundary_notes", ()):
        head += [note, ""]
    # A run with a candidate build gets before/after; an exploratory run of releases, ranges.
    before_after = bool(run_dir) and any(not r.release for r in rows)
    if before_after:
        table = _run_table(scenario, rows, link_base)
        specs = sorted({r.source for r in rows}, key=lambda s: next(_order(r) for r in rows if r.source == s))
        specs = [s if not s.startswith("local:") else f"/path/to/{s[6:]}" for s in specs]
        lead = ["Before and after the candidate build, per case:", ""]
    else:
        table = _record_table(scenario, rows, link_base)
        releases = sorted(
            {r.source for r in rows if r.release},
            key=lambda s: next(_order(r) for r in rows if r.source == s),
        )
        # The command names the releases around each change, not all of them.
        keep: set[str] = set()
        for c in scenario["cases"]:
            mine = sorted((r for r in rows if r.case == c["id"] and r.release), key=_order)
            for a, b in pairwise(mine):
                if a.outcome != b.outcome:
                    keep.update((a.source, b.source))
        specs = [s for s in releases if s in keep] or releases[-1:]
        n = len({r.source for r in rows})
        lead = [f"Outcome per case and release range ({n} releases run; the count in brackets):", ""]
    case_shown = shown_case([c["id"] for c in scenario["cases"]], {r.case for r in rows if r.outcome == REPRODUCED})
    published = script or reproduce.script_file(scenario["id"], root_dir)
    bug = reproduce.Bug.of(scenario)
    commands = reproduce.lines(bug, case_shown, document)
    if before_after:
        commands.append(f"- on a framework checkout: `{reproduce.local_command(case_shown)}`")
    reproduce_lines = [
        f"Reproduce without the harness: save the script{{where}} as `{SCRIPT}` (it is "
        f"`{reproduce.script_path(scenario['id'])}`, the replay the harness ran on every release; every case "
        f"is an argument of it) and run it with `uv run` (exit 3 reproduced, 0 fixed, 125 otherwise: "
        "`git bisect run` reads them):",
        "",
        *commands,
        "",
    ]
    folded: list[str] = []
    if published.is_file():
        body = published.read_text(encoding="utf-8")
        lines = len(body.splitlines())
        folded = [
            "<details>",
            f"<summary>{SCRIPT} ({lines} lines)</summary>",
            "",
            *_fence(body.rstrip("\n"), "python"),
            "</details>",
            "",
        ]
    path = reproduce.script_path(scenario["id"])
    # Where the script does not fit folded in, the comment points to it instead of being cut inside it.
    pointed = [f"The script: [`{path}`]({link_base}{path})." if link_base else f"The script: `{path}`.", ""]
    harness_lines = [
        "With the harness (needs a checkout of this harness's repository, not of the framework):",
        "",
        *_fence(f"nox -s matrix -- --only {scenario['id']} " + " ".join(specs), "sh"),
        "",
    ]
    report_ref = f"[`{report}`]({link_base}{report})" if link_base and not run_dir else f"`{report}`"
    no_links = [] if link_base else ["(No repository URL is known to this harness, so the comment links nothing.)"]
    tail = [f"Full evidence: {report_ref}.", *no_links]
    pairs = _evidence_pairs(scenario, rows, before_after)
    for script_lines in (folded, pointed) if folded else (pointed,):
        where = " below" if script_lines is folded else ""
        said = [line.replace("{where}", where) for line in reproduce_lines]
        fixed_part = (
            head + lead + table + [""] + _meanings(scenario["cases"]) + [""] + said + script_lines + harness_lines
        )
        # Fit under LIMIT: shorter blocks first, then diffs only, then nothing folded.
        for timeline_lines, diff_lines, timelines in (
            (40, 60, True),
            (20, 30, True),
            (10, 15, True),
            (None, 30, False),
            (None, 10, False),
        ):
            text = "\n".join(fixed_part + _details(pairs, report, timeline_lines, diff_lines, timelines) + tail) + "\n"
            if len(text) <= LIMIT - MARGIN:
                return text
        note = [f"Timelines and diffs are too long for a comment: see `{report}`.", ""]
        text = "\n".join(fixed_part + note + tail) + "\n"
        if len(text) <= LIMIT - MARGIN:
            return text
    return text[: LIMIT - MARGIN - 80].rsplit("\n", 1)[0] + f"\n\n… cut to fit; see `{report}`.\n"
    return text


def load(root: Path, run_dir: str | None) -> dict:
    """The record, or a candidate run's matrix.json."""
    from harness.store import record

    directory = Path(run_dir) if run_dir else root / "reports"
    if run_dir and not (directory / record.RECORD_NAME).is_file():
        raise CommentError(f"{run_dir}: no {record.RECORD_NAME} there; give a run folder, reports/runs/<name>/")
    document = record.load(directory)
    if document is None:
        raise CommentError("reports/matrix.json does not exist yet; run `nox -s matrix` first")
    return document
