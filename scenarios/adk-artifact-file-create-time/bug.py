"""adk-artifact-file-create-time: what the harness needs beside repro.py."""

import contextlib
import time

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release

FIXED = AsInstalled("the pinned release: _build_artifact_version passes the stored create_time")
BUGGY = Release("google-adk==2.9.2", "the last release before create_time=metadata.create_time (2.10.0)")


@contextlib.contextmanager
def _memory_reads_now():
    """Break the control: InMemoryArtifactService stamps each read with the current time."""
    from google.adk.artifacts import InMemoryArtifactService

    original = InMemoryArtifactService.__dict__["get_artifact_version"]

    async def get_artifact_version(self, **kwargs):
        got = await original(self, **kwargs)
        return None if got is None else got.model_copy(update={"create_time": time.time()})

    InMemoryArtifactService.get_artifact_version = get_artifact_version
    try:
        yield
    finally:
        InMemoryArtifactService.get_artifact_version = original


def reads(pick):
    """An edge's alter: the reads set from the save windows."""
    return lambda obs: obs.facts.update(reads=pick(obs.facts["windows"]))


# Observations no build makes, one step across a line of the judge (nox -s mutants).
GET_EDGES = (
    Edge("fixed", "both reads at the instant the save started", reads(lambda w: [w[0][0]] * 2)),
    Edge("fixed", "both reads at the instant the save ended", reads(lambda w: [w[0][1]] * 2)),
    Edge("unexpected", "read 0 at the save's end, read 1 later", reads(lambda w: [w[0][1], w[0][1] + 1.0])),
    Edge("unexpected", "both reads one time after the save", reads(lambda w: [w[0][1] + 1.0] * 2)),
    Edge("unexpected", "the save returned version 1", lambda obs: obs.facts.update(saved=[1])),
    Edge(
        "fixed",
        "a later save window recorded: the reads are judged by save 0's",
        lambda obs: obs.facts["windows"].append((obs.facts["windows"][0][1] + 10.0, obs.facts["windows"][0][1] + 11.0)),
    ),
)
LIST_EDGES = (
    Edge("fixed", "v0 at save 0's start, v1 at save 1's end", reads(lambda w: [w[0][0], w[1][1]])),
    Edge("unexpected", "v1 exactly at the last save's end, v0 later", reads(lambda w: [w[-1][1] + 1.0, w[-1][1]])),
    Edge("unexpected", "v0 inside save 1's window", reads(lambda w: [w[1][0]] * 2)),
    Edge("unexpected", "only version 0 listed", lambda obs: obs.facts.update(listed=[0])),
    Edge("unexpected", "the saves returned versions 1 and 2", lambda obs: obs.facts.update(saved=[1, 2])),
)

BUG = Bug(
    links=("https://github.com/google/adk-python/pull/7113",),
    description=(
        "FileArtifactService.get_artifact_version and list_artifact_versions return the time of the read as "
        "each version's create_time: the same saved version looks newly created on every read."
    ),
    expected=(
        "create_time is the time the version was saved (what the service stored in the version's metadata), "
        "the same on every read, as InMemoryArtifactService gives it."
    ),
    claims=Claim(
        pr="#7113",
        pr_state="closed",
        quote="`_build_artifact_version()` omits it when constructing the returned metadata.",
        source="PR #7113 thread (shown closed, no merge shown), 'fix(artifacts): preserve file artifact creation "
        "timestamps'",
    ),
    cases={
        "get-version-twice": CaseRole(
            "PR #7113's reproduction: save, reopen, get_artifact_version(0) twice",
            reproduced=BUGGY, fixed=FIXED, edges=GET_EDGES,
        ),
        "list-versions": CaseRole(
            "two saves, reopen, list_artifact_versions: each create_time inside its own save",
            reproduced=BUGGY, fixed=FIXED, edges=LIST_EDGES,
        ),
        "in-memory-create-time": CaseRole(
            "control: InMemoryArtifactService, save then get_artifact_version(0) twice",
            reproduced=InProcess(
                "InMemoryArtifactService.get_artifact_version returns a copy stamped with the current time",
                _memory_reads_now,
            ),
            fixed=FIXED, control=True,
        ),
    },
)  # fmt: skip
