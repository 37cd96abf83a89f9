# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: FileArtifactService reports the time of each read as a version's create_time.

Upstream: https://github.com/google/adk-python/pull/7113 (its own reproduction). The service writes
the right createTime into the version's metadata file at save, but `_build_artifact_version`
(google/adk/artifacts/file_artifact_service.py), shared by get_artifact_version and
list_artifact_versions, never passes it to ArtifactVersion, whose create_time defaults to
time.time(): every read sees the version as created just now. PR #7113 forwards metadata.create_time.

Nothing is faked: the real services in a temporary folder. `get-version-twice`: save, reopen the
service, get_artifact_version(version=0) twice a few milliseconds apart. `list-versions`: two saves,
reopen, list_artifact_versions. `in-memory-create-time` (control): the two reads on
InMemoryArtifactService, which keeps the ArtifactVersion it built at save. Prints each save and
where each create_time falls relative to the saves' time windows (never the clock values).

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import sys
import tempfile
import time

CASES = {
    "get-version-twice": dict(service="FileArtifactService", listing=False),
    "list-versions": dict(service="FileArtifactService", listing=True),
    "in-memory-create-time": dict(service="InMemoryArtifactService", listing=False),
}
SCOPE = dict(app_name="app", user_id="user", session_id="session", filename="report.txt")  # the PR's scope
PAUSE = 0.005  # seconds after each save and each read


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def where(t, windows):
    """Where a create_time falls: inside save N's window, after every save, or elsewhere."""
    inside = [f"inside save {n}" for n, (start, end) in enumerate(windows) if start <= t <= end]
    return inside[0] if inside else "after every save" if t > windows[-1][1] else "outside every save"


async def observe(say, service, listing):
    """Save (twice when listing), reopen, read the create_times; say where each falls."""
    from google.adk import artifacts
    from google.genai import types

    cls = getattr(artifacts, service, None)
    if cls is None:
        raise NotApplicable(f"google.adk.artifacts has no {service}")
    if not hasattr(cls, "get_artifact_version"):
        raise NotApplicable(f"{service} has no get_artifact_version")
    file = service == "FileArtifactService"
    windows, saved = [], []
    with tempfile.TemporaryDirectory() as root:
        store = cls(root_dir=root) if file else cls()
        for text in ("report v0", "report v1") if listing else ("report",):
            start = time.time()
            saved.append(await store.save_artifact(**SCOPE, artifact=types.Part(text=text)))
            windows.append((start, time.time()))
            await asyncio.sleep(PAUSE)
        if file:
            store = cls(root_dir=root)  # as in the PR: a new service on the same folder
        if listing:
            versions = await store.list_artifact_versions(**SCOPE)
            listed, reads = [v.version for v in versions], [v.create_time for v in versions]
        else:
            listed, reads = None, []
            for _ in range(2):
                reads.append((await store.get_artifact_version(**SCOPE, version=0)).create_time)
                await asyncio.sleep(PAUSE)
    for n, version in enumerate(saved):
        say(f"save {n}: version {version}")
    label = "list_artifact_versions entry" if listing else "get_artifact_version(0) read"
    for n, t in enumerate(reads):
        same = "" if n == 0 or listing else " (same as read 0)" if t == reads[0] else " (differs from read 0)"
        say(f"{label} {n}: create_time {where(t, windows)}{same}")
    if listing:
        say(f"listed versions: {listed}")
    return dict(saved=saved, windows=windows, reads=reads, listed=listed)


def judge(facts):
    """(outcome, detail): each create_time is its own save's, the same on every read."""
    windows, reads, saved = facts["windows"], facts["reads"], facts["saved"]
    if facts["listed"] is None:  # two reads of version 0
        (start, end), (first, second) = windows[0], reads
        if saved != [0]:
            return "unexpected", f"the save returned version {saved}, expected [0]"
        offsets = f"read 0 {where(first, windows)}, read 1 {where(second, windows)}"
        if start <= first <= end and first == second:
            return "fixed", f"both reads give the save's create_time ({offsets})"
        if first > end and second > first:
            return "reproduced", f"each read gives a later create_time than the save's ({offsets})"
        return "unexpected", f"create_time {offsets}" + ("" if first == second else ", the two reads differ")
    if facts["listed"] != [0, 1] or saved != [0, 1]:
        return "unexpected", f"saved {saved}, listed {facts['listed']}, expected [0, 1] twice"
    offsets = ", ".join(f"v{n} {where(t, windows)}" for n, t in enumerate(reads))
    if all(start <= t <= end for t, (start, end) in zip(reads, windows, strict=True)):
        return "fixed", f"each version's create_time is its save's ({offsets})"
    if all(t > windows[-1][1] for t in reads):
        return "reproduced", f"every version's create_time is after the last save ({offsets})"
    return "unexpected", f"create_time {offsets}"


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
