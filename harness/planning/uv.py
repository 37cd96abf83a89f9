"""The uv command the harness runs: the one on PATH, else the module installed beside this Python
(`nox -s matrix` installs it in the session). Stdlib only; both planning (finding interpreters) and
execution (making environments) use it."""

from __future__ import annotations

import shutil
import sys


def command() -> list[str]:
    found = shutil.which("uv")
    if found:
        return [found]
    return [sys.executable, "-m", "uv"]
