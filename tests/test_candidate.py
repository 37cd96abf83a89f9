"""The reusable workflow's commands (.github/workflows/framework-pr.yml runs `nox -s candidate --
PATH`), run here without GitHub on local checkouts made from release sdists (issue 29).

google-adk 2.8.0's sdist with the retry PR's guard applied fixes the two retry cases against
its baseline (2.8.0); the unpatched sdist fixes and breaks nothing; 2.13.0's sdist with the 2.9.0
guard taken out brings the duplicate back: a regression, named, exit 1; so does openai-agents
0.24.0's sdist with 0.19.0's nested-handoff de-duplication undone (issue 37).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from conftest import ROOT
from harness.execution.candidate import FAILING
from harness.planning import index

pytestmark = pytest.mark.slow
RETRY = "adk-retry-same-invocation-id"
ADK_28_APPEND = (
    "    if any(p.function_call for p in new_message.parts):\n"
    "      raise ValueError('User message cannot contain function calls.')\n"
)
# The seed PR's guard (google/adk-python#4506): skip only an identical message with an identical state_delta.
SEED_GUARD = (
    "    if any(\n"
    "        e.author == 'user' and e.invocation_id == invocation_context.invocation_id\n"
    "        and e.content == new_message\n"
    "        and (e.actions.state_delta or {}) == (state_delta or {})\n"
    "        for e in session.events\n"
    "    ):\n      return\n"
)
HANDOFF = "agents-nested-handoff-4hop"
# 0.19.0's de-duplication, as 0.24.0 still has it (agents/handoffs/history.py; reports/boundaries/
# agents-nested-handoff-4hop.json): the default history summarises the transcript in order with
# the forwarded items inside it, and hands nothing on as pre_handoff_items or input_items, so no
# verbatim copy comes back at the next hop to be summarised again.
DEFAULT_HISTORY_BRANCH = "    if history_mapper is not None:\n        transcript = flattened_history"
NOTHING_FORWARDED = (
    "        pre_handoff_items=(),\n"
    "        # The mapped history is the exact model input. New items stay unchanged for session\n"
    "        # history.\n"
    "        input_items=(),\n"
)
# 0.18.3's way: summarise every item, the forwarded ones too, and forward them verbatim as well.
SUMMARISE_ALL = "    history_mapper = history_mapper or default_handoff_history_mapper\n"
FORWARDED_AS_0_18 = (
    "        pre_handoff_items=tuple(r for _, forward, r in normalized_pre_items if forward),\n"
    "        input_items=tuple(r for _, forward, r in normalized_new_items if forward),\n"
)
# What 0.18.3 gives (reports/matrix.json): all three cases reproduce there, the probe of
# identical messages included (4 records where 2 belong), so undoing the fix regresses all three.
HANDOFF_0_18_FIGURES = {
    "nested-4hop": "'A: msg' x2, 'B: msg' x2",
    "nested-4hop-streamed": "'A: msg' x2, 'B: msg' x2",
    "identical-messages-kept": "reaches D 4 times (4 summary records, 0 verbatim), expected 2",
}
# 2.9.0's guard, as 2.13.0 still has it (tests/test_matrix_e2e.py patches the same lines).
GUARD_290 = (
    "    if not is_function_response and self._find_user_message_for_invocation(\n"
    "        invocation_context.session.events, invocation_context.invocation_id\n"
    "    ):\n      return\n"
)


# The scenarios each patch can reach (the ones that run the edited file's changed code), so each
# test runs what its patch touches: google-adk's runners.py (the user-message guard; every scenario
# runs the Runner, these are the ones about its events and resumption), openai-agents' handoff history, and its
# input guardrails.
RUNNER_SCENARIOS = (RETRY, "adk-subagent-lro-second-resume", "adk-orchestrator-crash-resume", "adk-transfer-output-key")
HANDOFF_SCENARIOS = (HANDOFF, "agents-to-input-list-after-handoff", "agents-chat-fake-id-to-responses")
GUARDRAIL_SCENARIOS = (
    "agents-input-guardrail-run-data",
    "agents-output-guardrail-run-data",
    "agents-tripwire-drops-tool-items",
)


def checkout(
    tmp_path: Path, version: str, edit=None, package: str = "google-adk", edited: str = "google/adk/runners.py"
) -> Path:
    """``package``'s sdist of ``version`` unpacked, with ``edit`` applied to ``src/<edited>``."""
    work = tmp_path / f"sdist-{version}"
    work.mkdir()
    with tarfile.open(index.download_sdist(package, version, work, ROOT / ".nox" / ".harness-cache")) as tf:
        tf.extractall(work, filter="data")
    tree = work / f"{package.replace('-', '_')}-{version}"
    if edit:
        source = tree / "src" / edited
        source.write_text(edit(source.read_text()))
    return tree


def project_copy(tmp_path: Path) -> Path:
    project = tmp_path / "harness"
    for name in ("harness", "scenarios", "snapshots", "reports"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__", "runs"))
    shutil.copy(ROOT / "pyproject.toml", project)
    (project / ".nox").mkdir()
    builds = ROOT / ".nox" / "builds"  # shared with the checkout's own runs (environments are locked per build)
    builds.mkdir(parents=True, exist_ok=True)
    (project / ".nox" / "builds").symlink_to(builds.resolve())
    return project


def candidate(
    project: Path, tree: Path, out: Path, gaps: list[float] | None = None, only: tuple[str, ...] = ()
) -> tuple[int, str, str]:
    """What the workflow's evidence step runs (`nox -s candidate -- PATH --out DIR` runs this);
    ``gaps``: filled with the seconds between stderr's lines (and from the start to the first);
    ``only``: the scenarios the edit can reach (--only; none: every scenario of the framework, as the
    workflow runs it; one test runs that way, the others only what their patch touches, issue 51:
    the suite must not grow with the library)."""
    selection = ["--only", ",".join(only)] if only else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "candidate", str(tree), "--out", str(out), "--jobs", "2", *selection],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    last, lines = time.monotonic(), []
    for line in proc.stderr:  # as the harness writes them: a CI log's view
        now = time.monotonic()
        if gaps is not None:
            gaps.append(now - last)
        last = now
        lines.append(line)
    proc.wait()
    summary = (out / "summary.md").read_text() if (out / "summary.md").exists() else ""
    return proc.returncode, summary, "".join(lines)


def test_a_fix_applied_to_an_old_release_is_named_as_fixing_the_retry_cases(tmp_path):
    def apply_seed_guard(text: str) -> str:
        assert ADK_28_APPEND in text, "2.8.0's runners.py moved; update this test's patch"
        return text.replace(ADK_28_APPEND, ADK_28_APPEND + SEED_GUARD, 1)

    project = project_copy(tmp_path)
    tree = checkout(tmp_path, "2.8.0", apply_seed_guard)
    rc, summary, err = candidate(project, tree, tmp_path / "fixed", only=RUNNER_SCENARIOS)
    assert rc == 0, err
    assert "on the candidate and on `google-adk==2.8.0`" in summary
    assert f"Only what --only named (`{RETRY}`, " in summary  # a selection is said, never read as the whole library
    fixed = summary.split("**Fixed by the candidate:**", 1)[1].split("**Regressions", 1)[0]
    assert f"`{RETRY}:resumable-resume` (reproduced → fixed)" in fixed
    assert f"`{RETRY}:non-resumable-retry` (reproduced → fixed)" in fixed
    assert f"**{FAILING}:** none." in summary
    assert f"<summary>{RETRY}: the before/after comment</summary>" in summary


# One scenario of each kind of machinery a candidate build runs: the Runner, a database on SQLite
# and PostgreSQL, an MCP server subprocess, a model class over fake HTTP, and the runner's SSE path.
# That the workflow's default (no --only) selects every scenario is tests/test_progress.py's: the
# whole library here cost 178 s of the suite (issue 51: the suite must not grow with the library).
PLAIN_SAMPLE = (
    *RUNNER_SCENARIOS,
    "adk-database-compaction-dict",
    "adk-mcp-stdio-close-cancel-scope",
    "adk-openapi-nullable-anyof",
    "adk-sse-function-call-dedupe",
)


def test_an_unpatched_release_fixes_and_breaks_nothing(tmp_path):
    project = project_copy(tmp_path)
    rc, summary, err = candidate(project, checkout(tmp_path, "2.8.0"), tmp_path / "plain", only=PLAIN_SAMPLE)
    assert rc == 0, err
    assert "**Fixed by the candidate:** none." in summary
    assert f"**{FAILING}:** none." in summary


def test_a_reverted_guard_is_a_regression_named_with_exit_1(tmp_path):
    def revert_guard(text: str) -> str:
        assert GUARD_290 in text, "the 2.13.0 guard moved; update this test's patch"
        return text.replace(GUARD_290, "", 1)

    project = project_copy(tmp_path)
    gaps: list[float] = []
    tree = checkout(tmp_path, "2.13.0", revert_guard)
    rc, summary, err = candidate(project, tree, tmp_path / "reverted", gaps, only=RUNNER_SCENARIOS)
    assert rc == 1, err
    # Issue 37: a line of progress at least every 5 s of a real candidate run; steps named truly.
    assert max(gaps) <= 5.0, f"{max(gaps):.1f}s without a line of progress:\n{err}"
    assert "done; 0 left" not in err and "--out was given" not in err and "--update-snapshots" not in err
    assert "next: step 2/2, the releases it is judged against" in err
    # No copy of a script (issue 35): the summary runs the bug's script on the baseline.
    assert not (tmp_path / "reverted" / "scripts").exists()
    # On the newest release the record has the case fixed (2.13.0 until 2.14.1 and 2.15.0 came, b756338).
    assert re.search(r"- fixed on (\d+\.\d+\.\d+): `uv run --with google-adk==\1 --exclude-newer ", summary), summary
    regressions = summary.split(f"**{FAILING}:**", 1)[1]
    assert f"`{RETRY}:resumable-resume` (fixed → reproduced): regressed" in regressions
    assert f"regression: {RETRY}:resumable-resume was fixed on google-adk 2.13.0" in err


def test_an_undone_handoff_dedup_names_exactly_its_three_cases_with_exit_1(tmp_path):
    """Issue 37, done when: openai-agents 0.24.0's sdist with 0.19.0's nested-handoff
    de-duplication undone is reported with exactly the regressions it brings back, exit 1."""

    def undo_dedup(text: str) -> str:
        assert DEFAULT_HISTORY_BRANCH in text, "0.24.0's nested history moved; update this test's patch"
        assert NOTHING_FORWARDED in text, "0.24.0's nested handoff data moved; update this test's patch"
        text = text.replace(DEFAULT_HISTORY_BRANCH, SUMMARISE_ALL + DEFAULT_HISTORY_BRANCH, 1)
        return text.replace(NOTHING_FORWARDED, FORWARDED_AS_0_18, 1)

    project = project_copy(tmp_path)
    tree = checkout(tmp_path, "0.24.0", undo_dedup, package="openai-agents", edited="agents/handoffs/history.py")
    rc, summary, err = candidate(project, tree, tmp_path / "undone", only=HANDOFF_SCENARIOS)
    assert rc == 1, err
    assert "on the candidate and on `openai-agents==0.24.0`" in summary
    assert "**Fixed by the candidate:** none." in summary
    assert "Other changes" not in summary
    regressions = summary.split(f"**{FAILING}:**", 1)[1]
    named = [
        line
        for line in regressions.split("cases unchanged.", 1)[0].split("<details>", 1)[0].splitlines()
        if line.startswith("- ")
    ]
    # Issue 48: each names the upstream commit it undoes, as the record's commit bisect measured it.
    fix = "fixed upstream by 15bac1955 (#3823, 2026-07-17), first released in 0.19.0"
    assert sorted(named) == sorted(
        f"- `{HANDOFF}:{case}` (fixed → reproduced): regressed; the case was {fix}" for case in HANDOFF_0_18_FIGURES
    )
    said = sorted(line.split(", reproduces on", 1)[0] for line in err.splitlines() if line.startswith("regression: "))
    assert said == sorted(
        f"regression: {HANDOFF}:{case} was fixed on openai-agents 0.24.0" for case in HANDOFF_0_18_FIGURES
    )
    report = (tmp_path / "undone" / f"{HANDOFF}.md").read_text()  # the summary names; the report has figures
    for figures in HANDOFF_0_18_FIGURES.values():
        assert figures in report, f"the regression's figures {figures!r} are not in the scenario's report"


GUARDRAIL = "agents-input-guardrail-run-data"
# openai-agents 0.24.0's agents/run_internal/guardrails.py, run_input_guardrails: every result is
# recorded into the run's list (results_sink) as it completes (#4071's way), and the function ends
# here when no guardrail tripped.
SUCCESS_END = "        raise\n\n    return guardrail_results\n\n\nasync def run_output_guardrails("
# The breakage issue 52 names: on the success path the run's list loses every entry (a run whose
# guardrail trips still records them all: only no-tripwire's verdict can change).
SUCCESS_LOST = (
    "        raise\n\n    if results_sink is not None:\n        results_sink.clear()\n"
    "    return guardrail_results\n\n\nasync def run_output_guardrails("
)
WAIVER = f"""[[waiver]]
case = "{GUARDRAIL}:no-tripwire"
from = "fixed"
to = "unexpected"
reason = "successful runs no longer keep their input guardrail results (accepted for this test)"
link = "https://github.com/openai/openai-agents-python/issues/0"
"""


def test_a_fixed_case_turned_unexpected_fails_the_check_unless_the_framework_waives_it(tmp_path):
    """Issue 52, done when: 0.24.0's sdist whose successful runs lose their input guardrail results
    exits 1 naming exactly `agents-input-guardrail-run-data:no-tripwire` fixed -> unexpected
    (it was "Other changes" and exit 0); with the framework's waiver file accepting that change
    it exits 0 and the summary shows it accepted, with its reason."""

    def lose_success_results(text: str) -> str:
        assert text.count(SUCCESS_END) == 1, "0.24.0's run_input_guardrails moved; update this test's patch"
        return text.replace(SUCCESS_END, SUCCESS_LOST, 1)

    project = project_copy(tmp_path)
    tree = checkout(
        tmp_path, "0.24.0", lose_success_results, package="openai-agents", edited="agents/run_internal/guardrails.py"
    )
    rc, summary, err = candidate(project, tree, tmp_path / "lost", only=GUARDRAIL_SCENARIOS)
    assert rc == 1, err
    failing = summary.split(f"**{FAILING}:**", 1)[1].split("cases unchanged.", 1)[0]
    named = [line for line in failing.split("<details>", 1)[0].splitlines() if line.startswith("- ")]
    assert named == [f"- `{GUARDRAIL}:no-tripwire` (fixed → unexpected): changed"], summary
    assert f"<summary>{GUARDRAIL}:no-tripwire: the baseline's timeline → the candidate's</summary>" in failing
    said = [line for line in err.splitlines() if line.startswith(("regression: ", "changed: "))]
    assert said == [
        f"changed: {GUARDRAIL}:no-tripwire was fixed on openai-agents 0.24.0, is unexpected on local:{tree.name}"
    ]

    (tree / ".agent-bug-harness.toml").write_text(WAIVER)
    rc, summary, err = candidate(project, tree, tmp_path / "waived", only=GUARDRAIL_SCENARIOS)
    assert rc == 0, err
    assert f"**{FAILING}:** none." in summary
    accepted = summary.split("**Accepted by the framework's waivers (.agent-bug-harness.toml", 1)[1]
    assert f"- `{GUARDRAIL}:no-tripwire` (fixed → unexpected): successful runs no longer keep" in accepted
    assert f"accepted: {GUARDRAIL}:no-tripwire (fixed -> unexpected) by .agent-bug-harness.toml" in err
