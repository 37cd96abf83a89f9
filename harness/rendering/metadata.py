"""What the reports know of a scenario beside its results: its declaration's words (harness/runtime/
scenario.py ``Scenario``: id, framework, links, bug, cases, claim, explanations) and what is measured
of its code (the digest that answered, the boundaries ``python -m harness explain`` explained).
``ScenarioMetadata`` is what every renderer of a scenario takes, read by its attributes."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.project import PROJECT, Project
from harness.runtime.scenario import Claim, Explanation, Scenario
from harness.store import boundary_files, result_cache


@dataclass(frozen=True)
class CaseMetadata:
    """A case as the reports show it: its id, its summary, and whether it is a control (behaviour
    beside the bug that must hold everywhere) or a non-regression case (a fix that went too far)."""

    id: str
    summary: str = ""
    control: bool = False
    non_regression: bool = False


@dataclass(frozen=True)
class ScenarioMetadata:
    """A scenario as the reports show it (``of`` reads it from its declaration)."""

    id: str
    framework: str
    cases: tuple[CaseMetadata, ...] = ()
    links: tuple[str, ...] = ()
    description: str = ""  # the bug, in a sentence or two
    expected: str = ""  # the behaviour the bug report expects
    requires: tuple[str, ...] = ()  # the packages its script needs beside the framework
    boundary_notes: tuple[str, ...] = ()  # the declaration's notes on its boundaries (``range_notes``)
    # What the thread claims (the bug's bug.py), set beside the measurement; ``Claim()`` for none.
    claims: Claim = field(default_factory=Claim)
    # Why a result is neither reproduced nor fixed, where the declaration says (rendering/explanations.py).
    explanations: tuple[Explanation, ...] = ()
    # Its code's digest: the boundaries quoted ignore probes and results of older code (None: unknown).
    inputs: str | None = None
    # Each boundary's executed-code change, where `python -m harness explain` wrote one.
    explained: tuple[boundary_files.Entry, ...] = ()

    @property
    def bug_cases(self) -> list[str]:
        """The ids of its bug cases: neither controls nor non-regression cases."""
        return [c.id for c in self.cases if not c.control and not c.non_regression]

    @classmethod
    def of(cls, scenario: Scenario, project: Project | None = None) -> ScenarioMetadata:
        """The metadata of a declared scenario, its digest and explained boundaries read in ``project``
        (this checkout by default)."""
        project = project or PROJECT
        # A claim that names no release, PR nor open thread is no claim (a quote alone says nothing to set beside).
        claim = Claim() if scenario.claims.empty() else scenario.claims
        return cls(
            scenario.id,
            scenario.framework,
            tuple(CaseMetadata(c.id, c.summary, c.control, c.non_regression) for c in scenario.cases),
            tuple(scenario.links),
            scenario.description,
            scenario.expected,
            tuple(scenario.requires),
            tuple(scenario.range_notes),
            claim,
            tuple(scenario.explanations),
            result_cache.scenario_inputs(project.root, scenario.module),
            tuple(boundary_files.read(project.reports, scenario.id)),
        )
