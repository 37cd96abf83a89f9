"""Applying a mutant and judging an observation under it: runs wherever the proof runs (in
process, or in the worker inside a framework's environment), so this is stdlib only.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import signal
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any

from harness.mutants.mutations import Plan
from harness.runtime.outcomes import ERROR, Verdict
from harness.runtime.runner import error_detail
from harness.runtime.scenario import Case, Observation

MUTANT_TIMEOUT = 5.0  # seconds one mutant's oracle may take on one Observation


class _Overran(BaseException):
    """A mutant's oracle ran past its deadline (a BaseException, so ``except Exception`` in it cannot swallow it)."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def overrun(signum, frame):
        raise _Overran()

    previous = signal.signal(signal.SIGALRM, overrun)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _copy(obs):
    try:
        return copy.deepcopy(obs)
    except Exception:  # an Observation holding something that cannot be copied: judge it as is
        return obs


def judge_with(
    oracle: Callable[[Observation], Any], obs: Observation, timeout: float = MUTANT_TIMEOUT
) -> tuple[str, str]:
    """What ``oracle`` says of a copy of ``obs``: (outcome, detail); failures are ``error``."""
    try:
        with _deadline(timeout):
            verdict = oracle(_copy(obs))
    except _Overran:
        return ERROR, f"the oracle did not return within {timeout:g}s"
    except Exception as exc:
        return ERROR, "oracle failed: " + error_detail(exc)
    if not isinstance(verdict, Verdict):
        return ERROR, f"oracle returned {type(verdict).__name__}, expected Verdict"
    return verdict.outcome, verdict.detail


@contextlib.contextmanager
def applied(function: types.FunctionType, code: types.CodeType) -> Iterator[None]:
    """``function`` runs ``code`` inside the block."""
    saved = function.__code__
    function.__code__ = code
    try:
        yield
    finally:
        function.__code__ = saved


def judging_case(case: Case, the_plan: Plan, sink: dict[str, tuple[str, str]], timeout: float = MUTANT_TIMEOUT) -> Case:
    """``case`` whose oracle first has every mutant that changes it judge the observation (into ``sink``)."""
    mine = [m for m in the_plan.mutants if case.id in m.cases]

    def oracle(obs):
        for m in mine:
            with applied(the_plan.functions[m.target], the_plan.codes[m.key]):
                sink[m.key] = judge_with(case.oracle, obs, timeout)
        return case.oracle(obs)

    return dataclasses.replace(case, oracle=oracle)
