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
        return (1, _order(Version(version)), "")
    except InvalidVersion:
        return (0, (), version)


def _order(v: Any) -> tuple:
    """A plain tuple that orders as ``packaging``'s ``Version`` does (its ``_cmpkey`` rules, from
    public attributes): compared in C, where comparing ``Version`` objects runs Python code in
    every step of a sort (the reports sort versions hundreds of thousands of times)."""
    release = list(v.release)
    while release and release[-1] == 0:  # 2.9 == 2.9.0
        release.pop()
    if v.pre is None and v.post is None and v.dev is not None:
        pre: tuple = (-1,)  # 1.0.dev0 sorts before 1.0a0
    elif v.pre is None:
        pre = (1,)
    else:
        pre = (0, v.pre[0], v.pre[1])
    post = (-1,) if v.post is None else (0, v.post)
    dev = (1,) if v.dev is None else (0, v.dev)
    if v.local is None:
        local: tuple = (-1,)
    else:  # numeric segments sort after alphanumeric ones, and by value
        local = (
            0,
            tuple(
                (1, int(p), "") if p.isdigit() else (0, 0, p.lower())
                for p in v.local.replace("-", ".").replace("_", ".").split(".")
            ),
        )
    return (v.epoch, tuple(release), pre, post, dev, local)


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


def matches(version: str, specifier: str) -> bool:
    """Whether ``version`` is in the PEP 440 specifier set ``specifier`` (prereleases included:
    a scenario's explanation names the releases it covers, final or not)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    try:
        return SpecifierSet(specifier, prereleases=True).contains(Version(version))
    except (InvalidSpecifier, InvalidVersion):
        return False
