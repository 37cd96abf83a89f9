"""The upgrade scenarios (``upgrades/<id>/``) and the pairs of releases each one runs.

A pair is (writer release, reader release). The grid of a scenario (``pairs``): each release of its
matrix (``Upgrade.releases``) to the next one of its major line, the last of a line to the first of
the next, the pairs its threads name, and its downgrades (a control: a newer writer); every case
runs on every pair whose reader its ``readers`` specifier admits, on each backend.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.planning import versions
from harness.project import PROJECT
from harness.runtime import frameworks, importing
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.runtime.scenario import BACKENDS, ScenarioError, backend_case_id, split_backend
from harness.runtime.upgrade import Pair, Upgrade

SCRIPT = "repro.py"
DECLARATION = "upgrade.py"


@dataclass(frozen=True)
class UpgradeScenario:
    """An upgrade bug folder: its id, framework, declaration and script."""

    id: str
    framework: str
    declaration: Upgrade
    folder: Path

    @property
    def script(self) -> Path:
        return self.folder / SCRIPT

    def case_ids(self) -> list[str]:
        """Every case of the script: each declared case on each backend (``<case>-postgresql``)."""
        return [
            backend_case_id(case, backend) for case in self.declaration.cases for backend in self.declaration.backends
        ]

    def backend(self, case_id: str) -> str:
        return split_backend(case_id)[1]

    def base_case(self, case_id: str) -> str:
        return split_backend(case_id)[0]

    def inputs(self) -> str:
        """The digest of what answers a pair: the script (a result of an older script is re-run)."""
        return hashlib.sha256(self.script.read_bytes()).hexdigest()[:16]


@dataclass(frozen=True)
class PlannedPair:
    """One (case, writer, reader) run of an upgrade scenario, and why the pair is in its grid."""

    scenario: UpgradeScenario
    case: str
    writer: str
    reader: str
    why: str

    @property
    def name(self) -> str:
        return f"{self.scenario.id}:{self.case} {self.writer} -> {self.reader}"


def _load(path: Path) -> Upgrade:
    folder = path.parent.name
    module = importing.import_file(path, f"_upgrades.{folder.replace('-', '_')}", f"upgrade {folder}: {DECLARATION}")
    declaration = getattr(module, "UPGRADE", None)
    if not isinstance(declaration, Upgrade):
        raise ScenarioError(f"upgrade {folder}: {DECLARATION} must define UPGRADE = Upgrade(...)")
    return declaration


def _script_cases(scenario: UpgradeScenario) -> set[str]:
    """The script's ``CASES`` keys: its top level imports the standard library only (the framework's
    imports live in its steps), so it is imported here as a reproduction script is."""
    name = f"_upgrade_scripts.{scenario.id.replace('-', '_')}"
    module = importing.import_file(scenario.script, name, f"upgrade {scenario.id}: {SCRIPT}")
    cases = getattr(module, "CASES", None)
    if not isinstance(cases, dict):
        raise ScenarioError(f"upgrade {scenario.id}: {SCRIPT} must define CASES, a dict of case id -> parameters")
    return set(cases)


def _check(scenario: UpgradeScenario) -> None:
    """Refuse a declaration that disagrees with itself or its script (one line: what and what is valid)."""
    where, d = f"upgrade {scenario.id}", scenario.declaration
    if not scenario.script.is_file():
        raise ScenarioError(f"{where}: no {SCRIPT} beside its {DECLARATION}")
    cases = _script_cases(scenario)
    if cases != set(scenario.case_ids()):
        raise ScenarioError(
            f"{where}: {SCRIPT}'s CASES ({', '.join(sorted(cases))}) are not the declared cases on their "
            f"backends ({', '.join(sorted(scenario.case_ids()))})"
        )
    known = set(d.releases)
    order = [versions.key(v) for v in d.releases]
    if order != sorted(order) or len(known) != len(d.releases):
        raise ScenarioError(f"{where}: releases must be distinct and oldest first")
    for pair in (*d.pairs, *d.downgrades):
        for v in (pair.writer, pair.reader):
            if v not in known:
                raise ScenarioError(f"{where}: pair {pair.writer} -> {pair.reader} names {v}, not in its releases")
    for step in d.proofs:
        if (
            step.case not in scenario.case_ids()
            or step.outcome not in (REPRODUCED, FIXED)
            or not {
                step.writer,
                step.reader,
            }
            <= known
        ):
            raise ScenarioError(
                f"{where}: proof {step} names an unknown case, a release not in its releases, "
                "or an outcome other than reproduced/fixed"
            )
    for b in d.backends:
        if b not in BACKENDS:
            raise ScenarioError(f"{where}: backend {b!r}; valid: {', '.join(BACKENDS)}")


def discover(directory: Path = PROJECT.upgrades) -> dict[str, UpgradeScenario]:
    """Every upgrade scenario of ``directory``, by id (none when the folder does not exist)."""
    found = {}
    for path in sorted(directory.glob(f"*/{DECLARATION}")):
        folder = path.parent
        framework = next((f.name for f in frameworks.FRAMEWORKS.values() if folder.name.startswith(f.id_prefix)), "")
        if not framework:
            prefixes = ", ".join(f.id_prefix for f in frameworks.FRAMEWORKS.values())
            raise ScenarioError(f"upgrade {folder.name}: the folder's name must start with one of {prefixes}")
        scenario = UpgradeScenario(folder.name, framework, _load(path), folder)
        _check(scenario)
        found[scenario.id] = scenario
    return found


def grid_pairs(declaration: Upgrade) -> list[Pair]:
    """The scenario's pairs, in the grid's order: adjacent ones of each line, the step from each line
    to the next, the threads' pairs, the proofs' pairs, then the downgrades; each pair once."""
    releases = list(declaration.releases)
    out: dict[tuple[str, str], Pair] = {}
    for older, newer in itertools.pairwise(releases):
        same_line = versions.line(older) == versions.line(newer)
        why = (
            "the next release of its line"
            if same_line
            else f"the last of {versions.line(older)} to the first of {versions.line(newer)}"
        )
        out.setdefault((older, newer), Pair(older, newer, why))
    for pair in declaration.pairs:
        out[(pair.writer, pair.reader)] = pair
    for step in declaration.proofs:
        out.setdefault((step.writer, step.reader), Pair(step.writer, step.reader, f"a proof: must give {step.outcome}"))
    for pair in declaration.downgrades:
        out[(pair.writer, pair.reader)] = Pair(pair.writer, pair.reader, pair.why or "a downgrade (control)")
    return list(out.values())


def plan(scenario: UpgradeScenario, only_case: str | None = None) -> list[PlannedPair]:
    """Every (case, pair) of the scenario's grid; ``only_case``: one case id (with its backend suffix)."""
    out = []
    for case_id in scenario.case_ids():
        if only_case and case_id != only_case:
            continue
        readers = scenario.declaration.cases[scenario.base_case(case_id)].readers
        for pair in grid_pairs(scenario.declaration):
            if readers and not versions.matches(pair.reader, readers):
                continue
            out.append(PlannedPair(scenario, case_id, pair.writer, pair.reader, pair.why))
    return out


def select(scenarios: dict[str, UpgradeScenario], selectors: list[str]) -> list[PlannedPair]:
    """The pairs of the upgrade scenarios ``selectors`` name (``id`` or ``id:case``); all when empty."""
    if not selectors:
        return [p for s in scenarios.values() for p in plan(s)]
    out: list[PlannedPair] = []
    for selector in selectors:
        scenario_id, _, case_id = selector.partition(":")
        if scenario_id not in scenarios:
            raise UsageError(f"unknown upgrade scenario {scenario_id!r}; valid: {', '.join(sorted(scenarios))}")
        if case_id and case_id not in scenarios[scenario_id].case_ids():
            valid = ", ".join(scenarios[scenario_id].case_ids())
            raise UsageError(f"unknown case {case_id!r} of upgrade {scenario_id}; valid: {valid}")
        out += [p for p in plan(scenarios[scenario_id], case_id or None) if p not in out]
    return out
