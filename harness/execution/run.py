"""Run a set of cases in one build: the one place that does it, for matrix, bisect and proofs.

It makes or reuses the build's environment, takes each case's recorded result where its inputs
(every project file its process loaded, the environment and the files installed in it:
harness/store/result_cache.py) are unchanged since it was recorded, runs the rest in the build's
worker (a fork of its warm worker where one answers, else a new process; deadlines and
kill-on-timeout in harness/execution/driver.py), records what it ran, and gives one typed result
per case, an install failure or a silent worker included.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from harness.execution import bytecode, environments, pool, postgres, progress
from harness.execution.driver import run_worker
from harness.planning.builds import Build
from harness.project import Project
from harness.runtime.loaded import KEY as LOADED
from harness.runtime.outcomes import ERROR
from harness.runtime.result import CaseResult, wire_name
from harness.runtime.runner import DEFAULT_TIMEOUT, strip_paths
from harness.runtime.scenario import SQLITE, Case, Scenario
from harness.store import result_cache

NO_REPORT = "the worker reported nothing for this case"
NO_SERVER = "the PostgreSQL server could not start: "


@dataclass(frozen=True)
class RunSettings:
    """How cases are run: shared by every build of a command."""

    project: Project  # its folders: the root, the builds' environments, the caches
    timeout: float = DEFAULT_TIMEOUT
    today_deps: bool = False
    rerun: bool = False  # run every case, even those whose recorded result is still valid
    pool: str = "auto"  # warm workers: "auto" (use those present), "warm" (start them too), "cold"
    pool_memory_mb: float | None = None
    # Runs of each case in its worker that must agree (harness/runtime/worker.py ``repeated``):
    # the matrix runs each twice, so a case that flickers is an error on the release it flickers on.
    repeat: int = 1
    # source -> the packages the record's environment of that release holds (reports/matrix.json):
    # a new environment resolved from uv's cache to exactly those is made without the index.
    recorded: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Where the environments are made: the project's .nox/builds by default; a commit bisect's own
    # temporary folder, removed when it ends (harness/execution/commit_bisect.py).
    builds_dir: Path | None = None
    # The sources of the releases (on the default interpreter) whose warm worker this run starts where
    # none is and keeps until it ends: the upgrade axis's steps run in forks of them after the release
    # axis (issue 47: each of its 38 builds paid a second import of the framework there).
    keep_warm: frozenset[str] = frozenset()

    @property
    def root(self) -> Path:
        return self.project.root

    @property
    def cache_dir(self) -> Path:
        return self.project.cache

    @classmethod
    def of(cls, options: object, project: Project, **overrides: object) -> RunSettings:
        """From a command's options, which carry the same flags (matrix, bisect), for ``project``
        (the command's, made once from its root)."""
        names = ("timeout", "today_deps", "rerun", "pool", "pool_memory_mb")
        return cls(project, **{**{n: getattr(options, n) for n in names}, **overrides})


@dataclass
class BuildRun:
    """What running a set of cases in one build gave."""

    results: list[CaseResult]
    env: environments.Environment | None = None
    env_record: dict | None = None  # what the worker said of its environment (packages, python)
    install_error: str | None = None
    ran: int = 0  # cases run (the others were taken from the environment's record)
    build_seconds: float = 0.0
    run_seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def run_cases(
    build: Build, cases: list[tuple[Scenario, Case]], settings: RunSettings, repeat_only: set[str] | None = None
) -> BuildRun:
    """Every case of ``cases`` in ``build``: one result each, in order. ``repeat_only``: the
    ``scenario:case`` keys that run ``settings.repeat`` times (default: every case)."""
    started = time.monotonic()
    progress.phase(build.label, "checking its environment")
    try:
        env = environments.ensure(
            build,
            settings.builds_dir or settings.project.builds,
            settings.cache_dir,
            today=settings.today_deps,
            recorded=settings.recorded.get(build.label),
        )
    except (environments.BuildFailed, OSError) as exc:
        detail = f"install failed: {strip_paths(str(exc))}"
        return BuildRun([CaseResult(s.id, c.id, ERROR, detail) for s, c in cases], install_error=detail)
    if not env.reused:  # a new environment: the bytecode of the files it shares with others
        bytecode.share_into(env.path, settings.cache_dir / "bytecode")
    built = time.monotonic()
    # Only a release's environment stays the same between runs; a local build's is reinstalled.
    cached = result_cache.load(env.path) if build.release else {}
    entries = cached.get("cases", {})
    keys = [f"{s.id}:{c.id}" for s, c in cases]
    # Once per build: every case's inputs include the environment's installed files (issue 49).
    environment = result_cache.environment_digest(env.path) if build.release else ""
    to_run = [
        k
        for k in keys
        if settings.rerun or not result_cache.reusable(entries.get(k), settings.root, env.path, environment)
    ]
    worker_env = environments.worker_environment(settings.root)
    # A server per run, started when the first case on another backend than SQLite is to run;
    # when it cannot start, those cases get ``error`` with its last lines and the others run.
    backends = {f"{s.id}:{c.id}": c.backend for s, c in cases}
    unserved: dict[str, str] = {}
    if any(backends[k] != SQLITE for k in to_run):
        try:
            worker_env[postgres.SOCKET_ENV] = postgres.server().socket_dir
        except postgres.Unavailable as exc:
            unserved = {k: NO_SERVER + strip_paths(str(exc)) for k in to_run if backends[k] != SQLITE}
            to_run = [k for k in to_run if k not in unserved]
    env_record, raw = cached.get("env"), list[dict]()
    if to_run:
        progress.phase(build.label, "running cases", cases=len(to_run))
    else:
        progress.phase(build.label, "reading its cached results")
    if to_run:
        warm = (
            pool.for_run(
                settings.pool,
                env.python,
                settings.root,
                worker_env,
                env.path,
                build.framework,
                settings.pool_memory_mb,
                installed=environment,
                for_this_run=build.python is None and build.source in settings.keep_warm,
            )
            if build.release
            else None
        )
        env_record, raw = run_worker(
            env.python,
            build.framework,
            to_run,
            worker_env,
            settings.root,
            settings.timeout,
            warm=warm,
            repeat=settings.repeat,
            repeat_only=None if repeat_only is None else sorted(k for k in to_run if k in repeat_only),
        )
    if not env.reused and to_run:  # what its first run compiled, for the next new environment
        bytecode.harvest(env.path, settings.cache_dir / "bytecode")
    got = {wire_name(r): r for r in raw if "scenario" in r}
    # The project files each case's process loaded: the cache's inputs, not part of the result.
    loaded = {k: r.pop(LOADED, []) for k, r in got.items()}
    failure = next((r["error"] for r in raw if "error" in r), NO_REPORT)
    notes = []
    if build.release and env_record:
        for k in to_run:
            if k in got:
                entries[k] = result_cache.entry(got[k], loaded[k], settings.root, env.path, environment)
        try:
            result_cache.save(env.path, env_record, entries)
        except OSError as exc:  # only a shortcut for the next run; the results stand
            notes.append(f"results not recorded in the environment: {exc}")
    results = []
    for (s, c), k in zip(cases, keys, strict=True):
        if k in unserved:
            results.append(CaseResult(s.id, c.id, ERROR, unserved[k]))
            continue
        record = got.get(k) if k in to_run else entries[k]["result"]
        results.append(CaseResult.from_dict(record) if record else CaseResult(s.id, c.id, ERROR, failure))
    return BuildRun(
        results,
        env=env,
        env_record=env_record,
        ran=len(to_run),
        build_seconds=built - started,
        run_seconds=time.monotonic() - built,
        notes=notes,
    )
