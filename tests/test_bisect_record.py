"""Issue 47, "the record as data that has one owner", for reports/bisect.json: it is read once into
the typed ``BisectRecord`` (harness/store/bisect_record.py: ``Probe``, ``Range``, ``FoundCommit``) and
written back from it, and a read and a write give the committed file back byte for byte. Before, it
was a dict every caller subscripted (pending.py, bisect.py, commit_bisect.py, audit.py, the renderers)."""

from __future__ import annotations

import json

from conftest import ROOT
from harness.planning import interpreters
from harness.store import bisect_record
from harness.store.bisect_record import BisectRecord, FoundCommit, Probe, Range

COMMITTED = ROOT / "reports" / "bisect.json"


def test_the_committed_bisect_record_read_and_written_back_is_byte_identical():
    typed = bisect_record.load(COMMITTED)
    assert bisect_record.dumps(typed) == COMMITTED.read_text()
    # Every entry is read into its type: nothing of the committed file is left unknown.
    assert len(typed.probes) > 1000 and typed.ranges and typed.commits
    assert typed.others == () and all(p.others == () for p in typed.probes)
    assert all(c.others == () and c.files is not None and c.excerpt is not None for c in typed.commits)
    assert BisectRecord.from_json(json.loads(COMMITTED.read_text())) == typed


def test_keys_it_does_not_know_are_kept_and_optional_fields_are_written_only_when_set(tmp_path):
    """A key of a later version (or a hand's note) survives a read and a write; a probe measured on
    the default interpreter has no ``python`` and one without a digest no ``inputs`` (issue 46: what was
    measured before the interpreter axis keeps its bytes)."""
    document = {
        "schema_version": bisect_record.SCHEMA_VERSION,
        "note": "kept",
        "releases": {"google-adk": ["2.9.0", "2.8.0"]},
        "bisects": [{"scenario": "s", "case": "c", "framework": "google-adk", "from": "2.8.0", "to": "2.9.0"}],
        "probes": [
            {
                "scenario": "s",
                "case": "c",
                "framework": "google-adk",
                "version": "2.9.0",
                "outcome": "fixed",
                "later": {"x": 1},
            },
        ],
        "commits": [
            {**dict.fromkeys(bisect_record.COMMIT_KEYS, "v"), "pr": None, "before": "2.8.0", "after": "2.9.0", "new": 2}
        ],
    }
    path = tmp_path / "bisect.json"
    path.write_text(json.dumps(document))
    typed = bisect_record.load(path)
    written = json.loads(bisect_record.dumps(typed))
    assert written["note"] == "kept" and written["probes"][0]["later"] == {"x": 1} and written["commits"][0]["new"] == 2
    assert written["releases"] == {"google-adk": ["2.8.0", "2.9.0"]}  # normalised: oldest first
    assert "detail" not in written["probes"][0] and "files" not in written["commits"][0]
    fresh = Probe.of("s", "c", "google-adk", "2.8.0", "reproduced", "", None, interpreters.DEFAULT)
    assert fresh.to_json() == {
        "scenario": "s", "case": "c", "framework": "google-adk", "version": "2.8.0", "outcome": "reproduced",
        "detail": "",
    }  # fmt: skip
    assert Probe.of("s", "c", "google-adk", "2.8.0", "fixed", "", "d", "3.12").to_json()["python"] == "3.12"
    assert Range.of("s", "c", "google-adk", "2.8.0", "2.9.0", interpreters.DEFAULT).to_json().get("python") is None


def test_the_last_probe_range_and_commit_given_win_and_the_record_is_sorted():
    first = Probe("s", "c", "google-adk", "2.10.0", "reproduced", "old", "a")
    again = Probe("s", "c", "google-adk", "2.10.0", "fixed", "new", "b")
    other = Probe("s", "c", "google-adk", "2.9.0", "fixed", "", "b")
    elsewhere = Probe("s", "c", "google-adk", "2.10.0", "reproduced", "", "b", "3.12")
    record = BisectRecord().with_bisect(
        [first, other], Range("s", "c", "google-adk", "2.9.0", "2.10.0"), ["2.10.0", "2.9.0"], "google-adk"
    )
    record = record.with_probes([again, elsewhere])
    assert record.probes == (other, again, elsewhere)  # by version, then interpreter; 2.10.0 replaced
    assert record.releases_of("google-adk") == ("2.9.0", "2.10.0")
    found = FoundCommit("s", "c", "google-adk", "2.9.0", "2.10.0", "a" * 40, "aaaaaaaaa", "fix", "2026-01-01")
    record = record.with_commit(found).with_commit(found.replace(short="bbbbbbbbb"))
    assert [c.short for c in record.commits] == ["bbbbbbbbb"]
    assert record.commit_of("s", "c", "google-adk", "2.9.0", "2.10.0") == record.commits[0]
    assert record.commit_of("s", "c", "google-adk", "2.8.0", "2.10.0") is None
    assert record.commits_of("s", "c", "google-adk") == list(record.commits)


def test_schema_2_reads_as_one_with_no_commits_and_writes_schema_3(tmp_path):
    path = tmp_path / "bisect.json"
    probe = {"scenario": "s", "case": "c", "framework": "google-adk", "version": "2.9.0", "outcome": "fixed"}
    path.write_text(json.dumps({"schema_version": 2, "releases": {}, "bisects": [], "probes": [probe]}))
    typed = bisect_record.load(path)
    assert typed.commits == () and typed.probes == (Probe.from_json(probe),)
    assert json.loads(bisect_record.dumps(typed))["schema_version"] == 3
