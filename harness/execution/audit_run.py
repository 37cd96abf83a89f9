"""``audit --run``: each bug's short reproduction, run by the audited interpreter in its own environment.

The scripts (``scenarios/repro/<scenario>--<case>.py``, contract in scenarios/repro/README.md)
import only the standard library and the framework, and use fakes only. Each runs as a new
process of the user's interpreter, so it sees exactly their dependency versions; in a network
namespace where the system allows it (harness/execution/isolation.py); under a timeout; in a
temporary working folder; with ``PYTHONDONTWRITEBYTECODE`` so nothing is written into the audited
environment. Its exit status is the verdict (0 fixed, 3 reproduced, 125 cannot judge).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from harness.execution import isolation
from harness.runtime.short_repro import verdict_of

DEFAULT_TIMEOUT = 120.0
# What the script's environment must not inherit: the harness's own import path, and any
# way for a framework to reach a real service.
DROPPED = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "OPENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY")


@dataclass(frozen=True)
class ScriptRun:
    verdict: str  # fixed, reproduced, cannot-judge or ``error (...)``: from the exit status
    line: str  # the script's own verdict line (``verdict: cannot judge (missing API: ...)``), or ""


def _verdict_line(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip().startswith("verdict:")]
    return lines[-1][:300] if lines else ""


def run_script(python: str, script: Path, timeout: float) -> ScriptRun:
    """One script run by ``python``: its verdict (from the exit status) and its verdict line."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env.update(PYTHONDONTWRITEBYTECODE="1", OPENAI_AGENTS_DISABLE_TRACING="1", PYTHONUNBUFFERED="1")
    with tempfile.TemporaryDirectory(prefix="harness-audit-") as folder:
        try:
            done = subprocess.run(
                isolation.wrap([python, str(script.resolve())]),
                cwd=folder,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return ScriptRun(verdict_of(None), "")
        except OSError as exc:
            return ScriptRun(f"error ({type(exc).__name__})", "")
    return ScriptRun(verdict_of(done.returncode), _verdict_line(done.stdout.decode(errors="replace")))


def run_all(python: str, scripts: dict[str, Path], timeout: float, jobs: int) -> dict[str, ScriptRun]:
    """Bug id -> its script's run, for every script, ``jobs`` at a time (each is a process of its own)."""
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {bug: pool.submit(run_script, python, path, timeout) for bug, path in scripts.items()}
        return {bug: future.result() for bug, future in futures.items()}
