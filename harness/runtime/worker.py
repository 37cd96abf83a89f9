"""Runs inside one framework environment: every selected case, one JSON line per event.

The coordinator (``harness.execution.matrix``) starts ``python -m harness.runtime.worker`` in each build's
environment and reads its protocol channel: the file descriptor ``--protocol-fd`` names (a pipe of a
cold worker, the connection of a warm one's fork), or, without it, what was stdout. Lines:
``{"kind": "env", ...}`` once, then for each case ``{"kind": "start", ...}`` and
``{"kind": "result", ...}`` (with ``loaded``: the project files the case's process loaded,
harness/runtime/loaded.py). A case that never
reports a result was killed (timeout or crash); the coordinator restarts the worker after it.

Nothing a case prints reaches the channel: file descriptors 1 and 2 point at the worker's output,
and, with ``--output-dir``, at a file of the case's own while it runs (``case_output``), which the
coordinator reads the last lines of when the case crashes and which is removed once it reports.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.metadata
import json
import os
import platform
import re
import sys
from collections.abc import Callable
from pathlib import Path

from harness.runtime import frameworks, lifeline, registry
from harness.runtime.loaded import KEY as LOADED
from harness.runtime.loaded import LoadedFiles
from harness.runtime.outcomes import ERROR
from harness.runtime.runner import DEFAULT_TIMEOUT, CaseResult, run_case
from harness.runtime.scenario import Case, Scenario


def installed_version(framework: str) -> str | None:
    try:
        return importlib.metadata.version(framework)
    except importlib.metadata.PackageNotFoundError:
        return None


def _name_and_version(dist: importlib.metadata.Distribution) -> tuple[str | None, str | None]:
    """The ``Name`` and ``Version`` headers of a distribution's metadata.

    Read from the header block only: ``dist.metadata`` parses the whole file with the email
    parser (long descriptions included), a third of a warm run's time (harness/runtime/warm.py).
    """
    text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
    headers = {}
    for line in text.split("\n\n", 1)[0].splitlines():
        key, sep, value = line.partition(":")
        if sep and key in ("Name", "Version") and key not in headers:
            headers[key] = value.strip()
    if "Name" not in headers or "Version" not in headers:  # unusual layout: the full parser
        return dist.metadata["Name"], dist.version
    return headers["Name"], headers["Version"]


def resolved_packages(paths: list[str] | None = None) -> list[str]:
    """``name==version`` of every distribution in this environment (or in the folders ``paths``:
    how the orchestrator reads a new environment's, harness/execution/environments.py), sorted."""
    names = {}
    found = importlib.metadata.distributions() if paths is None else importlib.metadata.distributions(path=paths)
    for dist in found:
        name, version = _name_and_version(dist)
        if name:
            names[name.lower()] = f"{name}=={version}"
    return [names[k] for k in sorted(names)]


def provided_extras(framework: str) -> list[str]:
    """The extras the installed framework offers (``Provides-Extra``): a command that runs a bug's
    script on this release asks only for those (harness/rendering/reproduce.py)."""
    try:
        return sorted(set(importlib.metadata.metadata(framework).get_all("Provides-Extra") or []))
    except importlib.metadata.PackageNotFoundError:
        return []


def repeated(scenario: Scenario, case: Case, timeout: float, runs: int) -> CaseResult:
    """The case's result, run ``runs`` times in this process: where the runs disagree (outcome,
    detail or timeline), an error naming how many variants they gave, never one of them."""
    results = [run_case(scenario, case, timeout=timeout) for _ in range(max(runs, 1))]
    variants = {(r.outcome, r.detail, r.timeline) for r in results}
    if len(variants) == 1:
        return results[0]
    first = results[0]
    detail = (
        f"not deterministic: {len(variants)} different results in {len(results)} runs in one process "
        f"(first: {first.outcome}: {first.detail})"
    )
    return CaseResult(scenario.id, case.id, ERROR, detail, "")


def case_output(folder: str | Path, scenario_id: str, case_id: str) -> Path:
    """The file a case's output (its fd 1 and 2, its child processes') goes to while it runs."""
    return Path(folder) / re.sub(r"[^\w.-]", "_", f"{scenario_id}--{case_id}.out")


def _protocol_channel(fd: int | None) -> int:
    """The descriptor protocol lines go on: ``fd``, or (None) what is stdout now, after which fd 1
    points at stderr. Not inherited by the processes a case starts."""
    if fd is None:
        fd = os.dup(1)
        os.dup2(2, 1)
    os.set_inheritable(fd, False)
    return fd


def _emitter(fd: int) -> Callable[[dict], None]:
    """The function that sends one protocol line on ``fd``."""
    channel = os.fdopen(fd, "w", encoding="utf-8", closefd=False)

    def emit(record: dict) -> None:
        channel.write(json.dumps(record, sort_keys=True) + "\n")
        channel.flush()

    return emit


def _point_output_at(path: Path | None, saved: tuple[int, int]) -> None:
    """Fd 1 and 2 (and sys.stdout, sys.stderr) to the file ``path``, or back to ``saved``."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    if path is None:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        return
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.runtime.worker")
    parser.add_argument("--framework", required=True)
    parser.add_argument("--only", nargs="*", default=[], help="scenario[:case] selectors")
    parser.add_argument("--skip", nargs="*", default=[], help="scenario:case pairs already done")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each case that must agree")
    parser.add_argument(
        "--repeat-only", nargs="*", default=None, help="scenario:case pairs --repeat applies to (default: every case)"
    )
    parser.add_argument("--protocol-fd", type=int, default=None, help="the descriptor results go on (default: stdout)")
    parser.add_argument("--output-dir", default=None, help="a folder for each case's output while it runs")
    args = parser.parse_args(argv)

    channel = _protocol_channel(args.protocol_fd)
    # Before any thread or import: the group this worker leads ends when the channel's reader does.
    lifeline.watch(channel)
    emit = _emitter(channel)
    # Line by line: what a case printed before it crashed is in its output file.
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    saved = (os.dup(1), os.dup(2))
    loaded = LoadedFiles(str(registry.SCENARIOS_DIR.parent))

    framework = frameworks.get(args.framework).name
    emit(
        {
            "kind": "env",
            "framework": framework,
            "version": installed_version(framework),
            "python": platform.python_version(),
            "packages": resolved_packages(),
            "extras": provided_extras(framework),
        }
    )
    # Import the framework once, before the first case, so its import time (seconds, on a
    # loaded machine) does not count against that case's timeout. A failure here is
    # reported by each case when it imports the framework itself.
    with contextlib.suppress(Exception):
        importlib.import_module(frameworks.get(framework).entry_module)
    scenarios = {k: s for k, s in registry.discover().items() if s.framework == framework}
    skip = set(args.skip)
    for scenario, case in registry.select(scenarios, args.only):
        if f"{scenario.id}:{case.id}" in skip:
            continue
        emit({"kind": "start", "scenario": scenario.id, "case": case.id})
        output = case_output(args.output_dir, scenario.id, case.id) if args.output_dir else None
        _point_output_at(output, saved)
        loaded.start_case()
        runs = args.repeat if args.repeat_only is None or f"{scenario.id}:{case.id}" in args.repeat_only else 1
        result = repeated(scenario, case, args.timeout, runs)
        module_file = str(registry.SCENARIOS_DIR / f"{scenario.module}.py")
        _point_output_at(None, saved)
        if output is not None:
            with contextlib.suppress(OSError):
                output.unlink()  # the case reported: its output is not needed (a crash's would be)
        emit({"kind": "result", **result.to_dict(), LOADED: loaded.for_case(module_file)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
