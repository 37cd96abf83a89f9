"""The upgrade axis: each planned pair's two steps, each in its release's environment, on one folder.

For a pair (writer A, reader B) of an upgrade scenario (harness/planning/upgrades.py), the script
runs twice, exactly as a maintainer runs it (harness/runtime/upgrade.py): ``repro.py write CASE
STATE`` with A's Python, then ``repro.py read CASE STATE`` with B's, on a fresh folder the harness
makes and removes; a ``-postgresql`` case on the harness's server (harness/execution/postgres.py),
found through libpq's variables. The reader's verdict line is the pair's outcome; a writer that
could not write gives ``not-applicable`` (the release lacks the API) or ``error``. Each step runs in
its own process group under the workers' isolation and environment, killed whole on its deadline
(harness/execution/upgrade_steps.py: as a process of its own or in a fork of the release's warm worker).

A reproduced pair is explained by the framework's own code: the change of the scenario's
``schema_files`` between the two releases' installed sources (``schema_change``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import json
import re
import subprocess
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from harness.execution import driver, environments, postgres, progress
from harness.execution.run import RunSettings
from harness.execution.upgrade_steps import (
    WRITTEN,
    StepEnd,
    StepWorkers,
    WarmStep,
    new_state_folder,
    remove_state_folder,
    run_step,
    step_environment,
    sweep,
)
from harness.planning import builds as builds_mod
from harness.planning import interpreters
from harness.planning.upgrades import PlannedPair
from harness.runtime.outcomes import ERROR, NOT_APPLICABLE, OUTCOMES, REPRODUCED
from harness.runtime.result import CaseResult
from harness.runtime.runner import strip_paths
from harness.runtime.scenario import SQLITE
from harness.store.environment import Environment
from harness.store.rows import Row, change_key

HUNK_LINES = 60  # lines of a pair's schema change shown; the rest counted


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

    workers = StepWorkers(settings, made, pairs)
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
