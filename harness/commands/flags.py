"""Command-line flags: numbers checked against their valid range, errors in one line.

Every command (matrix, bisect, run, bench) refuses an out-of-range number before any work:
``error: argument --timeout: 0 is out of range; valid: a number of seconds > 0 and <= 86400``,
exit status 2, reports untouched.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

from harness.errors import UsageError

MAX_TIMEOUT = 86400.0  # a day: longer is a typo, not a case
MAX_JOBS = 256


class FlagError(UsageError, ValueError):
    """A malformed or out-of-range flag (one line: the flag, the value, what is valid)."""


def number(kind: type, low: float, high: float, what: str, low_inclusive: bool = True) -> Callable[[str], float]:
    """An argparse ``type=`` that parses ``kind`` and checks ``low <= value <= high``
    (``low < value`` when not ``low_inclusive``)."""
    lower = f">= {low:g}" if low_inclusive else f"> {low:g}"
    valid = f"{what} {lower} and <= {high:g}"

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number; valid: {valid}") from None
        if value != value or not (value >= low if low_inclusive else value > low) or value > high:  # NaN too
            raise argparse.ArgumentTypeError(f"{text} is out of range; valid: {valid}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in some messages
    return parse


timeout = number(float, 0, MAX_TIMEOUT, "a number of seconds", low_inclusive=False)
jobs = number(int, 1, MAX_JOBS, "a whole number of builds")
proof_jobs = number(int, 1, MAX_JOBS, "a whole number of proof runs")  # mutants runs proofs, not builds
reps = number(int, 1, 1000, "a whole number of repetitions")
pool_memory = number(float, 64, 999999, "a number of MB")


def add_timeout(parser: argparse.ArgumentParser, help: str = "per-case timeout in seconds, > 0 (default 60)") -> None:
    """--timeout: a case's deadline (matrix, bisect, run, mutants)."""
    from harness.runtime.runner import DEFAULT_TIMEOUT

    parser.add_argument("--timeout", type=timeout, default=DEFAULT_TIMEOUT, help=help)


def add_today_deps(parser: argparse.ArgumentParser) -> None:
    """--today-deps: how a build's dependencies are resolved (matrix, bisect)."""
    parser.add_argument(
        "--today-deps",
        action="store_true",
        help="resolve dependencies as of today instead of each release's upload time",
    )


def add_rerun(parser: argparse.ArgumentParser, help: str) -> None:
    """--rerun: ignore the results recorded for unchanged inputs (matrix, bisect)."""
    parser.add_argument("--rerun", action="store_true", help=help)


def add_pool_flags(parser: argparse.ArgumentParser) -> None:
    """--warm / --cold / --pool-memory: how a command uses the pool of warm workers (harness/execution/pool.py)."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--warm",
        action="store_true",
        help="keep each build's framework imported in a warm worker for the next runs "
        "(started where none is; `python -m harness pool` lists and stops them)",
    )
    group.add_argument(
        "--cold", action="store_true", help="run every build in a new process, even where a warm worker is"
    )
    parser.add_argument(
        "--pool-memory",
        type=pool_memory,
        default=None,
        metavar="MB",
        help="the warm workers' resident memory in all, >= 64 (default: half the machine's); "
        "the least recently used stop to keep within it",
    )


def pool_mode(args: argparse.Namespace) -> str:
    """ "warm", "cold", or "auto" (use the warm workers present, start none) from the flags; a
    HARNESS_POOL_DIR that cannot be a folder is refused here, before any work."""
    from harness.execution import pool

    mode = "warm" if args.warm else "cold" if args.cold else "auto"
    pool.check_dir(mode)
    return mode


MATRIX_PYTHON_HELP = (
    "run on these CPython interpreters (3.12, 3.10,3.13, or all found on this machine), found as uv "
    "finds them and never downloaded (default: every release on 3.11, the newest release of each "
    "release line on every other interpreter found, in a full run)"
)


def add_python(parser: argparse.ArgumentParser, help: str = MATRIX_PYTHON_HELP) -> None:
    """--python: the interpreters to measure on (matrix, bisect, candidate, audit), in nox's spelling (issue 46)."""
    parser.add_argument("--python", metavar="X.Y[,X.Y]|all", default=None, help=help)


def pythons(args: argparse.Namespace) -> list[str] | None:
    """The interpreters --python names (harness/planning/interpreters.py ``parse``), or None without it;
    one not found is a one-line error, exit 2."""
    if args.python is None:
        return None
    from harness.planning import interpreters

    return interpreters.parse(args.python)


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (raised as FlagError, printed by the caller)."""

    def error(self, message: str) -> NoReturn:
        usage = " ".join(self.format_usage().split()).removeprefix("usage: ")
        raise FlagError(f"{message}; usage: {usage}")
