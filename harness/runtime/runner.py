"""Run one case in this process and turn what happens into a result.

Every case gets a fresh event loop, a network guard, a timeout, and its logging
configuration restored afterwards, so one case cannot change what the next one sees.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import traceback

from harness.runtime import netguard
from harness.runtime.outcomes import ERROR, NOT_APPLICABLE, Verdict
from harness.runtime.reproduction import normalise
from harness.runtime.result import CaseResult
from harness.runtime.scenario import Case, NotApplicable, Observation, Scenario
from harness.runtime.timeline import render

__all__ = ["DEFAULT_TIMEOUT", "CaseResult", "error_detail", "run_case", "strip_paths"]

DEFAULT_TIMEOUT = 60.0

# What every case runs under beyond the worker's allowlisted environment (which holds no provider
# key: harness/execution/environments.py): only what each openai-agents script sets for itself
# first (tests/test_scenarios.py checks), so a standalone `uv run repro.py` sees the same. No key,
# not even an empty one: "" let openai-agents 0.0.3 build its client where a standalone run,
# without the variable, fails (issue 45); a script that needs a key sets a placeholder itself.
# (openai-agents exports traces to api.openai.com unless disabled: src/agents/tracing/__init__.py)
CASE_ENVIRONMENT = {"OPENAI_AGENTS_DISABLE_TRACING": "1"}
# Unset for every case, whatever the caller's shell holds (``python -m harness run`` runs cases in
# the caller's process): no case ever reads a real key; a script that needs one sets a placeholder.
PROVIDER_KEYS = ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY")


# A run of characters a path can hold (no space, quote or colon); a path is found inside one run
# with string methods, never by a pattern with nested repeats, which backtracked for minutes on a
# run of slashes (issue 49: "/" * 2000 took longer than 120 s).
_RUN_RE = re.compile(r"[^\s'\":]+")


def _shorten(path: str) -> str:
    for anchor in ("/site-packages/", "/src/"):
        if anchor in path:
            return path.split(anchor, 1)[1]
    return ""


def _strip_run(m: re.Match) -> str:
    run = m.group(0)
    # The path's end is the run's last "/" followed by a name; its start the run's first "/",
    # with at least one character between them (what r"(?:/[^\s'\":]+)+/(?=[^\s/'\":])" matched).
    end = run.rstrip("/").rfind("/")
    start = run.find("/")
    if end < 0 or end - start < 2:
        return run
    return run[:start] + _shorten(run[start : end + 1]) + run[end + 1 :]


def strip_paths(text: str) -> str:
    """Drop directory parts of absolute paths, keeping package-relative ones when recognisable;
    in time linear in the text's length."""
    return _RUN_RE.sub(_strip_run, text)


# The bound on every detail made from output or an exception (a crash's last lines, a traceback):
# the record and the reports show it on one line, whatever a case printed or raised.
DETAIL_MAX_LINES = 3
DETAIL_MAX_CHARS = 500


def bounded_detail(text: str, prefix: str = "", lines: int = DETAIL_MAX_LINES) -> str:
    """``prefix`` then the last ``lines`` non-blank lines of ``text`` joined by " | ", without
    machine paths, in at most DETAIL_MAX_CHARS characters: a longer one keeps its start and its
    end and says how many characters were cut between them; the last line's leading name (an
    exception's type, ``ValueError``) is always kept."""
    kept = [line.strip() for line in text.splitlines() if line.strip()][-lines:]
    total = len(" | ".join(kept))
    room = max(DETAIL_MAX_CHARS - len(prefix), 60)
    # Paths are stripped before the cut (issue 49: a 55-character checkout path ate the head's
    # budget and cut the exception's type out, so a detail depended on where the checkout lay).
    # Each line is first bounded to twice the room, so the pattern never runs over megabytes.
    bounded = [line if len(line) <= 2 * room else line[:room] + line[-room:] for line in kept]
    kept = [strip_paths(line) for line in bounded]
    body = " | ".join(kept)
    total -= len(" | ".join(bounded)) - len(body)  # the paths taken out are not text the reader lost
    if len(body) <= room:
        return prefix + body
    name = re.match(r"[\w.]{1,80}:", kept[-1]) if kept else None
    marker = f" [... {total:,} characters, {{cut:,}} cut ...] "
    keep = room - len(marker.format(cut=total))
    head, tail = body[: keep // 3], body[len(body) - (keep - keep // 3) :]
    if name and name.group(0) not in head + tail:
        tail = name.group(0) + " …" + tail[len(name.group(0)) + 2 :]
    cut = total - len(head) - len(tail)
    return prefix + head + marker.format(cut=max(cut, 0)) + tail


def error_detail(exc: BaseException, lines: int = DETAIL_MAX_LINES, prefix: str = "") -> str:
    """The error's last lines, on one line, without machine paths, bounded (``bounded_detail``)."""
    return bounded_detail("".join(traceback.format_exception(exc)), prefix, lines)


# wait_for runs the case in a task of its own, as it always has; asyncio.timeout (what ASYNC109
# suggests) would run it in this one, which the frameworks' context handling could notice.
async def _observe(case: Case, timeout: float) -> Observation:  # noqa: ASYNC109
    return await asyncio.wait_for(case.run(), timeout)


def _verdict(case: Case, timeout: float) -> tuple[Verdict, str]:
    try:
        observation = asyncio.run(_observe(case, timeout))
    except NotApplicable as exc:
        first = str(exc).splitlines()[0] if str(exc) else "not applicable"
        short = strip_paths(first) if len(first) <= DETAIL_MAX_CHARS else bounded_detail(first, lines=1)
        return Verdict(NOT_APPLICABLE, short), ""
    except TimeoutError:
        return Verdict(ERROR, f"timed out after {timeout:g}s"), ""
    except Exception as exc:  # the harness reports every failure as data, never raises
        return Verdict(ERROR, error_detail(exc)), ""
    timeline = render(observation.timeline)
    try:
        verdict = case.oracle(observation)
        if not isinstance(verdict, Verdict):
            raise TypeError(f"oracle returned {type(verdict).__name__}, expected Verdict")
    except Exception as exc:
        return Verdict(ERROR, error_detail(exc, prefix="oracle failed: ")), timeline
    return verdict, timeline


def run_case(scenario: Scenario, case: Case, timeout: float = DEFAULT_TIMEOUT) -> CaseResult:
    """Run ``case`` and judge it; exceptions, timeouts and network use become ``error``."""
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    saved_env = dict(os.environ)  # a case may set any variable; none may reach the next case
    for key in PROVIDER_KEYS:
        os.environ.pop(key, None)
    os.environ.update(CASE_ENVIRONMENT)
    try:
        with netguard.blocked():
            verdict, timeline = _verdict(case, timeout)
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        if dict(os.environ) != saved_env:
            os.environ.clear()
            os.environ.update(saved_env)
    # A uuid in a detail (a database or file named after one, in an exception) would make two runs
    # differ for nothing: it reads as a placeholder, as in a timeline (harness/runtime/reproduction.py).
    detail = normalise([verdict.detail])[0]
    return CaseResult(scenario.id, case.id, verdict.outcome, detail, timeline)
