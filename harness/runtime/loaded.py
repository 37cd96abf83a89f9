"""The project files a case's process loaded: what its result depends on, for the result cache.

The worker (harness/runtime/worker.py) sends them with each result, as paths relative to the
project root under the key ``loaded``; the orchestrator keeps their digests beside the result
(harness/store/result_cache.py), and the result is reused only while every one is unchanged. So
no hand-kept list of inputs can fall behind the code: whatever the case's process imported or
read from the project counts.

A case's files are:

- every module of the project in ``sys.modules`` (the harness's runtime), whoever
  imported it in this process: the case's own, a fork of the worker (issue 49), which holds
  what the worker imported before it and what the case imported, never another case's imports;
- of the bug folders' scripts and declarations (scenarios/<id>/), which the worker imports all
  at once to discover them, only the case's own folder's, and those first imported while the
  case ran;
- every file under the project its process opened for reading (a data file), seen by an audit
  hook on ``open``.

Files under a hidden folder (``.nox``: the environment itself, ``.git``) are not the project's:
the environment's own files are an input of every case run in it, as a whole
(harness/store/result_cache.py ``environment_digest``).
"""

from __future__ import annotations

import os
import sys

KEY = "loaded"  # the result's key the list travels under


class LoadedFiles:
    """Watches this process for the project files it loads; one per worker, whose cases' processes
    (forks of it) inherit it."""

    def __init__(self, root: str) -> None:
        self.roots = tuple({os.path.abspath(root) + os.sep, os.path.realpath(root) + os.sep})
        self.opened: set[str] = set()
        self.before_case: set[str] = set()
        self._relative: dict[str, str | None] = {}
        sys.addaudithook(self._audit)

    def _audit(self, event: str, args: tuple) -> None:
        # Runs for every audited event of the process: the cheapest tests first, and never a raise
        # (an exception here would fail the case's own open).
        if event != "open":
            return
        try:
            path, mode, flags = args
            if isinstance(path, int) or (isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR)):
                return
            if isinstance(mode, str) and any(c in mode for c in "wax+"):
                return
            text = os.path.abspath(os.fsdecode(path))
            if text.startswith(self.roots) and not text.endswith((".py", ".pyc")):
                self.opened.add(text)
        except Exception:  # an odd argument is not a file of the project
            return

    def start_case(self) -> None:
        """Before a case runs: the modules imported until now are not its own imports."""
        self.before_case = set(sys.modules)

    def prime(self) -> None:
        """Answer now what a case's ``for_case`` asks of the modules loaded so far (their paths
        relative to the project), so the case's process, a fork of this one, finds them answered
        (issue 49: what a fork works out is lost with it)."""
        for module in list(sys.modules.values()):
            origin = getattr(module, "__file__", None)
            if isinstance(origin, str):
                self.relative(origin)

    def relative(self, path: str) -> str | None:
        """``path`` relative to the project root, or None when it is not a file of the project.

        By its text alone (no system call: a framework has thousands of modules, and a warm run
        asks afresh in every fork); the worker imports the project from the root it is given.
        """
        if path not in self._relative:
            full = os.path.abspath(path)
            prefix = next((r for r in self.roots if full.startswith(r)), None)
            parts = full[len(prefix) :].split(os.sep) if prefix else []
            hidden = any(p.startswith(".") or p == "__pycache__" for p in parts)
            self._relative[path] = "/".join(parts) if parts and not hidden else None
        return self._relative[path]

    def for_case(self, module_file: str) -> list[str]:
        """The project files the case whose declaration is ``module_file`` (scenarios/<id>/bug.py) loaded, sorted."""
        own = self.relative(module_file)
        folder = os.path.dirname(own) if own is not None else None
        modules: dict[str, str] = {}  # relative path -> module name
        for name, module in list(sys.modules.items()):
            origin = getattr(module, "__file__", None)
            rel = self.relative(origin) if isinstance(origin, str) else None
            if rel is not None:
                modules[rel] = name
        files = {rel for rel in modules if folder is None or os.path.dirname(rel) != folder}
        # Other bug folders' scripts and declarations (scenarios/<id>/): discovered, not used by this case.
        files -= {
            rel
            for rel in modules
            if rel.count("/") == 2 and rel.startswith("scenarios/") and os.path.dirname(rel) != folder
        }
        files |= {rel for rel, name in modules.items() if name not in self.before_case}
        if own is not None:  # its bug folder (scenarios/<id>/): its declaration and its script are the case
            files |= {own, *(rel for rel in modules if os.path.dirname(rel) == folder)}
        for path in self.opened:
            rel = self.relative(path)
            if rel is not None and os.path.isfile(path):
                files.add(rel)
        return sorted(files)
