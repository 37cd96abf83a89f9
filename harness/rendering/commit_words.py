"""The commit beside a release boundary, in words, for the reports and the claims (issue 48).

A boundary between two measured outcomes either has the first commit of its newer outcome, found
by ``bisect --commits`` (reports/bisect.json ``commits``): "fixed by 78725420e (#4071, 2026-07-31),
first released in 0.19.2"; or it is a release pair only, and the words say how to find the commit.
"""

from __future__ import annotations

from harness.runtime.outcomes import FIXED, NOT_APPLICABLE, REPRODUCED
from harness.store import boundaries
from harness.store.boundaries import Boundary


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


def commit_words(entry: dict) -> str:
    """'78725420e (#4071, 2026-07-31)'."""
    pr = f"#{entry['pr']}, " if entry.get("pr") else ""
    return f"{entry['short']} ({pr}{entry['date'][:10]})"


def line(bisects: dict, scenario: str, case: str, framework: str, b: Boundary) -> str:
    """One boundary with its commit, or "release pair only" and the command that finds it."""
    found = boundaries.commit_of(bisects, scenario, case, framework, b.before.version, b.after.version)
    if found is None:
        return (
            f"{b.before.version} -> {b.after.version} ({b.summary}): release pair only; "
            f"`nox -s bisect -- {scenario}:{case} --commits CLONE` finds the commit"
        )
    untested = f", or one of the untested {', '.join(found['untested'])} before it" if found.get("untested") else ""
    return (
        f"{b.before.version} -> {b.after.version}: {verb(b.before.outcome, b.after.outcome)} "
        f"{commit_words(found)}{untested}, first released in {b.after.version} "
        f"(commit bisect: {found['commits_between']} commits between {found['tags'][0]} and {found['tags'][1]}, "
        f"{found['builds']} builds)"
    )


def case_lines(bisects: dict, known: boundaries.Known, scenario: str, case: str, framework: str) -> list[str]:
    """The case's measured boundaries, each with its commit or "release pair only" (a list for the report)."""
    return [f"- {line(bisects, scenario, case, framework, b)}" for b in known.boundaries if measured(b)]
