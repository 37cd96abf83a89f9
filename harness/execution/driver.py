"""Drive ``harness.runtime.worker`` in one environment, surviving hangs and crashes.

Each case must report within its timeout (plus a grace period for imports); a worker that
goes silent is killed, the running case is recorded as ``error`` (timeout), and a new
worker carries on with the cases left. A worker that dies mid-case gets the same
treatment with the last lines of that case's own output as the detail, bounded
(harness/runtime/runner.py ``bounded_detail``).

Results come on a channel of their own (a pipe whose end the worker gets as ``--protocol-fd``;
a warm run's connection): what a case or its child processes print goes to a file of the case's
own (harness/runtime/worker.py ``case_output``) and is never read as protocol. A line on the
channel that is not protocol is an ``error`` of the case under way. Every worker leads a process
group of its own, killed whole (the processes its case started too) on a deadline and on every
way out of ``run_worker``; a worker whose harness dies kills its group itself
(harness/runtime/lifeline.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from harness.execution import isolation, pool, postgres, progress, scratch
from harness.runtime import lifeline
from harness.runtime.outcomes import ERROR
from harness.runtime.result import wire_case, wire_failed, wire_name
from harness.runtime.runner import bounded_detail
from harness.runtime.worker import case_output

IMPORT_GRACE = 120.0  # first import of a framework in a cold environment can be slow
# Once a case has started, the framework is imported (the worker imports it first), so a
# case that overruns its own timeout by this much is hung in sync code and is killed.
CASE_SLACK = 10.0
RUN_KIND = "run"  # a worker run's folder: harness-run-<pid>-... (harness/execution/scratch.py)
TAIL_BYTES = 16384  # of a case's output, what a crash's detail is made from (its last lines)


def _reader(stream: Iterable[str], q: queue.Queue[str | None]) -> None:
    for line in stream:
        q.put(line)
    q.put(None)


def _tail(path: Path, prefix: str) -> str:
    """``prefix`` and the last lines of the output file ``path``, bounded (only its end is read)."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - TAIL_BYTES))
            text = f.read().decode(errors="replace")
    except OSError:
        text = ""
    return bounded_detail(text, prefix) if text.strip() else prefix + "no output"


# Every worker run under way, so that a Ctrl-C, SIGTERM or SIGHUP ends them at once instead of after
# a hanging case's deadline (issue 49: a first Ctrl-C gave 36 s with no word, then a traceback).
_live: set[_ColdRun | WarmRun] = set()
_stopping = threading.Event()
STOPPED = "stopped: the run was interrupted (Ctrl-C, SIGTERM or SIGHUP) before this case ended"


def _stop_every_run() -> None:
    """A signal ends the run: say so once, kill every worker run under way; none is restarted."""
    if not _stopping.is_set() and _live:
        print(f"stopping: ending the {len(_live)} worker run(s) under way", file=sys.stderr, flush=True)
    _stopping.set()
    for run in list(_live):
        with contextlib.suppress(Exception):
            run.kill()


postgres.on_signal(_stop_every_run)


def _kill_group(pid: int) -> None:
    """SIGKILL the process group ``pid`` leads (or, where it leads none yet, the process), and
    every descendant of ``pid``, in whatever session (issue 49: a case's ``start_new_session``
    daemon outlived a case killed on its deadline)."""
    with contextlib.suppress(OSError):
        if os.getpgid(pid) == pid:  # a worker still (each leads its group), not a pid reused since
            lifeline.kill_tree(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    except PermissionError:  # not ours to kill: a pid reused by then
        pass


class _ColdRun:
    """``python -m harness.runtime.worker`` as a new process (in its own network namespace), leading
    a process group of its own, its protocol on a pipe and its output in the file ``output``."""

    def __init__(self, python: Path, argv: list[str], env: dict[str, str], cwd: Path, output: Path) -> None:
        read, write = os.pipe()
        try:
            with open(output, "ab") as out:
                self.proc = subprocess.Popen(
                    isolation.wrap([str(python), "-m", "harness.runtime.worker", *argv, "--protocol-fd", str(write)]),
                    stdout=out,
                    stderr=out,
                    pass_fds=(write,),
                    start_new_session=True,
                    cwd=cwd,
                    env=env,
                )
        except BaseException:
            os.close(read)
            raise
        finally:
            os.close(write)
        self.channel = open(read, encoding="utf-8", errors="replace")  # noqa: SIM115 - closed by lines()

    def lines(self) -> Iterator[str]:
        # Closed by the thread that reads it, at its end (every writer gone: the group was killed).
        with self.channel:
            yield from self.channel

    def kill(self) -> None:
        _kill_group(self.proc.pid)
        self.proc.wait()

    def exit_code(self) -> int | None:
        # Not reaped yet, so the group's id is still the worker's: what its cases left behind goes too.
        with contextlib.suppress(OSError):
            os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOWAIT)
        _kill_group(self.proc.pid)
        return self.proc.wait()

    def close(self) -> None:
        if self.proc.returncode is None:
            self.kill()


class WarmRun:
    """The same run as a fork of a warm worker (harness/runtime/warm.py): the same lines, framed by
    the child's pid first and its exit code last. Its output goes to the file ``output``."""

    def __init__(self, member: pool.Member, argv: list[str], output: Path, env: dict[str, str]) -> None:
        self.member = member
        self.conn = pool.connect(member, argv, output, env)
        self.pid: int | None = None
        self.rc: int | None = None
        self.killed = False

    def lines(self) -> Iterator[str]:
        try:
            with self.conn.makefile("r", encoding="utf-8", errors="replace") as stream:
                for line in stream:
                    if line.startswith('{"kind": "pid"'):
                        self.pid = _frame(line, "pid")
                    elif line.startswith('{"kind": "exit"'):
                        self.rc = _frame(line, "rc")
                        return  # the child is gone; a process it left may hold the connection open
                    else:
                        yield line
        finally:
            self.conn.close()  # by the thread that reads it, at its end

    def kill(self) -> None:
        self.killed = True
        if self.pid is None:  # the worker itself never answered (hung importing): it goes
            pool.stop(self.member)
        else:
            _kill_group(self.pid)
        with contextlib.suppress(OSError):
            self.conn.shutdown(socket.SHUT_RDWR)

    def exit_code(self) -> int | None:
        return self.rc  # None: the child ended without saying (killed by a signal)

    def close(self) -> None:
        if self.rc is None and not self.killed and self.pid is not None:
            _kill_group(self.pid)  # left before the child's end: it goes, and its group (the worker stays)
        with contextlib.suppress(OSError):
            self.conn.shutdown(socket.SHUT_RDWR)


_swept = threading.Lock()
_swept_pids: set[int] = set()


def _sweep_once() -> None:
    """The first run of this process removes the run folders of processes killed with SIGKILL."""
    with _swept:
        if os.getpid() in _swept_pids:
            return
        _swept_pids.add(os.getpid())
    for found in scratch.sweep(RUN_KIND):
        progress.log(f"removed {found.name}, the folder of a worker run whose harness was killed")


def _frame(line: str, key: str) -> int | None:
    """The number a warm worker's own frame (``pid``, ``exit``) carries, None if it is garbled."""
    try:
        value = json.loads(line)[key]
    except (ValueError, KeyError, TypeError):
        return None
    return value if isinstance(value, int) else None


def _protocol_line(line: str) -> tuple[str, dict] | None:
    """(kind, the rest) of a protocol line, or None where it is not one."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
        return None
    kind = record.pop("kind")
    return kind, record


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
    describe: bool = False,
) -> tuple[dict | None, list[dict]]:
    """Run the selected cases; return (environment record, one result dict per case). With
    ``describe``, no case: only the environment's record (what the upgrade axis writes of a build).

    With ``warm``, each run is a fork of that warm worker (harness/execution/pool.py); where it does
    not answer, the run goes cold. The results are the same either way (tests/test_pool.py).
    """
    done: list[dict] = []
    env_record = None
    _sweep_once()
    while True:
        skip = [wire_name(r) for r in done]
        argv = ["--framework", framework, "--timeout", str(timeout), "--repeat", str(repeat)]
        argv += ["--only", *selectors, "--skip", *skip]
        if repeat_only is not None:  # the cases that run ``repeat`` times; the others once
            argv += ["--repeat-only", *repeat_only]
        if describe:
            argv.append("--describe")
        # The run's folder holds the worker's output and each case's output and temporary folder
        # (harness/runtime/worker.py): a worker killed on a case's deadline leaves them here, not in
        # the temporary directory (99 case-* folders had piled up in /tmp from killed runs).
        with scratch.folder(RUN_KIND) as tmp:
            output = tmp / "worker.out"  # the worker's own output, outside any case
            cases_output = tmp / "cases"
            cases_output.mkdir()
            argv += ["--output-dir", str(cases_output)]
            proc: _ColdRun | WarmRun | None = None
            if warm is not None:
                try:
                    proc = WarmRun(warm, argv, output, env)
                except OSError:
                    warm = None  # not answering: this run, and the restarts after it, go cold
            if proc is None:
                proc = _ColdRun(python, argv, env, cwd, output)
            _live.add(proc)
            try:
                if _stopping.is_set():  # a signal came while this run started
                    proc.kill()
                env_record, restart, warm, failure = _follow(
                    proc, env_record, done, cases_output, output, timeout, grace, case_slack, warm
                )
            finally:
                _live.discard(proc)
                proc.close()  # on every way out: nothing of the run outlives it
            if _stopping.is_set():
                return env_record, done + [{"error": STOPPED}]
            if failure is not None:
                return env_record, done + [{"error": failure}]
        if not restart:
            return env_record, done


def _follow(
    proc: _ColdRun | WarmRun,
    env_record: dict | None,
    done: list[dict],
    cases_output: Path,
    output: Path,
    timeout: float,
    grace: float,
    case_slack: float,
    warm: pool.Member | None,
) -> tuple[dict | None, bool, pool.Member | None, str | None]:
    """Read one worker's protocol until it ends, adding each case's result to ``done``; returns
    (the environment record, whether to restart for the cases left, the warm worker to use for
    that, the failure that ends the whole run or None)."""
    q: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.lines(), q), daemon=True).start()
    current: dict | None = None
    deadline = timeout + grace

    def crashed(prefix: str) -> None:
        assert current is not None
        detail = _tail(case_output(cases_output, *wire_case(current)), prefix)
        done.append(wire_failed(current, ERROR, detail))

    while True:
        try:
            line = q.get(timeout=deadline)
        except queue.Empty:
            proc.kill()
            if current is None:
                return env_record, False, warm, f"worker silent for {deadline:g}s before any case started"
            done.append(wire_failed(current, ERROR, f"timed out after {timeout:g}s (worker killed)"))
            return env_record, True, warm, None
        if line is None:
            rc = proc.exit_code()
            if rc is None and current is None and env_record is not None:
                # A warm run whose worker stopped (evicted, SIGTERM) before it sent the
                # child's exit code, with no case under way: the child either finished
                # or was killed between two cases. Run what is left cold: nothing, or the
                # cases it never started (never "reported nothing for this case").
                return env_record, True, None, None
            if current is not None:
                crashed(f"worker died ({_exit_words(rc)}): ")
                return env_record, True, warm, None
            if rc != 0:
                return env_record, False, warm, _tail(output, f"worker failed ({_exit_words(rc)}): ")
            return env_record, False, warm, None
        parsed = _protocol_line(line)
        if parsed is None:  # something wrote to the channel that is not the worker's protocol
            proc.kill()
            what = bounded_detail(line, "not a protocol line from the worker: ", lines=1)
            if current is None:
                return env_record, False, warm, what
            done.append(wire_failed(current, ERROR, what))
            return env_record, True, warm, None
        kind, record = parsed
        if kind == "env":
            env_record = {**record, "isolation": isolation.kind()}
            deadline = timeout + grace
        elif kind == "start":
            current = record
            deadline = timeout + case_slack
        elif kind == "result":
            done.append(record)
            progress.case_done()
            current = None
            deadline = timeout + case_slack


def _exit_words(rc: int | None) -> str:
    return "no exit status" if rc is None else f"exit {rc}"
