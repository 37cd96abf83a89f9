"""Drive ``harness.worker`` in one environment, surviving hangs and crashes.

Each case must report within its timeout (plus a grace period for imports); a worker that
goes silent is killed, the running case is recorded as ``error`` (timeout), and a new
worker carries on with the cases left. A worker that dies mid-case gets the same
treatment with its last stderr lines as the detail.
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import IO

from harness import isolation
from harness.outcomes import ERROR
from harness.runner import strip_paths

IMPORT_GRACE = 120.0  # first import of a framework in a cold environment can be slow
# Once a case has started, the framework is imported (the worker imports it first), so a
# case that overruns its own timeout by this much is hung in sync code and is killed.
CASE_SLACK = 10.0


def _reader(stream: IO[str], q: queue.Queue[str | None]) -> None:
    for line in stream:
        q.put(line)
    q.put(None)


def _tail(path: Path, lines: int = 3) -> str:
    text = path.read_text(errors="replace") if path.exists() else ""
    kept = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return strip_paths(" | ".join(kept[-lines:])) or "no output"


def run_worker(
    python: Path,
    framework: str,
    selectors: list[str],
    env: dict[str, str],
    cwd: Path,
    timeout: float,
    grace: float = IMPORT_GRACE,
    case_slack: float = CASE_SLACK,
) -> tuple[dict | None, list[dict]]:
    """Run the selected cases; return (environment record, one result dict per case)."""
    done: list[dict] = []
    env_record = None
    while True:
        skip = [f"{r['scenario']}:{r['case']}" for r in done]
        with tempfile.TemporaryDirectory() as tmp:
            stderr_path = Path(tmp) / "stderr"
            with open(stderr_path, "w") as stderr:
                proc = subprocess.Popen(
                    isolation.wrap(
                        [
                            str(python),
                            "-m",
                            "harness.worker",
                            "--framework",
                            framework,
                            "--timeout",
                            str(timeout),
                            "--only",
                            *selectors,
                            "--skip",
                            *skip,
                        ]
                    ),
                    stdout=subprocess.PIPE,
                    stderr=stderr,
                    text=True,
                    cwd=cwd,
                    env=env,
                )
                q: queue.Queue = queue.Queue()
                threading.Thread(target=_reader, args=(proc.stdout, q), daemon=True).start()
                current = None
                deadline = timeout + grace
                restart = False
                while True:
                    try:
                        line = q.get(timeout=deadline)
                    except queue.Empty:
                        proc.kill()
                        proc.wait()
                        if current is None:
                            return env_record, done + [
                                {"error": f"worker silent for {deadline:g}s before any case started"}
                            ]
                        done.append(
                            {
                                **current,
                                "outcome": ERROR,
                                "detail": f"timed out after {timeout:g}s (worker killed)",
                                "timeline": "",
                            }
                        )
                        restart = True
                        break
                    if line is None:
                        rc = proc.wait()
                        if current is not None:
                            done.append(
                                {
                                    **current,
                                    "outcome": ERROR,
                                    "detail": f"worker died (exit {rc}): {_tail(stderr_path)}",
                                    "timeline": "",
                                }
                            )
                            restart = True
                        elif rc != 0:
                            return env_record, done + [{"error": f"worker failed (exit {rc}): {_tail(stderr_path)}"}]
                        break
                    record = json.loads(line)
                    kind = record.pop("kind")
                    if kind == "env":
                        env_record = {**record, "isolation": isolation.kind()}
                        deadline = timeout + grace
                    elif kind == "start":
                        current = record
                        deadline = timeout + case_slack
                    elif kind == "result":
                        done.append(record)
                        current = None
                        deadline = timeout + case_slack
        if not restart:
            return env_record, done
