"""What the record knows about one release, bug by bug: the answers ``audit`` and the OSV export give.

A *bug* is a (scenario, case) that is not a control (``Case.control``: behaviour beside the bug
that must hold everywhere). A non-regression case (``Case.non_regression``: a fix that went too
far) is a bug of its own, with its own releases.

For a release V of a framework, a bug's answer is one of:

- **measured**: the record (``reports/matrix.json``) or a bisect probe (``reports/bisect.json``)
  ran the case on V itself and got an answer, or an install of V for any case showed that V ships
  no framework package at all (``not-applicable`` for every bug: nothing of the bug's code is there);
- **inferred**: V was not run, but its two nearest answered releases on V's release line give
  the same outcome and a bisect searched a range holding both (so no boundary lies between:
  bisect would have found it). Never outside such a range;
- **unknown**: anything else (never run near V, neighbours that disagree, no bisect over them, or
  an ``error`` on V). Unknown is never reported as clean.

The answers are for one interpreter (issue 46): its own results are measured; a release not run on it
is inferred from the interpreters that ran it where they all agree, and else is unknown.

Everything the record and the bisect record say enters through :func:`_record_results` (by the
record's own reader, harness/store/record.py) and :func:`_bisect_knowledge`, as rows
(harness/store/rows.py ``Row``; a bisect probe as its release's result): the only two functions that
read those files, so a change of the record's API touches them alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from harness.planning import interpreters, versions
from harness.planning.builds import NOTHING_TO_RUN
from harness.runtime.outcomes import ERROR, FIXED, NOT_APPLICABLE, REPRODUCED
from harness.runtime.result import CaseResult
from harness.store import bisect_record, boundaries, record
from harness.store.bisect_record import Probe
from harness.store.rows import Row

MEASURED, INFERRED, UNKNOWN = "measured", "inferred", "unknown"
BY_MATRIX, BY_BISECT = "matrix", "bisect"
BY_INTERPRETERS = "other interpreters"  # not run on the audited interpreter; every one that ran it agrees


# What one answer of the record or of a bisect probe is: the result (a ``Row``: a probe is carried as
# its release's result) and what answered it, BY_MATRIX or BY_BISECT.
Answered = tuple[Row, str]


@dataclass(frozen=True)
class BisectKnowledge:
    probes: tuple[Row, ...]
    ranges: dict[tuple[str, str, str], tuple[tuple[str, str], ...]]  # (scenario, case, framework) -> ranges
    releases: dict[str, tuple[str, ...]]  # framework -> every release the bisects knew to exist


@dataclass(frozen=True)
class RecordResults:
    """The record's results of releases (local builds left out), and each release's dependency date."""

    rows: tuple[Row, ...]
    dates: dict[str, str]  # source -> its environment's exclude-newer date ("" when it has none)


def _record_results(root: Path) -> RecordResults:
    """The record's results of releases, read by the record's one reader (harness/store/record.py
    ``Reports.load``: validated and migrated; a damaged record is its ``RecordError``)."""
    document = record.Reports(root / "reports").load()
    if document is None:
        raise record.RecordError("reports/matrix.json does not exist yet; run `nox -s matrix` first")
    # By source alone: a release's dependency date is its upload time, the same on every interpreter.
    dates = {e.source: e.exclude_newer or "" for e in document.environments}
    return RecordResults(tuple(r for r in document.results if r.release), dates)


def _probe_row(p: Probe) -> Row:
    """A bisect probe as the result of its release (a probe is always of a release of the index)."""
    result = CaseResult(p.scenario, p.case, p.outcome, p.detail or "")
    source = f"{p.framework}=={p.version}"
    return Row(result, p.framework, p.version, source, inputs=p.inputs or None, python=p.interpreter)


def _bisect_knowledge(root: Path) -> BisectKnowledge:
    """Every bisect's probes (as rows), ranges and known releases (reports/bisect.json)."""
    document = bisect_record.load(root / "reports" / "bisect.json")
    probes = tuple(_probe_row(p) for p in document.probes)
    ranges: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    # Any interpreter's ranges: a bisect on one found no change inside them, and an audit on another
    # infers from them only between two releases measured on its own interpreter that agree.
    for b in document.ranges:
        ranges.setdefault((b.scenario, b.case, b.framework), []).append((b.start, b.end))
    return BisectKnowledge(
        probes,
        {k: tuple(v) for k, v in ranges.items()},
        dict(document.releases),
    )


@dataclass(frozen=True)
class Bug:
    """One bug of the feed: a (scenario, case) that is not a control, with what people read about it."""

    scenario: str
    case: str
    framework: str
    kind: str  # "bug" or "non-regression"
    description: str  # the scenario's bug, in a sentence or two
    expected: str
    case_summary: str
    links: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.scenario}:{self.case}"

    @property
    def script(self) -> str:
        """The bug's reproduction script, relative to the project root (its argument: ``case``)."""
        return f"scenarios/{self.scenario}/repro.py"

    @property
    def check(self) -> str:
        """The script with the case's argument: what an interpreter runs to check an install."""
        return f"{self.script} {self.case}"


def bugs(scenarios: Iterable) -> list[Bug]:
    """Every bug of ``scenarios`` (harness/runtime/registry.py ``discover()``), controls left out."""
    return [
        Bug(
            s.id,
            c.id,
            s.framework,
            "non-regression" if c.non_regression else "bug",
            s.description,
            s.expected,
            c.summary,
            tuple(s.links),
        )
        for s in scenarios
        for c in s.cases
        if not c.control
    ]


@dataclass(frozen=True)
class Answer:
    """A bug's answer for one release (see the module docstring)."""

    outcome: str  # an outcome word, or "unknown"
    basis: str  # MEASURED, INFERRED or UNKNOWN
    measured_by: str = ""  # for MEASURED: BY_MATRIX or BY_BISECT
    neighbours: tuple[str, ...] = ()  # for INFERRED: the two releases it is inferred from; UNKNOWN: the nearest
    reason: str = ""  # one line: how it is known, or why not
    first_fixed: str = ""  # the first release after it on its line where the bug is measured fixed
    first_fixed_note: str = ""  # "untested: 2.8.1" when releases between were never answered
    fixed_since: str = ""  # then the last release before it measured not fixed: the fix lies between the two
    elsewhere: tuple[str, ...] = ()  # for INFERRED: the other interpreters whose answers it rests on, if any


@dataclass
class Knowledge:
    """Everything the record and the bisects say about one bug, current code only."""

    bug: Bug
    points: dict[str, str]  # version -> outcome, answered ones (no error), oldest first
    measured_by: dict[str, str]  # version -> BY_MATRIX or BY_BISECT
    errors: dict[str, str]  # releases asked that gave no answer -> the error's detail (why not)
    ranges: tuple[tuple[str, str], ...]  # bisected ranges
    releases: tuple[str, ...]  # every release the bisects knew to exist
    dates: dict[str, str] = field(default_factory=dict)  # version -> dependency date (matrix rows)
    python: str = interpreters.DEFAULT  # the interpreter the answers are for
    others: dict[str, tuple[str, ...]] = field(default_factory=dict)  # BY_INTERPRETERS version -> who ran it
    empty: dict[str, str] = field(default_factory=dict)  # version -> why it installs nothing to run (any case)

    def answer(self, version: str) -> Answer:
        """The bug's answer for ``version``; for one that reproduces, the first fixed release after it."""
        answer = self._answer(version)
        if answer.outcome != REPRODUCED:
            return answer
        first_fixed, note, since = self.first_fixed_after(version)
        return Answer(**{**answer.__dict__, "first_fixed": first_fixed, "first_fixed_note": note, "fixed_since": since})

    def _answer(self, version: str) -> Answer:
        if version in self.points and self.measured_by[version] == BY_INTERPRETERS:
            outcome = self.points[version]
            return Answer(
                outcome,
                INFERRED,
                "",
                (),
                f"{version} was not run on {interpreters.label(self.python)}; "
                f"every interpreter that ran it ({', '.join(self.others.get(version, ()))}) says {outcome}, "
                "and this bug's results on the two agree wherever both ran",
                elsewhere=self.others.get(version, ()),
            )
        if version in self.points:
            outcome, by = self.points[version], self.measured_by[version]
            where = "the record's matrix" if by == BY_MATRIX else "a bisect probe"
            return Answer(outcome, MEASURED, by, (), f"{version} was run by {where}")
        below, above = self._neighbours(version)
        if version in self.empty:
            # The release ships no framework package: no bug of the record can apply there, which
            # one install measured for every case (google-adk 0.0.1, a name placeholder).
            return Answer(NOT_APPLICABLE, MEASURED, "", (), f"{version} {self.empty[version]}")
        if version in self.errors:
            why = f": {self.errors[version][:160]}" if self.errors[version] else ""
            return Answer(UNKNOWN, UNKNOWN, "", (), f"{version} was run but gave no answer (error{why})")
        if below and above and self.points[below] == self.points[above] and self._bisected(below, above):
            reason = (
                f"not run; {below} and {above}, its nearest answered releases on the {versions.line(version)} line, "
                f"are both {self.points[below]} inside a bisected range{self._where(below, above)}"
            )
            others = self._others(below, above)
            return Answer(self.points[below], INFERRED, "", (below, above), reason, elsewhere=others)
        near = tuple(v for v in (below, above) if v)
        if not near:
            reason = f"never run on the {versions.line(version)} line"
        elif below and above and self.points[below] != self.points[above]:
            reason = f"not run; {below} is {self.points[below]} and {above} is {self.points[above]}"
        else:
            shown = ", ".join(f"{v} {self.points[v]}" for v in near)
            reason = f"not run, and no bisected range covers it (nearest answered: {shown})"
        return Answer(UNKNOWN, UNKNOWN, "", near, reason)

    def _others(self, *near: str) -> tuple[str, ...]:
        """The interpreters that answered those of ``near`` this one did not run."""
        said = {p for v in near if self.measured_by.get(v) == BY_INTERPRETERS for p in self.others.get(v, ())}
        return tuple(sorted(said, key=interpreters.key))

    def _where(self, *near: str) -> str:
        """Which interpreters answered ``near`` when this one did not (the words name each step of an
        inference: a neighbour answered only elsewhere is not a measurement on this interpreter)."""
        elsewhere = [v for v in near if self.measured_by.get(v) == BY_INTERPRETERS]
        if not elsewhere:
            return ""
        said = self._others(*near)
        return (
            f" ({' and '.join(elsewhere)} answered on {', '.join(said)}, not on {interpreters.label(self.python)}, "
            "whose results of this bug agree with theirs wherever both ran)"
        )

    def line_points(self, line: str) -> list[tuple[str, str]]:
        """(version, outcome) of the answered releases of one release line, oldest first."""
        return [(v, o) for v, o in self.points.items() if versions.line(v) == line]

    def first_fixed_after(self, version: str) -> tuple[str, str, str]:
        """The first release after ``version`` on its line measured ``fixed`` after the last one that
        reproduces before it, the untested releases between (boundaries.untested_words) and, when
        there are any, the release before them: the fix is somewhere between, not in the first."""
        line, key = versions.line(version), versions.key(version)
        later = [(v, o) for v, o in self.line_points(line) if versions.key(v) > key]
        for (a, oa), (b, ob) in itertools.pairwise([(version, REPRODUCED), *later]):
            if ob == FIXED and oa != FIXED:
                lower = versions.key(a)
                between = [
                    v
                    for v in self.releases
                    if lower < versions.key(v) < versions.key(b) and v not in self.points and versions.is_final(v)
                ]
                return b, boundaries.untested_words(sorted(between, key=versions.key)), a if between else ""
        return "", "", ""

    def _neighbours(self, version: str) -> tuple[str, str]:
        line, key = versions.line(version), versions.key(version)
        same_line = [v for v, _ in self.line_points(line)]
        below = [v for v in same_line if versions.key(v) < key]
        above = [v for v in same_line if versions.key(v) > key]
        return (below[-1] if below else "", above[0] if above else "")

    def _bisected(self, low: str, high: str) -> bool:
        return any(
            versions.key(a) <= versions.key(low) and versions.key(high) <= versions.key(b) for a, b in self.ranges
        )

    def measured_rows(self) -> list[dict]:
        """Every answered release, oldest first: version, outcome, and what ran it."""
        return [{"version": v, "outcome": o, "measured_by": self.measured_by[v]} for v, o in self.points.items()]


def knowledge(root: Path, scenarios: Iterable, python: str = interpreters.DEFAULT) -> dict[str, Knowledge]:
    """Bug id -> what is known about it on ``python``, from the record and the bisect record (current
    code only: a row answered by an older version of the scenario's code is ignored, as in the reports)."""
    from harness.store import result_cache

    scenarios = list(scenarios)
    digests = {s.id: result_cache.scenario_inputs(root, s.module) for s in scenarios}
    results = _record_results(root)
    bisects = _bisect_knowledge(root)
    answered: list[Answered] = [
        *((p, BY_BISECT) for p in bisects.probes),
        *((r, BY_MATRIX) for r in results.rows),
    ]
    by_case: dict[tuple[str, str, str], list[Answered]] = {}
    # Probes first, then the record's results over them: where both answered, the record wins.
    for row, measured_by in answered:
        if row.inputs and digests.get(row.scenario) and row.inputs != digests[row.scenario]:
            continue
        by_case.setdefault((row.scenario, row.case, row.framework), []).append((row, measured_by))
    # A release an install showed to carry no framework package, for any case (a release-wide fact).
    empty: dict[tuple[str, str], str] = {}
    for row, _ in answered:
        if row.outcome == ERROR and NOTHING_TO_RUN in row.detail:
            empty.setdefault((row.framework, row.version or ""), row.detail.removeprefix("install failed: "))
    out = {}
    for bug in bugs(scenarios):
        key = (bug.scenario, bug.case, bug.framework)
        points: dict[str, str] = {}
        by: dict[str, str] = {}
        errors: dict[str, str] = {}
        dates: dict[str, str] = {}
        elsewhere: dict[str, dict[str, str]] = {}  # version -> interpreter -> outcome, the others' answers
        uninstallable: set[str] = set()  # releases this interpreter cannot install: no verdict to compare
        for row, measured_by in by_case.get(key, []):
            version = row.version or ""  # a release's result: its version is never null
            if row.python != python:
                # An interpreter that cannot install the release gave no verdict about the bug there.
                if row.outcome != ERROR and not interpreters.is_unsupported(row.outcome, row.detail):
                    elsewhere.setdefault(version, {})[row.python] = row.outcome
                continue
            if row.outcome == ERROR:
                errors.setdefault(version, row.detail)
                continue
            if interpreters.is_unsupported(row.outcome, row.detail):
                uninstallable.add(version)
            points[version], by[version] = row.outcome, measured_by
            date = results.dates.get(row.source, "") if measured_by == BY_MATRIX else ""
            if date:
                dates[version] = date
        others: dict[str, tuple[str, ...]] = {}
        # Another interpreter's answer stands for this one only while this bug's verdicts agree on
        # every release both answered: an interpreter known to differ (generic-dict's dict-str-int on
        # 3.10, issue 46) is unknown wherever it was not run itself.
        agrees = all(
            points.get(v, o) == o for v, said in elsewhere.items() if v not in uninstallable for o in said.values()
        )
        for v, said in elsewhere.items():
            if agrees and v not in points and v not in errors and len(set(said.values())) == 1:
                points[v], by[v] = next(iter(said.values())), BY_INTERPRETERS
                others[v] = tuple(sorted(said, key=interpreters.key))
        ordered = dict(sorted(points.items(), key=lambda kv: versions.key(kv[0])))
        out[bug.id] = Knowledge(
            bug,
            ordered,
            by,
            {v: why for v, why in errors.items() if v not in points},
            bisects.ranges.get(key, ()),
            bisects.releases.get(bug.framework, ()),
            dates,
            python,
            others,
            {v: why for (fw, v), why in empty.items() if fw == bug.framework and v not in points},
        )
    return out


def known_releases(root: Path, framework: str) -> set[str]:
    """Every release of ``framework`` the record or a bisect knows to exist: the fallback when the
    package index cannot be read."""
    found = {r.version or "" for r in _record_results(root).rows if r.framework == framework}
    return found | set(_bisect_knowledge(root).releases.get(framework, ()))


def reproduces(answer: Answer) -> bool:
    return answer.outcome == REPRODUCED
