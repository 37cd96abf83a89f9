"""The five outcome words of the contract, and a verdict: an outcome with its detail."""

from __future__ import annotations

from dataclasses import dataclass

REPRODUCED = "reproduced"
FIXED = "fixed"
UNEXPECTED = "unexpected"
NOT_APPLICABLE = "not-applicable"
ERROR = "error"

OUTCOMES = (REPRODUCED, FIXED, UNEXPECTED, NOT_APPLICABLE, ERROR)


@dataclass(frozen=True)
class Verdict:
    """One outcome plus a one-line human detail with the figures."""

    outcome: str
    detail: str

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.outcome!r}; valid: {', '.join(OUTCOMES)}")
        if "\n" in self.detail:
            raise ValueError(f"a verdict's detail is one line, got {self.detail!r}")


def reproduced(detail: str) -> Verdict:
    return Verdict(REPRODUCED, detail)


def fixed(detail: str) -> Verdict:
    return Verdict(FIXED, detail)


def unexpected(detail: str) -> Verdict:
    return Verdict(UNEXPECTED, detail)
