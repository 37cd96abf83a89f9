"""Issue 45: after a script edit, a bisect's interior probes were ignored (answered by older code)
and ``audit`` said "unknown" over whole bisected ranges until every bisect was re-run by hand. Now
they are pending: the next matrix or bisect run of the scenario asks those releases again and
writes the answers back as probes, so the range keeps its answers."""

from __future__ import annotations

from conftest import ROOT
from harness.execution import pending
from harness.runtime import registry
from harness.store import boundaries, membership, result_cache
from harness.store.bisect_record import BisectRecord, Probe, Range
from harness.store.rows import Row

SCENARIO = "adk-instruction-dollar-brace"


def _probe(version: str, outcome: str, inputs: str, case: str = "missing-key") -> Probe:
    return Probe(SCENARIO, case, "google-adk", version, outcome, "", inputs)


def _row(version: str, outcome: str, inputs: str) -> Row:
    return Row.from_json(
        {
            "scenario": SCENARIO,
            "case": "missing-key",
            "framework": "google-adk",
            "version": version,
            "source": f"google-adk=={version}",
            "outcome": outcome,
            "detail": "",
            "snapshot": "match",
            "inputs": inputs,
        }
    )


def test_probes_older_code_answered_are_pending_until_asked_again_and_then_count():
    scenario = registry.discover()[SCENARIO]
    current = result_cache.scenario_inputs(ROOT, scenario.module)
    record = BisectRecord(
        {"google-adk": ("2.0.0", "2.1.0", "2.2.0", "2.3.0", "2.4.0")},
        (Range(SCENARIO, "missing-key", "google-adk", "2.0.0", "2.4.0"),),
        (
            _probe("2.1.0", "reproduced", "old"),
            _probe("2.2.0", "reproduced", "old"),
            _probe("2.3.0", "reproduced", current),  # answered by the current code: not pending
            _probe("2.4.0", "fixed", "old"),  # the record has a current result there: not pending
            _probe("2.1.0", "reproduced", "old", case="no-such-case"),  # a case the scenario no longer has
        ),
    )
    results = [_row("2.0.0", "reproduced", current), _row("2.4.0", "fixed", current)]
    stale = boundaries.known(record, results, SCENARIO, "missing-key", "google-adk", current)
    assert sorted(stale.points) == ["2.0.0", "2.3.0", "2.4.0"] and stale.stale == 3

    [todo] = pending.find(record, results, [scenario], ROOT)
    assert todo.cases == {"2.1.0": ["missing-key"], "2.2.0": ["missing-key"]} and todo.inputs == current
    assert pending.find(record, results, [scenario], ROOT, only_cases={f"{SCENARIO}:state-has-key"}) == []

    fresh = [_probe("2.1.0", "reproduced", current), _probe("2.2.0", "fixed", current)]
    known = boundaries.known(record.with_probes(fresh), results, SCENARIO, "missing-key", "google-adk", current)
    assert known.points == {"2.0.0": "reproduced", "2.1.0": "reproduced", "2.2.0": "fixed", "2.3.0": "reproduced",
                            "2.4.0": "fixed"}  # fmt: skip
    at_2_1 = [p for p in record.with_probes(fresh).probes if p.version == "2.1.0"]
    assert sorted(at_2_1, key=lambda p: p.case) == [
        _probe("2.1.0", "reproduced", current),  # in place of the stale one
        _probe("2.1.0", "reproduced", "old", case="no-such-case"),
    ]
    assert pending.find(record.with_probes(fresh), results, [scenario], ROOT) == []


def test_a_boundary_that_older_codes_probes_found_keeps_its_releases_in_the_matrix(tmp_path):
    """Issue 45: after a script edit, a matrix run dropped 15 results of 5 boundary releases (google-adk
    1.21.0 of adk-planreact-final-answer-tags, openai-agents 0.0.19, 0.5.1, 0.2.11) from the record,
    because their probes no longer counted. Pending probes keep them in the matrix."""
    from harness.store.snapshots import SnapshotStore

    scenario = registry.discover()[SCENARIO]
    record_ = BisectRecord(probes=(_probe("2.5.0", "reproduced", "old"), _probe("2.6.0", "fixed", "old")))
    releases = membership.scenario_releases(scenario, ["2.13.0"], SnapshotStore(tmp_path / "empty"), record_, [])
    assert {"2.5.0", "2.6.0"} <= set(releases)
