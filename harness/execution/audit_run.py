"""``audit --run``: each bug's reproduction, run by the audited interpreter in its own environment.

The scripts (``scenarios/<id>/repro.py CASE``, the replay the harness runs; CONTRIBUTING.md) import
only the standard library and the framework, and use fakes only. Each runs as a new
process of the user's interpreter, so it sees exactly their dependency versions; in a network
namespace where the system allows it (harness/execution/isolation.py); under a timeout; in a
temporary working folder; with ``PYTHONDONTWRITEBYTECODE`` so nothing is written into the audited
environment. Its verdict line names the outcome; its exit status says the same (0 fixed, 3 reproduced,
125 unexpected, not-applicable or error).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from harness.execution import isolation, progress
from harness.runtime.outcomes import ERROR, OUTCOMES
from harness.runtime.runner import PROVIDER_KEYS

DEFAULT_TIMEOUT = 120.0
# What the script's environment must not inherit: the harness's own import path, and any
# way for a framework to reach a real service.
DROPPED = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", *PROVIDER_KEYS)


@dataclass(frozen=True)
class ScriptRun:
    verdict: str  # one of the five outcomes, from the verdict line, or ``error (...)`` when it printed none
    line: str  # the script's own verdict line (``verdict: not-applicable: google.adk has no ...``), or ""


EXIT_WORDS = {0: "fixed", 3: "reproduced"}  # the scripts' exit status for the two judged outcomes


def _verdict_line(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip().startswith("verdict:")]
    return lines[-1][:300] if lines else ""


def verdict_of(line: str, code: int | None) -> str:
    """The outcome the verdict line names, where it agrees with the exit status; else ``error (...)``."""
    if code is None:
        return "error (timed out)"
    word = line.removeprefix("verdict:").strip().split(":", 1)[0] if line else ""
    if word in OUTCOMES and EXIT_WORDS.get(code, "other") == (word if word in EXIT_WORDS.values() else "other"):
        return word
    if word == ERROR:
        return ERROR
    return f"error (exit {code})" if code >= 0 else f"error (signal {-code})"


def run_script(python: str, script: Path, case: str, timeout: float) -> ScriptRun:
    """One case of a script run by ``python``: its outcome and its verdict line."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env.update(PYTHONDONTWRITEBYTECODE="1", OPENAI_AGENTS_DISABLE_TRACING="1", PYTHONUNBUFFERED="1")
    with tempfile.TemporaryDirectory(prefix="harness-audit-") as folder:
        try:
            done = subprocess.run(
                isolation.wrap([python, str(script.resolve()), case]),
                cwd=folder,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return ScriptRun(verdict_of("", None), "")
        except OSError as exc:
            return ScriptRun(f"error ({type(exc).__name__})", "")
    line = _verdict_line(done.stdout.decode(errors="replace"))
    return ScriptRun(verdict_of(line, done.returncode), line)


def run_all(python: str, scripts: dict[str, tuple[Path, str]], timeout: float, jobs: int) -> dict[str, ScriptRun]:
    """Bug id -> its script's run (script, case), for every bug, ``jobs`` at a time (each a process of
    its own), with a line per script done and, between them, a status line at least every 4 s (issue
    50: google-adk 2.8.0's 54 scripts ran 502 s in silence)."""
    tracker = progress.Tracker("audit --run", len(scripts), jobs, unit="script")

    def one(bug: str, path: Path, case: str) -> ScriptRun:
        tracker.begin(bug, "running")
        result = run_script(python, path, case, timeout)
        done = tracker.finish(bug)
        progress.log(f"[--run {done}/{len(scripts)}] {bug}: {result.verdict}")
        return result

    with tracker, ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {bug: pool.submit(one, bug, path, case) for bug, (path, case) in scripts.items()}
        return {bug: future.result() for bug, future in futures.items()}
