"""FileArtifactService.list_artifact_versions gives the time of the read as each create_time.

Bug: https://github.com/google/adk-python/pull/7113 (same helper as get_artifact_version).
Save report.txt twice (versions 0 and 1) with FileArtifactService in a temporary folder, then
list_artifact_versions on a new service on the same folder. Each version's create_time should
fall inside the time window of its own save.

reproduced: every listed create_time is after the second save (the time of the listing).
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys
import tempfile
import time

SCOPE = dict(app_name="app", user_id="user", session_id="session", filename="report.txt")


async def main() -> int:
    from google.adk.artifacts import FileArtifactService
    from google.genai import types

    windows, saved = [], []
    with tempfile.TemporaryDirectory() as root:
        service = FileArtifactService(root_dir=root)
        for text in ("report v0", "report v1"):
            start = time.time()
            saved.append(await service.save_artifact(**SCOPE, artifact=types.Part(text=text)))
            windows.append((start, time.time()))
            await asyncio.sleep(0.005)
        listed = await FileArtifactService(root_dir=root).list_artifact_versions(**SCOPE)
    print(f"saved versions {saved}, listed {[v.version for v in listed]}")
    times = [v.create_time for v in listed]
    for v, t in zip(listed, times, strict=True):
        print(f"version {v.version}: create_time {t - windows[-1][1]:+.4f}s from the last save's end")
    if saved != [0, 1] or [v.version for v in listed] != [0, 1]:
        print("verdict: cannot judge (expected versions 0 and 1)")
        return 125
    if all(start <= t <= end for t, (start, end) in zip(times, windows, strict=True)):
        print("verdict: fixed (each version's create_time is its save's)")
        return 0
    if all(t > windows[-1][1] for t in times):
        print("verdict: reproduced (every create_time is after the last save: the time of the listing)")
        return 3
    print("verdict: cannot judge (create_time neither the saves' nor the listing's)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure (ImportError: no FileArtifactService): cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
