"""One case's result, the one type from the worker to the report.

The worker makes it (harness/runtime/runner.py ``run_case``) and sends it as a JSON object with
the keys scenario, case, outcome, detail, timeline: ``to_dict`` and ``from_dict`` are that wire format. The
orchestrator (harness/execution/run.py) turns each object back into this type, and the record's
row (harness/store/rows.py ``Row``) carries it with the build's keys. Stdlib only, and nothing
of the orchestrator: both sides of the build import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class CaseResult:
    """One case's outcome in one build, with its one-line detail and normalised timeline."""

    scenario: str
    case: str
    outcome: str
    detail: str
    timeline: str = ""

    def __post_init__(self) -> None:
        # A lone surrogate (bytes a case decoded with errors="surrogateescape") cannot be written
        # as UTF-8: escaped here, where every result is made, it marks its own case only instead
        # of failing the run's writes after every case ran (issue 49).
        for name in ("detail", "timeline"):
            object.__setattr__(self, name, utf8_safe(getattr(self, name)))

    def to_dict(self) -> dict:
        """The worker's wire format (and the shape the environment's result cache keeps)."""
        return {
            "scenario": self.scenario,
            "case": self.case,
            "outcome": self.outcome,
            "detail": self.detail,
            "timeline": self.timeline,
        }

    @classmethod
    def from_dict(cls, record: Mapping) -> CaseResult:
        """From the wire format (a missing timeline is empty)."""
        return cls(
            record["scenario"],
            record["case"],
            record["outcome"],
            record["detail"],
            record.get("timeline") or "",
        )


def utf8_safe(text: str) -> str:
    """``text`` with every character UTF-8 cannot encode (a lone surrogate, ``"\\udcff"``) as its
    backslash escape (``"\\\\udcff"``); the same text every time, and unchanged when already safe."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# The wire format's other readers (harness/execution/driver.py and run.py) go through these, so
# its keys are read in this module only.


def wire_case(record: Mapping) -> tuple[str, str]:
    """(scenario, case) of a wire record (a result, or the worker's ``start`` line)."""
    return record["scenario"], record["case"]


def wire_name(record: Mapping) -> str:
    """``scenario:case`` of a wire record."""
    return ":".join(wire_case(record))


def wire_failed(started: Mapping, outcome: str, detail: str) -> dict:
    """The wire record of a case that never reported (its worker died, hung or wrote garbage):
    the ``start`` line's case with ``outcome`` and ``detail`` and no timeline."""
    return {**started, "outcome": outcome, "detail": detail, "timeline": ""}
