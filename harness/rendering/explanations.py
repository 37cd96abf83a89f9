"""Why a result is neither ``reproduced`` nor ``fixed``, in words: the scenario's declared
explanations (``Explanation`` in bug.py) matched to a result's case and release, for the
comment and the report, and the results no explanation covers (a test keeps that list empty
for the record).
"""

from __future__ import annotations

import fnmatch

from harness.planning import versions
from harness.rendering.metadata import ScenarioMetadata
from harness.runtime.outcomes import ERROR, UNEXPECTED
from harness.store.rows import Row

THIRD_WAYS = (UNEXPECTED, ERROR)


def why(scenario: ScenarioMetadata, case_id: str, version: str | None) -> str | None:
    """The first declared explanation covering ``case_id`` on ``version`` (None: none does)."""
    for explanation in scenario.explanations:
        if fnmatch.fnmatchcase(case_id, explanation.cases) and (
            version is not None and versions.matches(str(version), explanation.versions)
        ):
            return str(explanation.why)
    return None


def groups(scenario: ScenarioMetadata, rows: list[Row]) -> list[tuple[str, str, list[str], str, str | None]]:
    """Per case, the runs of releases giving the same third-way outcome and detail, oldest first:
    (case, outcome, versions, the judge's detail, the declared explanation or None)."""
    out: list[tuple[str, str, list[str], str, str | None]] = []
    for case in scenario.cases:
        mine = sorted(
            (r for r in rows if r.case == case.id and r.release and r.outcome in THIRD_WAYS),
            key=lambda r: versions.key(str(r.version)),
        )
        for r in mine:
            reason = why(scenario, case.id, r.version)
            last = out[-1] if out else None
            if last and last[0] == case.id and (last[1], last[3], last[4]) == (r.outcome, r.detail, reason):
                last[2].append(str(r.version))
            else:
                out.append((case.id, r.outcome, [str(r.version)], r.detail, reason))
    return out


def releases_words(found: list[str]) -> str:
    return found[0] if len(found) == 1 else f"{found[0]} – {found[-1]} ({len(found)} releases)"
