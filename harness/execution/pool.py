"""The pool of warm workers, seen from the orchestrator: find, start, use, list and stop them.

A warm worker (``harness/runtime/warm.py``) keeps one environment's framework imported and forks a
fresh child for every run, so a run costs the case, not the import (seconds per build).
Workers outlive the command that started them, like mypy's daemon or gradle's: each is a
background process with a Unix socket and a small JSON file in the pool folder
(``$TMPDIR/harness-pool-<uid>/``, or ``HARNESS_POOL_DIR``), and exits by itself after an idle
period.

A worker is found by its key: the environment's Python, the project root and the process
environment it was started with. It is used only while it is still right: its process is
alive, its environment's marker (``harness-build.json``, rewritten when the environment is
rebuilt), the files installed in its environment (a framework file edited there) and its own
code (``harness/runtime/warm.py``) are what they were when it started; otherwise it is stopped
and the run goes cold or starts a new one. Editing a scenario or harness module needs no
restart: the worker compares the project modules it holds with their files before every run
and drops the changed ones (harness/runtime/warm.py).

Memory is bounded: starting a worker first stops the least recently used ones until the
pool's resident memory, plus what the new one will take, fits the budget (default: half the
machine's memory; every checkout's workers count). Workers belong to their checkout (the project
root they run): ``python -m harness pool status|stop`` lists or stops this checkout's workers,
with ``--all`` every checkout's, and a run's summary counts this checkout's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from harness import owners
from harness.errors import UsageError
from harness.execution import isolation, postgres
from harness.runtime import frameworks
from harness.store import result_cache

DEFAULT_IDLE = 900.0  # seconds a worker waits for a run before it exits
# Seconds for a new worker to import its framework and bind its socket; the first import in
# a new environment compiles every module (20 s and more on a loaded 2-core machine).
START_WAIT = 180.0
FALLBACK_RSS_MB = 400.0  # what a new worker is assumed to take when none of its framework runs yet
# Pool members are started and stopped from the matrix's parallel build threads.
_LOCK = threading.Lock()


def _pool_path() -> Path:
    configured = os.environ.get("HARNESS_POOL_DIR")
    return Path(configured) if configured else Path(tempfile.gettempdir()) / f"harness-pool-{os.getuid()}"


def pool_dir() -> Path:
    """Where the pool's sockets and member files live (short: a socket path is at most 107 bytes)."""
    configured = os.environ.get("HARNESS_POOL_DIR")
    path = _pool_path()
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        # Not a reason to go cold like an unsafe folder: the user named a file, so it is bad input.
        what = "is a file, not a folder" if path.exists() else "lies inside a file, not a folder"
        named = f"HARNESS_POOL_DIR={path}" if configured else f"the pool folder {path} (HARNESS_POOL_DIR unset)"
        raise PoolDirInvalid(
            f"{named} {what}; valid for HARNESS_POOL_DIR: a folder that is this user's own private folder "
            "(made when missing), or unset (a folder of the system's temporary folder)"
        ) from None
    st = path.stat()
    if st.st_uid != os.getuid() or st.st_mode & 0o022:
        # Another user could put a socket there that answers with made-up results.
        raise PoolUnsafe(
            f"pool folder {path} is not this user's own private folder (HARNESS_POOL_DIR; "
            "valid: a folder this user owns that no one else can write)"
        )
    return path


class PoolUnsafe(OSError):
    """The pool folder could be written by someone else."""


class PoolDirInvalid(UsageError):
    """The pool folder is a file (or inside one): bad input, refused before any work."""


def check_dir(mode: str) -> None:
    """Refuse a pool folder that cannot be one (``PoolDirInvalid``) before a command's work, when
    the command uses the pool (``mode`` not "cold"); an unsafe one only makes its runs go cold."""
    if mode != "cold":
        with contextlib.suppress(PoolUnsafe):
            pool_dir()


_warned_unsafe = False


def usable() -> bool:
    """Whether the pool folder is safe to use; if not, says why on stderr (once a process)
    and every run goes cold, as with --cold."""
    global _warned_unsafe
    try:
        pool_dir()
    except PoolUnsafe as exc:
        if not _warned_unsafe:
            _warned_unsafe = True
            print(f"warning: {exc}; the warm pool is not used, runs go cold", file=sys.stderr)
        return False
    return True


def _digest_file(path: Path | None) -> str:
    if path is None:
        return ""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "missing"


def _marker_id(env_path: Path | None, installed: str | None = None) -> str:
    """The environment's marker as it is now: its content, and which file it is (a rebuilt
    environment writes a new one, even with the same content), with the digest of the files
    installed in it (harness/store/result_cache.py ``environment_digest``; ``installed`` when the
    caller has just taken it: a run takes it once per build, 25-60 ms for google-adk's 5,300 files)."""
    if env_path is None:
        return ""
    marker = env_path / "harness-build.json"
    try:
        st = marker.stat()
    except OSError:
        return "missing"
    # A worker holds the framework's modules as they were when it imported them: after an edit of
    # one inside the environment it must not answer, or the re-run case gets the old code (issue 49).
    if installed is None:
        installed = result_cache.environment_digest(env_path)
    return f"{_digest_file(marker)}:{st.st_ino}:{st.st_mtime_ns}:{installed}"


# Process environment variables a run sets for itself (harness/runtime/warm.py applies the request's
# values) rather than being part of a worker's identity: nox puts its session's bin/ first on
# PATH, and `nox -s matrix` and `python -m harness matrix` should share their workers; the
# PostgreSQL server's socket folder is new in every run (harness/execution/postgres.py).
PER_RUN = ("PATH", "HARNESS_POSTGRES_SOCKET")


def member_key(python: Path, root: Path, env: dict[str, str]) -> str:
    """A worker's identity: its Python, project root and process environment (PER_RUN aside)."""
    kept = sorted((k, v) for k, v in env.items() if k not in PER_RUN)
    text = json.dumps([str(python), str(root.resolve()), kept])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def default_budget_mb() -> float:
    """Half the machine's physical memory, in MB."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1024 / 2
    except (OSError, ValueError):
        pass
    return 4096.0


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (0 where /proc does not tell)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


@dataclass
class Member:
    """One warm worker, as its file in the pool folder describes it."""

    key: str
    pid: int
    framework: str
    python: str
    root: str
    env_path: str | None
    boot: str  # digest of harness/runtime/warm.py when it started
    marker: str  # the environment's harness-build.json when it started (_marker_id)
    started: float
    socket: str
    last_used: float
    # The pid of the command that started it for its own runs, which stops it when it ends; 0: it stays
    # for later runs (``--warm``, or a file written before this field).
    run: int = 0

    @property
    def file(self) -> Path:
        return pool_dir() / f"{self.key}.json"

    def rss_mb(self) -> float:
        return rss_mb(self.pid)

    def stale(self, installed: str | None = None) -> str | None:
        """Why this worker must not answer any more, or None (``installed``: the digest of its
        environment's files when the caller has it, see ``_marker_id``)."""
        if not owners.pid_runs(self.pid):
            return "its process is gone"
        if _digest_file(Path(self.root) / "harness" / "runtime" / "warm.py") != self.boot:
            return "harness/runtime/warm.py changed"
        if self.env_path is not None and _marker_id(Path(self.env_path), installed) != self.marker:
            return "its environment was rebuilt, or a file installed in it changed"
        return None

    def touch(self) -> None:
        self.last_used = time.time()
        _write(self)


def _write(member: Member) -> None:
    tmp = member.file.with_suffix(".tmp")
    tmp.write_text(json.dumps(member.__dict__, sort_keys=True))
    tmp.replace(member.file)


def members(root: Path | None = None) -> list[Member]:
    """Every live worker of the pool (none where the folder is unsafe). The files of a dead worker
    stay until the idle period after its last run has passed: a worker that ends by itself for
    idleness, or is stopped, removes its own, so a dead one with its file was retired by a change
    (a rebuilt environment, a new harness/runtime/warm.py) or killed, and its environment's next run
    must still see it to start one in its place (``_lookup``). Issue 49: this function removed
    them, and every caller before that run (``_make_room`` starting the first replacement, the
    summary line) made the other retired workers' runs go cold from then on: 20 s instead of 8 s
    for an author's `matrix --only ID` after a `git checkout` touched warm.py.

    ``root``: only the workers of that checkout (a worker belongs to the project root it runs).
    """
    if not usable():
        return []
    mine = str(root.resolve()) if root is not None else None
    found = []
    for path in sorted(pool_dir().glob("*.json")):
        try:
            member = Member(**json.loads(path.read_text()))
        except (OSError, ValueError, TypeError):
            continue
        if not owners.pid_runs(member.pid):
            if time.time() - member.last_used > DEFAULT_IDLE:
                _remove_files(member)
        elif mine is None or member.root == mine:
            found.append(member)
    return found


def _remove_files(member: Member) -> None:
    # Its log too: a worker per (Python, root, environment) left one in the pool folder for good
    # (164 on this machine after a day of test runs, each in a project folder of its own).
    for path in (member.file, Path(member.socket), Path(member.socket).with_suffix(".log")):
        with contextlib.suppress(OSError):
            path.unlink()


def stop(member: Member, wait: float = 3.0) -> None:
    """Stop a worker: SIGTERM, then SIGKILL if it has not exited within ``wait`` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(member.pid, signal.SIGTERM)
        deadline = time.monotonic() + wait
        while owners.pid_runs(member.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if owners.pid_runs(member.pid):
            os.kill(member.pid, signal.SIGKILL)
    _remove_files(member)


def find(python: Path, root: Path, env: dict[str, str]) -> Member | None:
    """The warm worker for this environment, Python and process environment, if it is still right."""
    return _lookup(python, root, env)[0]


def _lookup(python: Path, root: Path, env: dict[str, str], installed: str | None = None) -> tuple[Member | None, bool]:
    """(the worker if it is still right, whether one was there and is not: retired because its
    environment was rebuilt or harness/runtime/warm.py changed, or gone without saying). A worker that
    ended by itself after its idle period, or was stopped, leaves no file: not retired."""
    path = pool_dir() / f"{member_key(python, root, env)}.json"
    try:
        member = Member(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        return None, False
    if member.stale(installed) is not None:
        stop(member)
        return None, True
    return member, False


def _make_room(framework: str, budget_mb: float) -> None:
    """Stop the least recently used workers until a new one of ``framework`` fits ``budget_mb``."""
    live = members()
    same = [m.rss_mb() for m in live if m.framework == framework]
    need = max(same) if same else FALLBACK_RSS_MB
    live.sort(key=lambda m: m.last_used)
    while live and sum(m.rss_mb() for m in live) + need > budget_mb:
        stop(live.pop(0))


def start(
    python: Path,
    root: Path,
    env: dict[str, str],
    env_path: Path | None,
    framework: str,
    entry_module: str,
    idle: float = DEFAULT_IDLE,
    budget_mb: float | None = None,
    installed: str | None = None,
    run: int = 0,
) -> Member | None:
    """Start a warm worker in the background (it imports the framework while the caller goes
    on); None if it could not start. Stops least recently used workers to keep within the budget.
    ``run``: the pid of the command it is started for, which stops it (``stop_run``), and which it
    does not outlive (a SIGKILL there); 0: it stays."""
    key = member_key(python, root, env)
    sock = pool_dir() / f"{key}.sock"
    refusal = pool_dir() / f"{key}.refused"
    boot = _digest_file(root / "harness" / "runtime" / "warm.py")
    marker = _marker_id(env_path, installed)
    with contextlib.suppress(OSError):
        if json.loads(refusal.read_text())["digests"] == [boot, marker]:
            return None  # this environment cannot be kept warm (see the file); it runs cold
    with _LOCK:
        _make_room(framework, default_budget_mb() if budget_mb is None else budget_mb)
        log = pool_dir() / f"{key}.log"
        watch = [str(root / "harness" / "runtime" / "warm.py")]
        if env_path is not None:
            watch.append(str(env_path / "harness-build.json"))
        with open(log, "w") as log_file:
            proc = subprocess.Popen(
                isolation.wrap(
                    [str(python), "-m", "harness.runtime.warm", "--socket", str(sock), "--entry", entry_module]
                    + ["--idle", str(idle), "--owner", str(run), "--watch", *watch]
                ),
                cwd=root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=log_file,
                start_new_session=True,  # outlives the command that started it, not its Ctrl-C
            )
        member = Member(
            key=key,
            pid=proc.pid,
            framework=framework,
            python=str(python),
            root=str(root.resolve()),
            env_path=str(env_path) if env_path is not None else None,
            boot=boot,
            marker=marker,
            started=time.time(),
            socket=str(sock),
            last_used=time.time(),
            run=run,
        )
        _write(member)
    deadline = time.monotonic() + START_WAIT
    while not sock.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            reason = log.read_text(errors="replace").strip().splitlines()[-1:] or ["no output"]
            stop(member)
            if proc.returncode == 3:  # harness/runtime/warm.py refused this environment
                refusal.write_text(json.dumps({"digests": [boot, marker], "reason": reason[0]}))
            return None
        time.sleep(0.02)
    # Reap it when it exits, so it does not linger as a zombie of a long-lived caller.
    threading.Thread(target=proc.wait, daemon=True).start()
    return member


def for_run(
    mode: str,
    python: Path,
    root: Path,
    env: dict[str, str],
    env_path: Path | None,
    framework: str,
    budget_mb: float | None = None,
    installed: str | None = None,
    for_this_run: bool = False,
) -> Member | None:
    """The warm worker a run in this environment uses: with ``mode`` "auto" the one present
    (a new one in place of one retired by a change: a rebuilt environment, a new
    harness/runtime/warm.py), with "warm" also a new one where none is (it stays for later runs),
    with "cold" none. ``installed``: the digest of the environment's files, when the caller has it.
    ``for_this_run``: in "auto", a new one where none is too, which this command stops when it ends
    (``stop_run``): its later steps run in the same environment (the upgrade axis after the releases)."""
    if mode == "cold":
        return None
    if not usable():
        return None
    member, retired = _lookup(python, root, env, installed)
    if member is None and (mode == "warm" or retired or for_this_run):
        member = start(
            python,
            root,
            env,
            env_path,
            framework,
            frameworks.get(framework).entry_module,
            budget_mb=budget_mb,
            installed=installed,
            run=os.getpid() if mode != "warm" and for_this_run else 0,
        )
    return member


def started_by_this_run(member: Member) -> bool:
    """Whether this command started ``member`` for its own runs (it stops it when it ends)."""
    return member.run == os.getpid()


def stop_run() -> int:
    """Stop every worker this command started for its own runs, on every exit path of a run that
    starts them; how many."""
    if not _pool_path().is_dir():  # no worker was ever started here: nothing to stop, no folder made
        return 0
    mine = [m for m in members() if started_by_this_run(m)]
    for member in mine:
        stop(member)
    return len(mine)


def end_run() -> None:
    """SIGTERM, without waiting, to every worker this command started for its own runs: a signal
    that ends the command runs no ``finally`` (harness/execution/postgres.py ends it with the default
    action), so its handler calls this; each worker removes its socket, file and log as it ends. A run
    that started none leaves no pool folder behind (test_upgrades' SIGTERM test: it made one)."""
    if not _pool_path().is_dir():
        return
    for member in members():
        if started_by_this_run(member):
            with contextlib.suppress(OSError):
                os.kill(member.pid, signal.SIGTERM)


postgres.on_signal(end_run)


def connect(member: Member, argv: list[str], stderr_path: Path, env: dict[str, str]) -> socket.socket:
    """Ask ``member`` for one run of ``harness.runtime.worker`` with ``argv``; the connection then
    carries the run's lines (harness/runtime/warm.py). Raises OSError when the worker does not answer."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(member.socket)
        per_run = {k: env[k] for k in PER_RUN if k in env}
        conn.sendall((json.dumps({"argv": argv, "stderr": str(stderr_path), "env": per_run}) + "\n").encode())
    except OSError:
        conn.close()
        raise
    member.touch()
    return conn


def stop_all(root: Path | None = None) -> int:
    """Stop every worker of the checkout ``root`` (None: of every checkout); the number stopped."""
    live = members(root)
    for member in live:
        stop(member)
    return len(live)


def summary(root: Path | None = None) -> str:
    """One line: how many warm workers (of the checkout ``root``; None: of every one), their memory in all."""
    live = members(root)
    return f"warm pool: {len(live)} workers, {sum(m.rss_mb() for m in live):.0f} MB resident"


def describe(root: Path | None = None) -> list[str]:
    """One line per worker (framework, environment, memory, idle time), then the total.

    ``root``: only that checkout's workers, and a line counting the other checkouts' (None: every worker).
    """
    live = members(root)
    now = time.time()
    lines = []
    for m in sorted(live, key=lambda m: (m.framework, m.env_path or m.python)):
        where = Path(m.env_path).name if m.env_path else m.python
        lines.append(
            f"{m.framework:14} {where:28} pid {m.pid:>7}  {m.rss_mb():7.0f} MB  idle {now - m.last_used:6.0f}s"
            f"  root {m.root}"
        )
    total = sum(m.rss_mb() for m in live)
    lines.append(f"{len(live)} warm workers, {total:.0f} MB resident in all (budget {default_budget_mb():.0f} MB)")
    if root is not None:
        others = [m for m in members() if m.root != str(root.resolve())]
        lines[-1] = f"{len(live)} warm workers of this checkout ({root.resolve()}), " + lines[-1].split(", ", 1)[1]
        if others:
            lines.append(
                f"{len(others)} more of other checkouts, {sum(m.rss_mb() for m in others):.0f} MB "
                "(the budget counts them too; `pool status --all` lists them)"
            )
    return lines
