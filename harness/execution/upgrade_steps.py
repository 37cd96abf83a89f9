"""An upgrade pair's steps: ``python repro.py STEP CASE STATE`` in a release's environment, as a
process of its own or in a fork of the release's warm worker (harness/runtime/step.py), killed whole
on its deadline, on a signal that ends the run and with the harness; the folders a pair's steps
share; and each release's warm worker for the steps of a run (``StepWorkers``). What a step's
verdict line says is judged by harness/execution/upgrades.py.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from harness.execution import driver, environments, isolation, pool, postgres, scratch
from harness.execution.run import RunSettings
from harness.planning.upgrades import PlannedPair
from harness.runtime.outcomes import ERROR
from harness.runtime.reproduction import libpq_environment, normalise
from harness.runtime.runner import strip_paths
from harness.runtime.scenario import SQLITE
from harness.store import result_cache

WRITTEN = "written"  # the writer's verdict word when it wrote its state
STEP_TIMEOUT = 240.0  # seconds a step may take (an import of google-adk takes up to 20 s on a loaded machine)
_VERDICT = re.compile(r"^verdict: ([a-z-]+): ?(.*)$")
# What a pair's two runs may differ in, were it not for normalise: the state folder's path.
STATE_PLACEHOLDER = "STATE"


@dataclass(frozen=True)
class StepEnd:
    """One step's end: its verdict word and detail, and its normalised lines."""

    word: str
    detail: str
    lines: list[str]


def _verdict(lines: list[str], code: int | None, timed_out: bool) -> tuple[str, str]:
    """(word, detail) of a step from its one verdict line; a step with none, or with two (which of
    them would judge? issue 49: the last one did), is an error with what it printed."""
    found = [m for m in map(_VERDICT.match, lines) if m]
    if len(found) == 1:
        return found[0].group(1), found[0].group(2)
    if found:
        said = " | ".join(m.group(0) for m in found[:3])
        return ERROR, f"{len(found)} verdict lines, where a step prints one: {said}"
    if timed_out:
        return ERROR, f"no verdict within {STEP_TIMEOUT:.0f} s; last lines: " + " | ".join(lines[-3:])
    return ERROR, f"exit {code} with no verdict line; last lines: " + " | ".join(lines[-3:])


# What the run has started and not yet ended: each live step's process group and each pair's folder.
# A signal that ends the run ends them too (``_end_everything``, through harness/execution/postgres.py's
# handlers); a step also dies with the harness thread that started it (Linux's parent-death signal);
# and a folder left by a run killed with SIGKILL is removed by the next run (``sweep``).
_live_groups: set[int] = set()
_live_runs: set[driver.WarmRun] = set()
_live_folders: set[Path] = set()
STATE_KIND = "upgrade"  # the pair folders: harness-upgrade-<pid>-... (harness/execution/scratch.py)
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _end_everything() -> None:
    for run in list(_live_runs):
        with contextlib.suppress(Exception):
            run.kill()
    for group in list(_live_groups):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)
    for folder in list(_live_folders):
        scratch.remove(folder)


postgres.on_signal(_end_everything)


# Resolved once, before any fork: the child between fork and exec only calls it (no loader work).
_PRCTL = getattr(ctypes.CDLL(None, use_errno=True), "prctl", None) if sys.platform == "linux" else None


def _die_with_the_harness() -> None:
    """In the step's process before it runs: SIGKILL when the harness thread that started it ends."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def new_state_folder() -> Path:
    """A fresh folder for a pair, named with this process's id (``sweep`` knows whose it is)."""
    folder = scratch.make(STATE_KIND)
    _live_folders.add(folder)
    return folder


def remove_state_folder(folder: Path) -> None:
    scratch.remove(folder)
    _live_folders.discard(folder)


def sweep() -> list[Path]:
    """Remove the pair folders of runs that no longer exist (one killed with SIGKILL); the removed."""
    return scratch.sweep(STATE_KIND)


def run_step(
    python: Path,
    script: Path,
    step: str,
    case: str,
    state: Path,
    env: dict[str, str],
    warm: WarmStep | None = None,
) -> StepEnd:
    """``python script step case state``: in a fork of the release's warm worker where ``warm``
    names one that answers (harness/runtime/step.py: what the script sees is the same), else as a
    process of its own; in its own process group either way (killed whole on the deadline, on a
    signal that ends the run, and with the harness)."""
    ended = _in_warm_worker(warm, script, step, case, state) if warm is not None else None
    if ended is None:
        ended = _in_own_process(python, script, step, case, state, env)
    text, code, timed_out = ended
    lines = normalise([strip_paths(line) for line in text.replace(str(state), STATE_PLACEHOLDER).splitlines()])
    word, detail = _verdict(lines, code, timed_out)
    return StepEnd(word, " ".join(detail.split()), lines)


def _in_own_process(
    python: Path, script: Path, step: str, case: str, state: Path, env: dict[str, str]
) -> tuple[str, int | None, bool]:
    """(output, exit code, timed out) of the step as the command a maintainer runs."""
    proc = subprocess.Popen(
        isolation.wrap([str(python), str(script), step, case, str(state)]),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        cwd=state,
        env=env,
        start_new_session=True,
        preexec_fn=_die_with_the_harness if _PRCTL is not None else None,
    )
    _live_groups.add(proc.pid)
    timed_out = False
    try:
        out, _ = proc.communicate(timeout=STEP_TIMEOUT)
    except subprocess.TimeoutExpired:
        timed_out = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    finally:
        if proc.poll() is None:  # an exception in communicate: nothing of the step is left
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    with contextlib.suppress(
        ProcessLookupError, PermissionError
    ):  # a child the step left behind (a migration tool) ends with it
        os.killpg(proc.pid, signal.SIGKILL)
    _live_groups.discard(proc.pid)
    return out.decode(errors="replace"), proc.returncode, timed_out


@dataclass(frozen=True)
class WarmStep:
    """A release's warm worker for its steps, and what a run of it needs: the framework and the
    process environment the worker was started with (its per-run part: the server's socket)."""

    member: pool.Member
    framework: str
    env: dict[str, str]


def _in_warm_worker(
    warm: WarmStep, script: Path, step: str, case: str, state: Path
) -> tuple[str, int | None, bool] | None:
    """(output, exit code, timed out) of the step in a fork of ``warm``'s worker; None when the
    worker did not answer (the step then runs as a process of its own)."""
    argv = ["--framework", warm.framework, "--step", str(script), step, case, str(state)]
    output = new_state_folder()  # the step's output, beside its state folder, never in it
    try:
        try:
            run = driver.WarmRun(warm.member, argv, output / "step.out", warm.env)
        except OSError:
            return None
        finished = threading.Event()

        def follow() -> None:
            for _ in run.lines():  # a step says nothing on the channel: the frames only (pid, exit)
                pass
            finished.set()

        reader = threading.Thread(target=follow, daemon=True)
        _live_runs.add(run)
        try:
            reader.start()
            timed_out = not finished.wait(STEP_TIMEOUT)
            if timed_out:
                run.kill()
            reader.join()
        finally:
            _live_runs.discard(run)
            run.close()
        if run.pid is None:  # never forked: the worker went away
            return None
        try:
            text = (output / "step.out").read_text(errors="replace")
        except OSError:
            text = ""
        return text, run.exit_code(), timed_out
    finally:
        remove_state_folder(output)


def step_environment(root: Path, backend: str) -> dict[str, str]:
    """The steps' process environment: the workers' allowlist, without the harness on the path (the
    script is standalone), and libpq's variables for the harness's server on PostgreSQL."""
    env = environments.worker_environment(root)
    env.pop("PYTHONPATH", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # the builds are shared: a step leaves nothing in them
    if backend != SQLITE:
        env.update(libpq_environment(postgres.server().socket_dir))
    return env


class StepWorkers:
    """Each release's warm worker for the steps of a run: found or started when its first step
    comes (the matrix's release axis started most of them, for these steps: harness/execution/matrix.py),
    and those this command started for its own runs stopped when its last pair is done."""

    def __init__(
        self, settings: RunSettings, made: dict[tuple[str, str], environments.Environment], pairs: list[PlannedPair]
    ) -> None:
        self.settings = settings
        self.made = made
        self.env = environments.worker_environment(settings.root)
        self.left: dict[tuple[str, str], int] = {}
        for p in pairs:
            for v in {p.writer, p.reader}:
                self.left[(p.scenario.framework, v)] = self.left.get((p.scenario.framework, v), 0) + 1
        self.found: dict[tuple[str, str], WarmStep | None] = {}
        self.started: dict[tuple[str, str], pool.Member] = {}
        self.locks: dict[tuple[str, str], threading.Lock] = {fv: threading.Lock() for fv in self.left}

    def get(self, fv: tuple[str, str]) -> WarmStep | None:
        if self.settings.pool == "cold" or fv not in self.made or not pool.usable():
            return None
        with self.locks[fv]:
            if fv not in self.found:
                self.found[fv] = self._member(fv)
            return self.found[fv]

    def _member(self, fv: tuple[str, str]) -> WarmStep | None:
        env = self.made[fv]
        if not env.build.release:
            return None
        member = pool.for_run(
            self.settings.pool,
            env.python,
            self.settings.root,
            self.env,
            env.path,
            fv[0],
            self.settings.pool_memory_mb,
            installed=result_cache.environment_digest(env.path),
            for_this_run=True,
        )
        if member is None:
            return None
        if pool.started_by_this_run(member):
            self.started[fv] = member
        return WarmStep(member, fv[0], self.env)

    def done_with(self, pair: PlannedPair) -> None:
        for v in {pair.writer, pair.reader}:
            fv = (pair.scenario.framework, v)
            with self.locks[fv]:
                self.left[fv] -= 1
                if self.left[fv] == 0 and fv in self.started:
                    pool.stop(self.started.pop(fv))

    def stop_all(self) -> None:
        for fv in list(self.started):
            pool.stop(self.started.pop(fv))
