"""Which lines of a package's files run while a block runs, and how often: stdlib only.

``executed(roots)`` is a context manager that counts, for every file under one of ``roots``
(folders, such as site-packages/google/adk), how many times each line ran while the block ran,
in every thread, with ``sys.settrace`` and ``threading.settrace``: a local tracer only in frames
of those files, so other frames pay one call per function call (a case's first run is 2.4-3
times slower traced: google-adk 2.9.0 adk-retry-same-invocation-id:resumable-resume 1.75 s ->
4.78 s, openai-agents 0.19.0 agents-nested-handoff-4hop:nested-4hop 0.42 s -> 1.01 s, medians of
three on a loaded 2-core machine). ``sys.monitoring`` (Python 3.12+) would cost less; it is not
used because the builds run on the harness's Python, 3.11 here, where it could not be tried.

Counted: every line executed in a function of those files, and the first line of every
function called (its ``def`` or first decorator, so a changed signature counts; its count is the
function's calls and resumptions). Not counted: module and class bodies: a module imported
during the block runs them once, to define what is in it, which says nothing about what the
block exercised. The counts let a reader see where two runs went different ways
(harness/store/changed_lines.py ranks changed code by it).
"""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
import threading
from collections.abc import Iterator
from types import CodeType, FrameType
from typing import Any

# Set on the code of a function (and lambda, comprehension, generator), never on that of a
# module or class body: the bodies that run once, at import.
CO_NEWLOCALS = inspect.CO_NEWLOCALS


class Lines:
    """file path -> {line number: times executed}, for files under ``roots``."""

    def __init__(self, roots: list[str]) -> None:
        self.roots = tuple(os.path.join(os.path.realpath(r), "") for r in roots)
        self.by_file: dict[str, dict[int, int]] = {}
        self._wanted: dict[CodeType, dict[int, int] | None] = {}

    def lines_of(self, code: CodeType) -> dict[int, int] | None:
        """The counts ``code``'s lines go to, or None when its file is not traced."""
        try:
            return self._wanted[code]
        except KeyError:
            pass
        target = None
        if code.co_flags & CO_NEWLOCALS:
            path = os.path.realpath(code.co_filename)
            if path.startswith(self.roots):
                target = self.by_file.setdefault(path, {})
        self._wanted[code] = target
        return target

    def called(self, code: CodeType) -> bool:
        """Count a call of ``code``; False when its file is not traced."""
        target = self.lines_of(code)
        if target is None:
            return False
        target[code.co_firstlineno] = target.get(code.co_firstlineno, 0) + 1
        return True


@contextlib.contextmanager
def executed(roots: list[str]) -> Iterator[Lines]:
    """Count the lines executed under ``roots`` during the block, in every thread."""
    lines = Lines(roots)

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            target = lines.lines_of(frame.f_code)
            if target is not None:
                target[frame.f_lineno] = target.get(frame.f_lineno, 0) + 1
        return local

    def global_(frame: FrameType, event: str, arg: Any) -> Any:
        # Only frames of traced files get a local tracer; every other frame runs untraced.
        return local if lines.called(frame.f_code) else None

    saved, saved_threading = sys.gettrace(), threading.gettrace()
    threading.settrace(global_)
    sys.settrace(global_)
    try:
        yield lines
    finally:
        sys.settrace(saved)
        threading.settrace(saved_threading)
