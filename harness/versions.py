"""Release versions in PEP 440 order (``packaging.version``), for the orchestrating process.

Only the orchestrator orders versions (the matrix, bisect, snapshots, reports); workers never
import this module, so framework environments need nothing beyond the framework. ``packaging``
is imported on first use, so commands that order nothing (``list``, ``run``) work without it.
"""

from __future__ import annotations

import functools
from typing import Any


@functools.lru_cache(maxsize=4096)
def key(version: str) -> Any:
    """Sort key in PEP 440 order: dev < pre < final < post; ``2.9`` == ``2.9.0``.

    A string that is not a PEP 440 version sorts before every version, by its text, so a
    malformed name can never interleave with real releases.
    """
    from packaging.version import InvalidVersion, Version

    try:
        return (1, Version(version), "")
    except InvalidVersion:
        return (0, None, version)


@functools.lru_cache(maxsize=4096)
def is_final(version: str) -> bool:
    """A final release in PEP 440 terms: not a pre-release, dev release or local version
    (a post-release such as ``2.9.0.post1`` is final)."""
    from packaging.version import InvalidVersion, Version

    try:
        v = Version(version)
    except InvalidVersion:
        return False
    return not (v.is_prerelease or v.is_devrelease or v.local)


def minor(version: str) -> tuple[int, int]:
    major, _, rest = version.partition(".")
    return int(major), int(rest.partition(".")[0] or 0)


def line(version: str) -> str:
    """The release line of a version: its major version, as ``2.x``.

    Lines are kept apart in reports: a maintained 1.x can publish after 2.x fixed a bug.
    """
    return f"{version.partition('.')[0]}.x"
