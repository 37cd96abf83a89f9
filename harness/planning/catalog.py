"""What a run's selectors can name: every bug folder (``scenarios/<id>/``) and every upgrade folder
(``upgrades/<id>/``) of a project, discovered together, and one selection over both (issue 47: an axis is
a field, not a second discovery and selection). ``ID`` or ``ID:CASE`` names a bug's cases or an upgrade
scenario's pairs; an id of neither kind is one line naming the valid ids of both.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.planning import builds, upgrades
from harness.project import Project
from harness.runtime import registry
from harness.runtime.scenario import Case, Scenario


@dataclass(frozen=True)
class Selection:
    """The bug cases and the upgrade pairs a run's selectors name."""

    cases: list[tuple[Scenario, Case]]
    pairs: list[upgrades.PlannedPair]


@dataclass(frozen=True)
class Catalog:
    """Every bug scenario and upgrade scenario of a project, by id."""

    scenarios: dict[str, Scenario]
    upgrades: dict[str, upgrades.UpgradeScenario]

    @classmethod
    def discover(cls, project: Project) -> Catalog:
        """Both kinds of folder, each loaded and validated (a bad one: one line): the bug folders the
        runtime imports (harness/runtime/registry.py ``SCENARIOS_DIR``: a worker imports its cases from
        there, whatever folder the run's record is in), the upgrade folders of ``project``."""
        return cls(registry.discover(), upgrades.discover(project.upgrades))

    def select(self, selectors: list[str], of_given_builds: bool = False) -> Selection:
        """The cases and pairs ``selectors`` name; every one of both kinds with none. ``of_given_builds``:
        a run of SPECs or a shard, which runs no upgrade pair (a pair's grid is of releases)."""
        named_upgrades = [s for s in selectors if s.partition(":")[0] in self.upgrades]
        named_bugs = [s for s in selectors if s not in named_upgrades]
        if of_given_builds and named_upgrades:
            raise builds.SpecError(
                f"{', '.join(named_upgrades)}: an upgrade scenario runs on its own grid of releases; "
                "leave out the SPECs and --shard to run it"
            )
        every = not selectors
        pairs = upgrades.select(self.upgrades, named_upgrades) if (named_upgrades or every) else []
        if of_given_builds:
            pairs = []
        try:
            cases = registry.select(self.scenarios, named_bugs) if (named_bugs or every) else []
        except registry.UnknownId as exc:
            if not self.upgrades or not str(exc).startswith("unknown scenario"):
                raise
            raise registry.UnknownId(f"{exc}; upgrade scenarios: {', '.join(sorted(self.upgrades))}") from None
        return Selection(cases, pairs)
