"""Each boundary explained by the framework's own code: ``reports/boundaries/<scenario>.json``, its owner.

``python -m harness explain`` (harness/execution/explain.py) makes one ``Entry`` per boundary of the
record (two releases of one line whose outcomes differ for one case): the change between the two
releases' installed sources, restricted to the lines the case executed. This module reads and
writes the scenario's file; the reports, the comment, the run's summary and the terminal show it
(harness/rendering/boundary_evidence.py). The file holds no absolute path and no time, so the
same entries give the same bytes:

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.planning import versions
from harness.store.boundaries import Side
from harness.store.lock import locked
from harness.store.staging import Staging

SCHEMA_VERSION = 1
FOLDER = "boundaries"  # under reports/
EXPLAINED, UNEXPLAINED, ERROR = "explained", "unexplained", "error"


@dataclass(frozen=True)
class Entry:
    """One boundary of one case: its two sides, and the executed change that explains it or why none does."""

    case: str
    summary: str  # the boundary's words: "first fixed in 2.9.0"
    before: Side
    after: Side
    status: str  # EXPLAINED, UNEXPLAINED or ERROR
    reason: str = ""  # why it is not explained; for an explained one, a note or ""
    skipped_between: tuple[str, ...] = ()  # releases between the two sides with no answer
    traced: tuple[str, str] | None = None  # the outcomes the traced runs gave (before, after); None: not said
    executed: Mapping[str, Any] = field(default_factory=dict)  # per side, the files and lines the case ran
    hunks: tuple[Mapping[str, Any], ...] = ()  # each executed change (changed_lines.Hunk.to_dict), likeliest first
    one_sided: tuple[Mapping[str, Any], ...] = ()  # each executed file of one release only (OneSided.to_dict)
    excerpt: tuple[str, ...] = ()  # the diff lines shown, about 80 at most
    more_hunks: int = 0  # changes the excerpt leaves out
    more_lines: int = 0  # diff lines the excerpt leaves out
    more_words: str = ""  # the two counts in words, "" when nothing is left out

    @property
    def key(self) -> tuple[str, str, str]:
        """What one boundary is: its case and its two releases."""
        return (self.case, self.before.version, self.after.version)

    def files(self) -> set[str]:
        """The framework files of its executed changes, named as installed (``agents/run.py``)."""
        return {str(h["file"]) for h in (*self.hunks, *self.one_sided) if h.get("file")}

    def to_json(self) -> dict:
        out: dict = {
            "case": self.case,
            "summary": self.summary,
            "before": {"version": self.before.version, "outcome": self.before.outcome},
            "after": {"version": self.after.version, "outcome": self.after.outcome},
            "skipped_between": list(self.skipped_between),
            "status": self.status,
            "reason": self.reason,
            "executed": dict(self.executed),
            "hunks": [dict(h) for h in self.hunks],
            "one_sided": [dict(f) for f in self.one_sided],
            "excerpt": list(self.excerpt),
            "more": {"hunks": self.more_hunks, "lines": self.more_lines, "words": self.more_words},
        }
        if self.traced is not None:
            out["traced"] = {"before": self.traced[0], "after": self.traced[1]}
        return out

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> Entry:
        """The entry of a file's object; a missing optional key reads as its default. An object
        without a case, two sides or a status is no entry (``KeyError`` or ``TypeError``)."""
        traced = entry.get("traced")
        more = entry.get("more") or {}
        return cls(
            case=entry["case"],
            summary=entry.get("summary", ""),
            before=Side(entry["before"]["version"], entry["before"]["outcome"]),
            after=Side(entry["after"]["version"], entry["after"]["outcome"]),
            status=entry["status"],
            reason=entry.get("reason", ""),
            skipped_between=tuple(entry.get("skipped_between") or ()),
            traced=(traced["before"], traced["after"]) if traced else None,
            executed=entry.get("executed") or {},
            hunks=tuple(entry.get("hunks") or ()),
            one_sided=tuple(entry.get("one_sided") or ()),
            excerpt=tuple(str(line) for line in entry.get("excerpt") or ()),
            more_hunks=more.get("hunks", 0),
            more_lines=more.get("lines", 0),
            more_words=more.get("words", ""),
        )


def path_of(reports_dir: Path, scenario_id: str) -> Path:
    return reports_dir / FOLDER / f"{scenario_id}.json"


def read(reports_dir: Path, scenario_id: str) -> list[Entry]:
    """The entries of ``scenario_id``'s file under ``reports_dir``, or [] when it has none. A file
    that is not a boundaries document counts as none, and an object that is no entry is left out:
    the file is a derived view, rebuilt by ``python -m harness explain``, and a report must still
    render without it."""
    try:
        document = json.loads(path_of(reports_dir, scenario_id).read_text())
    except (OSError, ValueError):
        return []
    entries = document.get("boundaries") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        return []
    out = []
    for e in entries:
        if not isinstance(e, dict):
            continue
        try:
            out.append(Entry.from_json(e))
        except (KeyError, TypeError):
            continue
    return out


def dumps(scenario_id: str, framework: str, entries: Sequence[Entry]) -> str:
    """The file's text: keys sorted, so an entry's bytes do not depend on how it was built."""
    document = {
        "schema_version": SCHEMA_VERSION,
        "scenario": scenario_id,
        "framework": framework,
        "boundaries": [e.to_json() for e in entries],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def save(
    reports_dir: Path,
    scenario_id: str,
    framework: str,
    case_order: Sequence[str],
    entries: Sequence[Entry],
    replace_all: bool,
    log: Callable[[str], None] | None = None,
) -> Path:
    """Write the scenario's file under the record's lock, all or nothing: ``entries`` replace the
    same boundaries (or, with ``replace_all``, every boundary) of the one there; sorted by case
    (in ``case_order``, the scenario's), then release."""
    path = path_of(reports_dir, scenario_id)

    def order(e: Entry) -> tuple:
        rank = case_order.index(e.case) if e.case in case_order else len(case_order)
        return (rank, e.case, versions.key(e.before.version), versions.key(e.after.version))

    with locked(reports_dir, log), Staging(reports_dir) as stage:
        # Read again inside the lock: the entries an explain of another case wrote meanwhile stay.
        fresh = {e.key for e in entries}
        kept = [] if replace_all else [e for e in read(reports_dir, scenario_id) if e.key not in fresh]
        stage.write(path, dumps(scenario_id, framework, sorted([*kept, *entries], key=order)))
    return path
