"""The upgrade axis: each planned pair's two steps, each in its release's environment, on one folder.

For a pair (writer A, reader B) of an upgrade scenario (harness/planning/upgrades.py), the script
runs twice, exactly as a maintainer runs it (harness/runtime/upgrade.py): ``repro.py write CASE
STATE`` with A's Python, then ``repro.py read CASE STATE`` with B's, on a fresh folder the harness
makes and removes; a ``-postgresql`` case on the harness's server (harness/execution/postgres.py),
found through libpq's variables. The reader's verdict line is the pair's outcome; a writer that
could not write gives ``not-applicable`` (the release lacks the API) or ``error``. Each step runs in
its own process group under the workers' isolation and environment, killed whole on its deadline.

A reproduced pair is explained by the framework's own code: the change of the scenario's
``schema_files`` between the two releases' installed sources (``schema_change``).
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import difflib
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from harness.execution import driver, environments, isolation, pool, postgres, progress, scratch
from harness.execution.run import RunSettings
from harness.planning import builds as builds_mod
from harness.planning import interpreters
from harness.planning.upgrades import PlannedPair
from harness.runtime.outcomes import ERROR, NOT_APPLICABLE, OUTCOMES, REPRODUCED
from harness.runtime.reproduction import libpq_environment, normalise
from harness.runtime.result import CaseResult
from harness.runtime.runner import strip_paths
from harness.runtime.scenario import SQLITE
from harness.store import result_cache
from harness.store.environment import Environment
from harness.store.rows import Row, change_key

WRITTEN = "written"  # the writer's verdict word when it wrote its state
STEP_TIMEOUT = 240.0  # seconds a step may take (an import of google-adk takes up to 20 s on a loaded machine)
_VERDICT = re.compile(r"^verdict: ([a-z-]+): ?(.*)$")
# What a pair's two runs may differ in, were it not for normalise: the state folder's path.
STATE_PLACEHOLDER = "STATE"
HUNK_LINES = 60  # lines of a pair's schema change shown; the rest counted


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


def judge_pair(writer: StepEnd, reader: StepEnd | None, pair: PlannedPair) -> tuple[str, str]:
    """The pair's (outcome, detail): the reader's verdict, or what stopped the writer."""
    if writer.word != WRITTEN:
        if writer.word == NOT_APPLICABLE:
            return NOT_APPLICABLE, f"the writer ({pair.writer}) cannot write this state: {writer.detail}"
        return ERROR, f"the writer ({pair.writer}) failed: {writer.word}: {writer.detail}"
    assert reader is not None
    if reader.word not in OUTCOMES:
        return ERROR, f"the reader ({pair.reader}) said {reader.word!r}, not an outcome: {reader.detail}"
    return reader.word, reader.detail


def timeline(pair: PlannedPair, framework: str, writer: StepEnd, reader: StepEnd | None) -> str:
    """The pair's timeline: the writer's lines, then the reader's, each under its command."""
    lines = [f"== {framework} {pair.writer}: repro.py write {pair.case} STATE", *writer.lines]
    if reader is not None:
        lines += [f"== {framework} {pair.reader}: repro.py read {pair.case} STATE", *reader.lines]
    return "\n".join(lines) + "\n"


def step_environment(root: Path, backend: str) -> dict[str, str]:
    """The steps' process environment: the workers' allowlist, without the harness on the path (the
    script is standalone), and libpq's variables for the harness's server on PostgreSQL."""
    env = environments.worker_environment(root)
    env.pop("PYTHONPATH", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # the builds are shared: a step leaves nothing in them
    if backend != SQLITE:
        env.update(libpq_environment(postgres.server().socket_dir))
    return env


def run_pair(
    pair: PlannedPair,
    pythons: dict[str, Path],
    root: Path,
    repeat: int = 1,
    warm: Callable[[str], WarmStep | None] = lambda version: None,
) -> CaseResult:
    """The pair's result: the two steps on a fresh folder (``repeat`` times; runs that disagree are an
    error). ``warm``: a release's warm worker for its steps, if it has one."""
    rendered: list[tuple[str, str, str]] = []
    backend = pair.scenario.backend(pair.case)
    try:
        env = step_environment(root, backend)
    except postgres.Unavailable as exc:
        return CaseResult(pair.scenario.id, pair.case, ERROR, "the PostgreSQL server could not start: " + str(exc))
    served = {} if backend == SQLITE else {postgres.SOCKET_ENV: postgres.server().socket_dir}

    def step(version: str, name: str, state: Path) -> StepEnd:
        found = warm(version)
        if found is not None and served:
            found = dataclasses.replace(found, env={**found.env, **served})
        return run_step(pythons[version], pair.scenario.script, name, pair.case, state, env, found)

    for _ in range(repeat):
        state = new_state_folder()
        try:
            writer = step(pair.writer, "write", state)
            reader = None
            if writer.word == WRITTEN:
                reader = step(pair.reader, "read", state)
        finally:
            remove_state_folder(state)
        outcome, detail = judge_pair(writer, reader, pair)
        rendered.append((outcome, detail, timeline(pair, pair.scenario.framework, writer, reader)))
    first = rendered[0]
    if any(r != first for r in rendered[1:]):
        other = next(r for r in rendered[1:] if r != first)
        diff = "".join(
            difflib.unified_diff(first[2].splitlines(True), other[2].splitlines(True), "run 1", "run 2", n=0)
        )
        detail = f"two runs of the pair disagree ({first[0]}: {first[1]} / {other[0]}: {other[1]}); {diff[:400]}"
        return CaseResult(pair.scenario.id, pair.case, ERROR, " ".join(detail.split()), first[2])
    return CaseResult(pair.scenario.id, pair.case, *first)


def _environment_record(env: environments.Environment, root: Path, warm: WarmStep | None) -> Environment:
    """The record's entry for a build only the upgrade axis used (the worker writes the others'):
    what the build's worker says of its environment (in a fork of ``warm``'s, else a process)."""
    said, _ = driver.run_worker(
        env.python,
        env.build.framework,
        [],
        environments.worker_environment(root),
        root,
        timeout=120,
        warm=warm.member if warm is not None else None,
        describe=True,
    )
    if said is None:
        raise ValueError("the worker said nothing of its environment")
    # Upgrade pairs run on the default interpreter.
    build = env.build
    return Environment.measured(
        build.source, build.framework, build.version, interpreters.DEFAULT, env.exclude_newer, said
    )


def schema_change(
    scenario_files: tuple[str, ...], writer: Path, reader: Path, detail: str, markers: tuple[str, ...] = ()
) -> dict:
    """What changed between the two releases' installed ``scenario_files`` (site-packages paths): the
    hunks with a changed line (not a comment) that matches one of ``markers`` (any, when none) and
    names a word of the reproduced ``detail`` (the missing column, the refused version number), at
    most ``HUNK_LINES`` lines, the rest counted; ``matched`` says whether any did."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]{3,}|\d+\.\d+", detail))
    hunks: list[tuple[str, list[str]]] = []
    for rel in scenario_files:
        before, after = _site_file(writer, rel), _site_file(reader, rel)
        if before is None and after is None:
            continue
        diff = list(
            difflib.unified_diff(
                (before or "").splitlines(),
                (after or "").splitlines(),
                f"{rel} (writer)" if before is not None else "/dev/null",
                f"{rel} (reader)" if after is not None else "/dev/null",
                n=2,
                lineterm="",
            )
        )
        current: list[str] = []
        for line in diff[2:]:
            if line.startswith("@@") and current:
                hunks.append((rel, current))
                current = []
            current.append(line)
        if current:
            hunks.append((rel, current))

    def names_the_detail(hunk: list[str]) -> bool:
        changed = [
            line[1:]
            for line in hunk
            if line[:1] in "+-" and not line.startswith(("+++", "---")) and not line[1:].lstrip().startswith("#")
        ]
        declaring = [c for c in changed if not markers or any(re.search(m, c) for m in markers)]
        return any(re.search(rf"(?<![\w.]){re.escape(w)}(?![\w.])", " ".join(declaring)) for w in words)

    chosen = [(rel, h) for rel, h in hunks if names_the_detail(h)]
    matched = bool(chosen)
    shown: list[str] = []
    for rel, hunk in chosen or hunks:
        shown += [f"--- {rel}", *hunk]
    total = len(shown)
    return {
        "matched": matched,
        "files": list(scenario_files),
        "excerpt": shown[:HUNK_LINES],
        "more_lines": max(0, total - HUNK_LINES),
    }


def _site_file(env_path: Path, rel: str) -> str | None:
    for site in sorted(env_path.glob("lib/python3*/site-packages")):
        path = site / rel
        if path.is_file():
            return path.read_text(errors="replace")
    return None


@dataclass
class UpgradeRun:
    """What the upgrade axis gave: a row per pair, the environments it used, each reproduced pair's change."""

    rows: list[Row]
    environments: list[Environment]
    changes: dict[str, dict]  # "<scenario>:<case> <writer> -> <reader>" -> schema_change(...)


# In the reader's environment folder: the results of the pairs it read, each with what answered it
# (the script's digest, the writer's environment marker), so an unchanged pair is not run again;
# rebuilding either environment, or a fresh checkout, forgets it (as harness/store/result_cache.py).
CACHE_FILE = "harness-upgrade-results.json"
_cache_lock = threading.Lock()


def _marker(env_path: Path) -> str:
    try:
        return hashlib.sha256((env_path / environments.MARKER).read_bytes()).hexdigest()[:16]
    except OSError:
        return ""


def _cache_key(pair: PlannedPair) -> str:
    return f"{pair.scenario.id}:{pair.case} {pair.writer}"


def _cached(pair: PlannedPair, reader_env: Path, writer_env: Path) -> CaseResult | None:
    """The reader's stored result of ``pair`` when its script and both builds are the same, else None."""
    try:
        entry = json.loads((reader_env / CACHE_FILE).read_text()).get(_cache_key(pair))
    except (OSError, ValueError, AttributeError):
        return None
    if (
        not isinstance(entry, dict)
        or entry.get("inputs") != pair.scenario.inputs()
        or entry.get("writer") != _marker(writer_env)
        or entry.get("reader") != _marker(reader_env)
    ):
        return None
    result = CaseResult.from_dict(entry["result"])
    return None if result.outcome == ERROR else result


def _remember(pair: PlannedPair, reader_env: Path, writer_env: Path, result: CaseResult) -> None:
    """Store ``result`` in the reader's cache (a shortcut only: a failure to write costs a re-run)."""
    path = reader_env / CACHE_FILE
    with _cache_lock, contextlib.suppress(OSError, ValueError):
        try:
            cache = json.loads(path.read_text())
        except (OSError, ValueError):
            cache = {}
        cache[_cache_key(pair)] = {
            "inputs": pair.scenario.inputs(),
            "writer": _marker(writer_env),
            "reader": _marker(reader_env),
            "result": result.to_dict(),
        }
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(cache, indent=1, sort_keys=True))
        tmp.replace(path)


def run(
    pairs: list[PlannedPair],
    settings: RunSettings,
    jobs: int,
    repeat_new: Callable[[PlannedPair], bool],
    log: Callable[[str], None] = progress.log,
) -> UpgradeRun:
    """Every pair of ``pairs``: a result each (errors included). A pair whose script and two builds
    are those of its last run keeps that run's result unless ``settings.rerun``; ``repeat_new``:
    whether a pair runs twice (it has no stored snapshot to meet). Unless ``settings.pool`` is
    "cold", each release's steps run in forks of its warm worker (started for the axis where none
    is, and stopped when its last pair is done unless the pool is "warm")."""
    root, cache_dir = settings.root, settings.cache_dir
    for folder in sweep():
        log(f"upgrades: removed {folder.name}, a pair folder of a run that was killed")
    wanted = sorted({(p.scenario.framework, v) for p in pairs for v in (p.writer, p.reader)})
    builds = {fv: builds_mod.parse(f"{fv[0]}=={fv[1]}", cache_dir) for fv in wanted}
    if pairs:
        log(f"upgrades: {len(pairs)} pairs on {len(builds)} builds")
    pythons: dict[tuple[str, str], Path] = {}
    env_paths: dict[tuple[str, str], Path] = {}
    failures: dict[tuple[str, str], str] = {}
    env_records: list[Environment] = []

    def ensure(fv: tuple[str, str]) -> None:
        build = builds[fv]
        try:
            env = environments.ensure(
                build,
                settings.project.builds,
                cache_dir,
                today=settings.today_deps,
                recorded=settings.recorded.get(build.source),
            )
        except (environments.BuildFailed, OSError, subprocess.SubprocessError, ValueError) as exc:
            failures[fv] = f"install failed: {strip_paths(str(exc))}"
            return
        pythons[fv], env_paths[fv], made[fv] = env.python, env.path, env

    made: dict[tuple[str, str], environments.Environment] = {}
    described: set[tuple[str, str]] = set()

    def describe(fv: tuple[str, str]) -> None:
        """The record's entry of a build a pair ran on (once; a pair kept from its last run needs none:
        the record has its builds' entries from that run)."""
        with _cache_lock:
            if fv in described:
                return
            described.add(fv)
        try:
            env_records.append(_environment_record(made[fv], root, workers.get(fv)))
        except (OSError, subprocess.SubprocessError, ValueError, KeyError) as exc:
            log(f"upgrades: {builds[fv].source}: its packages could not be read: {strip_paths(str(exc))}")

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool_threads:
        list(pool_threads.map(ensure, wanted))

    workers = _StepWorkers(settings, made, pairs)
    done = 0
    reused = 0

    def one(pair: PlannedPair) -> Row:
        nonlocal done, reused
        fw = pair.scenario.framework
        try:
            failed = failures.get((fw, pair.writer)) or failures.get((fw, pair.reader))
            if failed:
                result = CaseResult(pair.scenario.id, pair.case, ERROR, failed)
            else:
                writer_env, reader_env = env_paths[(fw, pair.writer)], env_paths[(fw, pair.reader)]
                kept = None if settings.rerun else _cached(pair, reader_env, writer_env)
                if kept is not None:
                    reused += 1
                    return row_of(pair, kept)
                by_version = {pair.writer: pythons[(fw, pair.writer)], pair.reader: pythons[(fw, pair.reader)]}
                describe((fw, pair.writer))
                describe((fw, pair.reader))
                repeat = 2 if repeat_new(pair) else 1
                result = run_pair(pair, by_version, root, repeat, lambda version: workers.get((fw, version)))
                _remember(pair, reader_env, writer_env, result)
        finally:
            workers.done_with(pair)
        done += 1
        log(f"[upgrades {done} run] {pair.name}: {result.outcome}")
        return row_of(pair, result)

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool_threads:
            rows = list(pool_threads.map(one, pairs))
    finally:
        workers.stop_all()
    if pairs:
        log(f"upgrades: {done} pairs run, {reused} unchanged since their last run and not run again")
    changes = {}
    for pair, row in zip(pairs, rows, strict=True):
        fw = pair.scenario.framework
        if row.outcome == REPRODUCED and (fw, pair.writer) in env_paths and (fw, pair.reader) in env_paths:
            changes[f"{row.scenario}:{change_key(row)}"] = schema_change(
                pair.scenario.declaration.schema_files,
                env_paths[(fw, pair.writer)],
                env_paths[(fw, pair.reader)],
                row.detail,
                pair.scenario.declaration.schema_markers,
            )
    return UpgradeRun(rows, env_records, changes)


class _StepWorkers:
    """Each release's warm worker for the steps of a run: found or started when its first step
    comes, and (those this run started, unless the pool is "warm") stopped when its last pair is done."""

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
        there = pool.find(env.python, self.settings.root, self.env)
        member = pool.for_run(
            "warm",
            env.python,
            self.settings.root,
            self.env,
            env.path,
            fv[0],
            self.settings.pool_memory_mb,
            installed=result_cache.environment_digest(env.path),
        )
        if member is None:
            return None
        if there is None and self.settings.pool != "warm":
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


def row_of(pair: PlannedPair, result: CaseResult) -> Row:
    """The pair's result as a row of the record's ``upgrades``."""
    fw = pair.scenario.framework
    return Row(
        result,
        fw,
        pair.reader,
        f"{fw}=={pair.reader}",
        release=True,
        backend=pair.scenario.backend(pair.case),
        inputs=pair.scenario.inputs(),
        from_version=pair.writer,
        from_source=f"{fw}=={pair.writer}",
    )
