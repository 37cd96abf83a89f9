"""What moving an install from one release of a framework to another changes, as the record knows it
(``audit --to``; issue 50: "can I upgrade to X?").

Two parts. The known bugs: each bug's answer on both releases (``store.audit.Knowledge.answer``),
sorted into what the move fixes, what it brings, what stays, and what the record cannot say (an
answer unknown or unexpected on either side: never read as clean). The upgrade scenarios
(``upgrades/<id>/``): state the current release wrote, read by the target. Their verdict for the
pair comes from the record's ``upgrades`` list; a pair the grid lacks is listed as missing (the
command measures it on demand). Beside it, every pair of the grid inside the move (writer and
reader both between the two releases) that breaks: a move over several releases meets each change
of what is stored (google-adk 1.16.0 -> 1.19.0 crosses 1.17.0's usage_metadata and 1.19.0's
input_transcription columns), and a case whose reader must ship a command (``readers``: 'adk
migrate session' from 1.22.1) is named with the first reader that has it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from harness.planning import versions
from harness.planning.upgrades import UpgradeScenario
from harness.runtime.outcomes import FIXED, NOT_APPLICABLE, REPRODUCED
from harness.store.audit import Answer, Bug, Knowledge
from harness.store.rows import Row

FIXED_BY_MOVE, BROUGHT, FIRST_MEASURABLE, STAYS, CANNOT_SAY, UNAFFECTED = (
    "fixed by the move",
    "brought by the move",
    "reproduce where the current release is not applicable",
    "stay",
    "unknown or unexpected on a side",
    "unaffected on both",
)
KINDS = (BROUGHT, FIRST_MEASURABLE, STAYS, CANNOT_SAY, FIXED_BY_MOVE, UNAFFECTED)  # the order they are shown in


@dataclass(frozen=True)
class BugMove:
    bug: Bug
    before: Answer
    after: Answer

    @property
    def kind(self) -> str:
        clean = (FIXED, NOT_APPLICABLE)
        b, a = self.before.outcome, self.after.outcome
        if b == REPRODUCED and a in clean:
            return FIXED_BY_MOVE
        if b == FIXED and a == REPRODUCED:
            return BROUGHT
        if b == NOT_APPLICABLE and a == REPRODUCED:
            return FIRST_MEASURABLE  # not "brought": the case could not run on the current release (issue 45)
        if b == REPRODUCED and a == REPRODUCED:
            return STAYS
        if b in clean and a in clean:
            return UNAFFECTED
        return CANNOT_SAY  # unknown or unexpected on a side


@dataclass(frozen=True)
class PairVerdict:
    """An upgrade scenario's result for one (case, writer, reader)."""

    scenario: str
    case: str
    writer: str
    reader: str
    outcome: str
    detail: str
    measured: str  # "the record's grid" or "measured now"

    @property
    def name(self) -> str:
        return f"{self.scenario}:{self.case} {self.writer} -> {self.reader}"


@dataclass(frozen=True)
class Move:
    framework: str
    current: str
    target: str
    bugs: tuple[BugMove, ...]
    pairs: tuple[PairVerdict, ...]  # the move itself, per upgrade case
    missing: tuple[tuple[str, str], ...]  # (upgrade scenario, case) with no result for the move
    crossed: tuple[PairVerdict, ...]  # breaking grid pairs inside the move
    commands: tuple[str, ...]  # cases that need the reader's own command, and the first reader measured with it

    def of_kind(self, kind: str) -> list[BugMove]:
        return [m for m in self.bugs if m.kind == kind]

    @property
    def breaks(self) -> bool:
        """Whether the move brings a known bug or an upgrade scenario measured it breaking."""
        return bool(self.of_kind(BROUGHT)) or any(p.outcome == REPRODUCED for p in self.pairs)


def verdict_of(row: Row, measured: str) -> PairVerdict:
    assert row.from_version is not None and row.version is not None
    return PairVerdict(
        row.scenario, row.case, row.from_version, row.version, row.result.outcome, row.result.detail, measured
    )


def _cases(scenarios: Iterable[UpgradeScenario], framework: str) -> list[tuple[UpgradeScenario, str, str]]:
    """(scenario, case id, its ``readers`` specifier) of every upgrade case of ``framework``."""
    return [
        (s, case_id, s.declaration.cases[s.base_case(case_id)].readers)
        for s in scenarios
        if s.framework == framework
        for case_id in s.case_ids()
    ]


def upgrade_cases(scenarios: Iterable[UpgradeScenario], framework: str, reader: str) -> list[tuple[str, str]]:
    """(scenario, case) of every upgrade case of ``framework`` whose ``readers`` admit ``reader``."""
    return [
        (s.id, case_id)
        for s, case_id, readers in _cases(scenarios, framework)
        if not readers or versions.matches(reader, readers)
    ]


def move(
    known: Mapping[str, Knowledge],
    chosen: set[str],
    scenarios: Iterable[UpgradeScenario],
    upgrade_rows: Iterable[Row],
    framework: str,
    current: str,
    target: str,
    measured_now: Iterable[PairVerdict] = (),
) -> Move:
    """The move ``current`` -> ``target`` of ``framework``, from the record (and pairs measured now)."""
    scenarios = list(scenarios)
    bugs = tuple(
        BugMove(k.bug, k.answer(current), k.answer(target))
        for bug_id, k in known.items()
        if k.bug.framework == framework and bug_id in chosen
    )
    rows = [r for r in upgrade_rows if r.framework == framework and r.from_version and r.version]
    by_pair = {(r.scenario, r.case, r.from_version, r.version): verdict_of(r, "the record's grid") for r in rows}
    for v in measured_now:
        by_pair[(v.scenario, v.case, v.writer, v.reader)] = v
    wanted = upgrade_cases(scenarios, framework, target)
    pairs = tuple(by_pair[(s, c, current, target)] for s, c in wanted if (s, c, current, target) in by_pair)
    missing = tuple((s, c) for s, c in wanted if (s, c, current, target) not in by_pair)
    low, high = sorted((versions.key(current), versions.key(target)))
    crossed = tuple(
        v
        for (s, c, w, r), v in sorted(by_pair.items(), key=lambda kv: (kv[0][0], kv[0][1], versions.key(kv[0][3])))
        if v.outcome == REPRODUCED
        and (w, r) != (current, target)
        and low <= versions.key(w) < versions.key(r) <= high
        and versions.key(current) < versions.key(target)
    )
    commands = []
    for s, case_id, readers in _cases(scenarios, framework):
        if not readers or (s.id, case_id) in wanted:
            continue
        later = sorted(
            (v for (sid, c, w, r), v in by_pair.items() if (sid, c, w) == (s.id, case_id, current)),
            key=lambda v: versions.key(v.reader),
        )
        summary = s.declaration.cases[s.base_case(case_id)].summary
        first = next((v for v in later if versions.key(v.reader) > versions.key(target)), None)
        seen = f"; measured {first.writer} -> {first.reader}: {first.outcome}" if first else ""
        commands.append(f"{s.id}:{case_id} needs a reader {readers} ({summary}){seen}")
    return Move(framework, current, target, bugs, pairs, missing, crossed, tuple(commands))
