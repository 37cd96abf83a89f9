"""A warm worker: one environment's framework imported once, every run in a fresh fork of it.

Started by the orchestrator (``harness/execution/pool.py``) inside a build's environment, under the
same isolation and the same allowlisted process environment as a cold worker, as
``python -m harness.runtime.warm --socket PATH --entry MODULE``. It imports the framework, then
serves runs on a Unix socket. A run is one JSON line, ``{"argv": [...], "stderr": PATH, "env": {...}}``
(``env``: the variables each run sets for itself, harness/execution/pool.py's ``PER_RUN``):
the worker forks, and the child, in a process group of its own, runs ``harness.runtime.worker.main(argv)``
with the connection as its protocol channel (``--protocol-fd``) and its fd 1 and 2 on the file
``stderr`` names: the lines a cold worker sends (``env``, ``start``, ``result``); when it has
exited, the parent adds ``{"kind": "exit", "rc": N}`` (negative for a signal, as
``subprocess`` says it). Before them, the parent sends ``{"kind": "pid", "pid": N}`` so the
driver can kill a hung child on its deadline, as it kills a cold worker.

The parent never runs a case, so nothing a run does reaches the next one: each run starts
from the state of a process that has only imported modules, as a cold worker's first case
does (the pattern of a fork server: Python's ``multiprocessing`` forkserver, Android's zygote).

The parent learns what runs import: each child sends back the names of the modules it
imported (the environment's, the standard library's, the project's own; with those its cases'
processes imported, harness/runtime/worker.py's ``LEARNED``), and the parent
imports them before the next fork, in the same order; likewise the pydantic models whose
deferred validators the run had to build (``deferred_models``). Nothing stale answers:
before every fork the parent compares each project module it holds (``harness``,
``scenarios``) with its file, and when any changed or went away it drops them all, so the
child imports the project as it is on disk (``Server.drop_changed_project_modules``).

It exits after ``--idle`` seconds without a run, when a ``--watch`` file changes or
disappears (the environment's marker: the environment was rebuilt; this module: the
protocol changed), or on SIGTERM. This module imports nothing from the harness itself.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import hashlib
import importlib
import importlib.util
import json
import os
import re
import select
import signal
import socket
import sys
import sysconfig
import threading
import time
import traceback
from pathlib import Path

LEARN_AFTER = 1.5  # seconds of quiet before the parent imports what its children needed
# Modules a run imports from the project: never kept in the parent, always read from disk.
PROJECT_PACKAGES = ("harness", "scenarios")


def _signature(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _installed_roots() -> tuple[str, ...]:
    """Where modules the parent may preload live: this environment's packages and the stdlib."""
    paths = sysconfig.get_paths()
    return tuple({os.path.realpath(paths[k]) + os.sep for k in ("purelib", "platlib", "stdlib", "platstdlib")})


def _is_project(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PROJECT_PACKAGES)


def _preloadable(name: str, roots: tuple[str, ...], project_root: str | None) -> bool:
    """A module the parent may import too: the environment's or the standard library's, or
    the project's own (harness, scenarios: held only while their files are unchanged; never
    with ``project_root`` None)."""
    if name == "__main__":
        return False
    module = sys.modules.get(name)
    origin = getattr(module, "__file__", None)
    if not isinstance(origin, str):
        return False
    if _is_project(name):
        return project_root is not None and os.path.realpath(origin).startswith(project_root)
    return os.path.realpath(origin).startswith(roots)


def learned_since(inherited: set[str], deferred: list[type], project_root: str | None) -> dict[str, list[str]]:
    """What this process imported since it held the modules ``inherited`` (those a parent may
    import too, ``_preloadable``, in their order) and which of the ``deferred`` pydantic models it
    built: ``{"modules": [...], "models": [...]}``, what a parent learns (``import_each``, ``build_each``)."""
    roots = _installed_roots()
    modules = [n for n in list(sys.modules) if n not in inherited and _preloadable(n, roots, project_root)]
    models = [_model_name(c) for c in deferred if getattr(c, "__pydantic_complete__", False) is True]
    return {"modules": modules, "models": models}


def import_each(names: list[str]) -> None:
    """Import every module of ``names`` not imported yet, in order; one that fails here fails in
    the run that needs it, as in a cold worker."""
    for name in names:
        if name not in sys.modules:
            with contextlib.suppress(BaseException):
                importlib.import_module(name)


def build_each(names: list[str], deferred: list[type]) -> None:
    """Build the validators of the ``deferred`` pydantic models named in ``names``."""
    by_name = {_model_name(c): c for c in deferred}
    for name in names:
        rebuild = getattr(by_name.get(name), "model_rebuild", None)
        if callable(rebuild):
            with contextlib.suppress(BaseException):  # the run that needs it builds it, as cold
                rebuild()


def _project_digests() -> dict[str, str | None]:
    """Real path -> digest of every Python file of the project's packages (under the cwd)."""
    root = os.getcwd()
    return {
        os.path.realpath(path): _file_digest(str(path))
        for package in PROJECT_PACKAGES
        for path in Path(root, package).rglob("*.py")
    }


def _drop_stale_bytecode() -> None:
    """Remove the cached bytecode of every project file edited after it was compiled.

    Python trusts a ``.pyc`` whose source has the same size and the same mtime in whole
    seconds: an edit within a second of the last import that keeps the size would run the
    old code. A ``.pyc`` older than its source is exactly that case.
    """
    for package in PROJECT_PACKAGES:
        for source in Path(os.getcwd(), package).rglob("*.py"):
            cached = importlib.util.cache_from_source(str(source))
            with contextlib.suppress(OSError):
                if os.stat(cached).st_mtime_ns < source.stat().st_mtime_ns:
                    os.unlink(cached)


def _names_any(path: str, words: list[str]) -> bool:
    """Whether the file at ``path`` mentions any of ``words`` as a whole word (or cannot be read)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return True
    return any(re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text) for w in words)


def _file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def deferred_models() -> list[type]:
    """pydantic models whose validator is not built yet (``defer_build``: openai's response types).

    A run builds the ones it touches, at a cost far above the case's own (about 1 s for an
    openai-agents streamed run); the parent builds those its children needed, so later forks
    start with them built, as they start with the modules imported. Building is deterministic
    and independent of the run: the same schema whichever process builds it.
    """
    pydantic = sys.modules.get("pydantic")
    base = getattr(pydantic, "BaseModel", None)
    if not isinstance(base, type):
        return []
    found: list[type] = []
    todo: list[type] = [base]
    seen: set[type] = set()
    while todo:
        cls = todo.pop()
        subclasses: list[type] = cls.__subclasses__()
        for sub in subclasses:
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
                if getattr(sub, "__pydantic_complete__", True) is False:
                    found.append(sub)
    return found


def _model_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _child(conn: socket.socket, request: dict, sync_read: int, modules_write: int, deferred: list[type]) -> None:
    """Run ``harness.runtime.worker`` for one request; never returns."""
    rc = 1
    try:
        os.read(sync_read, 1)  # the parent has sent our pid on the connection
        os.close(sync_read)
        with contextlib.suppress(OSError):  # a group of our own, which the driver kills on a deadline
            os.setpgid(0, 0)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.set_wakeup_fd(-1)  # the parent's: a signal here is not the parent's to wake for
        for key, value in request.get("env", {}).items():  # harness/execution/pool.py's PER_RUN
            os.environ[key] = value
        # The connection is the run's protocol channel; fd 1 and 2 are its output, never the channel.
        err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
        os.dup2(err, 1)
        os.dup2(err, 2)
        os.close(err)
        argv = [*request["argv"], "--protocol-fd", str(conn.detach())]
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115 - lives as long as the process
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        importlib.invalidate_caches()  # a scenario file added since the parent started
        _drop_stale_bytecode()
        inherited = set(sys.modules)
        try:
            from harness.runtime import worker  # as on disk now (Server.drop_changed_project_modules

            rc = worker.main(argv)
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
            rc = 1
        learned = learned_since(inherited, deferred, os.path.realpath(os.getcwd()) + os.sep)
        # And what the worker's cases learned in their own processes (issue 49: each case runs in
        # a fork of the worker, which imports only what a next case of the same run needs).
        of_cases = getattr(sys.modules.get("harness.runtime.worker"), "LEARNED", {})
        for key, names in of_cases.items():
            learned[key] += [n for n in names if n not in learned[key]]
        with contextlib.suppress(OSError):
            os.write(modules_write, json.dumps(learned).encode())
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(rc if isinstance(rc, int) else 1)


class Server:
    """The parent: accepts runs, forks a child for each, preloads what the children import."""

    def __init__(self, sock_path: Path, idle: float, watch: list[Path], owner: int = 0) -> None:
        self.sock_path = sock_path
        self.idle = idle
        self.owner = owner  # the command it was started for, which it does not outlive (0: none)
        self.watch = {p: _signature(p) for p in watch}
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with contextlib.suppress(FileNotFoundError):
            sock_path.unlink()
        self.listener.bind(str(sock_path))
        self.listener.listen(16)
        # A signal's byte lands here and wakes the select at once: Python retries a select a signal
        # interrupted (PEP 475), so a stop waited out its timeout (up to LEARN_AFTER) and then the
        # interpreter's teardown of the framework: pool.stop's 3 s ran out on most of the upgrade
        # axis's 38 workers (64 s of 180 s in one run of its 86 pairs).
        self.wakeup, wakeup_write = os.pipe()
        os.set_blocking(self.wakeup, False)
        os.set_blocking(wakeup_write, False)
        signal.set_wakeup_fd(wakeup_write)
        # A running child's modules pipe -> (its pid, its connection, what it sent so far).
        self.pending: dict[int, tuple[int, socket.socket, bytearray]] = {}
        self.last_run = self.last_activity = time.monotonic()
        self.to_preload: list[str] = []  # what children imported, not imported here yet
        self.to_build: list[str] = []  # the deferred pydantic models children built
        self.stopping = False
        self.forget = False  # on stopping, remove the pool's file of this worker too
        self.deferred = deferred_models()
        # The project modules this process holds -> (their file, its digest when imported).
        self.project: dict[str, tuple[str, str | None]] = {}
        for name, module in list(sys.modules.items()):
            origin = getattr(module, "__file__", None)
            if _is_project(name) and isinstance(origin, str):
                self.project[name] = (origin, _file_digest(origin))

    def drop_changed_project_modules(self) -> None:
        """Before each fork: drop the project modules held here whose files changed (or went
        away), so the child imports them as they are on disk; they are learned again. A
        changed scenario module drops itself and every scenario module whose source names it
        (the only way to import it; the harness never imports scenario modules); a changed
        harness module, or the scenarios package, drops the whole project."""
        changed = [name for name, (path, digest) in self.project.items() if _file_digest(path) != digest]
        if not changed:
            return
        if all(n.startswith("scenarios.") for n in changed):
            dropped = set(changed)
            while True:  # and whatever names those, until nothing more does
                leaves = [n.rpartition(".")[2] for n in dropped]
                more = {n for n in self.project if n.startswith("scenarios.") and n not in dropped}
                more = {n for n in more if _names_any(self.project[n][0], leaves)}
                if not more:
                    break
                dropped |= more
        else:
            dropped = set(self.project)
        for name in sorted(dropped):
            sys.modules.pop(name, None)
            del self.project[name]
            package, _, leaf = name.rpartition(".")
            with contextlib.suppress(AttributeError, KeyError):
                delattr(sys.modules[package], leaf)  # `from package import leaf` must not find it
        importlib.invalidate_caches()

    def preload(self, names: list[str]) -> None:
        missing = [n for n in names if n not in sys.modules]
        # The project's files as they are before importing any of them: a module imported
        # now (named, or imported by one that is) is held with its file's digest from here, so
        # a file changed during the imports is dropped at the next run, never kept stale.
        before = _project_digests() if any(_is_project(n) for n in missing) else {}
        import_each(missing)
        for name, module in list(sys.modules.items()):
            origin = getattr(module, "__file__", None)
            if _is_project(name) and name not in self.project and isinstance(origin, str):
                self.project[name] = (origin, before.get(os.path.realpath(origin)))

    def build_models(self, names: list[str]) -> None:
        build_each(names, self.deferred)
        self.deferred = deferred_models()

    def changed(self) -> bool:
        return any(_signature(p) != sig for p, sig in self.watch.items())

    def handle(self, conn: socket.socket) -> None:
        conn.settimeout(10)
        data = b""
        with contextlib.suppress(OSError):
            while not data.endswith(b"\n"):
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
        try:
            request = json.loads(data)
            assert isinstance(request["argv"], list) and isinstance(request["stderr"], str)
        except (ValueError, KeyError, TypeError, AssertionError):
            conn.close()
            return
        conn.settimeout(None)
        sync_read, sync_write = os.pipe()
        modules_read, modules_write = os.pipe()
        self.drop_changed_project_modules()
        # The child's copy of every object the parent holds goes to the collector's permanent
        # generation: a full collection in the child would otherwise walk (and so copy, page
        # by page) the whole inherited heap, often more than the run itself costs. CPython's
        # gc.freeze documentation gives this remedy for forking servers. The parent unfreezes
        # its own copy at once, so what it drops later is still collected.
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            self.listener.close()
            os.close(sync_write)
            os.close(modules_read)
            for fd, (_, other, _) in self.pending.items():
                os.close(fd)
                other.close()
            _child(conn, request, sync_read, modules_write, self.deferred)
        gc.unfreeze()
        with contextlib.suppress(OSError):  # as the child does: the group exists before its pid is sent
            os.setpgid(pid, pid)
        os.close(sync_read)
        os.close(modules_write)
        with contextlib.suppress(OSError):
            conn.sendall((json.dumps({"kind": "pid", "pid": pid}) + "\n").encode())
        os.write(sync_write, b"x")
        os.close(sync_write)
        self.pending[modules_read] = (pid, conn, bytearray())

    def finish(self, fd: int) -> None:
        """The child behind ``fd`` has exited (its end of the pipe closed): send its exit code
        (as a cold worker's would be: negative for a signal), preload what it imported."""
        os.close(fd)
        pid, conn, sent = self.pending.pop(fd)
        # The processes its cases left behind go with it (its group: it is not reaped yet, so the
        # group's id is still its own).
        with contextlib.suppress(OSError):
            os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
            os.killpg(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        with contextlib.suppress(OSError):
            conn.sendall((json.dumps({"kind": "exit", "rc": os.waitstatus_to_exitcode(status)}) + "\n").encode())
        conn.close()
        try:
            learned = json.loads(bytes(sent))
            modules, models = list(learned["modules"]), list(learned["models"])
        except (ValueError, KeyError, TypeError):
            modules, models = [], []
        self.to_preload += [n for n in modules if isinstance(n, str) and n not in self.to_preload]
        self.to_build += [n for n in models if isinstance(n, str) and n not in self.to_build]
        self.last_activity = time.monotonic()

    def learn(self) -> None:
        """Import and build what the children needed. Done once the worker has been quiet for
        LEARN_AFTER seconds: during a matrix run every build's worker would otherwise take
        CPU from the other builds' runs."""
        self.preload(self.to_preload)
        self.build_models(self.to_build)
        self.to_preload, self.to_build = [], []
        if threading.active_count() > 1:  # a preloaded module started a thread: see main()
            self.stopping = True

    def serve(self) -> None:
        while not self.stopping:
            self.step()
        # Stopping (SIGTERM, an idle period, a changed file): no new runs; the ones under way
        # finish and get their exit codes.
        self.listener.close()
        with contextlib.suppress(OSError):
            self.sock_path.unlink()
        if self.forget:  # idle or stopped: no new worker in its place (harness/execution/pool.py's _lookup)
            for gone in (".json", ".log"):  # its log with it: nothing of it stays in the pool folder
                with contextlib.suppress(OSError):
                    self.sock_path.with_suffix(gone).unlink()
        while self.pending:
            ready, _, _ = select.select(list(self.pending), [], [], 1.0)
            for fd in ready:
                self.read_child(fd)

    def read_child(self, fd: int) -> None:
        """What a child sent on its modules pipe; its end (EOF) finishes the run."""
        chunk = os.read(fd, 65536)
        if chunk:
            self.pending[fd][2].extend(chunk)
        else:
            self.finish(fd)

    def step(self) -> None:
        """Learn when quiet, else wait for a run or a child's end and handle it; set
        ``stopping`` when a watched file changed or the idle period is over."""
        quiet = time.monotonic() - self.last_activity
        learning = bool(self.to_preload or self.to_build) and not self.pending
        if learning and quiet >= LEARN_AFTER:
            self.learn()
            return
        wait = max(0.0, LEARN_AFTER - quiet) if learning else 1.0
        watched: list[socket.socket | int] = [self.listener, self.wakeup, *self.pending]
        ready, _, _ = select.select(watched, [], [], wait)
        for fd in ready:
            if fd == self.wakeup:  # a signal: its handler has run (SIGTERM set ``stopping``)
                with contextlib.suppress(OSError):
                    os.read(self.wakeup, 512)
                continue
            if fd is self.listener:
                conn, _ = self.listener.accept()
                self.handle(conn)
                self.last_run = self.last_activity = time.monotonic()
                continue
            assert isinstance(fd, int)
            self.read_child(fd)
        if self.changed():
            self.stopping = True  # the pool starts a new worker in its place (its file stays)
        elif not self.pending and time.monotonic() - self.last_run > self.idle:
            self.stopping = self.forget = True
        elif self.owner and not _runs(self.owner):
            # Its command was killed (SIGKILL runs no cleanup there): it ends too, not after its idle period.
            self.stopping = self.forget = True


def _runs(pid: int) -> bool:
    """Whether process ``pid`` is still there (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.runtime.warm")
    parser.add_argument("--socket", required=True, type=Path)
    parser.add_argument("--entry", required=True, help="the framework's module to import first")
    parser.add_argument("--idle", type=float, default=900.0, help="exit after this many seconds without a run")
    parser.add_argument("--watch", nargs="*", default=[], type=Path, help="exit when one of these files changes")
    parser.add_argument("--owner", type=int, default=0, help="exit when this process is gone (0: no such process)")
    args = parser.parse_args(argv)
    # As a cold worker does before its first case (harness/runtime/worker.py); a failure is
    # reported by each case when it imports the framework itself.
    with contextlib.suppress(BaseException):
        importlib.import_module(args.entry)
    if threading.active_count() > 1:
        # Forking a process that runs other threads can deadlock the child (a lock held by a
        # thread that does not exist there): refuse, before the socket exists, and the
        # pool runs this environment cold (harness/execution/pool.py remembers why).
        print(f"refused: {threading.active_count() - 1} threads after importing {args.entry}", file=sys.stderr)
        return 3
    server: Server | None = None
    asked_to_stop = False

    def stop(signum: int, frame: object) -> None:
        nonlocal asked_to_stop
        asked_to_stop = True
        if server is not None:
            server.stopping = server.forget = True

    # Before the socket exists: the pool may send SIGTERM as soon as it sees the socket, and a worker
    # still on the default handler died there without removing its socket, file and log.
    signal.signal(signal.SIGTERM, stop)
    # The socket appears once the framework is imported: the pool waits for it.
    server = Server(args.socket, args.idle, args.watch, args.owner)
    if asked_to_stop:
        server.stopping = server.forget = True
    server.serve()
    # Nothing of this process is left to write (each run's results went on its own connection), and
    # the interpreter's teardown of an imported framework takes a stop 0.5-0.8 s more (google-adk
    # 1.22.0 and its 3 atexit handlers, measured at load 1.3): a stopping worker ends at once.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
