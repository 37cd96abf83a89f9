"""The change between two releases' sources that a case could have seen: the executed hunks.

Given two source trees (the framework's files in each build's site-packages) and the lines a
case executed in each, with the times each ran (harness/runtime/line_trace.py),
``executed_changes`` keeps the unified-diff hunks of the files the case executed that change an
executed line: a removed or replaced line the case executed on the old release, or an added or
replacing line it executed on the new one. A file that exists on one side only and was executed
there is kept too. No change kept: the boundary is unexplained by the framework's code (a
dependency, the environment or the harness moved it).

A release pair can change hundreds of executed lines (google-adk 2.8.0 -> 2.9.0: 34 hunks), most
of them refactoring that behaves the same. ``excerpt`` shows about 80 lines a boundary, the cause
first (``cause_order``). First come the hunks where the two runs went different ways: those whose
function (the definition around the hunk) has unchanged lines that ran a different number of times
on the two releases (*divergence*; a guard that now returns early leaves the lines after it run
fewer times, or not at all: *ran_one_side*; a rewrite that behaves the same leaves every count as it
was). Among those, and then among the rest, the hunks with the most changed lines the case executed
lead: new code that ran. Measured on four boundaries: adk-planreact-final-answer-tags 1.21.0 -> 1.22.0
leads with ``_contains_empty_content`` (4 lines run, divergence 2) before tracing code downstream of
it (2 lines run, divergence 4); agents-streamed-tool-called-arguments 0.2.9 -> 0.2.10, where no hunk
diverges, with run.py's 15 and 12 lines of emission code; agents-nested-handoff-4hop 0.18.3 ->
0.19.0 with ``nest_handoff_history`` (43 lines run) before new plumbing that does not diverge (81);
adk-retry-same-invocation-id 2.8.0 -> 2.9.0 with the guard in ``_handle_new_message``.
Equals keep file order; the rest is counted ("and 3 more hunks, 41 more lines").
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from pathlib import Path

EXCERPT_LINES = 80  # room for a cause of two hunks (agents-streamed-tool-called-arguments 0.2.9 -> 0.2.10: 63 lines)
ONE_SIDED_SHOWN = 6  # lines of the excerpt kept for files that exist in one release only
CONTEXT = 3
UNEXPLAINED = (
    "unexplained (no executed framework line changed, nor a class or module body of a file the case ran: "
    "a dependency, the environment or the harness)"
)
# A boundary explained only by a class or module body (a dataclass field's default, a constant): the
# trace leaves those bodies out, since importing a module runs every one of them.
DEFINITION_LEVEL = (
    "no executed line changed; a class or module body of a file the case ran did (a default value or a "
    "constant, run at import, which the trace leaves out)"
)
_FUNCTION = re.compile(r"^\s*(?:async\s+def|def)\s+\w+")
_DEFINITION = re.compile(r"^\s*(?:async\s+def|def|class)\s+\w+")


@dataclass(frozen=True)
class Hunk:
    """One unified-diff hunk of ``file``; line numbers from 1, as in ``@@ -a,b +c,d @@``."""

    file: str
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    body: tuple[str, ...]  # " context", "-removed", "+added"
    executed_old: tuple[int, ...]  # the removed lines the case executed on the old release
    executed_new: tuple[int, ...]  # the added lines the case executed on the new one
    where: str = ""  # the enclosing definition, as git shows it after the @@
    divergence: int = 0  # unchanged lines of its function that ran a different number of times
    ran_one_side: int = 0  # unchanged lines of its function that ran on one release only

    def header(self) -> str:
        tail = f" {self.where}" if self.where else ""
        return f"@@ -{self.old_start},{self.old_count} +{self.new_start},{self.new_count} @@{tail}"

    def lines(self) -> list[str]:
        return [self.header(), *self.body]

    def to_dict(self) -> dict:
        return {
            "file": self.file,
            "old_start": self.old_start,
            "old_count": self.old_count,
            "new_start": self.new_start,
            "new_count": self.new_count,
            "where": self.where,
            "executed_old": list(self.executed_old),
            "executed_new": list(self.executed_new),
            "divergence": self.divergence,
            "ran_one_side": self.ran_one_side,
        }


@dataclass(frozen=True)
class OneSided:
    """An executed file that exists in one release only."""

    file: str
    side: str  # "old" or "new"
    executed: int  # lines of it the case executed

    def line(self, old: str, new: str) -> str:
        if self.side == "new":
            return f"new file in {new}: {self.file} ({self.executed} lines executed; absent in {old})"
        return f"file only in {old}: {self.file} ({self.executed} lines executed; removed in {new})"

    def to_dict(self) -> dict:
        return {"file": self.file, "only_in": self.side, "executed": self.executed}


def _definition_above(lines: Sequence[str], index: int) -> int | None:
    """Index of the nearest definition line at or above ``lines[index]``."""
    for i in range(min(index, len(lines) - 1), -1, -1):
        if _DEFINITION.match(lines[i]):
            return i
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _function_span(lines: Sequence[str], index: int) -> range:
    """Line numbers (from 1) of the definition around ``lines[index]``: from its ``def`` to the
    next definition at its indentation or less; the line alone outside any definition."""
    top = _definition_above(lines, index)
    if top is None:
        return range(index + 1, index + 2)
    depth = _indent(lines[top])
    later = (i for i in range(top + 1, len(lines)) if _DEFINITION.match(lines[i]) and _indent(lines[i]) <= depth)
    end = next(later, len(lines))
    return range(top + 1, end + 1)


def file_hunks(
    file: str,
    old: Sequence[str],
    new: Sequence[str],
    ran_old: Mapping[int, int],
    ran_new: Mapping[int, int],
) -> list[Hunk]:
    """Every hunk between ``old`` and ``new`` (lines of one file): its executed changed lines and
    its divergence and lines run on one side only (``ran_*``: line -> times run on that release)."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    # Unchanged lines (new numbering) that ran a different number of times on the two releases.
    diverged, one_side = set(), set()
    for kind, i1, i2, j1, _ in matcher.get_opcodes():
        if kind == "equal":
            for old_line, new_line in zip(range(i1 + 1, i2 + 1), range(j1 + 1, j1 + 1 + i2 - i1), strict=True):
                times_old, times_new = ran_old.get(old_line, 0), ran_new.get(new_line, 0)
                if times_old != times_new:
                    diverged.add(new_line)
                if (times_old == 0) != (times_new == 0):
                    one_side.add(new_line)
    hunks = []
    for group in matcher.get_grouped_opcodes(CONTEXT):
        body: list[str] = []
        removed: list[int] = []
        added: list[int] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                body += [" " + line for line in old[i1:i2]]
                continue
            body += ["-" + line for line in old[i1:i2]]
            body += ["+" + line for line in new[j1:j2]]
            removed += [n for n in range(i1 + 1, i2 + 1) if n in ran_old]
            added += [n for n in range(j1 + 1, j2 + 1) if n in ran_new]
        first, last = group[0], group[-1]
        old_count, new_count = last[2] - first[1], last[4] - first[3]
        changed_at = min(first[3] + CONTEXT, max(len(new) - 1, 0))  # the hunk's first changed line
        span = _function_span(new, changed_at) if new else range(0)
        top = _definition_above(new, changed_at) if new else None
        hunks.append(
            Hunk(
                file,
                first[1] + (1 if old_count else 0),
                old_count,
                first[3] + (1 if new_count else 0),
                new_count,
                tuple(body),
                tuple(removed),
                tuple(added),
                new[top].strip()[:80] if top is not None else "",
                len(diverged.intersection(span)),
                len(one_side.intersection(span)),
            )
        )
    return hunks


def _read(path: Path) -> list[str] | None:
    if not path.is_file():
        return None
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def executed_changes(
    old_root: Path,
    new_root: Path,
    ran_old: Mapping[str, Mapping[int, int]],
    ran_new: Mapping[str, Mapping[int, int]],
) -> tuple[list[Hunk], list[OneSided]]:
    """The hunks that change a line the case executed, in file order, and the executed files
    that exist on one side only. ``ran_*``: path under the root -> {line: times run}."""
    hunks: list[Hunk] = []
    one_sided: list[OneSided] = []
    for file in sorted(set(ran_old) | set(ran_new)):
        old, new = _read(old_root / file), _read(new_root / file)
        on_old, on_new = ran_old.get(file, {}), ran_new.get(file, {})
        if old is None or new is None:
            if old is not None and on_old:
                one_sided.append(OneSided(file, "old", len(on_old)))
            if new is not None and on_new:
                one_sided.append(OneSided(file, "new", len(on_new)))
            continue
        if old == new:
            continue
        hunks += [h for h in file_hunks(file, old, new, on_old, on_new) if h.executed_old or h.executed_new]
    return hunks, one_sided


def _in_strings(lines: Sequence[str]) -> set[int]:
    """Indexes of the lines inside or opening a triple-quoted string (docstrings): words, not code."""
    inside, out = False, set()
    for i, line in enumerate(lines):
        quotes = line.count('"""') + line.count("'''")
        if inside or quotes:
            out.add(i)
        if quotes % 2:
            inside = not inside
    return out


def _outside_functions(lines: Sequence[str], index: int, strings: Set[int] = frozenset()) -> bool:
    """Whether ``lines[index]`` is code of a class or module body: no enclosing ``def`` above it
    (each enclosing block is the nearest line above with less indentation); not a docstring's line."""
    line = lines[index]
    if not line.strip() or line.lstrip().startswith("#") or index in strings:
        return False
    depth = _indent(line)
    for i in range(index - 1, -1, -1):
        above = lines[i]
        if not above.strip() or _indent(above) >= depth:
            continue
        if _FUNCTION.match(above):
            return False
        depth = _indent(above)
        if depth == 0:
            break
    return True


def _changed_positions(hunk: Hunk) -> tuple[list[int], list[int]]:
    """The removed (old numbering) and added (new numbering) line numbers of ``hunk``, from 1."""
    old_n, new_n = hunk.old_start - (0 if hunk.old_count else -1), hunk.new_start - (0 if hunk.new_count else -1)
    removed, added = [], []
    for line in hunk.body:
        if line.startswith("-"):
            removed.append(old_n)
            old_n += 1
        elif line.startswith("+"):
            added.append(new_n)
            new_n += 1
        else:
            old_n += 1
            new_n += 1
    return removed, added


def definition_changes(
    old_root: Path,
    new_root: Path,
    ran_old: Mapping[str, Mapping[int, int]],
    ran_new: Mapping[str, Mapping[int, int]],
) -> list[Hunk]:
    """The hunks of files the case executed on both releases that change code of a class or module
    body (outside every function): what can explain a boundary no executed line does."""
    hunks: list[Hunk] = []
    for file in sorted(set(ran_old) & set(ran_new)):
        old, new = _read(old_root / file), _read(new_root / file)
        if old is None or new is None or old == new:
            continue
        old_strings, new_strings = _in_strings(old), _in_strings(new)
        for h in file_hunks(file, old, new, ran_old[file], ran_new[file]):
            removed, added = _changed_positions(h)
            if any(_outside_functions(old, n - 1, old_strings) for n in removed if 0 < n <= len(old)) or any(
                _outside_functions(new, n - 1, new_strings) for n in added if 0 < n <= len(new)
            ):
                hunks.append(h)
    return hunks


def cause_order(hunks: Sequence[Hunk]) -> list[Hunk]:
    """``hunks``, the likeliest cause first: those whose function diverged, then the rest; within
    each, most executed changed lines, then most lines run on one side only, then most divergence;
    equals keep their order (the module docstring gives the measured cases)."""

    def key(h: Hunk) -> tuple[int, int, int, int]:
        return (-(h.divergence > 0), -(len(h.executed_old) + len(h.executed_new)), -h.ran_one_side, -h.divergence)

    return sorted(hunks, key=key)


@dataclass(frozen=True)
class Excerpt:
    lines: tuple[str, ...]
    more_hunks: int  # relevant hunks not shown (a hunk cut short counts as shown)
    more_lines: int  # diff lines not shown

    def tail(self) -> str:
        """The words for what is not shown ("and 3 more hunks, 41 more lines"); "" when nothing."""
        if not self.more_lines:
            return ""
        hunks = f"{self.more_hunks} more hunk{'s' if self.more_hunks != 1 else ''}, " if self.more_hunks else ""
        return f"and {hunks}{self.more_lines} more line{'s' if self.more_lines != 1 else ''}"


def excerpt(
    hunks: Sequence[Hunk], one_sided: Sequence[OneSided], old: str, new: str, limit: int = EXCERPT_LINES
) -> Excerpt:
    """At most about ``limit`` lines: whole hunks, the likeliest cause first (``cause_order``),
    a file's ``--- +++`` pair before each run of its hunks, then one line per one-sided file (room
    kept for a few); the first hunk is cut to fit when it alone does not, so something is always
    shown; the rest counted."""
    files = [f.line(old, new) for f in one_sided]
    kept_files = files[:ONE_SIDED_SHOWN]
    budget = max(limit - len(kept_files), 1)
    shown: list[str] = []
    more_hunks, more_lines = 0, len(files) - len(kept_files)
    current = None
    for hunk in cause_order(hunks):
        block = hunk.lines()
        if hunk.file != current:
            block = [f"--- {hunk.file} ({old})", f"+++ {hunk.file} ({new})", *block]
        room = budget - len(shown)
        if more_hunks or (len(block) > room and shown):
            more_hunks += 1
            more_lines += len(hunk.lines())
            continue
        if len(block) > room:  # the first hunk, longer than the whole budget: cut
            more_lines += len(block) - room
            block = block[:room]
        shown += block
        current = hunk.file
    return Excerpt((*shown, *kept_files), more_hunks, more_lines)
