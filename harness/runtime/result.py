"""One case's result, the one type from the worker to the report.

The worker makes it (harness/runtime/runner.py ``run_case``) and sends it as a JSON object with
the keys scenario, case, outcome, detail, timeline (and repro, the verdict of the case's short
reproduction, where it has one): ``to_dict`` and ``from_dict`` are that wire format. The
orchestrator (harness/execution/run.py) turns each object back into this type, and the record's
row (harness/store/rows.py ``Row``) carries it with the build's keys. Stdlib only, and nothing
of the orchestrator: both sides of the build import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class CaseResult:
    """One case's outcome in one build, with its one-line detail and normalised timeline."""

    scenario: str
    case: str
    outcome: str
    detail: str
    timeline: str = ""
    repro: str | None = None  # the verdict of the case's short reproduction, where it has one

    def to_dict(self) -> dict:
        """The worker's wire format (and the shape the environment's result cache keeps)."""
        out = {
            "scenario": self.scenario,
            "case": self.case,
            "outcome": self.outcome,
            "detail": self.detail,
            "timeline": self.timeline,
        }
        if self.repro is not None:
            out["repro"] = self.repro
        return out

    @classmethod
    def from_dict(cls, record: Mapping) -> CaseResult:
        """From the wire format (a missing timeline or repro is empty)."""
        return cls(
            record["scenario"],
            record["case"],
            record["outcome"],
            record["detail"],
            record.get("timeline") or "",
            record.get("repro"),
        )

    def with_repro(self, verdict: str | None) -> CaseResult:
        return replace(self, repro=verdict)
