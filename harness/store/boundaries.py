"""Where a case's outcome changes between releases, derived from everything known.

What is known about a (scenario, case, framework): every probe of every bisect
(``reports/bisect.json``) and the record's results of releases (``reports/matrix.json``).
A *boundary* is a pair of releases, adjacent among those with an answer, whose outcomes
differ: "first fixed in 2.9.0" when 2.8.0 reproduced and 2.9.0 is fixed. Releases between
the two sides that were never asked, or gave no answer (``error``), make it a range, never a
release ("first fixed between 2.8.0 and 2.9.0, not bisected (untested: 2.8.1)"; issue 45: a
report said "first fixed: 0.6.9" where the truth was 0.3.1, between two releases run).

Pure functions over versions and outcome words, and over the typed bisect record
(harness/store/bisect_record.py, which reads and writes reports/bisect.json): used by bisect (to
search and to record), by the matrix (boundary releases join the matrix) and by the reports.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness.planning import interpreters, versions
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED, UNEXPECTED
from harness.store.bisect_record import BisectRecord, FoundCommit, Probe
from harness.store.rows import Row


@dataclass(frozen=True)
class Side:
    version: str
    outcome: str


@dataclass(frozen=True)
class Boundary:
    before: Side
    after: Side
    summary: str  # "first fixed in 2.9.0", "introduced in 2.4.0", "first measurable in 1.0.0 (reproduces)", ...
    skipped_between: tuple[str, ...] = ()  # releases between the two sides with no answer


def summary(before: str, after: str, version: str, earlier: Sequence[str], since: str = "") -> str:
    """Words for a boundary: ``earlier`` are this case's outcomes on releases before it. Only a
    measured fixed -> reproduced step is "introduced"; from not-applicable the release is only the
    first where the case could be measured (issue 45: google-adk 0.5.0 was not-applicable because
    the script awaited a then-synchronous create_session, and its wheel has the same buggy code).

    ``since``: the release before the step, when releases between the two were not answered: the
    step is then somewhere between them, and the words say so instead of naming ``version``."""
    at = f"between {since} and {version}" if since else f"in {version}"
    start = f"between {since} and {version}" if since else f"from {version}"
    if after == REPRODUCED:
        if REPRODUCED in earlier:
            return f"came back {at}"
        if before == FIXED:
            return f"introduced {at}"
        if before == NOT_APPLICABLE:
            return f"first measurable {at} (reproduces; not applicable before)"
        return f"reproduces {start} (was {before})"
    if after == FIXED:
        if before == REPRODUCED:
            return f"fixed again {at}" if FIXED in earlier else f"first fixed {at}"
        if before == NOT_APPLICABLE:
            return f"first applicable {at}, already fixed"
        return f"fixed {at} (was {before})"
    if after == NOT_APPLICABLE:
        return f"not applicable {start}"
    if after == UNEXPECTED:
        return f"unexpected {start}"
    return f"{after} {start}"


def untested_words(between: Sequence[str]) -> str:
    """The releases between a step's two sides that gave no answer, named ("" when none)."""
    if not between:
        return ""
    if len(between) <= 3:
        return f"untested: {', '.join(between)}"
    return f"{len(between)} untested releases {between[0]} .. {between[-1]}"


def range_note(between: Sequence[str]) -> str:
    """What follows a step that is a range: why it is one (" not bisected (...)"), or ""."""
    return f", not bisected ({untested_words(between)})" if between else ""


def derive(
    points: Mapping[str, str], releases: Iterable[str] = (), key: Callable[[str], Any] = versions.key
) -> list[Boundary]:
    """Every boundary among ``points`` (version -> outcome; ``error`` is no answer).

    ``releases``: every release known to exist, so the ones between two sides that were
    never asked are named. ``key``: their order (a version's by default; a commit bisect's is
    the commit's place in the first-parent history).
    """
    answered = sorted((v for v, o in points.items() if o != ERROR), key=key)
    every = sorted(set(releases) | set(points), key=key)
    found = []
    for a, b in itertools.pairwise(answered):
        if points[a] == points[b]:
            continue
        ka, kb = key(a), key(b)
        between = tuple(v for v in every if ka < key(v) < kb)
        earlier = [points[v] for v in answered if key(v) < kb]
        words = summary(points[a], points[b], b, earlier, since=a if between else "") + range_note(between)
        found.append(Boundary(Side(a, points[a]), Side(b, points[b]), words, between))
    return found


# --- what is known about one case ------------------------------------------------------------


@dataclass
class Known:
    """Everything known about one (scenario, case, framework)."""

    points: dict[str, str]  # version -> outcome, probes and record together (the record wins)
    probes: int  # how many of them come from bisect probes
    ranges: list[tuple[str, str]]  # the ranges bisected
    releases: list[str]  # every release known to exist
    stale: int = 0  # probes and results answered by an older version of the scenario's code, ignored

    @property
    def boundaries(self) -> list[Boundary]:
        return derive(self.points, self.releases)

    @property
    def no_answer(self) -> list[str]:
        return sorted((v for v, o in self.points.items() if o == ERROR), key=versions.key)


def is_current(entry: Probe | FoundCommit, inputs: str | None) -> bool:
    """Whether a probe or a record result was answered by the scenario's current code.

    ``inputs``: the scenario's current digest (harness/store/result_cache.py ``scenario_inputs``),
    None when unknown (everything counts). An entry with no digest was recorded before probes and
    results carried one: it counts (the committed record was stamped with the code it was made
    with; ``bisect --rerun`` or a matrix run replaces it).
    """
    return _current(entry.inputs, inputs)


def _current(answered: str | None, inputs: str | None) -> bool:
    """``is_current`` of an entry whose digest is ``answered``."""
    return inputs is None or not answered or answered == inputs


def known(
    record: BisectRecord,
    results: Iterable[Row],
    scenario: str,
    case: str,
    framework: str,
    inputs: str | None = None,
    python: str = interpreters.DEFAULT,
) -> Known:
    """Probes of every bisect of this case, then the record's results of releases over them, on one
    interpreter (``python``; a probe without one was measured on the default).

    ``inputs``: the scenario's current digest; a probe or result answered by other code is ignored.
    """
    points: dict[str, str] = {}
    probes = stale = 0
    for p in record.probes:
        if (p.scenario, p.case, p.framework) == (scenario, case, framework) and p.interpreter == python:
            if not is_current(p, inputs):
                stale += 1
                continue
            points[p.version] = p.outcome
            probes += 1
    for r in results:
        if (
            (r.scenario, r.case, r.framework) == (scenario, case, framework)
            and r.release
            and r.version is not None
            and r.outcome != ERROR
            and r.python == python
        ):
            if not _current(r.inputs, inputs):
                stale += 1
                continue
            points[r.version] = r.outcome
    ranges = [
        (b.start, b.end)
        for b in record.ranges
        if (b.scenario, b.case, b.framework) == (scenario, case, framework) and b.interpreter == python
    ]
    points = dict(sorted(points.items(), key=lambda kv: versions.key(kv[0])))
    return Known(points, probes, ranges, list(record.releases_of(framework)), stale)


def current_answers(results: Iterable[Row], scenario: str, framework: str, inputs: str | None) -> set[tuple[str, str]]:
    """(case, version) of every release result of ``scenario`` the current code answered: where the
    record wins over a probe (``known``), so a pending probe there needs no asking again."""
    return {
        (r.case, r.version)
        for r in results
        if r.scenario == scenario
        and r.framework == framework
        and r.release
        and r.version is not None
        and _current(r.inputs, inputs)
        and r.python == interpreters.DEFAULT
    }


def boundary_releases(
    record: BisectRecord, results: Iterable[Row], scenario: str, framework: str, inputs: str | None = None
) -> set[str]:
    """The releases on either side of any boundary of any case of ``scenario``: they join its matrix."""
    results = list(results)
    cases = {p.case for p in record.probes if p.scenario == scenario and p.framework == framework}
    found: set[str] = set()
    for case in cases:
        for b in known(record, results, scenario, case, framework, inputs).boundaries:
            found |= {b.before.version, b.after.version}
    return found
