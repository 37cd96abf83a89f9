"""adk-rewind-artifact-restore: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess, Release


@contextlib.contextmanager
def _patched(wrap) -> Iterator[None]:
    """``Runner._compute_artifact_delta_for_rewind`` replaced by ``wrap(original)``."""
    from google.adk.runners import Runner

    original = Runner.__dict__["_compute_artifact_delta_for_rewind"]
    Runner._compute_artifact_delta_for_rewind = wrap(original)  # type: ignore[method-assign]
    try:
        yield
    finally:
        Runner._compute_artifact_delta_for_rewind = original  # type: ignore[method-assign]


def _resave_every_artifact(original):
    """Break the control: the rewind also saves again every artifact it did not change."""

    async def compute(self, session, rewind_event_index):
        delta = await original(self, session, rewind_event_index)
        keys = dict(app_name=self.app_name, user_id=session.user_id, session_id=session.id)
        for filename in await self.artifact_service.list_artifact_keys(**keys):
            part = None if filename in delta else await self.artifact_service.load_artifact(filename=filename, **keys)
            if part is not None:
                delta[filename] = await self.artifact_service.save_artifact(filename=filename, artifact=part, **keys)
        return delta

    return compute


def _restore_only(original):
    """A fix that goes too far: the rewind only restores artifacts that existed at the rewind point."""

    async def compute(self, session, rewind_event_index):
        before = set()
        for event in session.events[:rewind_event_index]:
            before.update(event.actions.artifact_delta or {})
        for event in session.events[rewind_event_index:]:  # the runner's own copy of the session
            delta = event.actions.artifact_delta or {}
            event.actions.artifact_delta = {name: v for name, v in delta.items() if name in before}
        return await original(self, session, rewind_event_index)

    return compute


REPORTED = Release(
    "google-adk==1.27.2",
    "#4932's release (current on 2026-03-20): rewind_async saves a file_data part that FileArtifactService refuses",
)
GUESSED = Release("google-adk==2.11.0", "the last 2.x release that writes vn + 1 into the rewind event")
PINNED = AsInstalled("the pinned release (2.13.0) loads the old bytes and records the version save_artifact returned")
RESAVED = InProcess(
    "rewind broken in process: it saves again every artifact, changed or not", lambda: _patched(_resave_every_artifact)
)
TOO_FAR = InProcess(
    "a fix that goes too far, in process: the rewind restores old versions but never clears an artifact that is new",
    lambda: _patched(_restore_only),
)


def _versions(filename, **versions):
    return lambda obs: (
        obs.facts["versions"].setdefault(filename, {}).update({int(v[1:]): text for v, text in versions.items()})
    )


BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/4932",
        "https://github.com/google/adk-python/pull/4979",
        "https://github.com/google/adk-python/issues/6391",
    ),
    description=(
        "Runner.rewind_async restores an artifact that changed after the rewind point by saving a file_data "
        "reference to its old version, which FileArtifactService refuses (InputValidationError, #4932), and "
        "writes vn + 1 into the rewind event's artifact_delta instead of the version save_artifact returned "
        "(#6391, part B)."
    ),
    expected=(
        "The old version's bytes are saved as a new version and the rewind event records the version actually "
        "returned, so loading that version gives the restored content."
    ),
    claims=Claim(
        fixed_in="1.32.0",
        pr="#4979",
        pr_state="closed",
        quote="the file_data save error doesn't fire anymore — that got fixed back in v1.32.0",
        source="#4932 open (reported 2026-03-20), its PR #4979 (load_artifact + inline_data) shown closed; "
        "#6391 (2026-07-15, closed) names parts A (file_data), B (guessed vn + 1) and C (half-created version "
        "directory); triage there says A was fixed in 1.32.0 and leaves B and C unanswered",
    ),
    range_notes=(
        "Measured: rewind_async appears in 1.17.0 and FileArtifactService in 1.19.0 (file-restore is "
        "not-applicable before it; every case is not-applicable on 0.x and before 1.17.0).",
        "Measured: file-restore reproduces from 1.19.0 to 1.31.1 and is fixed from 1.32.0 (runners.py's "
        "_compute_artifact_delta_for_rewind loads version vt and saves its bytes instead of a file_data part; "
        "the thread's 1.32.0 agrees) and on all of 2.x; version-gap reproduces from 1.17.0 to 1.39.1 (the "
        "newest 1.x) and 2.0.0 to 2.11.0, fixed from 2.12.0 (sessions/_rewind_utils.py records the version "
        "save_artifact returns instead of vn + 1; no thread names this fix).",
        "The rewind event's 'vn + 1' shows only where the artifact's next version is not vn + 1: here the "
        "application saved a version directly between the invocation and the rewind (version-gap).",
    ),
    cases={
        "file-restore": CaseRole(
            "FileArtifactService: report.txt saved in two invocations, rewind before the second: the latest "
            "version reads 'draft one' (#4932, #6391 part A)",
            reproduced=REPORTED, fixed=PINNED,
            edges=(Edge("unexpected", "the rewind event names no report.txt",
                        lambda obs: obs.facts["delta"].clear()),
                   Edge("unexpected", "the recorded version holds another text", _versions("report.txt", v2="x"))),
        ),
        "version-gap": CaseRole(
            "InMemoryArtifactService, and the application saves report.txt once more before the rewind: the "
            "rewind event names the version that holds 'draft one' (#6391 part B)",
            reproduced=GUESSED, fixed=PINNED,
            edges=(Edge("unexpected", "the recorded version holds another text", _versions("report.txt", v3="x")),
                   Edge("unexpected", "the guessed version holds 'draft one' too, a later one exists",
                        _versions("report.txt", v2="draft one"), GUESSED)),
        ),
        "unchanged-artifact": CaseRole(
            "control: the second invocation saves notes.txt; report.txt keeps its only version 'draft one'",
            reproduced=RESAVED, fixed=PINNED, control=True,
            edges=(Edge("reproduced", "report.txt gained a version", _versions("report.txt", v1="draft one")),),
        ),
        "new-artifact-tombstone": CaseRole(
            "non-regression: notes.txt, first saved after the rewind point, is cleared (an empty latest version "
            "named by the rewind event), not restored",
            reproduced=TOO_FAR, fixed=PINNED, non_regression=True,
            edges=(Edge("reproduced", "a later version holds text", _versions("notes.txt", v2="draft two")),),
        ),
    },
)  # fmt: skip
