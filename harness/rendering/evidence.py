"""reports/<scenario-id>.md: the evidence a contributor attaches to an upstream PR or issue.

Rendered from reports/matrix.json only (JSON is the record), byte-identical for the same
results, and kept under GitHub's comment limit by cutting long blocks with a visible note.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Sequence
from functools import partial

from harness.planning import versions
from harness.rendering import boundary_evidence, claims, commit_words, explanations, interpreter_words, reproduce
from harness.rendering.metadata import CaseMetadata, ScenarioMetadata
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED, UNEXPECTED
from harness.store import boundaries
from harness.store.bisect_record import BisectRecord
from harness.store.document import Record
from harness.store.rows import Row

GITHUB_LIMIT = 65536
TIMELINE_LINES = 60  # longer timelines are cut, with a note saying so
DIFF_LINES = 80


def _esc(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _label(r: Row) -> str:
    return r.source if r.source.startswith("local:") else f"{r.framework} {r.version}"


def _release_order(r: Row) -> tuple:
    return (versions.key(r.version or "0"), r.source.startswith("local:"), r.source)


def _cut(text: str, limit: int, what: str) -> str:
    lines = text.splitlines()
    if len(lines) <= limit:
        return text.rstrip("\n")
    return "\n".join(
        lines[:limit]
        + [
            f"… {len(lines) - limit} more {what} lines cut to fit GitHub's comment limit; "
            "the full text is in reports/matrix.json"
        ]
    )


def _fence(text: str, lang: str = "text") -> list[str]:
    return [f"```{lang}", text.replace("```", "ʼʼʼ"), "```"]


def release_lines(rows: list[Row]) -> list[tuple[str, list[Row]]]:
    """Release rows grouped by release line (``1.x``, ``2.x``), each in version order.

    Lines overlap in time (google-adk 1.39.1 came out after 2.4.0), so "last release where
    it reproduces" and "first fixed" are only meaningful inside one line.
    """
    lines: dict[str, list[Row]] = {}
    for r in sorted((r for r in rows if r.release), key=_release_order):
        lines.setdefault(versions.line(str(r.version)), []).append(r)
    return list(lines.items())


# A run folder ran a few releases (candidate: the baseline and the latest): its "first fixed" is
# among those, which the bisect line beneath (over every release) would seem to contradict.
FIRST_FIXED = "first release where it is fixed"
FIRST_FIXED_OF_RUN = "first of the releases this run ran where it is fixed (bisect, below, looks at every release)"


def _fix_step(last_repro: str, first_fixed: str, known: boundaries.Known | None) -> tuple[str, str, list[str]]:
    """The reproduced -> fixed step between two releases run, narrowed by every bisect probe between
    them: (last reproduced, first fixed, the releases between those two that gave no answer)."""
    if known is None:
        return last_repro, first_fixed, []
    low, high = versions.key(last_repro), versions.key(first_fixed)
    every = sorted(
        {v for v in [*known.releases, *known.points] if low < versions.key(v) < high and versions.is_final(v)},
        key=versions.key,
    )
    answered = [(v, known.points[v]) for v in every if known.points.get(v, ERROR) != ERROR]
    for v, outcome in answered:
        if outcome == REPRODUCED:
            last_repro = v
    after = [v for v, o in answered if o == FIXED and versions.key(v) > versions.key(last_repro)]
    first_fixed = after[0] if after else first_fixed
    a, b = versions.key(last_repro), versions.key(first_fixed)
    untested = [v for v in every if a < versions.key(v) < b and known.points.get(v, ERROR) == ERROR]
    return last_repro, first_fixed, untested


def _line_summary(releases: list[Row], first_fixed: str = FIRST_FIXED, known: boundaries.Known | None = None) -> str:
    """One release line's words. ``known`` (the case's record and bisect probes, with every release
    the index has): a fix with releases between it and the last reproduction that were never
    answered is a range, "fixed between A and B, not bisected", never "first fixed: B" (issue 45)."""
    repro = [r for r in releases if r.outcome == REPRODUCED]
    fixed_ = [r for r in releases if r.outcome == FIXED]
    unexpected = [r for r in releases if r.outcome == UNEXPECTED]
    later_fixed = [r for r in fixed_ if not repro or _release_order(r) > _release_order(repro[-1])]
    last, first, untested = (str(repro[-1].version) if repro else ""), "", list[str]()
    if repro and later_fixed:
        last, first, untested = _fix_step(str(repro[-1].version), str(later_fixed[0].version), known)
    parts = [f"last release where it reproduces: **{last}**" if repro else "reproduces on no release run"]
    if repro and later_fixed and untested:
        parts.append(f"fixed between **{last}** and **{first}**{boundaries.range_note(untested)}")
    elif later_fixed:
        parts.append(f"{first_fixed}: **{first if repro else later_fixed[0].version}**")
    elif fixed_:
        parts.append(f"fixed on {', '.join(str(r.version) for r in fixed_)}, but it reproduces again later")
    else:
        parts.append("fixed on no release run")
    changes = [
        f"{a.version} → {b.version}: {a.outcome} → {b.outcome}"
        for a, b in itertools.pairwise(releases)
        if a.outcome != b.outcome
    ]
    if changes:
        parts.append("changes: " + "; ".join(changes))
    parts.append(f"unexpected on: {', '.join(str(r.version) for r in unexpected) if unexpected else 'none'}")
    return "; ".join(parts)


def _control_summary(releases: list[Row]) -> str:
    """A control must hold (``fixed``) everywhere it runs: say so, or say where it broke. A release
    where it is not applicable is neither (it did not run there): counted apart."""
    ran = [r for r in releases if r.outcome != NOT_APPLICABLE]
    na = len(releases) - len(ran)
    apart = f"; not applicable on {na}" if na else ""
    broke = [r for r in ran if r.outcome != FIXED]
    if not broke:
        if not ran:
            return f"control: not applicable on every release run ({len(releases)})"
        return f"control: held on every release run ({len(ran)}){apart}"
    return (
        "control: **broke** on "
        + ", ".join(f"{r.version} ({r.outcome})" for r in broke)
        + f"; held on {len(ran) - len(broke)} of {len(ran)} releases run{apart}"
    )


def _summary_line(
    rows: list[Row], control: bool = False, run_only: bool = False, known: boundaries.Known | None = None
) -> str:
    """One line per release line (a single line needs no label); ``run_only``: a run folder's."""
    lines = release_lines(rows)
    summarise = (
        _control_summary
        if control
        else partial(_line_summary, first_fixed=FIRST_FIXED_OF_RUN if run_only else FIRST_FIXED, known=known)
    )
    if not lines:
        return "no release run."
    if len(lines) == 1:
        return summarise(lines[0][1]) + "."
    framework = lines[0][1][0].framework
    return " ".join(f"**{framework} {line}**: {summarise(group)}." for line, group in lines)


def _diff_pair(rows: list[Row]) -> tuple[Row, Row] | None:
    """The reproduced and the fixed result whose timelines the report diffs: the last reproduced and
    the first fixed of one release line (the newest line with both), never across lines (google-adk
    2.7.1 against 1.9.0 compares two code bases, not a fix)."""
    lines: dict[str, list[Row]] = {}
    for r in sorted((r for r in rows if r.timeline), key=_release_order):
        lines.setdefault(versions.line(r.version or "0"), []).append(r)
    for line in sorted(lines, key=lambda name: versions.key(name.partition(".")[0]), reverse=True):
        repro = [r for r in lines[line] if r.outcome == REPRODUCED]
        fixed_ = [r for r in lines[line] if r.outcome == FIXED]
        if repro and fixed_ and repro[-1].timeline != fixed_[0].timeline:
            return repro[-1], fixed_[0]
    return None


def _before_after(rows: list[Row]) -> list[str]:
    candidates = [r for r in rows if r.source.startswith("local:")]
    releases = [r for r in rows if not r.source.startswith("local:")]
    lines = []
    for cand in candidates:
        for base in releases:
            if base.outcome == cand.outcome:
                lines.append(f"unchanged: {cand.outcome} on {_label(base)} and on the candidate build `{cand.source}`")
            else:
                lines.append(f"{base.outcome} on {_label(base)}, {cand.outcome} on the candidate build `{cand.source}`")
    return lines


def _range(group: list[Row]) -> str:
    """A table row's builds: every release named, or the two ends and how many were run."""
    if len(group) == 1:
        return _label(group[0])
    if len(group) == 2:
        return f"{_label(group[0])}, {group[1].version}"
    return f"{_label(group[0])} – {group[-1].version}, {len(group)} run"


def _bisect_lines(k: boundaries.Known) -> list[str]:
    """What every bisect and the record say about one case: its boundaries, and how it is known."""
    if not k.ranges:
        return []
    # Both ends in the key: two ranges from one release otherwise come out in the set's order,
    # which changes with the process's hash seed.
    spans = sorted(set(k.ranges), key=lambda ab: (versions.key(ab[0]), versions.key(ab[1])))
    ranges = "; ".join(f"{a} – {b}" for a, b in spans)
    found = "; ".join(b.summary for b in k.boundaries) or "no outcome change"
    answered = sum(o != ERROR for o in k.points.values())
    probes = f"{k.probes} probe" + ("" if k.probes == 1 else "s")
    line = (
        f"Bisect ({probes} over {ranges}, with the record's results: {answered} releases with an answer): **{found}**."
    )
    if k.no_answer:
        shown = (
            ", ".join(k.no_answer)
            if len(k.no_answer) <= 3
            else f"{len(k.no_answer)} releases, {k.no_answer[0]} .. {k.no_answer[-1]}"
        )
        line += f" No answer from {shown}."
    return [line]


def _grid_picture(scenario: ScenarioMetadata) -> list[str]:
    """The scenario's SVG grid (harness/rendering/grid.py, written beside this report)."""
    return [f"![{scenario.id}: outcome per case and build]({scenario.id}.svg)", ""]


def _script_lines(scenario: ScenarioMetadata, case: CaseMetadata, document: Record, every: Sequence[Row]) -> list[str]:
    """The bug's reproduction (scenarios/<id>/repro.py, what the harness ran) and the commands that run
    this case with it on a release where it reproduces and one where it is fixed (naming the default
    interpreter where ``every``, the results on every interpreter, differ by it)."""
    path = reproduce.script_path(scenario.id)
    # The commands name the script as `repro.py` beside them, so they run from any folder, not only
    # from this project's root (issue 45: they named the harness's own path).
    pin = reproduce.pinned(every, scenario.id, case.id)
    commands = reproduce.lines(reproduce.Bug.of(scenario), case.id, document, pin=pin)
    if not commands:
        return []
    return [
        f"Reproduction: [`{path}`](../{path}), the script the harness ran (standalone: save it as `repro.py` "
        "in any folder and `uv run` it there; exit 3 reproduced, 0 fixed, 125 otherwise), for example:",
        "",
        *commands,
        "",
    ]


def current_results(scenario: ScenarioMetadata, document: Record) -> tuple[Record, int]:
    """``document`` without the scenario's results an older version of its code answered, and how
    many it left out: those are not shown as measured, nor their commands (issue 45: rows of a
    release the script no longer reached kept "last release where it reproduces" and its command)."""
    current = scenario.inputs
    if current is None:
        return document, 0
    kept = [r for r in document.results if r.scenario != scenario.id or not r.inputs or r.inputs == current]
    if len(kept) == len(document.results):
        return document, 0
    return document.replace(results=kept), len(document.results) - len(kept)


def render(
    scenario: ScenarioMetadata,
    document: Record,
    bisects: BisectRecord | None = None,
    run_only: bool = False,
    every: Sequence[Row] | None = None,
) -> str:
    """The report of one scenario. ``scenario``: id, framework, links, description, expected, cases.

    ``bisects``: the bisect record (reports/bisect.json), whose boundaries are quoted per case,
    derived together with the record's results (``document``'s: one interpreter's). ``every``: the
    results on every interpreter, for the report's interpreter lines (None: ``document``'s).
    """
    bisects = bisects or BisectRecord()
    document, stale = current_results(scenario, document)
    results = [r for r in document.results if r.scenario == scenario.id]
    results.sort(key=_release_order)
    out = [f"# {scenario.id}", ""]
    out += [f"**Bug** ({scenario.framework}): {scenario.description}", ""]
    out += [f"**Expected**: {scenario.expected}", ""]
    out += ["Upstream: " + ", ".join(f"<{u}>" for u in scenario.links), ""]
    if stale:
        out += [
            f"**{stale} result{'s' if stale != 1 else ''} of reports/matrix.json "
            f"{'were' if stale != 1 else 'was'} answered by an older version of this scenario's code** and "
            f"{'are' if stale != 1 else 'is'} not shown: `nox -s matrix -- --only {scenario.id}` measures "
            "them again.",
            "",
        ]
    out += claims.report_lines(scenario, results, bisects)
    every = document.results if every is None else every
    out += interpreter_words.lines(scenario.id, every)
    specs = []
    for r in results:
        spec = r.source if not r.source.startswith("local:") else f"/path/to/{r.source[6:]}"
        if spec not in specs:
            specs.append(spec)
    out += ["Reproduce:", "", *_fence(f"nox -s matrix -- --only {scenario.id} " + " ".join(specs), "sh"), ""]
    if not results:
        return "\n".join(out + ["No results for this scenario in reports/matrix.json.", ""])
    out += _grid_picture(scenario)

    shapes: dict[str, str] = {}
    for r in results:
        if r.timeline and r.timeline not in shapes:
            shapes[r.timeline] = chr(ord("A") + len(shapes)) if len(shapes) < 26 else f"S{len(shapes)}"

    for case in scenario.cases:
        rows = [r for r in results if r.case == case.id]
        if not rows:
            continue
        heading = f"## {case.id}" + (" (control)" if case.control else "")
        known = boundaries.known(bisects, results, scenario.id, case.id, scenario.framework, scenario.inputs)
        summary = _summary_line(rows, bool(case.control), run_only, None if run_only else known)
        out += [heading, "", case.summary, "", summary, ""]
        out += _script_lines(scenario, case, document, every)
        bisect_lines = _bisect_lines(known)
        if bisect_lines:
            out += bisect_lines + [""]
        steps = commit_words.case_lines(bisects, known, scenario.id, case.id, scenario.framework, scenario.explained)
        if steps and not run_only:
            out += ["Where it changed, commit by commit:", "", *steps, ""]
        out += boundary_evidence.case_lines(scenario.explained, case.id)
        ba = _before_after(rows)
        if ba:
            out += ["**What the candidate changed:**", ""] + [f"- {line}" for line in ba] + [""]
        out += ["| build | outcome | detail | timeline |", "|---|---|---|---|"]
        # Rows group consecutive releases of one release line with the same result.
        keyed = [
            (
                r,
                (
                    r.outcome,
                    r.detail,
                    shapes.get(r.timeline, "–"),
                    r.source.startswith("local:"),
                    versions.line(r.version or "0"),
                ),
            )
            for r in rows
        ]
        for key, grp in itertools.groupby(keyed, key=lambda x: x[1]):
            group = [r for r, _ in grp]
            detail = key[1]
            reason = (
                explanations.why(scenario, case.id, group[0].version) if key[0] in explanations.THIRD_WAYS else None
            )
            if reason:  # neither reproduced nor fixed: the scenario's words for why
                detail = f"{detail} Why: {reason}"
            out.append(f"| {_esc(_range(group))} | {key[0]} | {_esc(detail)} | {key[2]} |")
        out.append("")
        case_shapes = []
        for r in rows:
            if r.timeline and r.timeline not in case_shapes:
                case_shapes.append(r.timeline)
        for tl in case_shapes:
            producing = [r for r in rows if r.timeline == tl]
            who = ", ".join(_label(r) for r in producing)
            out += [
                "<details>",
                f"<summary>timeline {shapes[tl]} ({producing[0].outcome}): {_esc(who)}</summary>",
                "",
            ]
            out += _fence(_cut(tl, TIMELINE_LINES, "timeline")) + ["", "</details>", ""]
        pair = _diff_pair(rows)
        if pair is not None:
            a, b = pair
            diff = "".join(
                difflib.unified_diff(
                    a.timeline.splitlines(keepends=True),
                    b.timeline.splitlines(keepends=True),
                    fromfile=f"{_label(a)} (reproduced)",
                    tofile=f"{_label(b)} (fixed)",
                )
            )
            out += [
                "<details>",
                f"<summary>diff: reproduced ({_esc(_label(a))}) → fixed ({_esc(_label(b))})</summary>",
                "",
            ]
            out += _fence(_cut(diff, DIFF_LINES, "diff"), "diff") + ["", "</details>", ""]

    out += _environment(document, {r.source for r in results})
    text = "\n".join(out)
    if len(text) > GITHUB_LIMIT:
        text = text[: GITHUB_LIMIT - 200].rsplit("\n", 1)[0]
        text += "\n\n… report cut at GitHub's 65,536-character limit; the full record is reports/matrix.json\n"
    return text


def _environment(document: Record, sources: set[str]) -> list[str]:
    info = document.harness
    out = ["## Environment", ""]
    # The code tree hash is in matrix.json, not here: a run of one scenario must leave every
    # other scenario's report byte for byte.
    out.append(f"Python {info.python or '?'} on {info.platform or '?'}; harness {info.version or '?'}")
    out.append("")
    for env in document.environments:
        if env.source not in sources:
            continue
        date = f", dependencies as of {env.exclude_newer}" if env.exclude_newer else ", today's dependencies"
        if env.isolation:
            date += f", isolation: {env.isolation}"
        packages = env.packages or ()
        out += ["<details>", f"<summary>{_esc(env.source)}: {len(packages)} packages{date}</summary>", ""]
        # An entry without packages says why (its ``error``); one without either predates both.
        said = "\n".join(packages) if packages else env.error if env.error is not None else "no environment"
        out += _fence(said) + ["", "</details>", ""]
    return out
