"""A bug's reproduction (``scenarios/<id>/repro.py``, issue 35): the script a maintainer runs is the
replay the harness runs, so what ``python repro.py CASE`` prints and exits with is what the record holds.

Fast: every bug folder's script stands alone (a PEP 723 header, nothing imported from this project,
its exit codes stated); on the release the tests pin, the harness's in-process verdict and timeline
of every case equal what the script itself prints in the same environment, and its exit status is
the one its verdicts map to (0 fixed, 3 reproduced, 125 otherwise: git bisect run's good, bad, skip);
an unknown case is refused with exit 125 and a verdict line. Parametrized over the folders present,
so each bug is covered as it is converted. Slow (the package index): the script on a release the
record says it reproduces on, in that release's build environment (``.nox/builds/``), exits 3; the
commands a report gives (``uv run --with FW==V --exclude-newer DATE repro.py CASE``), run in an
empty folder, give the recorded verdict on a reproduced release and on a fixed one; and ``git bisect
run`` with a script over a two-commit framework repository names the commit of a recorded regression.
"""

from __future__ import annotations

import ast
import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conftest import ROOT, installed
from harness.project import PROJECT
from harness.rendering import reproduce
from harness.runtime import registry, reproduction, timeline
from harness.runtime.outcomes import FIXED, REPRODUCED, UNEXPECTED
from harness.runtime.runner import run_case
from harness.runtime.scenario import POSTGRESQL
from harness.store import record

SCRIPTS = sorted(ROOT.glob(f"scenarios/*/{reproduction.SCRIPT}"))
SCENARIOS = registry.discover()
EXIT = {FIXED: 0, REPRODUCED: 3}  # every other outcome: 125
EXIT_OTHER = 125
JUDGED = (REPRODUCED, FIXED, UNEXPECTED)
VERDICT = re.compile(r"^verdict: (reproduced|fixed|unexpected|not-applicable|error): (.*)$")
# The exit codes, as a script's docstring states them.
EXIT_CODES = re.compile(r"\b0 fixed, 3 reproduced, 125\b")

USAGE = "agents-usage-requests-without-usage"
USAGE_CASE = "chat-completions"


def ids(paths: list[Path]) -> list[str]:
    return [p.parent.name for p in paths]


def script_env() -> dict[str, str]:
    """The process environment a maintainer's shell would give, with libpq's variables naming the
    tests' PostgreSQL server where one runs (a database case finds its server through them)."""
    env = dict(os.environ)
    if os.environ.get(reproduction.POSTGRES_SOCKET_ENV):
        env.update(reproduction._libpq_environment())
    return env


def run_script(python: str, script: Path, *cases: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [python, str(script), *cases], cwd=cwd, env=script_env(), capture_output=True, text=True, timeout=timeout
    )


def sections(stdout: str) -> dict[str, tuple[list[str], str, str]]:
    """case -> (the lines it printed, its outcome, its detail), from a script's output (``== CASE``
    opens a case, ``verdict: OUTCOME: DETAIL`` closes it)."""
    out: dict[str, tuple[list[str], str, str]] = {}
    case, lines = None, []
    for line in stdout.splitlines():
        if line.startswith("== ") and case is None:
            case, lines = line[3:], []
        elif case is not None and (m := VERDICT.match(line)):
            out[case] = (lines, m.group(1), m.group(2))
            case = None
        elif case is not None:
            lines.append(line)
    return out


def test_every_bug_folder_has_a_script_and_a_declaration():
    folders = {p.parent for p in ROOT.glob(f"scenarios/*/{reproduction.DECLARATION}")}
    assert folders == {p.parent for p in SCRIPTS}, "a bug folder holds repro.py and bug.py"
    assert SCRIPTS, "no bug folder found: the glob must keep guarding the scripts"
    for script in SCRIPTS:
        assert script.parent.name in SCENARIOS, f"{script.parent.name} is not discovered as a scenario"


@pytest.mark.parametrize("script", SCRIPTS, ids=ids(SCRIPTS))
def test_a_script_stands_alone_and_states_its_exit_codes(script):
    text = script.read_text(encoding="utf-8")
    assert text.startswith("# /// script\n") and "# dependencies = [" in text.split("# ///\n", 1)[0], script
    tree = ast.parse(text)
    doc = " ".join((ast.get_docstring(tree) or "").split())
    assert EXIT_CODES.search(doc), f"{script}: the docstring states the exit codes ({EXIT_CODES.pattern})"
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not imported & {"harness", "scenarios"}, f"{script} imports {imported & {'harness', 'scenarios'}}"
    # No release numbers in the docstring: what each release does is the record's.
    assert not re.search(r"\b\d+\.\d+\.\d+\b", doc), f"{script}: a release number in the docstring"


@pytest.mark.parametrize("script", SCRIPTS, ids=ids(SCRIPTS))
def test_an_unknown_case_exits_125_with_a_verdict_line(script, tmp_path):
    """Refused before anything runs, so it holds with or without the framework."""
    proc = run_script(sys.executable, script, "no-such-case", cwd=tmp_path, timeout=120)
    assert proc.returncode == EXIT_OTHER, proc.stdout + proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert re.match(r"^verdict: error: unknown case in \['no-such-case'\]; valid: ", last), last
    assert proc.stdout.strip().count("\n") == 0, "nothing runs before the refusal"


@pytest.mark.parametrize("script", SCRIPTS, ids=ids(SCRIPTS))
def test_the_harness_judges_what_the_script_prints(script, tmp_path):
    """What a maintainer runs is what is judged: on the pinned release (this Python), every case's
    outcome, detail and normalised timeline from the harness (the script imported in process) are
    what ``python repro.py`` prints, and its exit status is what its verdicts map to."""
    scenario = SCENARIOS[script.parent.name]
    if installed(scenario.framework) is None:
        pytest.skip(f"{scenario.framework} is not installed")
    if any(c.backend == POSTGRESQL for c in scenario.cases) and not os.environ.get(reproduction.POSTGRES_SOCKET_ENV):
        pytest.skip("no PostgreSQL server for the -postgresql cases")
    proc = run_script(sys.executable, script, cwd=tmp_path)
    printed = sections(proc.stdout)
    assert sorted(printed) == sorted(c.id for c in scenario.cases), proc.stdout[-2000:] + proc.stderr[-2000:]
    outcomes = []
    for case in scenario.cases:
        lines, outcome, detail = printed[case.id]
        result = run_case(scenario, case)
        assert (outcome, case.id) == (result.outcome, case.id), f"script: {detail}\nharness: {result.detail}"
        if outcome != "error":  # an error's detail is the harness's own (bounded, paths stripped)
            assert detail == result.detail, case.id
        if outcome in JUDGED:  # the harness keeps the timeline of a judged case only
            assert timeline.render(reproduction.normalise(lines)) == result.timeline, case.id
        outcomes.append(outcome)
    expected = 3 if REPRODUCED in outcomes else 0 if set(outcomes) == {FIXED} else EXIT_OTHER
    assert proc.returncode == expected, f"outcomes {outcomes}, exit {proc.returncode}"


def test_one_case_exits_with_its_outcome_code(tmp_path):
    """``python repro.py CASE`` on the pinned release: the exit status is the case's outcome's code
    and the last line its verdict, as the record holds it for that release."""
    if installed("openai-agents") is None:
        pytest.skip("openai-agents is not installed")
    script = reproduce.script_file(USAGE)
    proc = run_script(sys.executable, script, USAGE_CASE, cwd=tmp_path)
    last = proc.stdout.strip().splitlines()[-1]
    m = VERDICT.match(last)
    assert m, proc.stdout + proc.stderr
    assert proc.returncode == EXIT.get(m.group(1), EXIT_OTHER), last
    assert proc.stdout.startswith(f"== {USAGE_CASE}\n")
    rows = reproduce.case_rows(record.load(PROJECT.reports), USAGE, USAGE_CASE)
    recorded = {str(r.version): r.outcome for r in rows}
    version = installed("openai-agents")
    if version in recorded:
        assert m.group(1) == recorded[version], f"the record says {recorded[version]} on {version}: {last}"


# --- slow: on other releases, as a maintainer runs it ---------------------------------------------


def recorded_runs() -> list[reproduce.Run]:
    """The usage case's runs a report gives: the newest release it reproduces on, the first fixed after it."""
    document = record.load(PROJECT.reports)
    runs = reproduce.runs(reproduce.Bug.of(SCENARIOS[USAGE]), USAGE_CASE, document)
    if [r.outcome for r in runs] != [REPRODUCED, FIXED]:
        pytest.skip(f"the record has no reproduced and fixed release of {USAGE}:{USAGE_CASE}")
    return runs


@pytest.mark.slow
def test_the_script_exits_3_in_the_build_of_a_release_it_reproduces_on(tmp_path):
    """The record's reproduced release, in its build environment under .nox/builds/ (made if missing)."""
    from harness.execution import environments
    from harness.planning import builds

    reproduced = recorded_runs()[0]
    build = builds.parse(f"openai-agents=={reproduced.version}", PROJECT.cache)
    env = environments.ensure(build, PROJECT.builds, PROJECT.cache).path
    proc = run_script(str(env / "bin" / "python"), reproduce.script_file(USAGE), USAGE_CASE, cwd=tmp_path)
    assert proc.returncode == EXIT[REPRODUCED], proc.stdout + proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1].startswith("verdict: reproduced: usage.requests 0 ")


@pytest.mark.slow
def test_uv_run_in_an_empty_folder_gives_the_recorded_verdicts_with_the_reports_commands(tmp_path):
    """The script saved alone in an empty folder and each command the report gives for it run as
    printed: the recorded outcome and its exit code, on a reproduced release and on a fixed one."""
    uv = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
    shutil.copy(reproduce.script_file(USAGE), tmp_path / reproduction.SCRIPT)
    for run in recorded_runs():
        argv = shlex.split(run.command)
        assert argv[:2] == ["uv", "run"] and "--exclude-newer" in argv, run.command
        proc = subprocess.run(
            [uv, *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=900, env=dict(os.environ)
        )
        last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-2000:]
        assert proc.returncode == EXIT[run.outcome], f"{run.command}: exit {proc.returncode}: {last}"
        assert last.startswith(f"verdict: {run.outcome}: "), last
    # A release that does not resolve is uv's failure, never a verdict's code.
    missing = subprocess.run(
        [uv, "run", "--quiet", "--with", "openai-agents==0.0.0", reproduction.SCRIPT, USAGE_CASE],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert missing.returncode not in EXIT.values(), missing.stdout + missing.stderr


def _unpack_source(sdist: Path, into: Path) -> None:
    """The sdist's package tree (src/google/...) copied over ``into``'s, so a commit holds one release."""
    work = into.parent / f"unpacked-{sdist.name}"
    with tarfile.open(sdist) as tf:
        tf.extractall(work, filter="data")
    top = next(work.iterdir())
    if (into / "src").exists():
        shutil.rmtree(into / "src")
    shutil.copytree(top / "src", into / "src")


@pytest.mark.slow
def test_git_bisect_run_with_a_reproduction_finds_the_commit(tmp_path):
    """A regression, as a maintainer meets it: the record's last release where a sub-agent's second
    long-running pause resumes (fixed) and the next, where it does not (reproduced). A repository with
    the first release's sources, then the second's; ``git bisect run python repro.py CASE`` (0 good,
    3 bad, 125 skip) names the second commit."""
    from harness.execution import environments
    from harness.planning import builds, index, versions

    scenario_id, case = "adk-subagent-lro-second-resume", "response-as-new-message"
    if not reproduce.script_file(scenario_id).is_file():
        pytest.skip(f"{scenario_id} is not a bug folder")
    rows = reproduce.case_rows(record.load(PROJECT.reports), scenario_id, case)
    pairs = [(a, b) for a, b in itertools.pairwise(rows) if (a.outcome, b.outcome) == (FIXED, REPRODUCED)]
    if not pairs:
        pytest.skip(f"the record has no regression of {scenario_id}:{case}")
    good, bad = (str(r.version) for r in pairs[0])
    assert versions.key(good) < versions.key(bad)
    # An environment with the good release's dependencies (the matrix's, made when missing).
    env = environments.ensure(builds.parse(f"google-adk=={good}", PROJECT.cache), PROJECT.builds, PROJECT.cache).path
    repo = tmp_path / "adk-python"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q", str(repo)], check=True)
    commits = []
    for version in (good, bad):
        _unpack_source(index.download_sdist("google-adk", version, tmp_path, PROJECT.cache), repo)
        subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
        subprocess.run([*git, "commit", "-qm", f"google-adk {version}"], cwd=repo, check=True)
        commits.append(subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, text=True, capture_output=True).stdout)
    script = reproduce.script_file(scenario_id)
    # The checkout's sources first on the path, over the environment's own google.adk.
    runner = tmp_path / "run.sh"
    runner.write_text(f'#!/bin/sh\nPYTHONPATH="{repo}/src" exec "{env}/bin/python" "{script}" {case}\n')
    runner.chmod(0o755)
    subprocess.run(["git", "bisect", "start", commits[1].strip(), commits[0].strip()], cwd=repo, check=True)
    out = subprocess.run(["git", "bisect", "run", str(runner)], cwd=repo, capture_output=True, text=True)
    assert f"{commits[1].strip()} is the first bad commit" in out.stdout, out.stdout + out.stderr
    assert f"google-adk {bad}" in out.stdout


@pytest.mark.slow
def test_a_script_against_a_local_source_tree_the_way_the_comment_says_gets_that_releases_verdict(tmp_path):
    """A maintainer's checkout: the sources of a release the record says reproduces (its sdist's
    tree, as a checkout has it), run with the command the comment and the report print
    (``PYTHONPATH=<checkout>/src python repro.py CASE``) from an environment holding a fixed release
    (the tests' pin, whose dependencies it shares): the checkout's verdict, not the environment's."""
    from harness.planning import index

    scenario_id, case = "adk-retry-same-invocation-id", "resumable-resume"
    rows = reproduce.case_rows(record.load(PROJECT.reports), scenario_id, case)
    old = next(r for r in reversed(rows) if r.outcome == REPRODUCED)
    pinned = next(r for r in rows if str(r.version) == installed("google-adk"))
    assert pinned.outcome == FIXED, "the environment's own release must not show the bug"
    sdist = index.download_sdist("google-adk", str(old.version), tmp_path, PROJECT.cache)
    with tarfile.open(sdist) as tf:
        tf.extractall(tmp_path / "unpacked", filter="data")
    checkout = next((tmp_path / "unpacked").iterdir())
    shutil.copy(reproduce.script_file(scenario_id), tmp_path / reproduction.SCRIPT)
    command = reproduce.local_command(case, checkout=str(checkout))
    # "python" is the environment's: the one that has the framework's dependencies.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    proc = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr[-2000:]
    assert (proc.returncode, last.split(":")[0:2]) == (EXIT[REPRODUCED], ["verdict", " reproduced"]), last
    # Without the checkout on the path, the same command's script gives the environment's release's verdict.
    plain = subprocess.run(
        [sys.executable, reproduction.SCRIPT, case], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert plain.returncode == EXIT[FIXED], plain.stdout[-2000:] + plain.stderr[-2000:]
