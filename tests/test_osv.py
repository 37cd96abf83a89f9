"""The OSV export (issue 38): every bug's record validates against the OSV schema of ossf/osv-schema
(tests/data/osv-schema.json, its source and commit in tests/data/README.md), and its affected ranges,
read with OSV's own range semantics, agree with the audit release by release: no release the record
does not know reads "not affected" (issue 50)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from packaging.version import Version

from harness.commands.cli import main
from harness.project import PROJECT
from harness.rendering import osv
from harness.runtime import registry
from harness.store import audit

SCHEMA = json.loads((Path(__file__).parent / "data" / "osv-schema.json").read_text())


@pytest.fixture(scope="module")
def known() -> dict[str, audit.Knowledge]:
    return audit.knowledge(PROJECT.root, registry.discover().values())


@pytest.fixture(scope="module")
def records(known) -> list[dict]:
    return osv.records(known)


def test_every_record_validates_against_the_osv_schema(records):
    """One record per bug, each valid against the schema (its id pattern: ``x_`` for an unregistered database)."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    assert len(records) == len({r["id"] for r in records}) > 30
    for record in records:
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(record)]
        assert not errors, (record["id"], errors[:3])


def test_the_schema_refuses_an_id_without_the_unregistered_prefix(records):
    """The id pattern is real: the same record with ``HARNESS-`` alone fails validation."""
    bad = {**records[0], "id": records[0]["id"].removeprefix("x_")}
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(bad))


def _affected(events: list[dict], version: str) -> bool:
    """OSV's ECOSYSTEM range evaluation for one range's events (introduced / fixed / last_affected / limit)."""
    v = Version(version)
    limits = [Version(e["limit"]) for e in events if "limit" in e]
    if any(v >= limit for limit in limits):
        return False
    state = False
    points = []
    for e in events:
        for kind in ("introduced", "fixed", "last_affected"):
            if kind in e:
                points.append((Version(e[kind]), kind))
    for at, kind in sorted(points, key=lambda p: (p[0], p[1] != "introduced")):
        if kind == "introduced" and v >= at:
            state = True
        elif (kind == "fixed" and v >= at) or (kind == "last_affected" and v > at):
            state = False
    return state


def test_read_with_osv_semantics_every_release_agrees_with_the_audit(records, known):
    """Release by release, over every release the record and the bisects know: a release is inside an
    affected range exactly when the audit does not know it unaffected (fixed or not-applicable), so every
    answer that reproduces, is unexpected or is unknown reads "affected", never "not affected"; every
    ``fixed`` event names a release known unaffected; there are no ``limit`` events."""
    for record in records:
        bug_id = f"{record['database_specific']['scenario']}:{record['database_specific']['case']}"
        k = known[bug_id]
        ranges = record["affected"][0].get("ranges", [])
        for version in osv.releases(k):
            answer = k.answer(version)
            inside = any(_affected(r["events"], version) for r in ranges)
            assert inside == (answer.outcome not in ("fixed", "not-applicable")), (record["id"], version, answer)
        for r in ranges:
            for e in r["events"]:
                assert "limit" not in e, record["id"]
                if "fixed" in e:
                    assert k.answer(e["fixed"]).outcome in ("fixed", "not-applicable"), (record["id"], e)
        listed = [v for r in ranges for v in r["database_specific"]["unknown"]]
        assert listed == record["database_specific"]["unknown"], record["id"]
    # The record has no unknown answer today (issue 51); that an unknown reads affected is checked in
    # small by the next test.


def test_an_unknown_release_between_two_fixed_ones_is_inside_a_range(known):
    """In small: 1.0.0 fixed, 1.1.0 never run, 1.2.0 fixed. Before issue 50 no range was written and
    OSV read 1.1.0 as not affected; now 1.1.0 is a range of its own, listed unknown."""
    k = next(iter(known.values()))
    small = audit.Knowledge(
        k.bug,
        {"1.0.0": "fixed", "1.2.0": "fixed"},
        {"1.0.0": "matrix", "1.2.0": "matrix"},
        set(),
        (),
        ("1.0.0", "1.1.0", "1.2.0"),
    )
    [r] = osv.ranges(small)
    assert r["events"] == [{"introduced": "1.1.0"}, {"fixed": "1.2.0"}]
    assert r["database_specific"]["unknown"] == ["1.1.0"] and r["database_specific"]["reproduced"] == []
    assert not _affected(r["events"], "1.0.0") and _affected(r["events"], "1.1.0")


def test_known_ranges_of_the_done_when_bugs(records, known):
    """The duplicate user turn: introduced on 2.x, fixed in 2.9.0; its over-correction introduced in 2.9.0 and
    still open; the nested handoff duplication fixed in 0.19.0. The non-regression case relates to its bug.
    google-adk 0.0.1 installs no google.adk package: measured not applicable to every bug (it was an
    unknown range of its own while the record read that install failure as one case's error)."""
    by_id = {r["id"]: r for r in records}
    dup = by_id["x_HARNESS-adk-retry-same-invocation-id-non-resumable-retry"]
    (only,) = dup["affected"][0]["ranges"]
    assert only["events"] == [{"introduced": "2.4.0"}, {"fixed": "2.9.0"}]
    assert only["database_specific"]["unknown"] == []
    assert known["adk-retry-same-invocation-id:non-resumable-retry"].answer("0.0.1").outcome == "not-applicable"
    over = by_id["x_HARNESS-adk-retry-same-invocation-id-retry-different-message"]
    assert over["affected"][0]["ranges"][-1]["events"] == [{"introduced": "2.9.0"}]
    assert over["database_specific"]["kind"] == "non-regression"
    assert "x_HARNESS-adk-retry-same-invocation-id-non-resumable-retry" in over["related"]
    handoff = by_id["x_HARNESS-agents-nested-handoff-4hop-nested-4hop"]
    assert handoff["affected"][0]["ranges"][-1]["events"][-1] == {"fixed": "0.19.0"}
    assert any(ref["url"].endswith("/issues/2171") and ref["type"] == "REPORT" for ref in handoff["references"])


def test_modified_comes_from_the_record_not_the_clock(tmp_path, known, capsys):
    """``modified`` is the newest dependency date of the releases the record ran the bug on, so two exports
    of the same record are byte for byte the same."""
    k = known["adk-retry-same-invocation-id:non-resumable-retry"]
    record = next(r for r in osv.records(known) if r["id"].endswith("-non-resumable-retry"))
    assert record["modified"] == max(k.dates.values())
    assert main(["osv", "--out", str(tmp_path / "a")]) == 0
    assert main(["osv", "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    first = {p.name: p.read_bytes() for p in (tmp_path / "a").iterdir()}
    assert first == {p.name: p.read_bytes() for p in (tmp_path / "b").iterdir()}
    assert len(first) == len(known)
