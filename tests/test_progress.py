"""Issue 37: a candidate run a person can follow and trust. Progress at least every 5 s (a
stand-in for the slow build step keeps it fast), every message true for the command that prints
it, and each run in a folder of its own with its summary and reports (a bug's script is not copied
there: the summary gives the commands that run scenarios/<id>/repro.py on the baseline and a checkout)."""

from __future__ import annotations

import io
import itertools
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT
from harness.errors import UsageError
from harness.execution import candidate, matrix, progress
from harness.planning import index
from harness.runtime import registry
from harness.store import record
from harness.store.rows import Row

RETRY = "adk-retry-same-invocation-id"


class TimedStream(io.StringIO):
    """stderr as a CI log sees it (not a tty), with the time of each line."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[float, str]] = []

    def write(self, text: str) -> int:
        for line in text.splitlines():
            self.lines.append((time.monotonic(), line))
        return super().write(text)

    def isatty(self) -> bool:
        return False


def checkout(tmp_path: Path, framework: str, version: str) -> Path:
    tree = tmp_path / f"{framework}-checkout"
    tree.mkdir()
    (tree / "pyproject.toml").write_text(f'[project]\nname = "{framework}"\nversion = "{version}"\n')
    return tree


def outcome(source: str, scenario_id: str) -> str:
    """The candidate brings the retry duplicate back; everything else is fixed on both."""
    return "reproduced" if source.startswith("local:") and scenario_id == RETRY else "fixed"


def rows_of(framework: str, source: str, version: str | None) -> list[Row]:
    return [
        Row.from_json(
            {
                "scenario": s.id,
                "case": c.id,
                "framework": framework,
                "version": version,
                "source": source,
                "outcome": outcome(source, s.id),
                "detail": "",
                "snapshot": "match",
                "backend": c.backend,
                "snapshot_base": version,
                "timeline": "",
            }
        )
        for s in registry.discover().values()
        if s.framework == framework
        for c in s.cases
    ]


@pytest.fixture
def one_release(monkeypatch):
    """The package index knows one release per framework (no network)."""
    releases = {"google-adk": "2.13.0", "openai-agents": "0.24.0"}
    monkeypatch.setattr(
        index, "final_releases", lambda name, cache_dir: [index.Release(releases[name], "2026-10-23T00:00:00Z", False)]
    )
    return releases


@pytest.fixture
def fake_steps(monkeypatch):
    """candidate's two matrix steps answered from rows_of (no build)."""

    def fake_matrix(specs, only, out, root, timeout, jobs, step=None, history=None, python=None):
        spec = specs[0]
        if "==" in spec:
            framework, version = spec.split("==")
            return record.Record.of(rows_of(framework, spec, version), [], {})
        framework = "openai-agents" if "openai-agents" in spec else "google-adk"
        return record.Record.of(rows_of(framework, f"local:{Path(spec).name}", None), [], {})

    monkeypatch.setattr(candidate, "_matrix", fake_matrix)


def test_without_only_both_steps_run_every_scenario_of_the_candidates_framework(tmp_path, monkeypatch, one_release):
    """The workflow runs `nox -s candidate -- PATH` with no --only: each step gets every scenario of the
    framework, and none of the other's (what test_candidate's end-to-end runs on a sample, issue 51: the
    suite must not grow with the library)."""
    asked: list[list[str]] = []

    def fake_matrix(specs, only, out, root, timeout, jobs, step=None, history=None, python=None):
        asked.append(list(only))
        spec = specs[0]
        framework, version = spec.split("==") if "==" in spec else ("google-adk", None)
        source = spec if version else f"local:{Path(spec).name}"
        return record.Record.of(rows_of(framework, source, version), [], {})

    monkeypatch.setattr(candidate, "_matrix", fake_matrix)
    monkeypatch.setattr(candidate, "RUNS_FOLDER", tmp_path / "runs")
    candidate.run(str(checkout(tmp_path, "google-adk", "2.13.0")), None, ROOT)
    every = sorted(s.id for s in registry.discover().values() if s.framework == "google-adk")
    assert len(asked) == 2 and all(sorted(only) == every for only in asked), asked


def test_two_candidate_runs_leave_two_folders_each_complete_and_alone(tmp_path, monkeypatch, one_release, fake_steps):
    """Fault (issue 37, one shared output folder): every candidate wrote reports/runs/candidate/,
    and the other framework's earlier reports stayed beside the new summary. Now each run without
    --out gets reports/runs/candidate/<candidate>-<UTC time>/ holding only its own evidence."""
    runs = tmp_path / "runs"
    monkeypatch.setattr(candidate, "RUNS_FOLDER", runs)
    adk = checkout(tmp_path, "google-adk", "2.13.0")
    agents = checkout(tmp_path, "openai-agents", "0.24.0")
    assert candidate.run(str(adk), None, ROOT) == 1  # the retry regression
    assert candidate.run(str(agents), None, ROOT) == 0
    folders = sorted(runs.iterdir())
    assert [f.name.rsplit("-", 1)[0] for f in folders] == ["local-google-adk-checkout", "local-openai-agents-checkout"]
    assert all(f.name.endswith("Z") for f in folders)  # the UTC time
    for folder, framework in zip(folders, ("google-adk", "openai-agents"), strict=True):
        summary = (folder / "summary.md").read_text()
        assert f"## agent-bug-harness: {framework} candidate" in summary
        reports = {p.stem for p in folder.glob("*.md")} - {"summary", "matrix"}
        ids = {s.id for s in registry.discover().values() if s.framework == framework}
        assert reports and reports <= ids, f"{folder.name} holds another framework's reports: {reports - ids}"
    assert not any((f / "scripts").exists() for f in folders), "no copy of a script (issue 35)"


def test_the_summary_runs_the_script_on_the_baseline_and_a_checkout(tmp_path, one_release, fake_steps):
    """Fault (issue 37): the summary's reproduction script was the published one, pinned to an old
    release (2.8.0), not to what the candidate was compared with. Now (issue 35: one script per bug,
    never copied) the summary's commands run the bug's script on the baseline (2.13.0) and on a
    framework checkout, and nothing names an older release to run it on."""
    out = tmp_path / "evidence"
    assert candidate.run(str(checkout(tmp_path, "google-adk", "2.13.0")), out, ROOT) == 1
    assert not (out / "scripts").exists()
    summary = (out / "summary.md").read_text()
    # The script itself, folded in (the comment stands alone: issue 36), and the commands that run it.
    assert "save the script below as `repro.py`" in summary and "<summary>repro.py (" in summary
    assert "`uv run --with google-adk==2.13.0 " in summary
    assert "on your candidate checkout: `PYTHONPATH=/path/to/checkout/src python repro.py " in summary
    assert "google-adk==2.8.0" not in summary


def test_out_is_written_exactly_there_and_must_be_new_or_empty(tmp_path, one_release, fake_steps):
    """Fault (issue 37): a reused --out kept an earlier run's files beside the new summary. Now a
    non-empty --out is refused in one line (exit 2), an empty or new one written exactly there."""
    tree = checkout(tmp_path, "google-adk", "2.13.0")
    out = tmp_path / "evidence"
    candidate.run(str(tree), out, ROOT)
    assert (out / "summary.md").is_file()
    with pytest.raises(UsageError, match="not empty"):
        candidate.run(str(tree), out, ROOT)


def test_the_candidate_prints_only_messages_true_for_it(tmp_path, monkeypatch, one_release, capsys):
    """Faults (issue 37, messages wrong for this command), each checked on the real matrix step
    (its build step a stand-in): "[1/1] ... done; 0 left" before the baseline run; "--out was
    given" when it was not; "re-run with --update-snapshots" (candidate has no such flag);
    "compared with 2.9.0" (a snapshot's release, not the baseline); "before/after report:"
    naming the candidate-only files. And a line of progress at least every 5 s."""
    stream = TimedStream()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(candidate, "RUNS_FOLDER", tmp_path / "runs")

    def slow_build(build, cases, options, cache_dir, recorded=None, store=None, keep_warm=frozenset()):
        progress.phase(build.source, "building its environment", announce=True)
        time.sleep(6.5)  # longer than the 5 s bound: only the progress status can fill it
        rows = [
            matrix._result(s, c, build, build.version, outcome(build.source, s.id), "", timeline="") for s, c in cases
        ]
        return {"source": build.source, "framework": build.framework, "version": build.version}, rows

    monkeypatch.setattr(matrix, "run_build", slow_build)
    started = time.monotonic()
    status = candidate.run(str(checkout(tmp_path, "google-adk", "2.13.0")), None, ROOT, jobs=1)
    ended = time.monotonic()
    assert status == 1
    text = "\n".join(line for _, line in stream.lines)
    times = [started] + [t for t, _ in stream.lines] + [ended]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert max(gaps) <= 5.0, f"{max(gaps):.1f}s without a line:\n{text}"
    assert "still" in text or "building its environment (" in text  # the status says what runs and for how long
    assert "done; 0 left" not in text
    assert "[1/1] local:google-adk-checkout done; next: step 2/2" in text
    assert "--out was given" not in text and "--update-snapshots" not in text
    assert "compared with" not in text
    assert "before/after report:" not in text
    folder = next((tmp_path / "runs").iterdir())
    assert f"before/after reports: {folder}/{RETRY}.md" in text
    assert "reproduction scripts" not in text  # none are written (issue 35)


def test_the_status_line_says_what_runs_and_estimates_what_is_left():
    """Fault (issue 37, silence): a per-build count and no estimate of what is left. The status
    names the running build, its phase and time, and estimates from the builds done so far."""
    now = [100.0]
    tracker = progress.Tracker("matrix", 4, parallel=1, live=False, clock=lambda: now[0])
    tracker.begin("google-adk==2.8.0")
    assert "an estimate once the first build is done" in tracker.status()
    now[0] += 30
    tracker.finish("google-adk==2.8.0")
    tracker.begin("google-adk==2.9.0")
    tracker.set_phase("google-adk==2.9.0", "building its environment")
    now[0] += 10
    line = tracker.status()
    assert "matrix: 1/4 builds done, 40s so far" in line
    assert "now: google-adk==2.9.0 building its environment (10s)" in line
    assert "about 1m20s left" in line  # 20 s of the running build, then 2 x 30 s


def test_a_run_folders_report_does_not_contradict_bisect(tmp_path, one_release, fake_steps):
    """Fault (issue 37): the candidate folder's scenario report said "first release where it is
    fixed: 2.13.0" (of the one release it ran) right above bisect's "first fixed in 2.9.0". Now a
    run folder's report says the release is the first of those it ran, and that bisect looks at all."""
    from harness.rendering import evidence

    out = tmp_path / "evidence"
    candidate.run(str(checkout(tmp_path, "google-adk", "2.13.0")), out, ROOT)
    report = (out / f"{RETRY}.md").read_text()
    assert f"{evidence.FIRST_FIXED}:" not in report
    assert f"{evidence.FIRST_FIXED_OF_RUN}: **2.13.0**" in report
    assert "first release where it is fixed: **2.9.0**" in (ROOT / "reports" / f"{RETRY}.md").read_text()


def test_an_unknown_base_is_refused_before_any_build(tmp_path, monkeypatch):
    """Fault: ``--base 99.0`` was found unknown only in step 2, after the candidate's build ran
    (and its folder was made). Now one line, exit 2 (UsageError), before any work."""
    from harness.planning.builds import SpecError

    monkeypatch.setattr(candidate, "_matrix", lambda *a, **k: pytest.fail("a build ran before --base was checked"))
    monkeypatch.setattr(candidate, "RUNS_FOLDER", tmp_path / "runs")
    with pytest.raises(SpecError, match=r"99\.0"):
        candidate.run(str(checkout(tmp_path, "google-adk", "2.13.0")), None, ROOT, base="99.0")
    assert not (tmp_path / "runs").exists()


def test_the_status_counts_the_cases_of_a_running_build():
    """Fault (issue 37, silence): a build running its 50 cases for 35 s said nothing of how far
    it was. The driver's every result is counted for the build its thread runs."""
    tracker = progress.Tracker("matrix", 2, live=False)
    with tracker:
        tracker.begin("google-adk==2.9.0")
        tracker.set_phase("google-adk==2.9.0", "running cases", cases=50)
        for _ in range(12):
            progress.case_done()
        assert "now: google-adk==2.9.0 running cases (12/50 done) (" in tracker.status()
    progress.case_done()  # outside a tracked command: nothing to count, no error


def test_on_a_terminal_the_status_is_one_live_line_cleared_before_each_line(monkeypatch):
    """Issue 37: on a terminal the status is a live line (rewritten with \\r), not a scroll of
    status lines; a log line clears it first, so it never ends up glued to the live text."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with progress.Tracker("matrix", 3):
        progress.phase("google-adk==2.9.0", "building its environment")
        time.sleep(progress.LIVE_SECONDS * 1.5)
        progress.log("[1/3] google-adk==2.8.0 done; 2 left")
    text = terminal.getvalue()
    assert text.startswith("\r\x1b[Kmatrix: 0/3 builds done")
    assert "\r\x1b[K[1/3] google-adk==2.8.0 done; 2 left\n" in text
    assert text.endswith(("\r\x1b[K", "left\n"))  # nothing of the status is left behind


def test_bisect_says_what_it_probes_while_a_probe_is_slow(monkeypatch):
    """Issue 37 (progress on every long command): a bisect probe that builds an environment was
    silent until it ended. Now its status names the release, its phase and the probes done of
    those a bisection usually needs."""
    from harness.execution import bisect

    stream = TimedStream()
    monkeypatch.setattr(sys, "stderr", stream)
    releases = ["2.7.1", "2.8.0", "2.9.0", "2.10.0"]

    def evaluate(version: str) -> dict[str, str]:
        progress.phase(f"google-adk=={version}", "building its environment")
        time.sleep(progress.QUIET_SECONDS + 1 if version == releases[0] else 0)
        return {"c": "reproduced" if version in releases[:2] else "fixed"}

    _, results = bisect._tracked_bisect(releases, ["c"], evaluate, "google-adk", "adk-x", {})
    assert [b.after.version for b in results[0].boundaries] == ["2.9.0"]
    text = "\n".join(line for _, line in stream.lines)
    assert "bisect adk-x: 0/4 builds done" in text
    assert "now: google-adk==2.7.1 building its environment (4s)" in text


def test_no_figure_when_the_running_builds_outlast_the_done_ones():
    """A matrix run printed "about 0s left" while its last build ran longer than the first: now
    the status says so instead of a figure."""
    now = [0.0]
    tracker = progress.Tracker("matrix", 2, live=False, clock=lambda: now[0])
    tracker.begin("a")
    now[0] = 5
    tracker.finish("a")
    tracker.begin("b")
    now[0] = 12
    assert tracker.estimate() == "the builds running now take longer than those done so far"
