"""Sessions of the harness. `nox -s lint` and `nox -s tests` are the checks; `nox -s matrix` the main job."""

from __future__ import annotations

import ctypes
import os
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import nox
import nox.command

nox.needs_version = ">=2024.3.2"
nox.options.default_venv_backend = "uv"
nox.options.sessions = ["lint", "tests"]

# The releases `nox -s tests` runs the scenarios on: pinned, so a new upstream release
# never breaks the test command (`nox -s matrix` is what follows new releases).
TEST_PINS = ["google-adk==2.13.0", "openai-agents==0.24.0"]
# Resolve the test environment's dependencies as of this date, for the same reason.
TEST_DEPENDENCY_DATE = "2026-11-29T00:00:00Z"

# The lint tools are pinned in pyproject.toml's `lint` group; their own dependencies are
# resolved as of this date, so the lint result changes only when the tree does.
LINT_DEPENDENCY_DATE = "2026-11-29T00:00:00Z"
# What `nox -s lint` runs, in order, from the project root; a plain literal, so
# tests/test_lint.py reads it (without nox) and runs the same commands on seeded copies.
LINT_STEPS = [
    ["ruff", "check", "harness", "scenarios", "upgrades", "tests", "noxfile.py"],
    ["ruff", "format", "--check", "harness", "scenarios", "upgrades", "tests", "noxfile.py"],
    # Which files and how strict: [tool.mypy] in pyproject.toml.
    ["mypy"],
    # --offline: no GitHub API calls (no token needed); --strict-collection: a workflow that is
    # not valid YAML or not a workflow fails the step instead of being skipped with a warning.
    ["zizmor", "--offline", "--strict-collection", ".github/workflows"],
]


def pins_with_requirements() -> list[str]:
    """TEST_PINS with what the scenarios require (Scenario.requires): the framework's extras
    on its pin (``google-adk[db]==2.13.0``) and the other packages, as every matrix
    environment of the framework gets them (harness/execution/environments.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from harness.runtime import registry  # the runtime is stdlib-only

    scenarios = registry.discover()
    out: list[str] = []
    for pin in TEST_PINS:
        name, _, version = pin.partition("==")
        extras, packages = registry.requirements(scenarios, name)
        out.append(f"{name}[{','.join(extras)}]=={version}" if extras else pin)
        out.extend(p for p in packages if p not in out)
    return out


def install_test_dependencies(session: nox.Session) -> None:
    """The pins, the scenarios' requirements and the test group, installed only when they changed
    since the environment last got them (a stamp in the environment): the author's loop of
    `nox -s tests -- -k ID` reuses the environment instead of reinstalling it every time."""
    group = nox.project.dependency_groups(nox.project.load_toml("pyproject.toml"), "test")
    wanted = ["--exclude-newer", TEST_DEPENDENCY_DATE, *pins_with_requirements(), *group, "uv"]
    location = getattr(session.virtualenv, "location", None)
    stamp = Path(location) / "harness-test-requirements.txt" if location else None
    if stamp is not None and stamp.is_file() and stamp.read_text() == "\n".join(wanted):
        return
    session.install(*wanted)
    if stamp is not None:
        stamp.write_text("\n".join(wanted))


def pytest_arguments(posargs: list[str]) -> list[str]:
    """The session's arguments, with a worker per core and one more unless the caller chose (-n, -p no:xdist).
    Work stealing: the suite's longest tests (minutes each: the walkthrough, the candidate and
    upgrade end-to-end runs) otherwise land on one worker near the end while the other idles."""
    chosen = any(a == "-n" or a.startswith(("-n", "--numprocesses")) or a == "no:xdist" for a in posargs)
    if chosen:
        return posargs
    # One worker more than the cores: the suite waits on the processes it starts (builds, workers,
    # uv), so -n auto kept a 2-core machine at a load of 1.3-2.2; measured from fresh clones,
    # pytest took 899 s with 2 workers and 828 s with 3 (issue 51).
    return ["-n", str((os.cpu_count() or 1) + 1), "--dist", "worksteal", *posargs]


# pgserver: PostgreSQL's binaries in a wheel, for the database scenarios' -postgresql cases
# (harness/execution/postgres.py starts one server per run; pyproject's `postgres` extra).
ORCHESTRATOR_PACKAGES = ("uv", "packaging", "pgserver==0.1.4")


def install_orchestrator(session: nox.Session) -> None:
    """uv, packaging and pgserver, for the sessions that orchestrate builds; in their reused
    environment only when missing (an install that finds them costs a tenth of a second per run)."""
    location = getattr(session.virtualenv, "location", None)
    site = list(Path(location).glob("lib/python*/site-packages")) if location else []
    names = [name.partition("==")[0] for name in ORCHESTRATOR_PACKAGES]
    if not site or not all(list(site[0].glob(f"{name}-*.dist-info")) for name in names):
        session.install(*ORCHESTRATOR_PACKAGES)


# The signals nox passes on to the harness; it then waits for the harness to end.
FORWARDED_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def run_to_the_end(session: nox.Session, *args: str) -> None:
    """Run a command in the session's environment (as session.run does) and end the session with
    the command's own exit status. session.run turns every failure into nox's 1 (the harness's 2
    for bad input would become 1) and leaves the command running when nox gets SIGTERM or SIGHUP
    (a run then writes its record after nox has gone). Here the command runs in a process group
    of its own, nox passes SIGTERM, SIGHUP and SIGINT (Ctrl-C reaches nox alone) on to it and waits
    for it (a second signal goes on as SIGTERM; the harness ends the worker runs under way on
    either); a non-zero status ends nox through SystemExit, a death by a signal
    by the same signal; if nox itself is killed, the command gets SIGTERM (a parent-death signal)."""
    env = {k: v for k, v in {**os.environ, **session.virtualenv.env, **session.env}.items() if v is not None}
    env["PATH"] = os.pathsep.join([*(session.bin_paths or []), env.get("PATH", "")])
    program = shutil.which(args[0], path=env["PATH"]) or args[0]
    session.log(shlex.join(args))
    nox_pid = os.getpid()
    libc = ctypes.CDLL(None) if sys.platform.startswith("linux") else None  # loaded before the fork

    def own_group_dying_with_nox() -> None:
        os.setpgid(0, 0)
        if libc is not None:
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG; nox has one thread
        if os.getppid() != nox_pid:  # nox died before the signal was set
            os._exit(128 + signal.SIGTERM)

    process = subprocess.Popen([program, *args[1:]], env=env, preexec_fn=own_group_dying_with_nox)
    received: list[int] = []

    def pass_on(signum: int, _frame: object) -> None:
        process.send_signal(signal.SIGTERM if received else signum)
        received.append(signum)

    previous = {signum: signal.signal(signum, pass_on) for signum in FORWARDED_SIGNALS}
    try:
        status = process.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if status < 0:  # the command ended by a signal: so does nox, after one line saying so
        signum = -status
        session.log(f"{shlex.join(args)} ended by {signal.Signals(signum).name}")
        # SIGKILL's disposition cannot be changed (signal.signal raised OSError: Invalid argument,
        # issue 49); it needs none: it kills nox as it killed the command.
        if signum not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    if status:
        raise SystemExit(status)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (rules and formatting), mypy over harness/, zizmor over the GitHub workflows."""
    pyproject = nox.project.load_toml("pyproject.toml")
    tools = nox.project.dependency_groups(pyproject, "lint")
    # The project's own dependencies too, so mypy checks harness/ against packaging's types.
    session.install("--exclude-newer", LINT_DEPENDENCY_DATE, *tools, *pyproject["project"]["dependencies"])
    # Every step runs, so one run shows every kind of finding; the session fails if any did.
    failed = []
    for step in LINT_STEPS:
        try:
            session.run(*step)
        except nox.command.CommandFailed:
            failed.append(" ".join(step))
    if failed:
        session.error("failed: " + "; ".join(failed))


@nox.session(reuse_venv=True)
def tests(session: nox.Session) -> None:
    """Run the harness's own tests and every scenario on the pinned releases."""
    install_test_dependencies(session)
    session.run("pytest", *pytest_arguments(session.posargs))


# The matrix and bisect sessions install only uv and packaging: their environment is reused
# between runs (a new one costs about a second, most of an edit-and-rerun with warm workers).
@nox.session(default=False, reuse_venv=True)
def matrix(session: nox.Session) -> None:
    """Run every scenario across framework releases (or the SPECs given after --)."""
    # The harness core is stdlib-only; each build gets its own environment, made by
    # the harness with uv (harness/execution/environments.py), so only uv is installed here.
    install_orchestrator(session)
    run_to_the_end(session, "python", "-m", "harness", "matrix", *session.posargs)


@nox.session(default=False, reuse_venv=True)
def candidate(session: nox.Session) -> None:
    """Evidence for a framework pull request: nox -s candidate -- PATH [--out DIR] (exit 1 on a regression)."""
    install_orchestrator(session)
    run_to_the_end(session, "python", "-m", "harness", "candidate", *session.posargs)


@nox.session(default=False)
def mutants(session: nox.Session) -> None:
    """Mutate every scenario's oracle functions and run the proofs against each mutant: nox -s mutants [-- ID ...]."""
    # The in-process proofs run on the pinned releases, as in `nox -s tests`; Release proofs
    # run in their matrix environments under .nox/builds (made with uv when missing).
    session.install("--exclude-newer", TEST_DEPENDENCY_DATE, *pins_with_requirements(), *ORCHESTRATOR_PACKAGES)
    run_to_the_end(session, "python", "-m", "harness", "mutants", *session.posargs)


@nox.session(default=False)
def new(session: nox.Session) -> None:
    """Write a new bug folder from the templates: nox -s new -- <id> --framework NAME."""
    run_to_the_end(session, "python", "-m", "harness", "new", *session.posargs)


@nox.session(default=False, reuse_venv=True)
def bisect(session: nox.Session) -> None:
    """Find the releases where a case's outcome changes: nox -s bisect -- <scenario>[:<case>]."""
    install_orchestrator(session)
    run_to_the_end(session, "python", "-m", "harness", "bisect", *session.posargs)


@nox.session(default=False)
def bench(session: nox.Session) -> None:
    """Time the matrix against a hand-rolled baseline and the import floor."""
    session.install(*ORCHESTRATOR_PACKAGES)  # pgserver too: the matrix runs the PostgreSQL cases
    run_to_the_end(session, "python", "-m", "harness.commands.bench", *session.posargs)


@nox.session(default=False, reuse_venv=True)
def audit(session: nox.Session) -> None:
    """Known bugs of a release: nox -s audit -- [TARGET] [--run] [--format json] (exit 1: one reproduces)."""
    # The default TARGET is the `python` first on PATH outside this session's environment (the user's).
    session.install("packaging")
    # nox runs from the noxfile's folder and sets VIRTUAL_ENV to its own environment: the folder nox
    # was called from, where a relative path is the user's, and the user's active environment go on
    # by name (harness/planning/audit_targets.py; issue 50: relative paths failed from another
    # folder, and the active venv was not read).
    session.env["HARNESS_CALLER_DIR"] = session.invoked_from
    if os.environ.get("VIRTUAL_ENV"):
        session.env["HARNESS_USER_VIRTUAL_ENV"] = os.environ["VIRTUAL_ENV"]
    run_to_the_end(session, "python", "-m", "harness", "audit", *session.posargs)
