"""Control for PR #7113: InMemoryArtifactService keeps a version's create_time across reads.

Bug: https://github.com/google/adk-python/pull/7113 (FileArtifactService; this is the
in-memory service beside it). Save report.txt with InMemoryArtifactService and call
get_artifact_version(version=0) twice, a few milliseconds apart: both reads must give the
create_time of the save.

reproduced (the control broke): the reads give later, different create_times.
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (missing API, a third behaviour, any error).
"""

import asyncio
import sys
import time

SCOPE = dict(app_name="app", user_id="user", session_id="session", filename="report.txt")


async def main() -> int:
    from google.adk.artifacts import InMemoryArtifactService
    from google.genai import types

    service = InMemoryArtifactService()
    if not hasattr(service, "get_artifact_version"):
        print("verdict: cannot judge (InMemoryArtifactService has no get_artifact_version)")
        return 125
    start = time.time()
    version = await service.save_artifact(**SCOPE, artifact=types.Part(text="report"))
    end = time.time()
    reads = []
    for _ in range(2):
        await asyncio.sleep(0.005)
        reads.append((await service.get_artifact_version(**SCOPE, version=0)).create_time)
    first, second = reads
    print(f"saved version {version}; read 0: {first - end:+.4f}s from the save's end; read 1: {second - end:+.4f}s")
    if version == 0 and start <= first <= end and first == second:
        print("verdict: fixed (both reads give the save's create_time)")
        return 0
    if version == 0 and end < first < second:
        print("verdict: reproduced (each read gives a later create_time)")
        return 3
    print("verdict: cannot judge (create_time neither the save's nor each read's)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
