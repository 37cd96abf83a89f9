"""Each boundary's executed-code change (reports/boundaries/<scenario>.json, written by
``python -m harness explain``: harness/store/boundary_files.py) as the scenario report, the
comment, the run's summary and the terminal show it.

A scenario report shows, per case, each boundary's summary and then its excerpt (the change
between the two releases' sources the case executed) in a folded diff block, or why there is
none. The run's summary lists every boundary no executed line explains, for a person to look at.
Only what the boundaries file holds is shown (no path of this machine, no time): the same file
renders to the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from harness.store import boundary_files
from harness.store.boundary_files import ERROR, EXPLAINED, UNEXPLAINED, Entry

# A failed run's reason may quote a path of the machine that traced it: only its last part is shown.
_ABSOLUTE_PATH = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?[/\\](?:[^\s/\\:'\"]+[/\\])+")


def _one_line(text: object) -> str:
    """A reason on one line, with no folder of the machine that traced it."""
    return _ABSOLUTE_PATH.sub("…/", " ".join(str(text).split()))


def _sides(e: Entry) -> str:
    return f"{e.before.version} {e.before.outcome} → {e.after.version} {e.after.outcome}"


def _fence(lines: list[str]) -> list[str]:
    # A fence inside the excerpt would close the block early: shown as look-alike quotes.
    return ["```diff", *(line.replace("```", "ʼʼʼ") for line in lines), "```"]


def _traced_note(e: Entry) -> list[str]:
    """When the traced runs did not give the record's outcomes, the excerpt explains another flip."""
    if e.status == ERROR or e.traced is None or e.traced == (e.before.outcome, e.after.outcome):
        return []
    return [f"Note: the traced runs gave {e.traced[0]} → {e.traced[1]}, not the record's outcomes.", ""]


def _shared_key(e: Entry) -> tuple:
    """What makes two cases' boundary evidence the same: the two releases and the excerpt shown."""
    return (e.before.version, e.after.version, e.status, e.excerpt)


_DEFINED = re.compile(r"(?:async\s+)?(?:def|class)\s+(\w+)")
CAUSE_NAMED = 3  # changed functions a first-screen line names per boundary


def _changed_where(hunk: Mapping[str, Any]) -> str:
    name = _DEFINED.match(hunk.get("where", ""))
    return f"`{hunk['file']}`" + (f" `{name.group(1)}`" if name else "")


def cause_lines(entries: Sequence[Entry], case_ids: list[str]) -> list[str]:
    """The comment's first-screen lines on the cause: for each boundary where a bug case flips
    between reproduced and fixed (a not-applicable side is no cause: issue 45), once per release
    pair, the cases that flip there and the first changed functions the case ran, likeliest cause
    first (harness/store/changed_lines.py ``cause_order``), or that no executed line changed."""
    flips: dict[tuple[str, str], list[Entry]] = {}
    for case_id in case_ids:
        for e in (e for e in entries if e.case == case_id):
            if {e.before.outcome, e.after.outcome} == {"reproduced", "fixed"}:
                flips.setdefault((e.before.version, e.after.version), []).append(e)
    out = []
    for (old, new), es in flips.items():
        cases = ", ".join(f"`{e.case}` {e.before.outcome} → {e.after.outcome}" for e in es)
        first = es[0]
        if first.status == EXPLAINED:
            named = list(dict.fromkeys(_changed_where(h) for h in first.hunks))
            rest = len(named) - CAUSE_NAMED
            where = ", ".join(named[:CAUSE_NAMED]) + (f" and {rest} more" if rest > 0 else "")
            said = f"the framework code the case ran changed in {where}" if named else _one_line(first.reason)
        elif first.status == UNEXPLAINED:
            said = _unexplained_words(first)
        else:
            said = f"not explained: the traced runs failed ({_one_line(first.reason)})"
        out.append(f"- {old} → {new} ({cases}): {said}.")
    if not out:
        return []
    return [
        "**Where it changed** (measured: each boundary's traced runs, the likeliest cause first; the diffs are below):",
        "",
        *out,
        "",
    ]


def comment_lines(entries: Sequence[Entry], case_ids: list[str]) -> list[str]:
    """A comment's lines for the boundaries of ``case_ids``, in that order: an excerpt several cases
    share is shown once, with the first case that has it; the others name that case (issue 45: a
    545-line 0.5.0 -> 1.0.0 excerpt was printed four times in one comment, once per case)."""
    out: list[str] = []
    first_with: dict[tuple, str] = {}
    for case_id in case_ids:
        shown: list[str] = []
        for e in (e for e in entries if e.case == case_id):
            key = _shared_key(e)
            if key in first_with and e.excerpt:
                heading = f"**Executed code, {_sides(e)}**: {_one_line(e.summary)}"
                shown += [heading, "", f"The same framework lines as for `{first_with[key]}` above.", ""]
                continue
            first_with.setdefault(key, case_id)
            shown += _entry_lines(e)
        if shown:
            out += [f"`{case_id}`:", "", *shown]
    return out


def case_lines(entries: Sequence[Entry], case_id: str) -> list[str]:
    """The report's lines for one case's boundaries: heading line, then excerpt or reason."""
    out: list[str] = []
    for e in (e for e in entries if e.case == case_id):
        out += _entry_lines(e)
    return out


def _entry_lines(e: Entry) -> list[str]:
    """One boundary's lines: its heading, then its excerpt or why there is none."""
    heading = f"**Executed code, {_sides(e)}**: {_one_line(e.summary)}"
    if e.status == UNEXPLAINED:
        return [heading, "", *_traced_note(e), _unexplained_words(e), ""]
    if e.status != EXPLAINED:
        return [heading, "", f"not explained: the traced runs failed ({_one_line(e.reason)})", ""]
    out = [heading, "", *_traced_note(e)]
    if e.reason:  # explained by a class or module body only (changed_lines.DEFINITION_LEVEL)
        out += [f"Note: {_one_line(e.reason)}.", ""]
    out += ["<details>", f"<summary>framework lines the case executed that changed, {_sides(e)}</summary>", ""]
    out += _fence(list(e.excerpt))
    return out + ([f"({e.more_words})"] if e.more_words else []) + ["", "</details>", ""]


def _unexplained_words(e: Entry) -> str:
    reason = _one_line(e.reason)
    return reason if reason.startswith("unexplained") else f"unexplained ({reason})"


def unexplained(reports_dir: Path, scenario_ids: list[str]) -> list[str]:
    """One line per boundary of ``scenario_ids`` that no executed line explains (or whose traced
    runs failed), in scenario, then file order: for the run's summary."""
    out = []
    for scenario_id in sorted(set(scenario_ids)):
        for e in boundary_files.read(reports_dir, scenario_id):
            if e.status == EXPLAINED:
                continue
            words = (
                _unexplained_words(e)
                if e.status == UNEXPLAINED
                else f"not explained: the traced runs failed ({_one_line(e.reason)})"
            )
            out.append(f"`{scenario_id}:{e.case}` {_sides(e)}: {words}")
    return out


def terminal_lines(e: Entry) -> list[str]:
    """One boundary for a terminal (``python -m harness explain``): its heading, then its excerpt or
    why there is none."""
    sides = f"{e.before.version} {e.before.outcome} -> {e.after.version} {e.after.outcome}"
    lines = [f"{e.case}: {e.summary} ({sides})"]
    if e.status != ERROR and e.traced is not None and e.traced != (e.before.outcome, e.after.outcome):
        lines.append(f"  note: the traced runs gave {e.traced[0]} -> {e.traced[1]}, not the record's outcomes")
    if e.status == EXPLAINED:
        lines += [f"  note: {e.reason}"] if e.reason else []
        lines += [f"  {line}" for line in e.excerpt]
        if e.more_words:
            lines.append(f"  ({e.more_words})")
    elif e.status == UNEXPLAINED:
        lines.append(f"  {e.reason}")
    else:
        lines.append(f"  not explained: {e.reason}")
    return lines
