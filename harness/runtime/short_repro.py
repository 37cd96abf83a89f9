"""A case's short reproduction (``scenarios/repro/<scenario>--<case>.py``), run beside the case
in the same build, and its exit status read as a verdict.

The script is the case's second oracle: written by hand, it shares no code with the harness
(scenarios/repro/README.md). It runs in a fork of the worker, which has the framework
imported already, so it costs milliseconds, not an interpreter start; where the worker holds
other threads (a case left one behind), forking could deadlock on a lock one of them held,
so the script runs as a new process instead.
"""

from __future__ import annotations

import os
import runpy
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

# The exit codes of the scripts: git bisect run's protocol (0 good, 125 skip, anything else
# bad), with "reproduced" on a code neither Python (1, 2) nor uv (1, 2) uses for its own
# failures, so a pin that does not resolve is never read as the bug.
EXIT_FIXED = 0
EXIT_REPRODUCED = 3
EXIT_CANNOT_JUDGE = 125
VERDICTS = {EXIT_FIXED: "fixed", EXIT_REPRODUCED: "reproduced", EXIT_CANNOT_JUDGE: "cannot-judge"}
FOLDER = "repro"


def script_for(scenario_module_file: str | None, scenario_id: str, case_id: str) -> Path | None:
    """The case's script beside its scenario module (``<folder>/repro/<id>--<case>.py``), if any."""
    if not scenario_module_file:
        return None
    path = Path(scenario_module_file).parent / FOLDER / f"{scenario_id}--{case_id}.py"
    return path if path.is_file() else None


def verdict_of(code: int | None) -> str:
    """The word for an exit status: fixed, reproduced, cannot-judge, or ``error (...)``."""
    if code is None:
        return "error (timed out)"
    if code in VERDICTS:
        return VERDICTS[code]
    return f"error (exit {code})" if code >= 0 else f"error (signal {-code})"


def run(path: Path, timeout: float) -> str:
    """Run the script as ``__main__`` with its output discarded; its verdict word."""
    if threading.active_count() > 1:
        return verdict_of(_in_new_process(path, timeout))
    return verdict_of(_in_fork(path, timeout))


def _in_new_process(path: Path, timeout: float) -> int | None:
    try:
        return subprocess.run(
            [sys.executable, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout
        ).returncode
    except subprocess.TimeoutExpired:
        return None


def _in_fork(path: Path, timeout: float) -> int | None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is not None:
            stream.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            sys.argv = [str(path)]
            runpy.run_path(str(path), run_name="__main__")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.002)
