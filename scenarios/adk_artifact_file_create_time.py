"""google-adk: ``FileArtifactService`` reports the time of each read as a version's ``create_time``.

Symptom (PR #7113, its own reproduction against main at 460715b, a 2.9 line): save an artifact
with ``FileArtifactService``, reopen the service, and read the same version twice with
``get_artifact_version``: each read returns a different ``create_time``, the time of the read,
not the time the version was saved. The service writes the right ``createTime`` into the
version's metadata file at save, but ``_build_artifact_version`` (google/adk/artifacts/
file_artifact_service.py), shared by ``get_artifact_version`` and ``list_artifact_versions``,
never passes it to ``ArtifactVersion``, whose ``create_time`` field defaults to
``time.time()``. A caller that sorts, expires or audits versions by time sees every version
as created just now. PR #7113 forwards ``metadata.create_time``.

Cases: ``get-version-twice`` (the PR's reproduction: one save, the service reopened, two
``get_artifact_version(version=0)`` reads a few milliseconds apart: both must give one
``create_time``, inside the save's time window; ``reproduced`` is each read giving a later time
than the last, both after the save). ``list-versions``: two saves (versions 0 and 1), then
``list_artifact_versions``: each version's ``create_time`` must fall inside its own save's
window; ``reproduced`` is both after the second save. ``in-memory-create-time`` is a control:
the same two reads on ``InMemoryArtifactService``, which keeps the ``ArtifactVersion`` it built
at save, hold on every release that has ``get_artifact_version`` (1.17.0 on).

Timeline: each save (the version it returned) and where each ``create_time`` read falls
relative to the saves (inside save N's window, after every save, before), never the clock
values themselves.

What the harness found (bisect over every final release from 1.0.0): the two file cases are
``not-applicable`` before ``FileArtifactService`` (through 1.18.0; the control through 1.16.0,
before ``get_artifact_version``); both cases reproduce on
1.19.0 through 1.39.1 (the last 1.x) and 2.0.0 through 2.9.2, and are fixed from 2.10.0 through
2.13.0, whose ``_build_artifact_version`` passes ``create_time=metadata.create_time`` (the
source diff of file_artifact_service.py between 2.9.2 and 2.10.0 holds that line, PR #7113's
change). The fix never reached the 1.x line. The PR's own script prints two different
timestamps on 1.19.0, 1.39.1 and 2.9.2 and the same one twice on 2.10.0 and 2.13.0; the short
scripts in ``scenarios/repro/`` agree with every case on 1.16.0 (cannot judge: no API), 1.19.0,
1.39.1, 2.9.2, 2.10.0 and 2.13.0. Thread state: PR
#7113 is closed; no issue is linked. The control holds on every release that has the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Release, Scenario

SCOPE = {"app_name": "app", "user_id": "user", "session_id": "session"}  # the PR's scope
FILENAME = "report.txt"
PAUSE = 0.005  # seconds between a save and a read, and between two reads


def _service(backend: str):
    """The artifact service class a case runs on; NotApplicable where the release lacks it."""
    from google.adk import artifacts

    name = "FileArtifactService" if backend == "file" else "InMemoryArtifactService"
    cls = getattr(artifacts, name, None)
    if cls is None:
        raise NotApplicable(f"google.adk.artifacts has no {name}")
    if not hasattr(cls, "get_artifact_version"):
        raise NotApplicable(f"{name} has no get_artifact_version")
    return cls


async def _save(service, text: str, windows: list[tuple[float, float]]) -> int:
    from google.genai import types

    start = time.time()
    version = await service.save_artifact(**SCOPE, filename=FILENAME, artifact=types.Part(text=text))
    windows.append((start, time.time()))
    await asyncio.sleep(PAUSE)
    return version


def _where(t: float, windows: list[tuple[float, float]]) -> str:
    """Where a create_time falls: inside save N's window, after every save, or elsewhere."""
    for n, (start, end) in enumerate(windows):
        if start <= t <= end:
            return f"inside save {n}"
    if t > windows[-1][1]:
        return "after every save"
    return "outside every save"


def _lines(saved: list[int], windows, reads: list[float], label: str, compare: bool = True) -> list[str]:
    lines = [f"save {n}: version {v}" for n, v in enumerate(saved)]
    for n, t in enumerate(reads):
        same = "" if n == 0 or not compare else (" (same as read 0)" if t == reads[0] else " (differs from read 0)")
        lines.append(f"{label} {n}: create_time {_where(t, windows)}{same}")
    return lines


async def replay_reads(*, backend: str) -> Observation:
    """One save, then two get_artifact_version(version=0) reads (the file service reopened first)."""
    cls = _service(backend)
    windows: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as root:
        service = cls(root_dir=root) if backend == "file" else cls()
        saved = [await _save(service, "report", windows)]
        if backend == "file":
            service = cls(root_dir=root)  # as in the PR: a new service on the same folder
        reads = []
        for _ in range(2):
            got = await service.get_artifact_version(**SCOPE, filename=FILENAME, version=0)
            reads.append(got.create_time)
            await asyncio.sleep(PAUSE)
    return Observation(
        timeline=_lines(saved, windows, reads, "get_artifact_version(0) read"),
        facts={"saved": saved, "windows": windows, "reads": reads},
    )


async def replay_list() -> Observation:
    """Two saves, then list_artifact_versions on a reopened FileArtifactService."""
    file_service = _service("file")
    windows: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as root:
        service = file_service(root_dir=root)
        saved = [await _save(service, "report v0", windows), await _save(service, "report v1", windows)]
        listed = await file_service(root_dir=root).list_artifact_versions(**SCOPE, filename=FILENAME)
    reads = [v.create_time for v in listed]
    return Observation(
        timeline=[
            *_lines(saved, windows, reads, "list_artifact_versions entry", compare=False),
            f"listed versions: {[v.version for v in listed]}",
        ],
        facts={"saved": saved, "windows": windows, "reads": reads, "listed": [v.version for v in listed]},
    )


def judge_reads(obs: Observation):
    """Both reads give one create_time, inside the save's window."""
    (start, end), (first, second) = obs.facts["windows"][0], obs.facts["reads"]
    if obs.facts["saved"] != [0]:
        return unexpected(f"the save returned version {obs.facts['saved']}, expected [0]")
    windows = obs.facts["windows"]
    offsets = f"read 0 {_where(first, windows)}, read 1 {_where(second, windows)}"
    if start <= first <= end and first == second:
        return fixed(f"both reads give the save's create_time ({offsets})")
    if first > end and second > first:
        return reproduced(f"each read gives a later create_time than the save's ({offsets})")
    return unexpected(f"create_time {offsets}" + ("" if first == second else ", the two reads differ"))


def judge_list(obs: Observation):
    """Each listed version's create_time falls inside its own save."""
    windows, reads = obs.facts["windows"], obs.facts["reads"]
    if obs.facts["listed"] != [0, 1] or obs.facts["saved"] != [0, 1]:
        return unexpected(f"saved {obs.facts['saved']}, listed {obs.facts['listed']}, expected [0, 1] twice")
    offsets = ", ".join(f"v{n} {_where(t, windows)}" for n, t in enumerate(reads))
    if all(start <= t <= end for t, (start, end) in zip(reads, windows, strict=True)):
        return fixed(f"each version's create_time is its save's ({offsets})")
    if all(t > windows[-1][1] for t in reads):
        return reproduced(f"every version's create_time is after the last save ({offsets})")
    return unexpected(f"create_time {offsets}")


# --- builds used to prove the oracles (tests only) ----------------------------------------


@contextlib.contextmanager
def _memory_reads_now():
    """Break the control: InMemoryArtifactService stamps each read with the current time."""
    from google.adk.artifacts import InMemoryArtifactService

    original = InMemoryArtifactService.__dict__["get_artifact_version"]

    async def get_artifact_version(self, **kwargs):
        got = await original(self, **kwargs)
        return None if got is None else got.model_copy(update={"create_time": time.time()})

    InMemoryArtifactService.get_artifact_version = get_artifact_version  # type: ignore[method-assign]
    try:
        yield
    finally:
        InMemoryArtifactService.get_artifact_version = original  # type: ignore[method-assign]


FIX_INSTALLED = AsInstalled("the pinned release: _build_artifact_version passes the stored create_time")
LAST_WITH_BUG = Release("google-adk==2.9.2", "the last release before create_time=metadata.create_time (2.10.0)")
MEMORY_READS_NOW = InProcess(
    "InMemoryArtifactService.get_artifact_version returns a copy stamped with the current time", _memory_reads_now
)

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _at_save_start(obs: Observation) -> None:
    obs.facts["reads"] = [obs.facts["windows"][0][0]] * 2


def _at_save_end(obs: Observation) -> None:
    obs.facts["reads"] = [obs.facts["windows"][0][1]] * 2


def _first_at_end_second_later(obs: Observation) -> None:
    end = obs.facts["windows"][0][1]
    obs.facts["reads"] = [end, end + 1.0]


def _both_later_same(obs: Observation) -> None:
    end = obs.facts["windows"][0][1]
    obs.facts["reads"] = [end + 1.0, end + 1.0]


def _later_save_window(obs: Observation) -> None:
    end = obs.facts["windows"][0][1]
    obs.facts["windows"].append((end + 10.0, end + 11.0))


def _saved_as_one(obs: Observation) -> None:
    obs.facts["saved"] = [1]


def _list_at_window_edges(obs: Observation) -> None:
    (s0, _e0), (_s1, e1) = obs.facts["windows"]
    obs.facts["reads"] = [s0, e1]


def _list_second_at_last_end(obs: Observation) -> None:
    e1 = obs.facts["windows"][-1][1]
    obs.facts["reads"] = [e1 + 1.0, e1]


def _list_first_in_second_window(obs: Observation) -> None:
    s1 = obs.facts["windows"][1][0]
    obs.facts["reads"] = [s1, s1]


def _listed_one_version(obs: Observation) -> None:
    obs.facts["listed"] = [0]


def _saved_versions_shifted(obs: Observation) -> None:
    obs.facts["saved"] = [1, 2]


SCENARIO = Scenario(
    id="adk-artifact-file-create-time",
    framework="google-adk",
    links=("https://github.com/google/adk-python/pull/7113",),
    description=(
        "FileArtifactService.get_artifact_version and list_artifact_versions return the time of the read as "
        "each version's create_time: the same saved version looks newly created on every read."
    ),
    expected=(
        "create_time is the time the version was saved (what the service stored in the version's metadata), "
        "the same on every read, as InMemoryArtifactService gives it."
    ),
    cases=(
        Case(
            "get-version-twice",
            partial(replay_reads, backend="file"),
            judge_reads,
            {"reproduced": LAST_WITH_BUG, "fixed": FIX_INSTALLED},
            "PR #7113's reproduction: save, reopen, get_artifact_version(0) twice",
            edges=(
                Edge("fixed", "both reads at the instant the save started", _at_save_start),
                Edge("fixed", "both reads at the instant the save ended", _at_save_end),
                Edge("unexpected", "read 0 at the save's end, read 1 later", _first_at_end_second_later),
                Edge("unexpected", "both reads one time after the save", _both_later_same),
                Edge("unexpected", "the save returned version 1", _saved_as_one),
                Edge("fixed", "a later save window recorded: the reads are judged by save 0's", _later_save_window),
            ),
        ),
        Case(
            "list-versions",
            replay_list,
            judge_list,
            {"reproduced": LAST_WITH_BUG, "fixed": FIX_INSTALLED},
            "two saves, reopen, list_artifact_versions: each create_time inside its own save",
            edges=(
                Edge("fixed", "v0 at save 0's start, v1 at save 1's end", _list_at_window_edges),
                Edge("unexpected", "v1 exactly at the last save's end, v0 later", _list_second_at_last_end),
                Edge("unexpected", "v0 inside save 1's window", _list_first_in_second_window),
                Edge("unexpected", "only version 0 listed", _listed_one_version),
                Edge("unexpected", "the saves returned versions 1 and 2", _saved_versions_shifted),
            ),
        ),
        Case(
            "in-memory-create-time",
            partial(replay_reads, backend="memory"),
            judge_reads,
            {"reproduced": MEMORY_READS_NOW, "fixed": FIX_INSTALLED},
            "control: InMemoryArtifactService, save then get_artifact_version(0) twice",
            control=True,
        ),
    ),
)
