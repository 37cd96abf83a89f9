"""What the upstream thread says beside what the harness measured, for the scenario report and
the run's summary.

The claim is the scenario's declaration (harness/runtime/scenario.py ``Claim``: fixed in,
by which PR, introduced in, still open), quoted from its docstring or seed. The measurement is
the record's: the boundaries of its bug cases (not controls, not non-regression variants) as
bisect and the matrix know them (harness/store/boundaries.py), and the newest release run. A
disagreement is a finding for a person (the thread may name the release a fix was merged for,
not the one it shipped in), never a failure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.planning import versions
from harness.rendering.metadata import ScenarioMetadata
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.runtime.scenario import Claim
from harness.store import boundaries
from harness.store.bisect_record import BisectRecord
from harness.store.rows import Row


@dataclass(frozen=True)
class Measured:
    """The record's answer to the claim's questions, over the scenario's bug cases."""

    fixed_in: tuple[str, ...]  # releases where a bug case turns from reproduced to fixed
    introduced_in: tuple[str, ...]  # releases where one turns reproduced from fixed (measured on both sides)
    newest: str | None  # the newest release run
    open_on_newest: bool  # a bug case reproduces on it
    # fixed_in's releases whose step has unanswered releases before it, each with the release
    # measured before them: the fix lies between the two, not in the release named (issue 45).
    fixed_since: tuple[tuple[str, str], ...] = ()
    # The commits a commit bisect found for fixed_in's steps (reports/bisect.json ``commits``, issue 48):
    # (short id, PR number or "") each.
    fixed_by: tuple[tuple[str, str], ...] = ()

    def fixed_words(self) -> str:
        """Where the bug cases turn fixed, after "first fixed": "in 2.10.0", or "between 0.2.11 and
        0.6.9 (not bisected)" where releases between were never run."""
        since = dict(self.fixed_since)
        exact = [v for v in self.fixed_in if v not in since]
        ranges = [f"between {since[v]} and {v} (not bisected)" for v in self.fixed_in if v in since]
        return ", ".join(([f"in {', '.join(exact)}"] if exact else []) + ranges)

    def agrees_on_fix(self, version: str) -> bool:
        """``version`` is a measured fix release, or lies inside a range that holds the fix."""
        since = dict(self.fixed_since)
        return version in self.fixed_in or any(
            versions.key(since[v]) < versions.key(version) <= versions.key(v) for v in since
        )


def measure(scenario: ScenarioMetadata, results: list[Row], bisects: BisectRecord) -> Measured:
    """What the record and the bisects say about ``scenario``'s bug cases."""
    fixed_in: set[str] = set()
    fixed_since: set[tuple[str, str]] = set()
    introduced_in: set[str] = set()
    fixed_by: set[tuple[str, str]] = set()
    cases = scenario.bug_cases
    for case in cases:
        known = boundaries.known(bisects, results, scenario.id, case, scenario.framework, scenario.inputs)
        for b in known.boundaries:
            if (b.before.outcome, b.after.outcome) == (REPRODUCED, FIXED):
                fixed_in.add(b.after.version)
                found = bisects.commit_of(scenario.id, case, scenario.framework, b.before.version, b.after.version)
                if found is not None:
                    fixed_by.add((found.short, found.pr or ""))
                if b.skipped_between:
                    fixed_since.add((b.after.version, b.before.version))
            # not-applicable -> reproduced is where the case first could be measured, not an
            # introduction (the earlier release may carry the same code).
            elif (b.before.outcome, b.after.outcome) == (FIXED, REPRODUCED):
                introduced_in.add(b.after.version)
    released = [r for r in results if r.release and r.case in cases and r.version]
    newest = max((str(r.version) for r in released), key=versions.key, default=None)
    open_on_newest = any(r.version == newest and r.outcome == REPRODUCED for r in released)
    return Measured(
        tuple(sorted(fixed_in, key=versions.key)),
        tuple(sorted(introduced_in, key=versions.key)),
        newest,
        open_on_newest,
        tuple(sorted(fixed_since, key=lambda pair: versions.key(pair[0]))),
        tuple(sorted(fixed_by)),
    )


def _pr_words(claim: Claim) -> str:
    """The claimed PR as the thread shows it: a merged one is a fix, any other only a proposal."""
    state = claim.pr_state
    if state == "merged":
        return f"PR {claim.pr} (merged)"
    return f"PR {claim.pr} ({state or 'its merge not recorded here'})"


def claimed_words(claim: Claim) -> str:
    """What the thread claims, in words (empty when it claims nothing)."""
    parts = []
    merged = claim.pr and claim.pr_state == "merged"
    if claim.still_open:
        # An open thread's PR is a proposed fix, not a shipped one.
        parts.append("still open" + (f" (fix proposed: {_pr_words(claim)})" if claim.pr else ""))
    elif claim.fixed_in or merged:
        by = f" by {_pr_words(claim)}" if merged else ""
        parts.append(f"fixed in {claim.fixed_in}{by}" if claim.fixed_in else f"fixed{by}")
        if claim.pr and not merged:
            parts.append(f"names {_pr_words(claim)}")
    elif claim.pr:
        # Never "fixed by" a PR the thread does not show merged (issue 45).
        parts.append(f"{'proposed' if claim.pr_state else 'names'} {_pr_words(claim)} as the fix")
    if claim.quote:
        parts.append(f"in its words: “{claim.quote}”")
    if claim.introduced_in:
        parts.append(f"introduced in {claim.introduced_in}")
    return "; ".join(parts)


def _measured_words(m: Measured) -> str:
    parts = [f"first fixed {m.fixed_words()}" if m.fixed_in else "no release where it turns fixed"]
    if m.fixed_by:
        parts[0] += " by " + ", ".join(f"{short} (#{pr})" if pr else short for short, pr in m.fixed_by)
    if m.introduced_in:
        parts.append(f"introduced in {', '.join(m.introduced_in)}")
    if m.newest:
        parts.append(f"newest release run, {m.newest}: {'reproduces' if m.open_on_newest else 'does not reproduce'}")
    return "; ".join(parts)


def disagreements(claim: Claim, m: Measured) -> list[str]:
    """Where the thread's claim and the measurement differ, in words (empty when they agree or
    the thread claims nothing)."""
    out = []
    if claim.fixed_in and not m.agrees_on_fix(claim.fixed_in):
        seen = f"first fixed {m.fixed_words()}" if m.fixed_in else "no release where it turns fixed"
        out.append(f"the thread says fixed in {claim.fixed_in}; measured: {seen}")
    if claim.introduced_in and claim.introduced_in not in m.introduced_in:
        seen = (
            f"introduced in {', '.join(m.introduced_in)}" if m.introduced_in else "no measured fixed -> reproduced step"
        )
        out.append(f"the thread says introduced in {claim.introduced_in}; measured: {seen}")
    found_prs = {f"#{pr}" for _, pr in m.fixed_by if pr}
    # A claim may name several PRs ("#4290 / #4453"): it agrees when the commits found carry one of them.
    claimed_prs = set(re.findall(r"#\d+", claim.pr or ""))
    if claimed_prs and claim.pr_state == "merged" and found_prs and claimed_prs.isdisjoint(found_prs):
        shown = ", ".join(f"{short} (#{pr})" if pr else short for short, pr in m.fixed_by)
        out.append(f"the thread names PR {claim.pr} as the fix; measured: the first fixed commit is {shown}")
    if claim.pr and claim.pr_state == "closed unmerged" and m.fixed_in:
        out.append(
            f"the thread points at PR {claim.pr} (closed unmerged); measured: first fixed "
            f"{m.fixed_words()}, so by another change"
        )
    if claim.still_open and m.newest and not m.open_on_newest:
        out.append(f"the thread says still open; measured: it does not reproduce on {m.newest}, the newest release run")
    return out


def _compared(scenario: ScenarioMetadata, results: list[Row], bisects: BisectRecord) -> tuple[str, str, list[str]]:
    """(what the thread says, in words; what was measured, in words; each disagreement)."""
    m = measure(scenario, results, bisects)
    return claimed_words(scenario.claims), _measured_words(m), disagreements(scenario.claims, m)


def report_lines(scenario: ScenarioMetadata, results: list[Row], bisects: BisectRecord) -> list[str]:
    """The report's lines: the thread's claim beside the measurement, then any disagreement."""
    said, measured, found = _compared(scenario, results, bisects)
    source = f" ({scenario.claims.source})" if said else ""
    out = [
        "| | |",
        "|---|---|",
        "| the thread says | " + (f"{said}{source}" if said else "nothing this repository records") + " |",
        f"| measured (bug cases) | {measured} |",
        "",
    ]
    if found:
        out += [f"**Claim and measurement disagree** (a finding, not a failure): {'; '.join(found)}.", ""]
    return out


def sentence_lines(scenario: ScenarioMetadata, results: list[Row], bisects: BisectRecord) -> list[str]:
    """The same as ``report_lines`` in sentences (a comment keeps one table: the outcomes')."""
    said, measured, found = _compared(scenario, results, bisects)
    out = [
        (f"**The thread says**: {said}." if said else "**The thread says** nothing about releases.")
        + f" **Measured** (its bug cases): {measured}.",
        "",
    ]
    if found:
        out += [f"**Claim and measurement disagree**: {'; '.join(found)}.", ""]
    return out


def scenario_disagreements(scenario: ScenarioMetadata, results: list[Row], bisects: BisectRecord) -> list[str]:
    """One line per disagreement of ``scenario`` (for the run's summary)."""
    claim = scenario.claims
    if not claimed_words(claim):
        return []
    return [f"`{scenario.id}`: {line}" for line in disagreements(claim, measure(scenario, results, bisects))]
