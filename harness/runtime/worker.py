"""Runs inside one framework environment: every selected case, one JSON line per event.

The coordinator (``harness.execution.matrix``) starts ``python -m harness.runtime.worker`` in each build's
environment and reads its protocol channel: the file descriptor ``--protocol-fd`` names (a pipe of a
cold worker, the connection of a warm one's fork), or, without it, what was stdout. Lines:
``{"kind": "env", ...}`` once, then for each case ``{"kind": "start", ...}`` and
``{"kind": "result", ...}`` (with ``loaded``: the project files the case's process loaded,
harness/runtime/loaded.py). A case that never
reports a result was killed (timeout or crash); the coordinator restarts the worker after it.

Each case runs in a process of its own, a fork of the worker made after the framework's import
(cold and warm alike), which sends its ``result`` line itself and leaves with ``os._exit``: no cwd,
thread, ``builtins`` patch or module global of one case reaches the next. Its ``TMPDIR`` is a new
folder under the worker's, removed when it ends; the worker is a child subreaper (Linux), and once
the case's process has ended it kills every process the case left, in whatever session or process
group. A case whose process dies without a result ends the worker with the same exit status, as a
crash of the worker itself did. What the case's process imported, the worker imports before the
next case (``LEARNED``), so each does not pay the framework's lazy imports again.

Nothing a case prints reaches the channel: file descriptors 1 and 2 point at the worker's output,
and, with ``--output-dir``, at a file of the case's own while it runs (``case_output``), which the
coordinator reads the last lines of when the case crashes and which is removed once it reports.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import re
import shutil
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

from harness.runtime import frameworks, lifeline, registry, step, warm
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
    results = []
    for _ in range(max(runs, 1)):
        results.append(run_case(scenario, case, timeout=timeout))
        damaged = damaged_descriptors()
        if damaged:  # issue 49: the next run's output failed, and the case read as "not deterministic"
            return CaseResult(scenario.id, case.id, ERROR, f"the case closed its process's {damaged}", "")
    variants = {(r.outcome, r.detail, r.timeline) for r in results}
    if len(variants) == 1:
        return results[0]
    first = results[0]
    detail = (
        f"not deterministic: {len(variants)} different results in {len(results)} runs in one process "
        f"(first: {first.outcome}: {first.detail})"
    )
    return CaseResult(scenario.id, case.id, ERROR, detail, "")


def damaged_descriptors() -> str:
    """Which of fd 1 and 2 a case closed, in words ("" when none): the worker points both at the
    case's output file before it runs (fd 0 is the caller's, which may be closed from the start)."""
    names = {1: "standard output (fd 1)", 2: "standard error (fd 2)"}
    closed = []
    for fd, name in names.items():
        try:
            os.fstat(fd)
        except OSError:
            closed.append(name)
    return " and ".join(closed)


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


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def _become_subreaper() -> None:
    """Make this process the one that every orphaned descendant is reparented to (Linux; elsewhere
    nothing), so ``_end_descendants`` finds what a case left running, whatever session or process
    group it moved to (issue 49: a ``start_new_session`` daemon outlived the run)."""
    if sys.platform != "linux":
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _end_descendants(keep: set[int]) -> None:
    """SIGKILL and reap every child of this process but those in ``keep``, then the ones their
    deaths reparent here (this process is a subreaper), until none is left."""
    while pids := [p for p in lifeline.children(os.getpid()) if p not in keep]:
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in pids:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


# What the cases' processes imported from the environment and the standard library, and which
# deferred pydantic models they built (harness/runtime/warm.py's ``learned_since``), in order: this
# process imports and builds them before its next case, and a warm worker's parent learns them.
LEARNED: dict[str, list[str]] = {"modules": [], "models": []}


def _run_isolated(case: Callable[[], None], tmp_parent: str, keep: set[int], deferred: list[type]) -> int | None:
    """Run ``case`` in a forked child of its own, with a temporary folder of its own, and wait for it.

    The child's ``TMPDIR`` (and ``tempfile.tempdir``) is a new folder under ``tmp_parent``; once the
    child has ended, every process it left (bar ``keep``: the lifeline watcher) is killed and the
    folder removed, whatever happened. Returns None when ``case`` returned (it sent its result;
    what its process learned is added to ``LEARNED``), else the child's wait status: it died before
    reporting (a crash, ``os._exit``).
    """
    folder = tempfile.mkdtemp(prefix="case-", dir=tmp_parent)
    learned_file = folder + ".learned"  # beside the case's folder: written once it has reported
    for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice
        if stream is not None:
            stream.flush()
    # As harness/runtime/warm.py does before each fork: the child's collector leaves the inherited
    # heap alone (a full collection would copy it page by page, more than a case costs).
    gc.freeze()
    pid = os.fork()
    if pid == 0:  # the case's process: never returns
        code = 1
        try:
            inherited = set(sys.modules)
            os.environ["TMPDIR"] = tempfile.tempdir = folder
            case()
            with open(learned_file + ".part", "w", encoding="utf-8") as f:
                json.dump(warm.learned_since(inherited, deferred, None), f)
            os.replace(learned_file + ".part", learned_file)
            code = 0
        except BaseException:  # a case's SystemExit, a failed report: its words go to its output
            traceback.print_exc()
        finally:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    with contextlib.suppress(Exception):
                        stream.flush()
            os._exit(code)  # no atexit handler, no thread of the case's is waited for
    gc.unfreeze()
    try:
        _, status = os.waitpid(pid, 0)
        _end_descendants(keep)
        try:
            with open(learned_file, encoding="utf-8") as f:
                learned = json.load(f)
        except (OSError, ValueError):
            return status  # no report
        for key in LEARNED:
            LEARNED[key] += [n for n in learned.get(key, []) if isinstance(n, str) and n not in LEARNED[key]]
        return None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        for path in (learned_file, learned_file + ".part"):
            with contextlib.suppress(OSError):
                os.unlink(path)


def _run_and_report(
    scenario: Scenario,
    case: Case,
    timeout: float,
    runs: int,
    output: Path | None,
    saved: tuple[int, int],
    loaded: LoadedFiles,
    emit: Callable[[dict], None],
) -> None:
    """In the case's own process: its output to ``output``, the case run ``runs`` times, its result
    line (with the project files this process loaded for it) sent."""
    _point_output_at(output, saved)
    loaded.start_case()
    result = repeated(scenario, case, timeout, runs)
    module_file = str(registry.SCENARIOS_DIR / f"{scenario.module}.py")
    emit({"kind": "result", **result.to_dict(), LOADED: loaded.for_case(module_file)})


def _end_as(status: int) -> int:
    """The exit code to end this worker with after a case's process died with wait status
    ``status``: its own, or, for a signal, the same signal, so the coordinator sees what it saw
    when the case ran in the worker itself."""
    if os.WIFSIGNALED(status):
        sys.stdout.flush()
        sys.stderr.flush()
        with contextlib.suppress(OSError, ValueError):  # SIGKILL's cannot be set, nor need be
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1


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
    parser.add_argument(
        "--output-dir", default=None, help="a folder for each case's output and temporary folder while it runs"
    )
    parser.add_argument(
        "--step",
        nargs=4,
        metavar=("SCRIPT", "STEP", "CASE", "STATE"),
        help="an upgrade step instead of cases: `python SCRIPT STEP CASE STATE` (harness/runtime/step.py)",
    )
    parser.add_argument("--describe", action="store_true", help="only the environment's line: no case runs")
    args = parser.parse_args(argv)

    channel = _protocol_channel(args.protocol_fd)
    # Before any thread or import: the group this worker leads ends when the channel's reader does.
    watcher = lifeline.watch(channel)
    keep = {watcher} if watcher is not None else set()
    _become_subreaper()
    if args.step:
        code = step.run(*args.step)
        _end_descendants(keep)  # what the step left (a migration tool's process) ends with it
        return code
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
    if args.describe:
        return 0
    # Import the framework once, before the first case, so its import time (seconds, on a
    # loaded machine) does not count against that case's timeout. A failure here is
    # reported by each case when it imports the framework itself.
    with contextlib.suppress(Exception):
        importlib.import_module(frameworks.get(framework).entry_module)
    scenarios = {k: s for k, s in registry.discover().items() if s.framework == framework}
    skip = set(args.skip)
    # In the driver's folder for the run, which it removes even when it kills this worker on a
    # case's deadline (no finally of this process runs then); alone, the temporary directory.
    tmp_parent = args.output_dir or tempfile.gettempdir()
    deferred = warm.deferred_models()
    todo = [(s, c) for s, c in registry.select(scenarios, args.only) if f"{s.id}:{c.id}" not in skip]
    loaded.prime()
    known = (len(LEARNED["modules"]), len(LEARNED["models"]))  # what this process has learned
    for number, (scenario, case) in enumerate(todo, 1):
        emit({"kind": "start", "scenario": scenario.id, "case": case.id})
        output = case_output(args.output_dir, scenario.id, case.id) if args.output_dir else None
        runs = args.repeat if args.repeat_only is None or f"{scenario.id}:{case.id}" in args.repeat_only else 1
        run = functools.partial(_run_and_report, scenario, case, args.timeout, runs, output, saved, loaded, emit)
        # Each case in a process of its own (issue 49): a changed cwd, a thread, a patched module
        # or a global of one case never reaches the next, nor what it started, nor its files.
        died = _run_isolated(run, tmp_parent, keep, deferred)
        if died is not None:  # no result: end as a crash in the worker did, the coordinator restarts it
            return _end_as(died)
        if output is not None:
            with contextlib.suppress(OSError):
                output.unlink()  # the case reported: its output is not needed (a crash's would be)
        if number < len(todo) and (len(LEARNED["modules"]), len(LEARNED["models"])) != known:
            # What the case imported, the next one finds imported, as when they shared a process:
            # else each pays the framework's lazy imports again (about 1 s a case on google-adk).
            warm.import_each(LEARNED["modules"])
            warm.build_each(LEARNED["models"], deferred)
            deferred = warm.deferred_models()
            loaded.prime()
            known = (len(LEARNED["modules"]), len(LEARNED["models"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
