"""Each boundary of a scenario explained by the framework's own code.

For every boundary of the record (harness/store/boundaries.py: two releases of one line,
adjacent among those with an answer, whose outcomes differ for one case), the case runs traced
in both releases' builds (harness/execution/trace_runs.py) and the change between their installed
sources is restricted to the lines it executed (harness/store/changed_lines.py). Each boundary
gives one entry (harness/store/boundary_files.py ``Entry``), which that module keeps in
``reports/boundaries/<scenario>.json`` and harness/rendering/boundary_evidence.py shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from harness.errors import UsageError
from harness.execution import trace_runs
from harness.planning import builds
from harness.project import Project
from harness.runtime.scenario import Case, Scenario
from harness.store import boundaries, changed_lines, record, result_cache
from harness.store.boundary_files import ERROR, EXPLAINED, UNEXPLAINED, Entry


class NoBoundary(UsageError, ValueError):
    """--between names two releases that are no boundary of the record for the selection."""


@dataclass(frozen=True)
class Wanted:
    """One boundary to explain."""

    case: Case
    boundary: boundaries.Boundary


def wanted(scenario: Scenario, case_id: str | None, between: tuple[str, str] | None, project: Project) -> list[Wanted]:
    """The boundaries of the record for ``scenario`` (one case, one pair of releases, or all)."""
    reports = project.reports
    document = record.load(reports) or record.Record()
    bisects = record.bisect_record(reports)
    inputs = result_cache.scenario_inputs(project.root, scenario.module)
    cases = [scenario.case(case_id)] if case_id else list(scenario.cases)
    found = []
    for case in cases:
        known = boundaries.known(bisects, document.results, scenario.id, case.id, scenario.framework, inputs)
        found += [Wanted(case, b) for b in known.boundaries]
    if between is None:
        return found
    chosen = [w for w in found if (w.boundary.before.version, w.boundary.after.version) == between]
    if not chosen:
        pairs = sorted({f"{w.boundary.before.version} {w.boundary.after.version}" for w in found})
        raise NoBoundary(
            f"no boundary between {between[0]} and {between[1]} for {scenario.id}"
            f"{':' + case_id if case_id else ''}; its boundaries: {', '.join(pairs) or 'none in the record'}"
        )
    return chosen


def _executed_totals(traced: trace_runs.Traced) -> dict:
    return {"files": len(traced.executed), "lines": sum(len(lines) for lines in traced.executed.values())}


def entry(want: Wanted, old: trace_runs.Traced, new: trace_runs.Traced) -> Entry:
    """The entry of one boundary, from its two traced runs."""
    b = want.boundary
    out = Entry(
        case=want.case.id,
        summary=b.summary,
        before=b.before,
        after=b.after,
        status=ERROR,  # until both traced runs are known to have given their executed lines
        skipped_between=tuple(b.skipped_between),
        traced=(old.outcome, new.outcome),
        executed={"before": _executed_totals(old), "after": _executed_totals(new)},
    )
    failed = next((t for t in (old, new) if t.site_packages is None), None)
    if failed is not None:
        return replace(out, reason=f"{failed.version}: {failed.detail}")
    assert old.site_packages is not None and new.site_packages is not None
    hunks, one_sided = changed_lines.executed_changes(old.site_packages, new.site_packages, old.executed, new.executed)
    note = ""
    if not hunks and not one_sided:
        hunks = changed_lines.definition_changes(old.site_packages, new.site_packages, old.executed, new.executed)
        if not hunks:
            return replace(out, status=UNEXPLAINED, reason=changed_lines.UNEXPLAINED)
        note = changed_lines.DEFINITION_LEVEL
    shown = changed_lines.excerpt(hunks, one_sided, old.version, new.version)
    return replace(
        out,
        status=EXPLAINED,
        reason=note,
        hunks=tuple(h.to_dict() for h in changed_lines.cause_order(hunks)),
        one_sided=tuple(f.to_dict() for f in one_sided),
        excerpt=tuple(shown.lines),
        more_hunks=shown.more_hunks,
        more_lines=shown.more_lines,
        more_words=shown.tail(),
    )


def explain(
    scenario: Scenario,
    chosen: list[Wanted],
    project: Project,
    timeout: float,
    progress: Callable[[Entry, list[trace_runs.Traced]], None] = lambda e, t: None,
) -> list[Entry]:
    """One entry per boundary of ``chosen``; each (case, release) traced once."""
    recorded = (record.load(project.reports) or record.Record()).recorded_packages()
    cache = project.cache
    traced: dict[tuple[str, str], trace_runs.Traced] = {}

    def run(case: Case, version: str) -> trace_runs.Traced:
        if (case.id, version) not in traced:
            build = builds.parse(f"{scenario.framework}=={version}", cache)
            traced[case.id, version] = trace_runs.trace(
                build, scenario.id, case, project, timeout, recorded.get(build.source)
            )
        return traced[case.id, version]

    entries = []
    for want in chosen:
        sides = [run(want.case, want.boundary.before.version), run(want.case, want.boundary.after.version)]
        entries.append(entry(want, *sides))
        progress(entries[-1], sides)
    return entries
