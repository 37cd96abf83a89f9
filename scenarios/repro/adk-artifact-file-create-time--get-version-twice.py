"""FileArtifactService.get_artifact_version gives the time of the read as create_time.

Bug: https://github.com/google/adk-python/pull/7113 (its own reproduction).
Save report.txt with FileArtifactService in a temporary folder, open a new service on the same
folder, and call get_artifact_version(version=0) twice, a few milliseconds apart. Both reads
should give one create_time: the time of the save.

reproduced: each read gives a create_time later than the save, and later than the read before.
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

    with tempfile.TemporaryDirectory() as root:
        start = time.time()
        version = await FileArtifactService(root_dir=root).save_artifact(**SCOPE, artifact=types.Part(text="report"))
        end = time.time()
        print(f"saved version {version}")
        service = FileArtifactService(root_dir=root)  # reopened, as in the PR
        reads = []
        for _ in range(2):
            await asyncio.sleep(0.005)
            reads.append((await service.get_artifact_version(**SCOPE, version=0)).create_time)
    first, second = reads
    print(f"read 0: {first - end:+.4f}s from the save's end; read 1: {second - end:+.4f}s")
    if version == 0 and start <= first <= end and first == second:
        print("verdict: fixed (both reads give the save's create_time)")
        return 0
    if version == 0 and end < first < second:
        print("verdict: reproduced (each read gives a later create_time: the time of the read)")
        return 3
    print("verdict: cannot judge (create_time neither the save's nor each read's)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure (ImportError: no FileArtifactService): cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
