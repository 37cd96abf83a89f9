"""Progress a person can read on a long command (matrix, candidate, bisect): what runs now, how
much is done and an estimate of what is left, and never more than a few seconds of silence.

Every line the commands print goes through ``log`` (one writer, under one lock: builds log from
parallel threads). While a ``Tracker`` is active, a watcher thread keeps the person informed:
on a terminal (stderr a tty) a live status line rewritten in place with ``\\r``; elsewhere (a CI
log) the same status as a plain line whenever nothing was printed for ``QUIET_SECONDS``. The
work reports what it is doing with ``phase(item, text)`` (harness/execution/run.py says
"building its environment", then "running N cases"), so a long build says it is still running.
The estimate of what is left comes from the items finished so far (and the durations of an
earlier step, ``history``), divided by the items run at once.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

# A CI log gets a status line after this many seconds without one (the bound is 5 s).
QUIET_SECONDS = 4.0
# How often a terminal's live line is redrawn.
LIVE_SECONDS = 1.0

_WRITE_LOCK = threading.RLock()
_current: Tracker | None = None
_thread = threading.local()  # the item (build) this thread works on, for ``case_done``


def _stream() -> TextIO:
    return sys.stderr  # read at each write: tests and nox replace sys.stderr


def log(message: str) -> None:
    """One line on stderr, written whole; a live status line is cleared first and redrawn after."""
    with _WRITE_LOCK:
        tracker = _current
        stream = _stream()
        if tracker is not None and tracker.live_shown:
            stream.write("\r\x1b[K")
            tracker.live_shown = False
        stream.write(message + "\n")
        stream.flush()
        if tracker is not None:
            tracker.last_output = tracker.clock()


def phase(item: str, text: str, announce: bool = False, cases: int | None = None) -> None:
    """``item`` (a build's source) is now doing ``text`` (``announce``: say so at once, not only in
    the status line; ``cases``: running that many cases, counted by ``case_done``); a no-op outside
    a tracked command."""
    tracker = _current
    if tracker is not None:
        tracker.set_phase(item, text, announce, cases)


def case_done() -> None:
    """One case of this thread's build has its result (harness/execution/driver.py): the status
    shows how many of the build's cases are done."""
    tracker, item = _current, getattr(_thread, "item", None)
    if tracker is not None and item is not None:
        with _WRITE_LOCK:
            tracker.cases_done[item] = tracker.cases_done.get(item, 0) + 1


def duration(seconds: float) -> str:
    """``seconds`` as a person reads it: 45s, 3m05s, 1h02m."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Tracker:
    """The progress of ``total`` items of one step, ``parallel`` at once; ``unit``: what an item is
    (builds; ``audit --run``'s scripts)."""

    def __init__(
        self,
        title: str,
        total: int,
        parallel: int = 1,
        history: list[float] | None = None,
        live: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        unit: str = "build",
    ) -> None:
        self.title, self.total, self.parallel, self.unit = title, total, max(1, parallel), unit
        # Durations of finished items; shared with a later step (candidate's releases after its build).
        self.history = history if history is not None else []
        self.clock = clock
        self.live = _stream().isatty() if live is None else live
        self.live_shown = False
        self.done = 0
        self.running: dict[str, tuple[str, float, float]] = {}  # item -> (phase, since, started)
        self.cases_done: dict[str, int] = {}  # item -> its cases with a result so far
        self.cases: dict[str, int] = {}  # item -> the cases its current phase runs
        self.started = clock()
        self.last_output = self.started
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Tracker:
        global _current
        _current = self
        self._thread = threading.Thread(target=self._watch, name="progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        global _current
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with _WRITE_LOCK:
            if self.live_shown:
                _stream().write("\r\x1b[K")
                _stream().flush()
                self.live_shown = False
            _current = None

    def begin(self, item: str, text: str = "starting") -> None:
        now = self.clock()
        _thread.item = item  # the build runs in this thread (a matrix worker thread, bisect's own)
        with _WRITE_LOCK:
            self.running[item] = (text, now, now)

    def set_phase(self, item: str, text: str, announce: bool = False, cases: int | None = None) -> None:
        with _WRITE_LOCK:
            _, _, started = self.running.get(item, ("", 0.0, self.clock()))
            self.running[item] = (text, self.clock(), started)
            self.cases_done.pop(item, None)
            if cases is None:
                self.cases.pop(item, None)
            else:
                self.cases[item] = cases
        if announce:
            log(f"  {item}: {text}")

    def finish(self, item: str) -> int:
        """One item done; return how many are done."""
        with _WRITE_LOCK:
            _, _, started = self.running.pop(item, ("", 0.0, self.clock()))
            self.history.append(self.clock() - started)
            self.done += 1
            return self.done

    def estimate(self) -> str:
        """What is left, from the durations so far: "about 3m left", or why there is no figure."""
        left = self.total - self.done
        if left <= 0:
            return "finishing"
        if not self.history:
            return f"an estimate once the first {self.unit} is done"
        mean = sum(self.history) / len(self.history)
        now = self.clock()
        # The running items are partly done; the waiting ones take a whole mean each.
        remaining = sum(max(0.0, mean - (now - started)) for _, _, started in self.running.values())
        remaining += mean * max(0, left - len(self.running))
        if remaining < 1:  # only running items, each past the mean: no figure would be honest
            return f"the {self.unit}s running now take longer than those done so far"
        return f"about {duration(remaining / min(self.parallel, left))} left"

    def status(self) -> str:
        """The status line: step, counts, what runs now (and for how long), the estimate; for a
        step with no count (``total`` 0: planning), the step and how long it has taken."""
        now = self.clock()
        if not self.total:
            return f"{self.title} ({duration(now - self.started)} so far)"
        with _WRITE_LOCK:
            running = sorted(self.running.items(), key=lambda kv: kv[1][2])
            shown = [
                f"{item} {text}"
                + (f" ({self.cases_done.get(item, 0)}/{self.cases[item]} done)" if item in self.cases else "")
                + f" ({duration(now - since)})"
                for item, (text, since, _) in running[:3]
            ]
            if len(running) > 3:
                shown.append(f"{len(running) - 3} more")
            return (
                f"{self.title}: {self.done}/{self.total} {self.unit}s done, {duration(now - self.started)} so far"
                + (f"; now: {', '.join(shown)}" if shown else "")
                + f"; {self.estimate()}"
            )

    def _watch(self) -> None:
        tick = LIVE_SECONDS if self.live else 0.5
        while not self._stop.wait(tick):
            with _WRITE_LOCK:
                if self.live:
                    stream = _stream()
                    stream.write("\r\x1b[K" + self.status()[:200])
                    stream.flush()
                    self.live_shown = True
                elif self.clock() - self.last_output >= QUIET_SECONDS:
                    log(self.status())
