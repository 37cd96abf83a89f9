"""reports/upgrades/<id>.md: an upgrade scenario's from-by-to grid per case, each pair that breaks with
the two commands that reproduce it by hand and the schema change that explains it, and every pair.

Rendered from the record's ``upgrades`` (harness/store/record.py) and the pairs' schema changes
(reports/upgrades/<id>.changes.json, written when the pairs ran: harness/execution/upgrades.py
``schema_change``).
"""

from __future__ import annotations

import json
from pathlib import Path

from harness.planning import versions
from harness.planning.upgrades import SCRIPT, UpgradeScenario, grid_pairs
from harness.rendering import reproduce
from harness.rendering.claims import claimed_words
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED, UNEXPECTED
from harness.runtime.scenario import POSTGRESQL, SQLITE
from harness.store.document import Record
from harness.store.rows import Row

FOLDER = "upgrades"
LETTER = {REPRODUCED: "R", FIXED: "F", UNEXPECTED: "U", NOT_APPLICABLE: "N", ERROR: "E"}
MEANING = {
    REPRODUCED: "the upgrade breaks (the reader cannot use what the writer stored)",
    FIXED: "the reader reads the writer's state and carries on",
    UNEXPECTED: "a third way (see the pair's detail)",
    NOT_APPLICABLE: "a side lacks the API (the detail says which)",
    ERROR: "the harness could not get an answer",
}


def script_path(scenario_id: str) -> str:
    return f"{FOLDER}/{scenario_id}/{SCRIPT}"


def changes_path(reports_dir: Path, scenario_id: str) -> Path:
    return reports_dir / FOLDER / f"{scenario_id}.changes.json"


def report_path(reports_dir: Path, scenario_id: str) -> Path:
    return reports_dir / FOLDER / f"{scenario_id}.md"


def load_changes(text: str | None) -> dict[str, dict]:
    """A scenario's schema changes (``case writer -> reader`` -> the change), {} when none or unreadable."""
    try:
        found = json.loads(text or "{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def dump_changes(changes: dict[str, dict]) -> str:
    return json.dumps(dict(sorted(changes.items())), indent=2, ensure_ascii=False) + "\n"


def commands(scenario: UpgradeScenario, row: Row, document: Record, path: str | None = None) -> list[str]:
    """The two commands of a pair, as a maintainer runs them in an empty folder (a third makes STATE)."""
    bug = reproduce.Bug(scenario.id, scenario.framework, tuple(scenario.declaration.requires))
    path = path or script_path(scenario.id)
    out = ["mkdir state"]
    for step, version, source in (("write", row.from_version, row.from_source), ("read", row.version, row.source)):
        env = document.environment(source or "")
        date, extras = (env.exclude_newer, env.extras) if env else (None, None)
        base = reproduce.command(bug, None, version, date, extras, path)
        out.append(f"{base} {step} {row.case} state")
    return out


# A downgrade whose refusal the framework documents (``Pair.documented_refusal``: agents-run-state-
# upgrade 0.9.3 -> 0.8.4, #2502's fail-fast) that the reader refuses: what the framework promises,
# not an upgrade that breaks (issue 50: it showed as a bold R). A downgrade with no such document
# that fails (google-adk 1.22.0 -> 1.21.0: no such column) stays R.
REFUSED, REFUSED_MEANING = "D", "a downgrade whose refusal the framework documents, refused as documented"


def _letter(r: Row, downgrades: set[tuple[str, str]]) -> str:
    if r.outcome == REPRODUCED and (r.from_version, r.version) in downgrades:
        return REFUSED
    return f"**{LETTER[r.outcome]}**" if r.outcome == REPRODUCED else LETTER[r.outcome]


def _grid(rows: list[Row], downgrades: set[tuple[str, str]]) -> list[str]:
    """The from-by-to table of one case: writers down, readers across, a letter per pair run."""
    writers = sorted({r.from_version or "" for r in rows}, key=versions.key)
    readers = sorted({r.version or "" for r in rows}, key=versions.key)
    cell = {(r.from_version, r.version): r for r in rows}
    lines = [
        "| writer \\ reader | " + " | ".join(readers) + " |",
        "|---|" + "---|" * len(readers),
    ]
    for w in writers:
        cells = []
        for v in readers:
            r = cell.get((w, v))
            cells.append("" if r is None else _letter(r, downgrades))
        lines.append(f"| {w} | " + " | ".join(cells) + " |")
    return lines


def render(scenario: UpgradeScenario, document: Record, changes: dict[str, dict]) -> str:
    """The scenario's report."""
    d = scenario.declaration
    rows = [r for r in document.upgrades if r.scenario == scenario.id]
    why: dict[tuple[str | None, str | None], str] = {(p.writer, p.reader): p.why for p in grid_pairs(d)}
    downgrades = {(p.writer, p.reader) for p in d.downgrades if p.documented_refusal}
    lines = [f"# {scenario.id}", "", d.description, "", f"**Expected**: {d.expected}", ""]
    lines += ["**Upstream**: " + ", ".join(f"[{link.rsplit('/', 2)[-1]}]({link})" for link in d.links), ""]
    claim = d.claims
    said_text = claimed_words(claim)  # the scenario reports' words (a PR merged or not)
    if said_text or claim.source:
        lines += [
            f"**The threads say**: {said_text or 'nothing about releases'}"
            + (f" ({claim.source})." if claim.source else "."),
            "",
        ]
    for note in d.range_notes:
        lines += [f"- {note}"]
    if d.range_notes:
        lines.append("")
    lines += [
        "Each pair runs the script in two environments on one folder: `write` with the writer's release, "
        "then `read` with the reader's (the commands are under each pair that breaks, below). "
        + "Letters: "
        + "; ".join(f"**{LETTER[o]}** {MEANING[o]}" if o == REPRODUCED else f"{LETTER[o]} {MEANING[o]}" for o in LETTER)
        + (f"; {REFUSED} {REFUSED_MEANING}" if downgrades else "")
        + "; blank: not a pair of the grid.",
        "",
    ]
    if POSTGRESQL in d.backends:
        lines += [
            f"A `-{POSTGRESQL}` case keeps its databases on the PostgreSQL server libpq's variables name (`PGHOST`, "
            "`PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE` for the maintenance database); the writer creates one and "
            "names it in the state folder, the reader drops it.",
            "",
        ]
    for case in scenario.case_ids():
        case_rows = [r for r in rows if r.case == case]
        if not case_rows:
            continue
        base = scenario.base_case(case)
        backend = scenario.backend(case)
        where = "" if len(d.backends) == 1 else " (SQLite)" if backend == SQLITE else " (PostgreSQL)"
        lines += [f"## {case}{where}: {d.cases[base].summary}", ""]
        lines += _grid(case_rows, downgrades)
        refused_here = [r for r in case_rows if _letter(r, downgrades) == REFUSED]
        counts = {o: sum(r.outcome == o and r not in refused_here for r in case_rows) for o in LETTER}
        words = [f"{n} {o}" for o, n in counts.items() if n]
        words += [f"{len(refused_here)} documented downgrade refusal{'s' if len(refused_here) > 1 else ''}"] * bool(
            refused_here
        )
        lines += ["", ", ".join(words) + f" of {len(case_rows)} pairs.", ""]
    refused = [r for r in rows if _letter(r, downgrades) == REFUSED]
    broken = [r for r in rows if r.outcome == REPRODUCED and r not in refused]
    for title, shown in (("Pairs that break", broken), ("Downgrades refused as documented", refused)):
        if not shown:
            continue
        lines += [f"## {title}", ""]
        for r in shown:
            lines += [f"### {r.case}: {r.from_version} -> {r.version} ({why.get((r.from_version, r.version), '')})", ""]
            lines += [r.detail, "", "```sh", *commands(scenario, r, document), "```", ""]
            change = changes.get(f"{r.case} {r.from_version} -> {r.version}")
            if change:
                head = (
                    "What changed between the two releases in the files that define what is stored"
                    if change.get("matched")
                    else "No change of the stored shape names the detail's words; the files' whole change"
                )
                lines += [
                    "<details><summary>" + head + f" ({', '.join(change.get('files', []))})</summary>",
                    "",
                    "```diff",
                    *change.get("excerpt", []),
                    "```",
                ]
                if change.get("more_lines"):
                    lines.append(f"({change['more_lines']} more lines of change not shown)")
                lines += ["", "</details>", ""]
    lines += [
        "## Every pair",
        "",
        "| case | writer | reader | why this pair | outcome | detail |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        detail = r.detail.replace("|", "\\|")
        reason = why.get((r.from_version, r.version), "")
        mark = "" if r.snapshot in ("match", "updated") else f" ({r.snapshot})"
        mark += " (a documented downgrade refusal)" if _letter(r, downgrades) == REFUSED else ""
        lines.append(f"| {r.case} | {r.from_version} | {r.version} | {reason} | {r.outcome}{mark} | {detail} |")
    lines.append("")
    return "\n".join(lines)
