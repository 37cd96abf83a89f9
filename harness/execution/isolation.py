"""Network isolation of workers below Python, where the operating system allows it.

The socket guard (harness/runtime/netguard.py) patches Python's ``socket`` module; a C extension
(grpc, which google-adk can pull in) or a ``ctypes`` call to libc's ``connect`` goes around
it. On Linux each worker therefore starts in a network namespace of its own
(``unshare --net``, with ``--map-root-user`` when not root): it has no interface but a
loopback that is down, so every connect fails in the kernel with ENETUNREACH, whatever
made it. Where that is not possible (no ``unshare``, namespaces forbidden), the socket guard
alone stands, and the record says so.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys

# As the record names them (reports/matrix.json, each environment's "isolation").
NAMESPACE = "network-namespace"  # unshare --net, plus the socket guard
GUARD_ONLY = "socket-guard"  # the socket guard alone: a C-level connect is not stopped


@functools.lru_cache(maxsize=1)
def _prefix() -> tuple[str, ...]:
    if sys.platform != "linux" or os.environ.get("HARNESS_NO_NETNS") == "1":
        return ()
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    cmd = [unshare, "--net"] + (["--map-root-user"] if os.geteuid() != 0 else [])
    try:
        ok = subprocess.run([*cmd, "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        ok = False
    return tuple(cmd) if ok else ()


def wrap(command: list[str]) -> list[str]:
    """``command`` run in a network namespace of its own, where the system allows it."""
    return [*_prefix(), *command]


def kind() -> str:
    """Which isolation workers run under here, in words for the record."""
    return NAMESPACE if _prefix() else GUARD_ONLY
