"""adk-subagent-lro-second-resume: what the harness needs beside repro.py."""

from harness.runtime.declaration import Bug, CaseRole, Claim, Edge, Release

FIXED = Release("google-adk==1.26.0", "the last release where both resumes reach the worker's model")

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/5349",
        "https://github.com/google/adk-python/pull/5385",
    ),
    description=(
        "In a resumable app, a sub-agent reached by transfer_to_agent that pauses on a second "
        "long-running tool is never resumed: the user's function response ends the invocation "
        "with no model call."
    ),
    expected=(
        "Every resume with the paused call's function response reaches the sub-agent's model, which goes on to answer."
    ),
    claims=Claim(
        introduced_in="1.27.0",
        source='the issue: "bug present in 1.27.0-1.30.0, worked in 1.26.0"',
    ),
    cases={
        "response-as-new-message": CaseRole(
            "pending-status tools; each function response is sent as a new message, as the thread's client does",
            reproduced=Release("google-adk==1.27.0", "the first release whose second resume ends the invocation"),
            fixed=FIXED,
            # 2.x does not pause here (not-applicable), so the edge alters what 1.26.0 does.
            edges=(
                Edge(
                    "unexpected",
                    "both resumes reach the worker's model and it answers, but after 4 calls, not 3",
                    lambda obs: obs.facts.update(worker_calls=4),
                    FIXED,
                ),
            ),
        ),
    },
)
