"""Release version ordering without third-party code: enough for final releases."""

from __future__ import annotations

import re

_FINAL_RE = re.compile(r"^\d+(\.\d+)*$")


def key(version: str) -> tuple:
    """Sort key: numeric components, pre-releases before their final release."""
    m = re.match(r"^(\d+(?:\.\d+)*)(.*)$", version)
    if not m:
        return ((), version)
    nums = tuple(int(x) for x in m.group(1).split("."))
    nums = nums + (0,) * (4 - len(nums))
    return (nums, 0 if m.group(2) else 1, m.group(2))


def is_final(version: str) -> bool:
    return bool(_FINAL_RE.match(version))


def minor(version: str) -> tuple[int, int]:
    major, _, rest = version.partition(".")
    return int(major), int(rest.partition(".")[0] or 0)


def line(version: str) -> str:
    """The release line of a version: its major version, as ``2.x``.

    Lines are kept apart in reports: a maintained 1.x can publish after 2.x fixed a bug.
    """
    return f"{version.partition('.')[0]}.x"
