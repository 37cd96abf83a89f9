"""docs/CONTRACT.md, the public contract, read against the code (issue 47: the contract inside the
repository, kept in step by a test): the outcome words, the record's schema version and keys, the
isolation words, the ids the contract fixes, and the scripts' exit statuses."""

from __future__ import annotations

import json
import re

from conftest import ROOT
from harness.execution import isolation
from harness.execution.audit_run import EXIT_WORDS
from harness.runtime import registry
from harness.runtime.outcomes import OUTCOMES
from harness.store import bisect_record, environment, record

PAGE = (ROOT / "docs" / "CONTRACT.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = PAGE.index(f"## {title}")
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start : end if end != -1 else None]


def _example() -> dict:
    """The record's example, its // remarks and elisions taken out."""
    block = _section("reports/matrix.json").split("```")[1]
    lines = [re.sub(r"\s*//.*$", "", line) for line in block.splitlines()]
    return json.loads("\n".join(lines).replace('"..."', '""'))


def test_the_outcome_table_names_the_five_outcomes_in_order():
    words = re.findall(r"^\| `([a-z-]+)` \|", _section("Outcomes"), re.M)
    assert tuple(words) == OUTCOMES


def test_the_records_example_has_the_schema_version_and_every_key_the_record_writes():
    """Every key of a row, an upgrade row and an environment the committed record holds is in the
    example and the other way round (``timeline`` only where a row differs from its snapshot)."""
    example = _example()
    document = json.loads((ROOT / "reports" / "matrix.json").read_text())
    assert example["schema_version"] == record.SCHEMA_VERSION == document["schema_version"]
    assert set(example) == set(document)
    assert set(example["harness"]) == set(document["harness"])
    for key in ("results", "upgrades", "environments"):
        written = {k for row in document[key] for k in row}
        assert set(example[key][0]) - {"timeline"} == written - {"timeline"}, key
    assert {e["isolation"] for e in document["environments"]} <= {isolation.NAMESPACE, isolation.GUARD_ONLY}
    # A record's environment (harness/store/environment.py ``Environment``) writes the example's keys, in its order.
    assert tuple(example["environments"][0]) == environment.BUILT_KEYS
    assert f"{isolation.NAMESPACE} | {isolation.GUARD_ONLY}" in PAGE


def test_the_ids_the_contract_fixes_exist_with_their_cases():
    scenarios = registry.discover()
    section = _section("Scenario and case ids")
    for scenario_id, cases in re.findall(r"^\| `([a-z0-9-]+)` \| (.+) \|$", section, re.M):
        assert scenario_id in scenarios, scenario_id
        declared = {c.id for c in scenarios[scenario_id].cases}
        assert set(re.findall(r"`([a-z0-9-]+)`", cases)) <= declared, scenario_id
    for scenario_id in re.findall(r"`((?:adk|agents)-[a-z0-9-]+)`", section.split("and the scenarios")[1]):
        assert scenario_id in scenarios, scenario_id


def test_the_scripts_exit_statuses_are_the_runners():
    assert EXIT_WORDS == {0: "fixed", 3: "reproduced"}
    assert "0 fixed, 3 reproduced, 125 for" in _section("Exit status")
    block = (ROOT / "scenarios" / "adk-retry-same-invocation-id" / "repro.py").read_text()
    assert 'return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125' in block


def test_the_readme_links_the_contract():
    assert "docs/CONTRACT.md" in (ROOT / "README.md").read_text()


def test_the_bisect_records_example_has_its_schema_version_and_every_key_a_commit_holds():
    """The committed bisect record's commits hold exactly the example's keys (issue 48)."""
    block = _section("reports/bisect.json").split("```")[1].removeprefix("json")
    example = json.loads("\n".join(re.sub(r"\s*//.*$", "", line) for line in block.splitlines()))
    document = json.loads((ROOT / "reports" / "bisect.json").read_text())
    assert example["schema_version"] == bisect_record.SCHEMA_VERSION == document["schema_version"]
    written = {k for c in document["commits"] for k in c}
    assert set(example["commits"][0]) == written
    assert set(bisect_record.COMMIT_KEYS) <= written
