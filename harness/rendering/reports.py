"""The record's views: reports/matrix.md, one report per scenario and the SVG grids, rendered from
a record document (harness/store/record.py, which owns and
writes reports/matrix.json). Rendering reads the record and writes into a staging
(harness/store/staging.py), so a report set is moved into place whole or not at all."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from harness.planning import interpreters, versions
from harness.project import PROJECT, Project
from harness.rendering.metadata import ScenarioMetadata
from harness.store.bisect_record import BisectRecord
from harness.store.document import Record
from harness.store.rows import Row, change_key
from harness.store.rows import on as on_interpreter

if TYPE_CHECKING:
    from harness.store.staging import Staging


def _cell(r: Row) -> str:
    mark = "" if r.snapshot in ("match", "updated") else f" ({r.snapshot})"
    return f"{r.outcome}{mark}"


def matrix_markdown(document: Record, scenario_titles: dict[str, str] | None = None) -> str:
    """One table per framework: scenario and case by build, outcome in each cell."""
    results = document.results
    lines = ["# Matrix", ""]
    lines.append(
        "Outcome per (scenario, case) and build. `(changed)`/`(new)`: differs from, or has no, stored snapshot."
    )
    lines.append("")
    for framework in sorted({r.framework for r in results}):
        rows = [r for r in results if r.framework == framework]
        builds: list[str] = []
        for r in rows:
            if r.source not in builds:
                builds.append(r.source)
        builds.sort(
            key=lambda s: next(
                (versions.key(r.version or "0"), s.startswith("local:"), s) for r in rows if r.source == s
            )
        )
        lines.append(f"## {framework}")
        lines.append("")
        lines += _grid_lines(framework)
        lines.append("| scenario | case | " + " | ".join(b.replace(f"{framework}==", "") for b in builds) + " |")
        lines.append("|---|---|" + "---|" * len(builds))
        pairs: list[tuple[str, str]] = []
        for r in rows:
            if (r.scenario, r.case) not in pairs:
                pairs.append((r.scenario, r.case))
        for scenario, case in pairs:
            by_build = {r.source: r for r in rows if (r.scenario, r.case) == (scenario, case)}
            cells = [_cell(by_build[b]) if b in by_build else "" for b in builds]
            link = f"[{scenario}]({scenario}.md)" if scenario_titles is not None else scenario
            lines.append(f"| {link} | {case} | " + " | ".join(cells) + " |")
        lines.append("")
    upgrade_ids = sorted({r.scenario for r in document.upgrades})
    if upgrade_ids:
        lines += [
            "## Upgrades",
            "",
            "State written by one release and read by another: a from-by-to grid per scenario.",
            "",
        ]
        lines += [f"- [{i}](upgrades/{i}.md)" for i in upgrade_ids]
        lines.append("")
    problems = [r for r in [*results, *document.upgrades] if r.outcome in ("error", "unexpected")]
    if problems:
        lines.append("## Needs a look")
        lines.append("")
        for r in problems:
            where = f"`{r.from_source}` -> `{r.source}`" if r.from_source else f"`{r.source}`"
            lines.append(f"- `{r.scenario}:{r.case}` on {where}: **{r.outcome}**: {r.detail}")
        lines.append("")
    return "\n".join(lines)


def renderer(
    scenarios: dict, project: Project | None = None, run_only: bool = False, upgrade_changes: dict | None = None
) -> Callable[[Record, Path, Staging, BisectRecord], list[Path]]:
    """The reports' renderer that harness/store/record.py calls with a document, a folder, a
    staging and the bisect record (whose boundaries the scenario reports quote); ``run_only``: a
    run folder's reports (a few releases: "first fixed" is said to be among them);
    ``upgrade_changes``: the schema changes of the pairs a run just measured
    (harness/execution/upgrades.py ``UpgradeRun.changes``), beside those the folder keeps."""

    def render(document: Record, folder: Path, stage: Staging, bisects: BisectRecord) -> list[Path]:
        return write_all(document, scenarios, folder, stage, bisects, project, run_only, upgrade_changes)

    return render


def write_all(
    document: Record,
    scenarios: dict,
    reports_dir: Path,
    stage: Staging,
    bisects: BisectRecord | None = None,
    project: Project | None = None,
    run_only: bool = False,
    upgrade_changes: dict | None = None,
) -> list[Path]:
    """matrix.md and one report per scenario in the results, staged in ``stage`` (not matrix.json:
    the record's owner writes it).

    ``bisects``: the bisect record (harness/store/bisect_record.py), whose boundaries the scenario reports quote.
    """
    from harness.rendering import evidence

    # Read into rows once, for every view below (each takes a document whose results are rows): the
    # views of the release axis read the default interpreter's; a report's interpreter lines read all.
    every = document.results
    document = document.replace(
        results=on_interpreter(every),
        # The environments of the default interpreter's builds (harness/store/record.py ``INTERPRETER_KEY``).
        environments=[e for e in document.environments if e.interpreter == interpreters.DEFAULT],
    )
    ran = {r.scenario for r in every}
    present = [s for s in scenarios.values() if s.id in ran]
    stage.write(reports_dir / "matrix.md", matrix_markdown(document, {s.id: s.id for s in present}))
    written = [reports_dir / "matrix.md"]
    for s in present:
        path = reports_dir / f"{s.id}.md"
        stage.write(path, evidence.render(ScenarioMetadata.of(s, project), document, bisects, run_only, every))
        written.append(path)
    written += write_grids(document, present, reports_dir, stage)
    written += write_upgrades(document, reports_dir, stage, project, upgrade_changes or {})
    return written


def write_upgrades(
    document: Record, reports_dir: Path, stage: Staging, project: Project | None = None, new_changes: dict | None = None
) -> list[Path]:
    """reports/upgrades/<id>.md for every upgrade scenario with results (harness/rendering/upgrade_report.py),
    and its schema changes (<id>.changes.json): those ``new_changes`` holds (``"<id>:<case> <writer> ->
    <reader>"`` -> the change) over those the folder keeps, for exactly the pairs that reproduce."""
    from harness.planning import upgrades
    from harness.rendering import upgrade_report
    from harness.runtime.outcomes import REPRODUCED

    rows = document.upgrades
    ran = {r.scenario for r in rows}
    if not ran:
        return []
    found = upgrades.discover((project or PROJECT).upgrades)
    written = []
    for scenario_id in sorted(ran & set(found)):
        changes_file = upgrade_report.changes_path(reports_dir, scenario_id)
        # A folder with no changes of its own (a run folder, a re-render elsewhere) starts from the record's.
        kept = stage.read(changes_file)
        if kept is None:
            kept = stage.read(upgrade_report.changes_path((project or PROJECT).reports, scenario_id))
        changes = upgrade_report.load_changes(kept)
        prefix = f"{scenario_id}:"
        changes.update({k[len(prefix) :]: v for k, v in (new_changes or {}).items() if k.startswith(prefix)})
        reproduced = {change_key(r) for r in rows if r.scenario == scenario_id and r.outcome == REPRODUCED}
        changes = {k: v for k, v in changes.items() if k in reproduced}
        if changes:
            stage.write(changes_file, upgrade_report.dump_changes(changes))
            written.append(changes_file)
        path = upgrade_report.report_path(reports_dir, scenario_id)
        stage.write(path, upgrade_report.render(found[scenario_id], document, changes))
        written.append(path)
    return written


def _grid_lines(framework: str) -> list[str]:
    """matrix.md: the framework's SVG grid (harness/rendering/grid.py), above its table."""
    from harness.rendering import grid

    return [f"![{framework}: outcome per scenario, case and build]({grid.svg_name(framework)})", ""]


def write_grids(document: Record, present: list, reports_dir: Path, stage: Staging) -> list[Path]:
    """The SVG grids: one per framework, one per scenario (harness/rendering/grid.py)."""
    from harness.rendering import grid

    written = []
    for framework in sorted({r.framework for r in document.results}):
        path = reports_dir / grid.svg_name(framework)
        stage.write(path, grid.framework_svg(document, framework))
        written.append(path)
    for s in present:
        path = reports_dir / f"{s.id}.svg"
        stage.write(path, grid.scenario_svg(ScenarioMetadata.of(s), document))
        written.append(path)
    return written
