"""Run one case traced in one build: the framework lines it executed there.

One new process per (case, build): ``python -m harness.runtime.trace_case`` in the build's
environment (made or reused by harness/execution/environments.py ``ensure``, nothing installed
into it), under the same isolation (its own network namespace), process environment
(``worker_environment``) and deadlines as a worker's case (harness/execution/driver.py: the
import grace, then the case's timeout and slack); a process past them is killed and reported as
an error.
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.execution import environments, isolation, postgres
from harness.execution.driver import CASE_SLACK, IMPORT_GRACE
from harness.planning.builds import Build
from harness.project import Project
from harness.runtime.runner import DEFAULT_TIMEOUT, strip_paths
from harness.runtime.scenario import SQLITE, Case


@dataclass(frozen=True)
class Traced:
    """A case's traced run in one build."""

    version: str
    outcome: str  # "error" where the run failed (then ``detail`` says why)
    detail: str
    # path under site-packages -> {line: times it ran}
    executed: dict[str, dict[int, int]] = field(default_factory=dict)
    site_packages: Path | None = None  # where the build's framework sources are
    seconds: float = 0.0  # the whole process: start, framework import, the traced case
    case_seconds: float = 0.0  # the traced case alone


def site_packages(env_path: Path) -> Path:
    """The environment's site-packages folder (one per environment made by uv)."""
    found = sorted(env_path.glob("lib/python3*/site-packages"))
    if not found:
        raise FileNotFoundError(f"{env_path.name} has no site-packages")
    return found[0]


def trace(
    build: Build,
    scenario_id: str,
    case: Case,
    project: Project,
    timeout: float = DEFAULT_TIMEOUT,
    recorded: tuple[str, ...] | None = None,
) -> Traced:
    """``case`` of ``scenario_id`` run traced in ``build``'s environment."""
    version = build.version or build.source
    root = project.root
    try:
        env = environments.ensure(build, project.builds, project.cache, recorded=recorded)
    except (environments.BuildFailed, OSError) as exc:
        return Traced(version, "error", f"install failed: {strip_paths(str(exc))}")
    env_vars = environments.worker_environment(root)
    if case.backend != SQLITE:
        try:
            env_vars[postgres.SOCKET_ENV] = postgres.server().socket_dir
        except postgres.Unavailable as exc:
            return Traced(version, "error", f"the PostgreSQL server could not start: {strip_paths(str(exc))}")
    argv = ["--framework", build.framework, "--case", f"{scenario_id}:{case.id}", "--timeout", str(timeout)]
    command = isolation.wrap([str(env.python), "-m", "harness.runtime.trace_case", *argv])
    deadline = IMPORT_GRACE + timeout + CASE_SLACK
    started = time.monotonic()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, cwd=root, env=env_vars, timeout=deadline)
    except subprocess.TimeoutExpired:
        return Traced(version, "error", f"traced run timed out after {deadline:g}s (killed)")
    seconds = time.monotonic() - started
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = " | ".join(line.strip() for line in proc.stderr.strip().splitlines()[-3:])
        return Traced(version, "error", f"traced run failed (exit {proc.returncode}): {strip_paths(tail)}")
    answer = json.loads(lines[-1])
    return Traced(
        version,
        answer["outcome"],
        answer["detail"],
        {file: dict(pairs) for file, pairs in answer["executed"].items()},
        site_packages(env.path),
        seconds,
        answer["seconds"],
    )
