"""The matrix as a picture: an SVG grid of cases by releases (issue 17).

One grid per scenario (``reports/<scenario>.svg``: its cases by the builds it ran on) and one
per framework (``reports/matrix-<framework>.svg``: every scenario's cases by every release).
Columns are releases in PEP 440 order, each release line (``1.x``, ``2.x``) set apart by a gap
and labelled, local builds (candidates) last. Each cell has one colour and one letter per
outcome, so the grid reads without colour too (colour-blind-safe Okabe-Ito hues); a legend
says which. The bytes depend only on the results: integer coordinates, fixed order, no
dates, so a re-render is identical.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

from harness.planning import versions
from harness.rendering.metadata import ScenarioMetadata
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED, UNEXPECTED
from harness.store.document import Record
from harness.store.rows import Row
from harness.store.rows import on as on_interpreter

# outcome -> (fill, letter, letter colour)
STYLE = {
    REPRODUCED: ("#D55E00", "R", "#FFFFFF"),
    FIXED: ("#009E73", "F", "#FFFFFF"),
    UNEXPECTED: ("#E69F00", "U", "#000000"),
    NOT_APPLICABLE: ("#D9D9D9", "N", "#000000"),
    ERROR: ("#332288", "E", "#FFFFFF"),
}
NOT_RUN = "#FFFFFF"  # a (case, build) with no result: a blank cell with a faint border

CELL = 20  # a cell's side
STEP = 22  # distance between neighbouring cells
LINE_GAP = 14  # extra space between release lines
GROUP_GAP = 8  # extra space between scenarios (framework grid)
PAD = 10
CHAR = 8  # width of one character of the 12px monospace labels (7.2 in DejaVu Sans Mono), rounded up
FONT = 'font-family="DejaVu Sans Mono,Menlo,Consolas,monospace"'


def _is_local(r: Row) -> bool:
    return r.source.startswith("local:") or not r.release


def _columns(rows: list[Row]) -> list[tuple[str, str, str]]:
    """(source, label, group) of every build in ``rows``: releases by version, local builds last."""
    builds: dict[str, Row] = {}
    for r in rows:
        builds.setdefault(r.source, r)
    order = sorted(builds.values(), key=lambda r: (_is_local(r), versions.key(r.version or "0"), r.source))
    return [
        (
            r.source,
            _short(r.source) if _is_local(r) else str(r.version),
            "local builds" if _is_local(r) else versions.line(str(r.version)),
        )
        for r in order
    ]


def _short(label: str, limit: int = 28) -> str:
    """A column label kept short (a wheel's file name is long); the cell's tooltip has it whole."""
    return label if len(label) <= limit else label[: limit - 1] + "…"


def _svg(
    title: str, row_groups: list[list[tuple[str, str]]], results: list[Row], label_of_row: Callable[[Row], str]
) -> str:
    """The grid. ``row_groups``: groups of (row key, row label); ``results``: rows are keyed by
    ``label_of_row(result)``, columns by ``source``."""
    columns = _columns(results)
    by_cell = {(label_of_row(r), r.source): r for r in results}
    row_labels = [label for group in row_groups for _, label in group]
    left = PAD + CHAR * max([len(x) for x in row_labels] + [4]) + 8
    head = CHAR * max([len(c[1]) for c in columns] + [4]) + 8  # rotated build labels
    top = PAD + 18 + 16 + head  # title, release-line labels, build labels
    xs: list[int] = []
    x = left
    for i, (_, _, line) in enumerate(columns):
        if i and line != columns[i - 1][2]:
            x += LINE_GAP
        xs.append(x)
        x += STEP
    grid_right = x
    ys: list[int] = []
    y = top
    for gi, rows_of_group in enumerate(row_groups):
        if gi:
            y += GROUP_GAP
        for _ in rows_of_group:
            ys.append(y)
            y += STEP
    legend_y = y + 12
    legend = [(o, *STYLE[o]) for o in (REPRODUCED, FIXED, UNEXPECTED, NOT_APPLICABLE, ERROR)]
    legend_width = sum(CELL + 6 + CHAR * len(o) + 16 for o in (*STYLE, "not run"))
    width = max(grid_right + PAD, PAD + 9 * len(title) + PAD, PAD + legend_width + PAD)
    height = legend_y + CELL + PAD

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {FONT} font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#FFFFFF"/>',
        f'<text x="{PAD}" y="{PAD + 13}" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    # Release-line labels above their first column.
    for i, (_, _, group) in enumerate(columns):
        if i == 0 or group != columns[i - 1][2]:
            out.append(f'<text x="{xs[i]}" y="{PAD + 18 + 12}" fill="#555555">{escape(group)}</text>')
    # Build labels, rotated, ending just above their column.
    for (_, label, _), cx in zip(columns, xs, strict=True):
        bx, by = cx + CELL // 2 + 4, top - 6
        out.append(f'<text x="{bx}" y="{by}" transform="rotate(-90 {bx} {by})">{escape(label)}</text>')
    flat = [key for group in row_groups for key, _ in group]
    for key, label, cy in zip(flat, row_labels, ys, strict=True):
        out.append(f'<text x="{left - 8}" y="{cy + 14}" text-anchor="end">{escape(label)}</text>')
        for (source, _, _), cx in zip(columns, xs, strict=True):
            r = by_cell.get((key, source))
            if r is None:
                out.append(
                    f'<rect x="{cx}" y="{cy}" width="{CELL}" height="{CELL}" fill="{NOT_RUN}" '
                    f'stroke="#DDDDDD" data-row={quoteattr(key)} data-build={quoteattr(source)}/>'
                )
                continue
            fill, letter, ink = STYLE[r.outcome]
            tip = f"{label} on {source}: {r.outcome}: {r.detail}"
            out += [
                f"<g><title>{escape(tip)}</title>",
                f'<rect x="{cx}" y="{cy}" width="{CELL}" height="{CELL}" fill="{fill}" '
                f"data-row={quoteattr(key)} data-build={quoteattr(source)}/>",
                f'<text x="{cx + CELL // 2}" y="{cy + 14}" text-anchor="middle" font-weight="bold" '
                f'fill="{ink}">{letter}</text></g>',
            ]
    x = PAD
    for outcome, fill, letter, ink in legend:
        out += [
            f'<rect x="{x}" y="{legend_y}" width="{CELL}" height="{CELL}" fill="{fill}"/>',
            f'<text x="{x + CELL // 2}" y="{legend_y + 14}" text-anchor="middle" font-weight="bold" '
            f'fill="{ink}">{letter}</text>',
            f'<text x="{x + CELL + 6}" y="{legend_y + 14}">{escape(outcome)}</text>',
        ]
        x += CELL + 6 + CHAR * len(outcome) + 16
    out += [
        f'<rect x="{x}" y="{legend_y}" width="{CELL}" height="{CELL}" fill="{NOT_RUN}" stroke="#DDDDDD"/>',
        f'<text x="{x + CELL + 6}" y="{legend_y + 14}">not run</text>',
        "</svg>",
    ]
    return "\n".join(out) + "\n"


def scenario_svg(scenario: ScenarioMetadata, document: Record) -> str:
    """The grid of one scenario: its cases (in the scenario's order) by the builds it ran on.

    ``scenario``: the metadata the reports use (harness/rendering/metadata.py ``ScenarioMetadata``).
    """
    # The release axis of the default interpreter (a report's interpreter lines show the others).
    results = [r for r in on_interpreter(document.results) if r.scenario == scenario.id]
    rows = [
        (c.id, c.id + (" (control)" if c.control else ""))
        for c in scenario.cases
        if any(r.case == c.id for r in results)
    ]
    title = f"{scenario.id} ({scenario.framework}): outcome per case and build"
    return _svg(title, [rows], results, lambda r: r.case)


def framework_svg(document: Record, framework: str) -> str:
    """The grid of one framework: every (scenario, case) of the record by every build, rows in
    the record's order, scenarios set apart."""
    results = [r for r in on_interpreter(document.results) if r.framework == framework]
    groups: dict[str, list[tuple[str, str]]] = {}
    for r in results:
        key = f"{r.scenario}:{r.case}"
        group = groups.setdefault(r.scenario, [])
        if (key, key) not in group:
            group.append((key, key))
    title = f"{framework}: outcome per scenario, case and build"
    return _svg(title, list(groups.values()), results, lambda r: f"{r.scenario}:{r.case}")


def svg_name(framework: str) -> str:
    """The file name of a framework's grid in reports/."""
    return f"matrix-{framework}.svg"
