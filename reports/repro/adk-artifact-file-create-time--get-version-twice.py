# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "google-adk==2.9.2",
# ]
# [tool.uv]
# exclude-newer = "2026-09-18T18:10:47Z"
# ///
# adk-artifact-file-create-time:get-version-twice. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 1.16.0 (2025-10-09T18:30:22Z), 1.17.0 (2025-10-22T20:39:10Z),
#     1.18.0 (2025-11-05T18:43:26Z)
#   reproduced / reproduced: 1.19.0 (2025-11-20T00:48:43Z), 1.39.1 (2026-08-27T21:55:07Z),
#     2.0.0 (2026-05-19T16:17:11Z), 2.1.0 (2026-05-23T00:14:00Z), 2.2.0 (2026-06-04T22:15:16Z),
#     2.3.0 (2026-06-18T18:47:09Z), 2.4.0 (2026-07-07T19:46:15Z), 2.5.0 (2026-07-16T20:43:07Z),
#     2.6.3 (2026-08-07T21:18:45Z), 2.7.1 (2026-08-17T18:33:12Z), 2.8.0 (2026-08-26T23:26:21Z),
#     2.9.2 (2026-09-18T18:10:47Z)
#   fixed / fixed: 2.10.0 (2026-09-25T19:02:07Z), 2.11.0 (2026-10-02T00:46:26Z),
#     2.12.0 (2026-10-13T16:42:59Z), 2.13.0 (2026-10-23T18:26:35Z)
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
