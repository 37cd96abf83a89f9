"""Each boundary of a scenario explained by the framework's own code.

For every boundary of the record (harness/store/boundaries.py: two releases of one line,
adjacent among those with an answer, whose outcomes differ for one case), the case runs traced
in both releases' builds (harness/execution/trace_runs.py) and the change between their installed
sources is restricted to the lines it executed (harness/store/changed_lines.py). The result is
kept in ``reports/boundaries/<scenario>.json`` (no absolute path, no time: the same inputs give
the same bytes), which a report can render:

    {"schema_version": 1, "scenario": ID, "framework": NAME, "boundaries": [
      {"case", "summary", "before": {"version", "outcome"}, "after": {...}, "skipped_between": [...],
       "status": "explained" | "unexplained" | "error", "reason": "" or why,
       "traced": {"before": outcome, "after": outcome},   # what the traced runs gave
       "executed": {"before": {"files", "lines"}, "after": {...}},
       "hunks": [{"file", "old_start", "old_count", "new_start", "new_count", "where",
                  "executed_old", "executed_new", "divergence", "ran_one_side"}, ...],
                 # every executed change, the likeliest cause first (changed_lines.cause_order)
       "one_sided": [{"file", "only_in": "old" | "new", "executed"}, ...],
       "excerpt": [diff lines, about 80 at most], "more": {"hunks", "lines", "words"}}, ...]}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.execution import trace_runs
from harness.planning import builds, versions
from harness.project import Project
from harness.runtime.scenario import Case, Scenario
from harness.store import boundaries, changed_lines, record, result_cache

SCHEMA_VERSION = 1
FOLDER = "boundaries"  # under reports/
EXPLAINED, UNEXPLAINED, ERROR = "explained", "unexplained", "error"


class NoBoundary(UsageError, ValueError):
    """--between names two releases that are no boundary of the record for the selection."""


@dataclass(frozen=True)
class Wanted:
    """One boundary to explain."""

    case: Case
    boundary: boundaries.Boundary


def wanted(scenario: Scenario, case_id: str | None, between: tuple[str, str] | None, root: Path) -> list[Wanted]:
    """The boundaries of the record for ``scenario`` (one case, one pair of releases, or all)."""
    reports = Project(root).reports
    document = record.load(reports) or {"results": []}
    bisects = record.bisect_record(reports)
    inputs = result_cache.scenario_inputs(root, scenario.module)
    cases = [scenario.case(case_id)] if case_id else list(scenario.cases)
    found = []
    for case in cases:
        known = boundaries.known(bisects, document["results"], scenario.id, case.id, scenario.framework, inputs)
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


def entry(want: Wanted, old: trace_runs.Traced, new: trace_runs.Traced) -> dict:
    """The JSON entry of one boundary, from its two traced runs."""
    b = want.boundary
    out: dict = {
        "case": want.case.id,
        "summary": b.summary,
        "before": {"version": b.before.version, "outcome": b.before.outcome},
        "after": {"version": b.after.version, "outcome": b.after.outcome},
        "skipped_between": list(b.skipped_between),
        "traced": {"before": old.outcome, "after": new.outcome},
        "executed": {"before": _executed_totals(old), "after": _executed_totals(new)},
        "hunks": [],
        "one_sided": [],
        "excerpt": [],
        "more": {"hunks": 0, "lines": 0, "words": ""},
    }
    failed = next((t for t in (old, new) if t.site_packages is None), None)
    if failed is not None:
        return {**out, "status": ERROR, "reason": f"{failed.version}: {failed.detail}"}
    assert old.site_packages is not None and new.site_packages is not None
    hunks, one_sided = changed_lines.executed_changes(old.site_packages, new.site_packages, old.executed, new.executed)
    note = ""
    if not hunks and not one_sided:
        hunks = changed_lines.definition_changes(old.site_packages, new.site_packages, old.executed, new.executed)
        if not hunks:
            return {**out, "status": UNEXPLAINED, "reason": changed_lines.UNEXPLAINED}
        note = changed_lines.DEFINITION_LEVEL
    shown = changed_lines.excerpt(hunks, one_sided, old.version, new.version)
    return {
        **out,
        "status": EXPLAINED,
        "reason": note,
        "hunks": [h.to_dict() for h in changed_lines.cause_order(hunks)],
        "one_sided": [f.to_dict() for f in one_sided],
        "excerpt": list(shown.lines),
        "more": {"hunks": shown.more_hunks, "lines": shown.more_lines, "words": shown.tail()},
    }


def explain(
    scenario: Scenario,
    chosen: list[Wanted],
    root: Path,
    timeout: float,
    progress: Callable[[dict, list[trace_runs.Traced]], None] = lambda e, t: None,
) -> list[dict]:
    """One entry per boundary of ``chosen``; each (case, release) traced once."""
    reports = Project(root).reports
    recorded = record.recorded_packages(record.load(reports))
    cache = Project(root).cache
    traced: dict[tuple[str, str], trace_runs.Traced] = {}

    def run(case: Case, version: str) -> trace_runs.Traced:
        if (case.id, version) not in traced:
            build = builds.parse(f"{scenario.framework}=={version}", cache)
            traced[case.id, version] = trace_runs.trace(
                build, scenario.id, case, root, timeout, recorded.get(build.source)
            )
        return traced[case.id, version]

    entries = []
    for want in chosen:
        sides = [run(want.case, want.boundary.before.version), run(want.case, want.boundary.after.version)]
        entries.append(entry(want, *sides))
        progress(entries[-1], sides)
    return entries


def path_of(root: Path, scenario_id: str) -> Path:
    return Project(root).reports / FOLDER / f"{scenario_id}.json"


def _entry_key(scenario: Scenario, e: dict) -> tuple:
    order = [c.id for c in scenario.cases]
    case_rank = order.index(e["case"]) if e["case"] in order else len(order)
    return (case_rank, e["case"], versions.key(e["before"]["version"]), versions.key(e["after"]["version"]))


def save(root: Path, scenario: Scenario, entries: list[dict], replace_all: bool) -> Path:
    """Write the scenario's document: ``entries`` replace the same boundaries (or, with
    ``replace_all``, every boundary) of the one there; sorted by case, then release."""
    path = path_of(root, scenario.id)
    kept: list[dict] = []
    if path.exists() and not replace_all:
        try:
            kept = json.loads(path.read_text()).get("boundaries", [])
        except (ValueError, AttributeError):
            kept = []
    ids = {(e["case"], e["before"]["version"], e["after"]["version"]) for e in entries}
    kept = [e for e in kept if (e["case"], e["before"]["version"], e["after"]["version"]) not in ids]
    document = {
        "schema_version": SCHEMA_VERSION,
        "scenario": scenario.id,
        "framework": scenario.framework,
        "boundaries": sorted([*kept, *entries], key=lambda e: _entry_key(scenario, e)),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return path


def text(e: dict) -> list[str]:
    """One boundary for a terminal: its heading, then its excerpt or why there is none."""
    before, after = e["before"], e["after"]
    sides = f"{before['version']} {before['outcome']} -> {after['version']} {after['outcome']}"
    lines = [f"{e['case']}: {e['summary']} ({sides})"]
    traced = e["traced"]
    if e["status"] != ERROR and (traced["before"], traced["after"]) != (before["outcome"], after["outcome"]):
        lines.append(f"  note: the traced runs gave {traced['before']} -> {traced['after']}, not the record's outcomes")
    if e["status"] == EXPLAINED:
        lines += [f"  note: {e['reason']}"] if e.get("reason") else []
        lines += [f"  {line}" for line in e["excerpt"]]
        if e["more"]["words"]:
            lines.append(f"  ({e['more']['words']})")
    elif e["status"] == UNEXPLAINED:
        lines.append(f"  {e['reason']}")
    else:
        lines.append(f"  not explained: {e['reason']}")
    return lines
