"""The interpreter axis (issue 46): which CPython a build runs on, found on this machine, never downloaded.

Every release of a scenario's matrix runs on ``DEFAULT`` (the record says so in its header); a result on
another interpreter carries that interpreter as a field of its key (harness/store/rows.py ``Row.python``).
Interpreters are named as nox names them (``3.12``) and found as uv finds them (``uv python find``, with
``UV_PYTHON_DOWNLOADS=never``), then in pyenv's versions folder: pyenv's shims answer only for the
versions ``pyenv global`` names, so uv cannot query the others through them although they are installed.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

from harness.errors import UsageError
from harness.planning import uv

# The interpreter every release is measured on, and what a row without a ``python`` field was measured
# on (every result before schema 5 was measured on CPython 3.11).
DEFAULT = "3.11"
# What ``--python all`` and the default run look for: the CPython minors the frameworks' current lines
# support (openai-agents 0.24.0: >=3.10; google-adk 2.13.0: >=3.11). An older one (3.9, which early
# releases of both accept) is measured when named: ``--python 3.9``.
KNOWN = ("3.10", "3.11", "3.12", "3.13", "3.14")
MINOR_RE = re.compile(r"^3\.\d{1,2}$")
# What the detail of a result on an interpreter its release cannot install says (``unsupported_words``):
# a not-applicable that is no verdict of the script (reports name it apart; no snapshot holds it).
UNSUPPORTED = " does not support CPython "


def unsupported_words(framework: str, version: str, minor: str, why: str) -> str:
    """The detail of such a result: ``google-adk 2.13.0 does not support CPython 3.9: <why>``."""
    return f"{framework} {version}{UNSUPPORTED}{minor}: {why}"


def is_unsupported(outcome: str, detail: str) -> bool:
    return outcome == "not-applicable" and UNSUPPORTED in detail


class InterpreterError(UsageError, ValueError):
    """A --python value that names no interpreter found on this machine (one line, exit 2)."""


def _pyenv_root() -> Path:
    return Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")


@functools.cache
def find(minor: str) -> Path | None:
    """The CPython ``minor`` (``3.12``) on this machine, or None: uv's answer, else pyenv's newest patch."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == minor and sys.implementation.name == "cpython":
        return Path(sys.executable)
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    try:
        proc = subprocess.run(
            [*uv.command(), "python", "find", "--no-python-downloads", f"cpython@{minor}"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        found = proc.stdout.strip().splitlines()
        if proc.returncode == 0 and found and Path(found[-1]).exists():
            return Path(found[-1])
    except (OSError, subprocess.TimeoutExpired):
        pass
    versions = _pyenv_root() / "versions"
    patches = sorted(
        (p for p in versions.glob(f"{minor}.*") if re.fullmatch(rf"{re.escape(minor)}\.\d+", p.name)),
        key=lambda p: int(p.name.rsplit(".", 1)[1]),
    )
    for p in reversed(patches):
        exe = p / "bin" / f"python{minor}"
        if exe.exists():
            return exe
    return None


def found() -> list[str]:
    """Every ``KNOWN`` interpreter this machine has, oldest first."""
    return [m for m in KNOWN if find(m) is not None]


def parse(text: str) -> list[str]:
    """``--python``'s value as interpreters: ``3.12``, ``3.10,3.13`` or ``all`` (every one found,
    a missing one said on stderr). An interpreter asked for and not found is an ``InterpreterError``."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not words:
        raise InterpreterError(f"--python {text!r} names no interpreter; valid: 3.12, 3.10,3.13 or all")
    if words == ["all"]:
        have = found()
        missing = [m for m in KNOWN if m not in have]
        if missing:
            print(f"note: --python all: not found on this machine, skipped: {', '.join(missing)}", file=sys.stderr)
        return have
    bad = [w for w in words if not MINOR_RE.match(w)]
    if bad:
        raise InterpreterError(f"--python {bad[0]!r} is not an interpreter version; valid: 3.12, 3.10,3.13 or all")
    missing = [w for w in words if find(w) is None]
    if missing:
        have = found()
        raise InterpreterError(
            f"--python {missing[0]}: no CPython {missing[0]} on this machine (none is downloaded); "
            f"found: {', '.join(have) or 'none'} (of {KNOWN[0]}-{KNOWN[-1]}, what `all` runs; an older one "
            "is used when named and present)"
        )
    return sorted(dict.fromkeys(words), key=key)


def key(minor: str) -> tuple[int, int]:
    major, _, rest = minor.partition(".")
    return (int(major), int(rest or 0))


def supports(requires_python: str | None, minor: str) -> bool:
    """Whether a release whose ``Requires-Python`` is ``requires_python`` installs on ``minor``
    (a missing or unreadable specifier: it does)."""
    if not requires_python:
        return True
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        return SpecifierSet(requires_python).contains(f"{minor}.0", prereleases=True) or SpecifierSet(
            requires_python
        ).contains(f"{minor}.99", prereleases=True)
    except InvalidSpecifier:
        return True


def label(minor: str) -> str:
    """How reports name it: ``CPython 3.10``."""
    return f"CPython {minor}"
