"""Worker isolation: a case that hangs in sync code or kills its process does not take the others down."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from harness.execution.driver import run_worker
from scratch import HEADER, scratch_project

MODULE = (
    HEADER
    + """
CASES = {"before": {"step": "fine"}, "hang": {"step": "hang_in_sync_code"}, "die": {"step": "die"},
         "after": {"step": "fine"}}

async def hang_in_sync_code(say):
    time.sleep(600)  # blocks the event loop: only killing the process stops it

async def die(say):
    os._exit(3)
"""
)


def test_hang_and_crash_are_errors_and_the_other_cases_still_run(tmp_path):
    root = scratch_project(tmp_path, {"adk-isolation": MODULE})
    env = {**os.environ, "PYTHONPATH": str(root)}
    _, results = run_worker(
        Path(sys.executable), "google-adk", ["adk-isolation"], env, root, timeout=1.0, grace=120.0, case_slack=2.0
    )
    by_case = {r["case"]: r for r in results}
    assert list(by_case) == ["before", "hang", "die", "after"]
    assert by_case["before"]["outcome"] == by_case["after"]["outcome"] == "fixed"
    assert by_case["hang"]["outcome"] == "error" and "timed out" in by_case["hang"]["detail"]
    assert by_case["die"]["outcome"] == "error" and "worker died (exit 3)" in by_case["die"]["detail"]


SECRETS_MODULE = (
    HEADER
    + """
CASES = {"look": {"step": "look", "verdict": "seen"}}
LOOKED_FOR = ("GOOGLE_APPLICATION_CREDENTIALS", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "OPENAI_BASE_URL",
              "HTTPS_PROXY", "https_proxy", "ANTHROPIC_API_KEY", "AZURE_OPENAI_ENDPOINT", "SOME_SERVICE_PASSWORD")

async def look(say):
    return {"seen": sorted(k for k in LOOKED_FOR if k in os.environ)}

def seen(facts):
    return ("reproduced", "sees " + ", ".join(facts["seen"])) if facts["seen"] else ("fixed", "sees none of them")
"""
)


def test_a_worker_sees_no_credentials_from_the_users_environment(tmp_path, monkeypatch):
    from harness.execution import environments

    root = scratch_project(tmp_path, {"adk-secrets": SECRETS_MODULE})
    for name in (
        "GOOGLE_APPLICATION_CREDENTIALS",
        "GITHUB_TOKEN",
        "AWS_SECRET_ACCESS_KEY",
        "OPENAI_BASE_URL",
        "HTTPS_PROXY",
        "https_proxy",
        "ANTHROPIC_API_KEY",
        "AZURE_OPENAI_ENDPOINT",
        "SOME_SERVICE_PASSWORD",
    ):
        monkeypatch.setenv(name, "secret")
    env = environments.worker_environment(root)
    _, [result] = run_worker(Path(sys.executable), "google-adk", ["adk-secrets"], env, root, timeout=30.0)
    assert (result["outcome"], result["detail"]) == ("fixed", "sees none of them")


LIBC_MODULE = (
    HEADER
    + '''
import ctypes, ctypes.util, errno, socket, struct

CASES = {"connect": {"step": "connect_through_libc", "verdict": "connected"}}
PORT = int(os.environ["HARNESS_TEST_PORT"])

async def connect_through_libc(say):
    """connect(2) through ctypes: Python's socket module, and so the socket guard, never sees it."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    fd = libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
    addr = struct.pack("=HH4s8x", socket.AF_INET, socket.htons(PORT), socket.inet_aton("127.0.0.1"))
    rc = libc.connect(fd, ctypes.c_char_p(addr), len(addr))
    err = ctypes.get_errno()
    libc.close(fd)
    return {"rc": rc, "errno": errno.errorcode.get(err, str(err))}

def connected(facts):
    if facts["rc"] == 0:
        return "reproduced", "a libc-level connect to 127.0.0.1 went through"
    return "fixed", f"a libc-level connect failed in the kernel: {facts['errno']}"
'''
)


def test_a_libc_level_connect_fails_under_the_network_namespace(tmp_path, monkeypatch):
    import socket

    from harness.execution import environments, isolation

    if isolation.kind() != isolation.NAMESPACE:
        import pytest

        pytest.skip("no network namespace on this system: the socket guard alone applies")
    with socket.socket() as listener:  # a server the case could reach without isolation
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        monkeypatch.setenv("HARNESS_TEST_PORT", str(listener.getsockname()[1]))
        root = scratch_project(tmp_path, {"adk-libc-connect": LIBC_MODULE})
        env = environments.worker_environment(root)
        record, [result] = run_worker(Path(sys.executable), "google-adk", ["adk-libc-connect"], env, root, 30.0)
        assert (result["outcome"], result["detail"]) == (
            "fixed",
            "a libc-level connect failed in the kernel: ENETUNREACH",
        )
        assert record["isolation"] == "network-namespace"
        # The same worker without the namespace: the connect goes through (the guard cannot see it).
        monkeypatch.setattr(isolation, "wrap", lambda command: command)
        _, [bare] = run_worker(Path(sys.executable), "google-adk", ["adk-libc-connect"], env, root, 30.0)
        assert bare["outcome"] == "reproduced", bare
