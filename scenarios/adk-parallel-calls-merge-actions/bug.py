"""adk-parallel-calls-merge-actions: what the harness needs beside repro.py."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Edge, Release

MERGED = AsInstalled("the pinned release, unpatched: the parallel responses' actions are deep-merged")
LAST_CALL_WINS = Release(
    "google-adk==1.6.1",
    "the last release whose merge_parallel_function_response_events lets each call's actions replace the previous ones",
)

# An observation no build makes, one step across the judge's line (nox -s mutants).
EXTRA_KEY = Edge(
    "unexpected",
    "every write kept, but the state holds a key no call wrote",
    lambda obs: obs.facts["state"].update(surprise="written by nobody"),
    MERGED,
)

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/1938",
        "https://github.com/google/adk-python/issues/1971",
    ),
    description=(
        "When one model response holds several function calls, merging their response events "
        "keeps only the last call's actions: earlier state writes, or an earlier "
        "transfer_to_agent, are lost."
    ),
    expected=(
        "The merged function-response event carries every call's state writes and any "
        "transfer_to_agent, whatever the order of the calls."
    ),
    cases={
        "two-state-writes": CaseRole(
            "set_state(city) and set_state(unit) in one model response",
            reproduced=LAST_CALL_WINS, fixed=MERGED, edges=(EXTRA_KEY,),
        ),
        "state-then-transfer": CaseRole(
            "set_state(city), then transfer_to_agent(helper_agent), in one response",
            reproduced=LAST_CALL_WINS, fixed=MERGED,
        ),
        "transfer-then-state": CaseRole(
            "transfer_to_agent(helper_agent), then set_state(city), in one response",
            reproduced=LAST_CALL_WINS, fixed=MERGED,
        ),
    },
)  # fmt: skip
