"""What the checkout says of itself, from git and pyproject.toml: the code that answered (the
record's harness information) and where the record's commit is published (the PR comment's links).
The renderers get these values, they never run git."""

from __future__ import annotations

import platform
import subprocess
import tomllib
from pathlib import Path

from harness import __version__
from harness.planning import interpreters
from harness.store.harness_info import HarnessInfo


def harness_info(root: Path) -> HarnessInfo:
    """Python, platform and harness version for the record; the code tree hash when in git.

    The tree hashes of harness/ and scenarios/ (not the commit) identify the code, so
    committing a regenerated report does not make it stale.
    """
    code = None
    try:
        trees = [
            subprocess.run(
                ["git", "rev-parse", "--short=12", f"HEAD:{d}"], cwd=root, capture_output=True, text=True, check=True
            ).stdout.strip()
            for d in ("harness", "scenarios")
        ]
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "harness", "scenarios"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        code = f"harness@{trees[0]} scenarios@{trees[1]}" + (" (uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError, IndexError):
        pass
    return HarnessInfo(
        python=platform.python_version(),
        platform=f"{platform.system().lower()}-{platform.machine()}",
        version=__version__,
        # The interpreter every release is measured on; a result on another names its own (issue 46).
        default_interpreter=interpreters.DEFAULT,
        code=code,
    )


def link_base_of(root: Path) -> str:
    """``<repository>/blob/<commit of the record>/``: the repository URL from pyproject.toml's
    ``[project.urls]`` (Repository, Source or Homepage, a GitHub-style URL) and the last commit
    that changed reports/matrix.json; "" when either is unknown."""
    try:
        urls = tomllib.loads((root / "pyproject.toml").read_text())["project"].get("urls", {})
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return ""
    repo = next((urls[k] for k in ("Repository", "Source", "Homepage") if k in urls), "")
    if not repo:
        return ""
    commit = subprocess.run(
        ["git", "log", "-1", "--format=%H", "--", "reports/matrix.json"], cwd=root, capture_output=True, text=True
    ).stdout.strip()
    return f"{repo.rstrip('/')}/blob/{commit}/" if commit else ""
