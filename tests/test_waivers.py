"""The candidate's check and a framework's waivers (issue 52), without a build: which changes
fail the check, which a waiver accepts, which waivers are stale or expired, and a malformed file
refused in one line (exit 2) before any work. tests/test_candidate.py runs the same on real
builds (slow)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from harness.errors import UsageError
from harness.execution.candidate import FAILING, Change, stale_waivers, summary
from harness.planning import waivers
from harness.planning.waivers import Waiver

GUARD = "agents-input-guardrail-run-data"
LINK = "https://github.com/openai/openai-agents-python/pull/1"


@pytest.mark.parametrize(
    ("before", "after", "kind", "fails"),
    [
        ("fixed", "reproduced", "regression", True),
        ("fixed", "unexpected", "lost", True),
        ("fixed", "error", "lost", True),
        ("fixed", "not-applicable", "lost", True),
        ("reproduced", "fixed", "fixed", False),
        ("unexpected", "reproduced", "changed", False),
        ("not-applicable", "fixed", "changed", False),
        ("reproduced", "error", "changed", False),
        ("fixed", "fixed", "unchanged", False),
    ],
)
def test_every_fixed_case_that_is_no_longer_fixed_fails_the_check(before, after, kind, fails):
    change = Change(GUARD, "no-tripwire", before, after)
    assert (change.kind, change.fails) == (kind, fails)


def _summary(*found: Change, stale: list[str] | None = None) -> str:
    return summary(
        "openai-agents", "local:x", "openai-agents==0.24.0", "openai-agents==0.24.0", list(found), {}, None, stale
    )


def test_a_fixed_case_turned_unexpected_is_under_the_failing_heading_with_its_diff():
    diff = "--- a\n+++ b\n@@ -1 +1 @@\n-input_guardrail_results: allow, check\n+input_guardrail_results: (none)\n"
    text = _summary(Change(GUARD, "no-tripwire", "fixed", "unexpected", diff), Change(GUARD, "run", "fixed", "fixed"))
    failing = text.split(f"**{FAILING}:**", 1)[1]
    assert failing.startswith(f"\n\n- `{GUARD}:no-tripwire` (fixed → unexpected): changed\n")
    assert "+input_guardrail_results: (none)" in failing
    assert "Other changes" not in text


def test_a_change_of_a_case_that_was_not_fixed_is_listed_and_does_not_fail():
    change = Change(GUARD, "run", "unexpected", "reproduced")
    text = _summary(change)
    assert f"**{FAILING}:** none." in text
    assert f"- `{GUARD}:run` (unexpected → reproduced)" in text.split("**Other changes", 1)[1]


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / waivers.FILE_NAME
    path.write_text(text)
    return path


ACCEPT = f"""
[[waiver]]
case = "{GUARD}:no-tripwire"
from = "fixed"
to = "unexpected"
reason = "successful runs keep no guardrail results on purpose"
link = "{LINK}"
until = "0.25.0"
"""


def test_a_waiver_accepts_exactly_its_change_until_its_release(tmp_path):
    (waiver,) = waivers.read(_file(tmp_path, ACCEPT))
    assert waiver == Waiver(GUARD, "no-tripwire", "fixed", "unexpected", waiver.reason, LINK, "0.25.0")
    from harness.execution import candidate
    from harness.runtime.result import CaseResult
    from harness.store.rows import Row

    def row(case: str, outcome: str, source: str) -> Row:
        return Row(CaseResult(GUARD, case, outcome, "", ""), "openai-agents", "0.24.0", source)

    results = [
        row("no-tripwire", "fixed", "base"),
        row("no-tripwire", "unexpected", "cand"),
        row("run", "fixed", "base"),
        row("run", "reproduced", "cand"),
    ]
    found = candidate.changes(results, "base", "cand", (waiver,), "0.24.1")
    assert [(c.case, c.accepted is not None, c.fails) for c in found] == [
        ("no-tripwire", True, False),
        ("run", False, True),
    ]
    text = _summary(*found)
    accepted = text.split("**Accepted by the framework's waivers", 1)[1]
    assert f"- `{GUARD}:no-tripwire` (fixed → unexpected): successful runs keep no guardrail results" in accepted
    assert f"`{GUARD}:no-tripwire`" not in text.split(f"**{FAILING}:**", 1)[1].split("**Accepted", 1)[0]
    # Past its release the waiver is expired: the change fails again, and the waiver is listed.
    later = candidate.changes(results, "base", "cand", (waiver,), "0.26.0")
    assert [c.fails for c in later] == [True, True]
    assert "expired (the candidate is 0.26.0, past 0.25.0)" in stale_waivers((waiver,), later, "0.26.0")[0]
    # A waiver of another change (here: to error) accepts nothing and is stale.
    other = Waiver(GUARD, "no-tripwire", "fixed", "error", "r", LINK)
    assert candidate.changes(results, "base", "cand", (other,), "0.24.1")[0].fails
    stale = stale_waivers((other,), candidate.changes(results, "base", "cand", (other,), "0.24.1"), "0.24.1")
    assert stale and "matched no change of this run" in stale[0]
    assert "**Waivers that accepted nothing" in _summary(*found, stale=stale)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[[waiver]\n", "not valid TOML"),
        ('[[waiver]]\ncase = "x"\n', "lacks 'from'"),
        (ACCEPT.replace('"unexpected"', '"broken"'), "to 'broken' is not an outcome; valid: reproduced, fixed"),
        (ACCEPT.replace(f"{GUARD}:no-tripwire", GUARD), "is not SCENARIO:CASE"),
        (ACCEPT.replace(LINK, "see the thread"), "is not a URL"),
        (ACCEPT.replace('"0.25.0"', '"soon"'), "until 'soon' is not a release version"),
        (ACCEPT + 'colour = "red"\n', "unknown key 'colour'"),
        (ACCEPT + ACCEPT, "is waived twice"),
        ("[waivers]\n", "unknown table 'waivers'"),
    ],
)
def test_a_malformed_waiver_file_is_one_line_naming_what_is_wrong(tmp_path, text, said):
    with pytest.raises(UsageError) as caught:
        waivers.read(_file(tmp_path, text))
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_the_checkout_s_waiver_file_is_found_up_to_its_repository_root(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "pkg").mkdir()
    assert waivers.find(repo / "pkg") is None
    _file(repo, ACCEPT)
    assert waivers.find(repo / "pkg") == (repo / waivers.FILE_NAME).resolve()
    assert waivers.find(tmp_path / "missing.tar.gz") is None


def test_the_candidate_refuses_a_malformed_waiver_file_before_any_work_exit_2(tmp_path):
    checkout = tmp_path / "openai-agents-python"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text('[project]\nname = "openai-agents"\nversion = "0.24.0"\n')
    _file(checkout, "[[waiver]]\ncase = 1\n")
    out = tmp_path / "evidence"
    proc = subprocess.run(
        [sys.executable, "-m", "harness", "candidate", str(checkout), "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "lacks 'case'" in lines[0], proc.stderr
    assert not out.exists()
