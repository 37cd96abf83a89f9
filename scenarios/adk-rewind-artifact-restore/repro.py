# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: `Runner.rewind_async` cannot restore an artifact on `FileArtifactService`, and records a guessed
version in the rewind event.

Upstream: https://github.com/google/adk-python/issues/4932 and https://github.com/google/adk-python/issues/6391.
To restore an artifact that changed after the rewind point, the runner's `_compute_artifact_delta_for_rewind`
saved a `file_data` reference to the old version, which `FileArtifactService` cannot store (it raises), and it
wrote `vn + 1` into the rewind event's `artifact_delta` instead of the version `save_artifact` returned.

An LlmAgent on a scripted `BaseLlm` calls a tool that saves `report.txt` with the user's text, in two
invocations ("draft one", then "draft two"); the runner then rewinds before the second. Cases: `file-restore`
(#4932: FileArtifactService on a temporary folder; after the rewind the latest version holds "draft one");
`version-gap` (#6391: InMemoryArtifactService, and the application saves one more version directly between the
second invocation and the rewind; the rewind event must name the version that holds "draft one");
`unchanged-artifact` (a control: the second invocation saves another file; rewinding keeps report.txt as it was,
with no new version); `new-artifact-tombstone` (a fix could go too far: an artifact first saved after the rewind
point must be cleared, not restored). Prints each invocation's tool results, the rewind event's artifact_delta
and every version of each artifact.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import json
import sys
import tempfile

CASES = {
    "file-restore": dict(service="file", second="report.txt", direct_save=False, check="report.txt"),
    "version-gap": dict(service="memory", second="report.txt", direct_save=True, check="report.txt"),
    "unchanged-artifact": dict(service="file", second="notes.txt", direct_save=False, check="report.txt"),
    "new-artifact-tombstone": dict(service="file", second="notes.txt", direct_save=False, check="notes.txt"),
}
FIRST, SECOND, UPLOAD = "draft one", "draft two", "uploaded by the app"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, service, second, direct_save, check):
    """Two invocations that save artifacts, a rewind before the second; say and return what was stored."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.tools import ToolContext
    from google.genai import types

    if not hasattr(Runner, "rewind_async"):
        raise NotApplicable("google.adk.runners.Runner has no rewind_async")
    import google.adk.artifacts as artifacts

    if service == "file" and not hasattr(artifacts, "FileArtifactService"):
        raise NotApplicable("google.adk.artifacts has no FileArtifactService")

    class Scripted(BaseLlm):
        """Calls save(filename, text) with the user's message ('FILE: TEXT'), then says it is saved."""

        async def generate_content_async(self, llm_request, stream=False):
            last = llm_request.contents[-1].parts[0]
            if last.text:
                filename, text = last.text.split(": ", 1)
                call = types.FunctionCall(name="save", args={"filename": filename, "text": text})
                yield LlmResponse(content=types.Content(role="model", parts=[types.Part(function_call=call)]))
            else:
                yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="saved")]))

    async def save(filename: str, text: str, tool_context: ToolContext) -> dict:
        """Save `text` as the artifact `filename`."""
        blob = types.Blob(mime_type="text/plain", data=text.encode())
        return {"version": await tool_context.save_artifact(filename, types.Part(inline_data=blob))}

    with tempfile.TemporaryDirectory() as folder:
        store = artifacts.FileArtifactService(root_dir=folder) if service == "file" else None
        store = store or artifacts.InMemoryArtifactService()
        agent = LlmAgent(name="writer", model=Scripted(model="scripted"), instruction="Save.", tools=[save])
        sessions = InMemorySessionService()
        runner = Runner(app_name="repro", agent=agent, session_service=sessions, artifact_service=store)
        session = await sessions.create_session(app_name="repro", user_id="u")
        ids = []
        for filename, text in (("report.txt", FIRST), (second, SECOND)):
            message = types.Content(role="user", parts=[types.Part(text=f"{filename}: {text}")])
            async for event in runner.run_async(user_id="u", session_id=session.id, new_message=message):
                for part in event.content.parts if event.content and event.content.parts else []:
                    if part.function_response:
                        say(f"invocation {len(ids) + 1}: save({filename!r}) -> {part.function_response.response}")
            ids.append(event.invocation_id)
        keys = dict(app_name="repro", user_id="u", session_id=session.id)
        if direct_save:
            blob = types.Blob(mime_type="text/plain", data=UPLOAD.encode())
            version = await store.save_artifact(filename="report.txt", artifact=types.Part(inline_data=blob), **keys)
            say(f"the application saves report.txt directly -> version {version}")
        error = None
        try:
            await runner.rewind_async(user_id="u", session_id=session.id, rewind_before_invocation_id=ids[1])
        except Exception as exc:  # the symptom of #4932: the restore's save is refused
            error = f"{type(exc).__name__}: {' '.join(str(exc).split())[:160]}"
            say(f"rewind_async raised {error}")
        stored = await sessions.get_session(app_name="repro", user_id="u", session_id=session.id)
        rewinds = [e for e in stored.events if e.actions and e.actions.rewind_before_invocation_id]
        delta = dict(rewinds[-1].actions.artifact_delta) if rewinds else None
        say(f"rewind event: {'none' if delta is None else 'artifact_delta=' + json.dumps(delta, sort_keys=True)}")
        versions = {}
        for filename in sorted(await store.list_artifact_keys(**keys)):
            versions[filename] = {}
            for version in await store.list_versions(filename=filename, **keys):
                part = await store.load_artifact(filename=filename, version=version, **keys)
                data = part.inline_data.data.decode() if part and part.inline_data else None
                versions[filename][version] = data
                say(f"{filename} v{version}: {data!r}")
    return dict(second=second, check=check, error=error, delta=delta, versions=versions)


def judge(facts):
    """(outcome, detail): after the rewind, report.txt reads FIRST at the version the rewind event records
    (#4932, #6391); an artifact unchanged since the rewind point gets no new version (control); one first saved
    after it is cleared (non-regression)."""
    error, delta, versions = facts["error"], facts["delta"], facts["versions"]
    report = versions.get("report.txt", {})
    if error and facts["second"] == "notes.txt":
        return "unexpected", f"rewind_async raised {error}"
    if facts["check"] == "report.txt" and facts["second"] == "notes.txt":
        if report == {0: FIRST} and "report.txt" not in delta:
            return "fixed", f"report.txt keeps only v0 = {FIRST!r}"
        return "reproduced", f"report.txt versions {report}, rewind delta {delta}: the unchanged artifact was rewritten"
    if facts["check"] == "notes.txt":
        notes = versions.get("notes.txt", {})
        if (
            "notes.txt" in delta
            and notes.get(delta["notes.txt"], "x") in ("", None)
            and max(notes) == delta["notes.txt"]
        ):
            return "fixed", f"notes.txt cleared at v{delta['notes.txt']}"
        return "reproduced", f"notes.txt versions {notes}, rewind delta {delta}: the new artifact was not cleared"
    if error:
        return "reproduced", f"rewind_async raised {error}"
    if delta is None or "report.txt" not in delta:
        return "unexpected", f"rewind event's artifact_delta {delta} names no report.txt"
    recorded = delta["report.txt"]
    figures = f"rewind recorded report.txt v{recorded} = {report.get(recorded)!r}"
    if report.get(recorded) == FIRST and recorded == max(report):
        return "fixed", figures
    if report.get(recorded) == UPLOAD and report.get(max(report)) == FIRST:
        return "reproduced", figures + f"; the restored {FIRST!r} is v{max(report)}: the event guessed the version"
    return "unexpected", figures + f", versions {report}"


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
