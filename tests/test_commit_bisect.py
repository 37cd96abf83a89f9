"""``bisect --commits`` (issue 48) on a toy history: no network, no mirror.

A toy package named ``openai-agents`` (module ``agents``, an in-tree PEP 517 backend: nothing to
download) lives in a git repository made here: a bug introduced and fixed across commits, a commit
that does not build, and tags. A toy scenario in a copy of the project tree reads it, and the
record says which release reproduced and which fixed; the command bisects the commits between the
two tags, end to end (uv builds each commit offline, the worker runs the case).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.planning import commits
from harness.planning.builds import SpecError
from harness.store.bisect_record import BisectRecord, FoundCommit, Probe
from scratch import write_bug

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = "agents-toy-commit"
KEY = {"scenario": SCENARIO, "case": "run", "framework": "openai-agents"}

BACKEND = '''"""A PEP 517 backend from the standard library alone: a wheel of agents/ and its metadata."""
import base64, hashlib, os, zipfile

NAME, VERSION = "openai_agents", open("VERSION").read().strip()


def _record(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    if os.path.exists("BROKEN"):
        raise RuntimeError("this commit does not build")
    wheel = f"{NAME}-{VERSION}-py3-none-any.whl"
    info = f"{NAME}-{VERSION}.dist-info"
    files = {"agents/__init__.py": open("agents/__init__.py", "rb").read(),
             f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: openai-agents\\nVersion: {VERSION}\\n".encode(),
             f"{info}/WHEEL": b"Wheel-Version: 1.0\\nGenerator: toy\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
        zf.writestr(f"{info}/RECORD", "\\n".join([*(_record(n, d) for n, d in files.items()), f"{info}/RECORD,,"]))
    return wheel
'''

PYPROJECT = """[build-system]
requires = []
build-backend = "toybackend"
backend-path = ["."]

[project]
name = "openai-agents"
version = "{version}"
requires-python = ">=3.9"
"""

BUGGY = "def total(xs):\n    return sum(xs[1:])  # drops the first\n"
FIXED = "def total(xs):\n    return sum(xs)\n"

BUG_PY = """from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim

BUG = Bug(
    links=("https://github.com/openai/openai-agents-python/issues/1",),
    description="agents.total drops the first number.",
    expected="agents.total sums every number.",
    claims=Claim(pr="#7", pr_state="merged", source="the toy thread"),
    cases={"run": CaseRole("total of 1, 2, 3", reproduced=AsInstalled("the toy bug"), fixed=AsInstalled("toy fix"))},
)
"""

REPRO_PY = '''# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents (toy): agents.total drops the first number.

    python repro.py [CASE]

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error.
"""

import asyncio
import sys

CASES = {"run": {}}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say):
    import agents

    got = agents.total([1, 2, 3])
    say(f"total: {got}")
    return {"total": got}


def judge(facts):
    got = facts["total"]
    if got == 6:
        return "fixed", "total 6"
    if got == 5:
        return "reproduced", "total 5: the first number dropped"
    return "unexpected", f"total {got}"


def run(case):
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {detail}")
    return outcome


def main(argv):
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''


def git(repo: Path, *args: str, date: str = "2026-01-01T00:00:00Z") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout


def commit(repo: Path, subject: str, day: int, code: str | None = None, broken: bool = False, version: str = "") -> str:
    if code is not None:
        (repo / "agents" / "__init__.py").write_text(code)
    if version:
        (repo / "VERSION").write_text(version)
        (repo / "pyproject.toml").write_text(PYPROJECT.format(version=version))
    (repo / "BROKEN").unlink(missing_ok=True)
    if broken:
        (repo / "BROKEN").write_text("")
    (repo / "notes.txt").write_text(f"{subject}\n")  # every commit changes a file
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", subject, date=f"2026-01-{day:02d}T12:00:00Z")
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def toy_repo(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """0.1.0 (buggy) .. 0.2.0 (fixed): the fix lands in 'fix total (#7)', after a commit that does not build."""
    repo = tmp_path_factory.mktemp("toy") / "toy-agents"
    (repo / "agents").mkdir(parents=True)
    (repo / "toybackend.py").write_text(BACKEND)
    git(repo, "init", "-q", "-b", "main")
    shas = {"start": commit(repo, "start", 1, FIXED, version="0.0.9")}
    shas["introduce"] = commit(repo, "refactor total (#3)", 2, BUGGY)
    shas["v0.1.0"] = commit(repo, "release 0.1.0", 3, version="0.1.0")
    git(repo, "tag", "v0.1.0")
    shas["docs"] = commit(repo, "docs (#4)", 4)
    shas["broken"] = commit(repo, "half a change (#5)", 5, broken=True)
    shas["fix"] = commit(repo, "fix total (#7)", 6, FIXED)
    shas["after"] = commit(repo, "tests (#8)", 7)
    shas["more"] = commit(repo, "more tests", 8)
    shas["v0.2.0"] = commit(repo, "release 0.2.0", 9, version="0.2.0")
    git(repo, "tag", "v0.2.0")
    # A release whose wheel is not its tag: 0.3.0 shipped fixed, the tag holds the bug again.
    shas["regress"] = commit(repo, "revert the fix", 10, BUGGY)
    shas["v0.3.0"] = commit(repo, "release 0.3.0", 11, version="0.3.0")
    git(repo, "tag", "v0.3.0")
    return repo, shas


def project_copy(tmp_path: Path, outcomes: dict[str, str]) -> Path:
    """A copy of the tree with the toy scenario only, and a bisect record of its releases' outcomes."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "harness", project / "harness", ignore=shutil.ignore_patterns("__pycache__"))
    write_bug(project / "scenarios", SCENARIO, REPRO_PY, BUG_PY)
    (project / "scenarios" / "__init__.py").write_text("")
    (project / "reports").mkdir()
    record = {
        "schema_version": 2,  # as committed before commit bisects: read as one with no commits
        "releases": {"openai-agents": sorted(outcomes)},
        "bisects": [],
        "probes": [
            {
                "scenario": SCENARIO,
                "case": "run",
                "framework": "openai-agents",
                "version": v,
                "outcome": o,
                "detail": "",
            }
            for v, o in outcomes.items()
        ],
    }
    (project / "reports" / "bisect.json").write_text(json.dumps(record))
    return project


def bisect(project: Path, *argv: str) -> subprocess.CompletedProcess:
    # Off the network: uv resolves from the local source alone (the toy has no dependencies).
    env = {**os.environ, "UV_OFFLINE": "1", "TMPDIR": str(project.parent / "tmp")}
    (project.parent / "tmp").mkdir(exist_ok=True)
    command = [sys.executable, "-m", "harness", "bisect", *argv]
    return subprocess.run(command, capture_output=True, text=True, cwd=project, env=env)


# --- the history, read from git ---------------------------------------------------------------


def test_tags_and_first_parent_commits_are_read_from_the_clone(toy_repo):
    repo, shas = toy_repo
    assert commits.tag_of(repo, "0.1.0") == "v0.1.0" and commits.tag_of(repo, "0.9.0") is None
    between = commits.between(repo, "v0.1.0", "v0.2.0")
    assert [c.sha for c in between] == [shas[k] for k in ("docs", "broken", "fix", "after", "more", "v0.2.0")]
    fix = between[2]
    assert (fix.subject, fix.pr, fix.date, fix.short) == ("fix total (#7)", "7", "2026-01-06T12:00:00Z", fix.sha[:9])
    with pytest.raises(SpecError, match=r"v0\.2\.0 is not an ancestor of v0\.1\.0"):
        commits.between(repo, "v0.2.0", "v0.1.0")


def test_a_file_the_clone_does_not_hold_is_left_out_of_the_export(tmp_path):
    """A mirror may leave its largest files out (google-adk's sample.session.json): the commit is
    exported without them, and they are named."""
    repo = tmp_path / "partial"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "code.py").write_text("x = 1\n")
    (repo / "big.json").write_text("{}\n" * 1000)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "both")
    blob = git(repo, "rev-parse", "HEAD:big.json").strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    out, left_out = commits.export(repo, git(repo, "rev-parse", "HEAD").strip(), tmp_path / "out")
    assert left_out == ["big.json"]
    assert (out / "pkg" / "code.py").read_text() == "x = 1\n" and not (out / "big.json").exists()


@pytest.mark.parametrize(
    ("subject", "pr"),
    [
        ("fix(run): report input guardrail results when a tripwire aborts the run (#4071)", "4071"),
        ("Merge pull request #12 from a/b", "12"),
        ("Fix #1629 Empty tool call arguments in streaming events (#1636)", "1636"),
        ("Fix #1629 without a PR", None),
    ],
)
def test_the_pr_number_is_the_subjects_trailing_one(subject, pr):
    assert commits.pr_of(subject) == pr


# --- the command, end to end --------------------------------------------------------------------


def test_the_bisect_names_the_fixing_commit_skips_the_broken_one_and_records_it(toy_repo, tmp_path):
    repo, shas = toy_repo
    project = project_copy(tmp_path, {"0.1.0": "reproduced", "0.2.0": "fixed"})
    done = bisect(project, f"{SCENARIO}:run", "--commits", str(repo))
    assert done.returncode == 0, done.stderr
    fix = shas["fix"][:9]
    assert (
        f"{SCENARIO}:run: reproduced on openai-agents 0.1.0 (v0.1.0) -> fixed on 0.2.0 (v0.2.0): "
        f'fixed from {fix} (#7, 2026-01-06) "fix total (#7)"'
    ) in done.stdout
    assert f"  skipped {shas['broken'][:9]}: install failed:" in done.stdout
    assert "this commit does not build" in done.stdout
    assert f"[probe 1] openai-agents@{shas['v0.1.0'][:9]} (v0.1.0): reproduced" in done.stderr
    assert "6 commits between the tags" in done.stdout
    doc = json.loads((project / "reports" / "bisect.json").read_text())
    assert doc["schema_version"] == 3
    [entry] = doc["commits"]
    assert {k: entry[k] for k in ("before", "after", "commit", "short", "pr", "date", "commits_between")} == {
        "before": "0.1.0",
        "after": "0.2.0",
        "commit": shas["fix"],
        "short": fix,
        "pr": "7",
        "date": "2026-01-06T12:00:00Z",
        "commits_between": 6,
    }
    # The two tags, the middle (the broken one, skipped, then its neighbour), down to the fix:
    # at most 2 + log2(6) builds plus the skip.
    assert entry["builds"] == len(entry["probes"]) <= 2 + 3 + 1
    assert {p["commit"]: p["outcome"] for p in entry["probes"]}[shas["broken"][:9]] == "error"
    assert [s["commit"] for s in entry["skipped"]] == [shas["broken"][:9]]
    assert entry["files"] == [
        {"path": "BROKEN", "added": 0, "removed": 0},  # the commit before it added it; the fix removes it
        {"path": "agents/__init__.py", "added": 1, "removed": 1},
        {"path": "notes.txt", "added": 1, "removed": 1},
    ]
    # The boundary's excerpt is the commit's own diff, in the framework's source (no explain record
    # here): agents/__init__.py's changed line, not notes.txt's or the removed BROKEN.
    assert entry["excerpt_of"] == "source"
    assert entry["excerpt"][:2] == ["--- a/agents/__init__.py", "+++ b/agents/__init__.py"]
    assert any(line.startswith("-") and not line.startswith("---") for line in entry["excerpt"])
    assert not any("notes.txt" in line or "BROKEN" in line for line in entry["excerpt"])
    from harness.rendering import commit_words
    from harness.store import bisect_record, boundaries

    known = boundaries.Known({"0.1.0": "reproduced", "0.2.0": "fixed"}, 0, [], [])
    typed = bisect_record.load(project / "reports" / "bisect.json")
    shown = "\n".join(commit_words.case_lines(typed, known, SCENARIO, "run", "openai-agents", []))
    assert f"{fix}'s own diff, in its framework source files:\n\n  ```diff\n  --- a/agents/__init__.py\n" in shown
    # Nothing it made is left: no probe folder in the temporary folder, nothing in .nox.
    assert not list((tmp_path / "tmp").iterdir())
    assert not (project / ".nox" / "builds").exists()
    # Asked again, it says the recorded commit and builds nothing.
    again = bisect(project, f"{SCENARIO}:run", "--commits", str(repo))
    assert again.returncode == 0 and "(recorded; --rerun to bisect again)" in again.stdout
    assert "0 builds" in again.stdout


def test_a_tag_that_is_not_its_release_fails_the_self_check_and_records_nothing(toy_repo, tmp_path):
    repo, _ = toy_repo
    # The record says 0.3.0 (its wheel) is fixed; the v0.3.0 tag holds the bug.
    project = project_copy(tmp_path, {"0.2.0": "reproduced", "0.3.0": "fixed"})
    before = (project / "reports" / "bisect.json").read_bytes()
    done = bisect(project, f"{SCENARIO}:run", "--commits", str(repo))
    assert done.returncode == 1, done.stderr
    assert "self-check failed, no commit recorded" in done.stdout
    assert "the tag v0.2.0 gives fixed where the release 0.2.0 gave reproduced" in done.stdout
    assert "the tag v0.3.0 gives reproduced where the release 0.3.0 gave fixed" in done.stdout
    assert "2 builds" in done.stdout  # the two tags only: no search once they disagree
    assert (project / "reports" / "bisect.json").read_bytes() == before


def test_a_missing_tag_is_one_line_exit_2_and_nothing_written(toy_repo, tmp_path):
    repo, _ = toy_repo
    project = project_copy(tmp_path, {"0.2.0": "fixed", "0.4.0": "reproduced"})
    before = (project / "reports" / "bisect.json").read_bytes()
    done = bisect(project, f"{SCENARIO}:run", "--commits", str(repo))
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: openai-agents 0.4.0 has no tag in ") and "(looked for v0.4.0 and 0.4.0)" in line
    assert (project / "reports" / "bisect.json").read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--commits", "{missing}"], "no such folder; give a local clone"),
        (["--commits", "{project}"], "not a git clone with commits"),
        (["--commits", "{repo}", "--from", "0.1.0"], "--commits with --from needs --to too"),
        (["--commits", "{repo}", "--from", "0.1.0", "--to", "0.5.0"], "--to 0.5.0: the record has no outcome"),
        (["--commits", "{repo}", "--framework", "google-adk"], "drop --framework"),
    ],
)
def test_bad_input_is_refused_in_one_line(toy_repo, tmp_path, argv, message):
    repo, _ = toy_repo
    project = project_copy(tmp_path, {"0.1.0": "reproduced", "0.2.0": "fixed"})
    before = (project / "reports" / "bisect.json").read_bytes()
    names = {"missing": str(tmp_path / "nowhere"), "project": str(project), "repo": str(repo)}
    done = bisect(project, f"{SCENARIO}:run", *(a.format(**names) for a in argv))
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert message in line
    assert (project / "reports" / "bisect.json").read_bytes() == before


def test_all_bisects_what_the_clone_reaches_and_says_what_it_does_not(toy_repo, tmp_path):
    repo, shas = toy_repo
    # 0.2.0 -> 0.4.0: the clone has no v0.4.0 tag.
    project = project_copy(tmp_path, {"0.1.0": "reproduced", "0.2.0": "fixed", "0.4.0": "reproduced"})
    done = bisect(project, "--commits", str(repo), "--all")  # every scenario of the clone's framework
    assert done.returncode == 0, done.stderr
    assert (
        f"{SCENARIO}:run 0.2.0 -> 0.4.0: not bisected: openai-agents 0.4.0 has no tag in {repo} "
        "(looked for v0.4.0 and 0.4.0)"
    ) in done.stdout
    assert f"fixed from {shas['fix'][:9]} (#7, 2026-01-06)" in done.stdout
    [entry] = json.loads((project / "reports" / "bisect.json").read_text())["commits"]
    assert (entry["before"], entry["after"], entry["commit"]) == ("0.1.0", "0.2.0", shas["fix"])


def test_all_needs_commits_and_a_selection_is_needed_without_it(tmp_path):
    project = project_copy(tmp_path, {"0.1.0": "reproduced", "0.2.0": "fixed"})
    for argv, message in ((["--all"], "--all needs --commits CLONE"), ([], "bisect needs SCENARIO[:CASE]")):
        done = bisect(project, *argv)
        assert done.returncode == 2 and message in done.stderr, done.stderr


# --- what the reports say ------------------------------------------------------------------------


def _found(**over) -> FoundCommit:
    entry = {
        **KEY,
        "before": "0.19.1",
        "after": "0.19.2",
        "before_outcome": "reproduced",
        "after_outcome": "fixed",
        "tags": ["v0.19.1", "v0.19.2"],
        "commit": "78725420e" + "0" * 31,
        "short": "78725420e",
        "subject": "fix(run): report input guardrail results (#4071)",
        "date": "2026-07-31T21:47:20Z",
        "pr": "4071",
        "commits_between": 30,
        "builds": 7,
        "untested": [],
        "skipped": [],
        "probes": [],
        "inputs": "x",
    }
    return FoundCommit.from_json({**entry, **over})


def test_a_boundary_shows_its_commit_or_says_release_pair_only():
    from harness.rendering import commit_words
    from harness.store import boundaries

    record = BisectRecord().with_commit(_found())
    known = boundaries.Known({"0.19.1": "reproduced", "0.19.2": "fixed", "0.20.0": "reproduced"}, 0, [], [])
    assert commit_words.case_lines(record, known, SCENARIO, "run", "openai-agents") == [
        "- 0.19.1 -> 0.19.2: fixed by 78725420e (#4071, 2026-07-31), first released in 0.19.2 "
        "(commit bisect: 30 commits between v0.19.1 and v0.19.2, 7 builds)",
        "- 0.19.2 -> 0.20.0 (came back in 0.20.0): release pair only; "
        f"`nox -s bisect -- {SCENARIO}:run --commits CLONE` finds the commit",
    ]


def test_the_files_the_case_ran_come_first_among_those_the_commit_changed():
    from harness.rendering import commit_words
    from harness.store import boundaries, boundary_files

    files = [{"path": p, "added": 2, "removed": 1} for p in ("tests/test_run.py", "src/agents/run.py")]
    record = BisectRecord().with_commit(_found(files=files))
    known = boundaries.Known({"0.19.1": "reproduced", "0.19.2": "fixed"}, 0, [], [])
    explained = [
        boundary_files.Entry.from_json(
            {
                "case": "run",
                "before": {"version": "0.19.1", "outcome": "reproduced"},
                "after": {"version": "0.19.2", "outcome": "fixed"},
                "status": "explained",
                "hunks": [{"file": "agents/run.py"}],
            }
        )
    ]
    lines = commit_words.case_lines(record, known, SCENARIO, "run", "openai-agents", explained)
    assert lines[1] == (
        "  - 78725420e changed `src/agents/run.py` (+2 -1, the case ran it), `tests/test_run.py` (+2 -1)"
    )


def test_a_claim_naming_another_pr_than_the_commit_found_is_a_disagreement():
    from harness.rendering import claims
    from harness.rendering.metadata import CaseMetadata, ScenarioMetadata
    from harness.runtime.scenario import Claim
    from harness.store.rows import Row

    record = BisectRecord().with_commit(_found())
    record = record.with_probes(
        [Probe(**KEY, version=v, outcome=o, detail="") for v, o in (("0.19.1", "reproduced"), ("0.19.2", "fixed"))]
    )
    scenario = ScenarioMetadata(SCENARIO, "openai-agents", (CaseMetadata("run"),))
    measured = claims.measure(scenario, list[Row](), record)
    assert measured.fixed_by == (("78725420e", "4071"),)
    assert claims.disagreements(Claim(pr="#4071", pr_state="merged"), measured) == []
    assert claims.disagreements(Claim(pr="#4068 / #4071", pr_state="merged"), measured) == []
    assert claims.disagreements(Claim(pr="#4068", pr_state="merged"), measured) == [
        "the thread names PR #4068 as the fix; measured: the first fixed commit is 78725420e (#4071)"
    ]


def test_an_interrupted_bisect_leaves_no_folder_and_writes_nothing(toy_repo, tmp_path, monkeypatch):
    """Ctrl-C in the middle of a probe: the probe's folder and the run's are removed, the record kept."""
    import tempfile

    from harness.execution import commit_bisect
    from harness.runtime import registry
    from harness.store import result_cache

    repo, _ = toy_repo
    project = project_copy(tmp_path, {"0.1.0": "reproduced", "0.2.0": "fixed"})
    before = (project / "reports" / "bisect.json").read_bytes()
    toy = registry.discover(project / "scenarios")
    monkeypatch.setattr(registry, "discover", lambda *a: toy)
    monkeypatch.setattr(result_cache, "scenario_inputs", lambda *a: "toy")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    seen: list[list[str]] = []

    def interrupted(build, pairs, settings):
        seen.append(sorted(p.name for p in temporary.iterdir()))
        raise KeyboardInterrupt

    monkeypatch.setattr(commit_bisect, "run_cases", interrupted)
    options = commit_bisect.Options(f"{SCENARIO}:run", repo, root=project)
    with pytest.raises(KeyboardInterrupt):
        commit_bisect.run(options)
    [[made]] = seen  # the run's folder was there while the probe ran
    assert made.startswith("harness-commit-bisect-")
    assert list(temporary.iterdir()) == []
    assert (project / "reports" / "bisect.json").read_bytes() == before


def test_the_candidate_summary_names_the_upstream_commit_a_regression_undoes():
    """Issue 48: 'the report, the comment and the candidate summary name the commit'."""
    from harness.execution.candidate import FAILING, Change, summary
    from harness.rendering import commit_words

    record = BisectRecord().with_commit(_found())
    # A later step into fixed (after a regression), and one measured with older code of the scenario.
    later = _found(before="0.20.0", after="0.21.0", short="aaaaaaaaa", commit="a" * 40, pr=None, date="2026-09-01")
    record = record.with_commit(later)
    record = record.with_commit(_found(before="0.22.0", after="0.23.0", inputs="old", short="bbbbbbbbb"))
    # A step into fixed from unexpected (a dependency bump's) is not the bug's fix.
    record = record.with_commit(_found(before="0.23.0", after="0.23.1", before_outcome="unexpected", short="ccccccccc"))
    words = commit_words.fix_undone(record, SCENARIO, "run", "openai-agents", "0.24.0", "x")
    assert words == "fixed upstream by aaaaaaaaa (2026-09-01), first released in 0.21.0"
    assert commit_words.fix_undone(record, SCENARIO, "run", "openai-agents", "0.20.0", "x") == (
        "fixed upstream by 78725420e (#4071, 2026-07-31), first released in 0.19.2"
    )
    assert commit_words.fix_undone(record, SCENARIO, "run", "openai-agents", "0.19.1", "x") == ""
    found = [Change(SCENARIO, "run", "fixed", "reproduced"), Change(SCENARIO, "other", "fixed", "unexpected")]
    text = summary("openai-agents", "local:x", "openai-agents==0.20.0", "openai-agents==0.24.0", found, {},
                   fixes={f"{SCENARIO}:run": words})  # fmt: skip
    failing = text.split(f"**{FAILING}:**", 1)[1]
    assert f"- `{SCENARIO}:run` (fixed → reproduced): regressed; the case was {words}\n" in failing
    assert f"- `{SCENARIO}:other` (fixed → unexpected): changed\n" in failing
