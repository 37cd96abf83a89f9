"""Drive ``harness.runtime.worker`` in one environment, surviving hangs and crashes.

Each case must report within its timeout (plus a grace period for imports); a worker that
goes silent is killed, the running case is recorded as ``error`` (timeout), and a new
worker carries on with the cases left. A worker that dies mid-case gets the same
treatment with its last stderr lines as the detail.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from harness.execution import isolation, pool
from harness.runtime.outcomes import ERROR
from harness.runtime.runner import strip_paths

IMPORT_GRACE = 120.0  # first import of a framework in a cold environment can be slow
# Once a case has started, the framework is imported (the worker imports it first), so a
# case that overruns its own timeout by this much is hung in sync code and is killed.
CASE_SLACK = 10.0


def _reader(stream: Iterable[str], q: queue.Queue[str | None]) -> None:
    for line in stream:
        q.put(line)
    q.put(None)


def _tail(path: Path, lines: int = 3) -> str:
    text = path.read_text(errors="replace") if path.exists() else ""
    kept = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return strip_paths(" | ".join(kept[-lines:])) or "no output"


class _ColdRun:
    """``python -m harness.runtime.worker`` as a new process (in its own network namespace)."""

    def __init__(self, python: Path, argv: list[str], env: dict[str, str], cwd: Path, stderr: IO[str]) -> None:
        self.proc = subprocess.Popen(
            isolation.wrap([str(python), "-m", "harness.runtime.worker", *argv]),
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=cwd,
            env=env,
        )

    def lines(self) -> Iterator[str]:
        assert self.proc.stdout is not None
        yield from self.proc.stdout

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def exit_code(self) -> int | None:
        return self.proc.wait()


class _WarmRun:
    """The same run as a fork of a warm worker (harness/runtime/warm.py): the same lines, framed by
    the child's pid first and its exit code last."""

    def __init__(self, member: pool.Member, argv: list[str], stderr_path: Path, env: dict[str, str]) -> None:
        self.member = member
        self.conn = pool.connect(member, argv, stderr_path, env)
        self.pid: int | None = None
        self.rc: int | None = None

    def lines(self) -> Iterator[str]:
        with self.conn.makefile("r", encoding="utf-8") as stream:
            for line in stream:
                if line.startswith('{"kind": "pid"'):
                    self.pid = json.loads(line)["pid"]
                elif line.startswith('{"kind": "exit"'):
                    self.rc = json.loads(line)["rc"]
                else:
                    yield line

    def kill(self) -> None:
        if self.pid is None:  # the worker itself never answered (hung importing): it goes
            pool.stop(self.member)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.conn.shutdown(socket.SHUT_RDWR)

    def exit_code(self) -> int | None:
        return self.rc  # None: the child ended without saying (killed by a signal)


def run_worker(
    python: Path,
    framework: str,
    selectors: list[str],
    env: dict[str, str],
    cwd: Path,
    timeout: float,
    grace: float = IMPORT_GRACE,
    case_slack: float = CASE_SLACK,
    warm: pool.Member | None = None,
    repeat: int = 1,
    repeat_only: list[str] | None = None,
) -> tuple[dict | None, list[dict]]:
    """Run the selected cases; return (environment record, one result dict per case).

    With ``warm``, each run is a fork of that warm worker (harness/execution/pool.py); where it does
    not answer, the run goes cold. The results are the same either way (tests/test_pool.py).
    """
    done: list[dict] = []
    env_record = None
    while True:
        skip = [f"{r['scenario']}:{r['case']}" for r in done]
        argv = ["--framework", framework, "--timeout", str(timeout), "--repeat", str(repeat)]
        argv += ["--only", *selectors, "--skip", *skip]
        if repeat_only is not None:  # the cases that run ``repeat`` times; the others once
            argv += ["--repeat-only", *repeat_only]
        with tempfile.TemporaryDirectory() as tmp:
            stderr_path = Path(tmp) / "stderr"
            with open(stderr_path, "w") as stderr:
                proc: _ColdRun | _WarmRun | None = None
                if warm is not None:
                    try:
                        proc = _WarmRun(warm, argv, stderr_path, env)
                    except OSError:
                        warm = None  # not answering: this run, and the restarts after it, go cold
                if proc is None:
                    proc = _ColdRun(python, argv, env, cwd, stderr)
                q: queue.Queue = queue.Queue()
                threading.Thread(target=_reader, args=(proc.lines(), q), daemon=True).start()
                current = None
                deadline = timeout + grace
                restart = False
                while True:
                    try:
                        line = q.get(timeout=deadline)
                    except queue.Empty:
                        proc.kill()
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
                        rc = proc.exit_code()
                        if rc is None and current is None and env_record is not None:
                            # A warm run whose worker stopped (evicted, SIGTERM) before it sent the
                            # child's exit code, with no case under way: the child either finished
                            # or was killed between two cases. Run what is left cold: nothing, or the
                            # cases it never started (never "reported nothing for this case").
                            warm = None
                            restart = True
                            break
                        if current is not None:
                            done.append(
                                {
                                    **current,
                                    "outcome": ERROR,
                                    "detail": f"worker died ({_exit_words(rc)}): {_tail(stderr_path)}",
                                    "timeline": "",
                                }
                            )
                            restart = True
                        elif rc != 0:
                            return env_record, done + [
                                {"error": f"worker failed ({_exit_words(rc)}): {_tail(stderr_path)}"}
                            ]
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
                    elif kind == "repro" and done and done[-1].get("case") == record["case"]:
                        done[-1]["repro"] = record["verdict"]  # the case's short reproduction, run after it
                        deadline = timeout + case_slack
        if not restart:
            return env_record, done


def _exit_words(rc: int | None) -> str:
    return "no exit status" if rc is None else f"exit {rc}"
