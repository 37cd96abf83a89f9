"""Run one case in this framework environment with a line tracer on the framework's files.

``python -m harness.runtime.trace_case --framework F --case SCENARIO:CASE [--timeout S]`` is
started by harness/execution/trace_runs.py in a build's environment, as the worker is
(harness/runtime/worker.py: same isolation, environment and deadlines). It imports the
framework first (its import is not the case's), then runs the case once, as the worker's first
run (harness/runtime/runner.py), under harness/runtime/line_trace.py (a second run would miss
what the framework does once and caches), and prints one JSON line: the case's outcome and
detail, the seconds the traced run took, and the executed lines of the framework's package with
the times each ran, ``{"google/adk/runners.py": [[12, 1], [13, 2], ...]}``, paths relative to the
folder the package was imported from (site-packages). Stdlib only; nothing of the orchestrator.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import os
import sys
import time

from harness.runtime import frameworks, line_trace, registry
from harness.runtime.runner import DEFAULT_TIMEOUT, run_case

# The top-level package each framework installs (what is traced and diffed).
PACKAGE = {"google-adk": "google.adk", "openai-agents": "agents"}


def package_folders(package: str) -> tuple[list[str], str]:
    """(the package's folders, the folder its top-level name is imported from: site-packages)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"no package {package} in this environment")
    folders = [os.path.realpath(p) for p in spec.submodule_search_locations]
    base = folders[0]
    for _ in package.split("."):
        base = os.path.dirname(base)
    return folders, base


def relative_lines(by_file: dict[str, dict[int, int]], base: str) -> dict[str, list[list[int]]]:
    """``[line, times]`` pairs of each file, keyed by path relative to ``base`` (``/`` separators)."""
    return {
        os.path.relpath(path, base).replace(os.sep, "/"): [[n, counts[n]] for n in sorted(counts)]
        for path, counts in sorted(by_file.items())
        if counts
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.runtime.trace_case")
    parser.add_argument("--framework", required=True)
    parser.add_argument("--case", required=True, help="scenario:case")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT)
    args = parser.parse_args(argv)

    out = sys.stdout
    sys.stdout = sys.stderr  # what the framework or the case prints stays off the protocol
    framework = frameworks.get(args.framework)
    with contextlib.suppress(Exception):  # as the worker: a failure shows in the case's result
        importlib.import_module(framework.entry_module)
    folders, base = package_folders(PACKAGE[framework.name])
    scenarios = {k: s for k, s in registry.discover().items() if s.framework == framework.name}
    [(scenario, case)] = registry.select(scenarios, [args.case])
    started = time.monotonic()
    with line_trace.executed(folders) as lines:
        result = run_case(scenario, case, timeout=args.timeout)
    seconds = time.monotonic() - started
    record = {
        "scenario": scenario.id,
        "case": case.id,
        "outcome": result.outcome,
        "detail": result.detail,
        "seconds": round(seconds, 3),
        "executed": relative_lines(lines.by_file, base),
    }
    out.write(json.dumps(record, sort_keys=True) + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
