"""The commit beside a release boundary, in words, for the reports and the claims (issue 48).

A boundary between two measured outcomes either has the first commit of its newer outcome, found
by ``bisect --commits`` (reports/bisect.json ``commits``): "fixed by 78725420e (#4071, 2026-07-31),
first released in 0.19.2"; or it is a release pair only, and the words say how to find the commit.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.planning import versions
from harness.runtime.outcomes import FIXED, NOT_APPLICABLE, REPRODUCED
from harness.store import boundaries
from harness.store.bisect_record import BisectRecord, FoundCommit
from harness.store.boundaries import Boundary
from harness.store.boundary_files import Entry


def measured(b: Boundary) -> bool:
    """A step between two measured outcomes (a step from or to not-applicable is where the case became
    measurable, which a commit bisect does not look for unless asked)."""
    return NOT_APPLICABLE not in (b.before.outcome, b.after.outcome)


def verb(before: str, after: str) -> str:
    if after == FIXED:
        return "fixed by"
    if after == REPRODUCED:
        return "introduced by" if before == FIXED else "reproduces from"
    return f"{after} from"


def commit_words(entry: FoundCommit) -> str:
    """'78725420e (#4071, 2026-07-31)'."""
    pr = f"#{entry.pr}, " if entry.pr else ""
    return f"{entry.short} ({pr}{entry.date[:10]})"


def line(bisects: BisectRecord, scenario: str, case: str, framework: str, b: Boundary) -> str:
    """One boundary with its commit, or "release pair only" and the command that finds it."""
    found = bisects.commit_of(scenario, case, framework, b.before.version, b.after.version)
    if found is None:
        return (
            f"{b.before.version} -> {b.after.version} ({b.summary}): release pair only; "
            f"`nox -s bisect -- {scenario}:{case} --commits CLONE` finds the commit"
        )
    untested = f", or one of the untested {', '.join(found.untested)} before it" if found.untested else ""
    return (
        f"{b.before.version} -> {b.after.version}: {verb(b.before.outcome, b.after.outcome)} "
        f"{commit_words(found)}{untested}, first released in {b.after.version} "
        f"(commit bisect: {found.commits_between} commits between {' and '.join(found.tags or ())}, "
        f"{found.builds} builds)"
    )


FILES_SHOWN = 6


def ran(path: str, executed: set[str]) -> bool:
    """Whether the repository file ``path`` (``src/agents/run.py``) is one the case ran, named as
    installed (``agents/run.py``: harness/execution/explain.py's hunks)."""
    return any(path == f or path.endswith("/" + f) for f in executed)


def files_words(entry: FoundCommit, executed: set[str]) -> str:
    """The files the commit changed, those the case ran first: "src/agents/run.py (+12 -3, ran), ..."."""
    files = sorted(entry.files or (), key=lambda f: not ran(f.path, executed))
    shown = [
        f"`{f.path}` (+{f.added} -{f.removed}{', the case ran it' if ran(f.path, executed) else ''})"
        for f in files[:FILES_SHOWN]
    ]
    more = f" and {len(files) - FILES_SHOWN} more" if len(files) > FILES_SHOWN else ""
    return ", ".join(shown) + more


def executed_files(explained: Sequence[Entry], case: str, b: Boundary) -> set[str]:
    """The framework files of the boundary's executed changes (``python -m harness explain``), as installed."""
    return {f for e in explained if e.key == (case, b.before.version, b.after.version) for f in e.files()}


def case_lines(
    bisects: BisectRecord,
    known: boundaries.Known,
    scenario: str,
    case: str,
    framework: str,
    explained: Sequence[Entry] | None = None,
) -> list[str]:
    """The case's measured boundaries, each with its commit (and the files it changed, those the case
    ran first) or "release pair only" (a list for the report)."""
    out = []
    for b in known.boundaries:
        if not measured(b):
            continue
        out.append(f"- {line(bisects, scenario, case, framework, b)}")
        found = bisects.commit_of(scenario, case, framework, b.before.version, b.after.version)
        if found is not None and found.files:
            executed = executed_files(explained or [], case, b)
            out.append(f"  - {found.short} changed {files_words(found, executed)}")
        if found is not None and found.excerpt:
            of = "the files the case ran" if found.excerpt_of == "ran" else "its framework source files"
            out += ["", f"  {found.short}'s own diff, in {of}:", "", "  ```diff"]
            out += [f"  {line}".rstrip() for line in found.excerpt] + ["  ```", ""]
    return out


def fix_undone(
    bisects: BisectRecord, scenario: str, case: str, framework: str, baseline: str, inputs: str | None
) -> str:
    """For a candidate on which a case fixed on ``baseline`` is no longer fixed: the commit of the
    newest recorded step from reproduced to fixed at or below the baseline (the bug's fix; a step
    from unexpected, such as a dependency bump's, is not), in words ("fixed upstream by 78725420e
    (#4071, 2026-07-31), first released in 0.19.2"), as measured by the commit bisect of the
    scenario's current code (``inputs``); "" where the record has none."""
    at = versions.key(baseline)
    found = [
        c
        for c in bisects.commits_of(scenario, case, framework)
        if (c.before_outcome, c.after_outcome) == (REPRODUCED, FIXED)
        and versions.key(c.after) <= at
        and boundaries.is_current(c, inputs)
    ]
    if not found:
        return ""
    newest = max(found, key=lambda c: versions.key(c.after))
    return f"fixed upstream by {commit_words(newest)}, first released in {newest.after}"
