"""google-adk: parallel function calls in one model turn keep only the last call's actions.

Symptom (#1938, and #1971 from a user who hit it): when one model response holds several
function calls, ADK runs each call, then merges their function-response events into one
event (``merge_parallel_function_response_events``, google/adk/flows/llm_flows/functions.py).
The merge built its ``EventActions`` with ``merged = merged.model_copy(update=event.actions.model_dump())``
for each event in turn, so every field of the last call's actions replaced the earlier
calls' values: two tools that each write a state key leave only the last key in the
session; a state write followed by ``transfer_to_agent`` loses the state write (the
transfer's event carries an empty ``state_delta``); ``transfer_to_agent`` followed by a state
write loses the transfer (the state tool's event carries ``transfer_to_agent=None``), so the
root agent answers itself instead of handing over. The fix deep-merges the actions of every
call, skipping unset fields (``model_dump(exclude_none=True)`` + ``deep_merge_dicts``; in 2.x
the function lives in google/adk/flows/llm_flows/tools/_batch_executor.py).

Cases: ``two-state-writes`` is #1938's first example (``set_state`` twice in one response,
different keys); ``state-then-transfer`` is #1971 (``set_state`` and ``transfer_to_agent`` in
one response, which is also the shape of #1938's unit test: two state writes, then the
transfer); ``transfer-then-state`` is the same pair in the other order, which loses the
transfer instead. In each, ``fixed`` means every state write reached
the session and, where the model asked for it, the helper agent answered.

Timeline: the session's events (call ids normalised, every non-empty action shown, so a
``transfer_to_agent`` too), the session state after the run, and the number of calls each
agent's scripted model got.

What the harness found (bisect over every final release from 1.0.0): all three cases reproduce
on 1.0.0 through 1.6.1 (the release #1938 was reported on, current on 2025-07-13) and are fixed
from 1.7.0 on, 2.x included. The source diff of
``merge_parallel_function_response_events`` between 1.6.1 and 1.7.0 is exactly the change from
``model_copy(update=model_dump())`` to ``deep_merge_dicts`` over ``model_dump(exclude_none=True)``;
#1938's unit-test inputs fed to that function in each environment give ``{test_key2}`` only,
``{}`` with the transfer, and the state without the transfer on 1.0.0 and 1.6.1, and every
effect on 1.7.0 and 1.39.1. On the releases with the bug the merged event also gets a fresh
invocation id (``[inv-2]`` in the timeline); that changed separately, after 1.7.0 (1.16.0
keeps the calls' invocation id), and the oracle does not read it.
"""

from __future__ import annotations

from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

APP = "parallel_app"
USER = "user-1"
ROOT = "root_agent"
HELPER = "helper_agent"
QUESTION = "Remember where I live; hand me over to the helper if I ask."
CITY = ("set_state", {"key": "city", "value": "Paris"})
UNIT = ("set_state", {"key": "unit", "value": "celsius"})
TRANSFER = ("transfer_to_agent", {"agent_name": HELPER})
ROOT_ANSWER = "Saved."
HELPER_ANSWER = "Helper here."


def _set_state_tool():
    from google.adk.tools import ToolContext

    def set_state(key, value, tool_context=None):
        """Stores a value in the session state under a key."""
        tool_context.state[key] = value
        return {"stored": key}

    # Real types, not the strings `from __future__ import annotations` leaves: ADK builds the
    # function declaration from them, and 2.x finds the context parameter by its annotation.
    set_state.__annotations__ = {"key": str, "value": str, "tool_context": ToolContext, "return": dict}
    return set_state


async def replay(*, calls: tuple) -> Observation:
    """One model response holds ``calls``; then whichever agent holds the turn answers."""
    from google.adk.agents import LlmAgent

    from harness.runtime.fakes import adk

    transfers = any(name == "transfer_to_agent" for name, _ in calls)
    root_llm = adk.ScriptedLlm(model="scripted-root", script=[adk.calls(*calls), adk.text(ROOT_ANSWER)])
    helper_llm = adk.ScriptedLlm(model="scripted-helper", script=[adk.text(HELPER_ANSWER)])
    sub_agents = []
    if transfers:
        sub_agents = [LlmAgent(name=HELPER, model=helper_llm, instruction="Help the user.", description="The helper.")]
    root = LlmAgent(
        name=ROOT,
        model=root_llm,
        instruction="Store what the user says with set_state.",
        tools=[_set_state_tool()],
        sub_agents=sub_agents,
    )
    session = await adk.run_agent(root, QUESTION, app_name=APP, user_id=USER)

    ids = Placeholders()
    lines = adk.session_timeline(session.events, ids)
    state = dict(session.state)
    final = [
        e.author
        for e in session.events
        if e.author != "user" and e.content and e.content.parts and any(p.text for p in e.content.parts)
    ]
    lines += [
        adk.state_line(state),
        f"model calls: {ROOT} {len(root_llm.requests)}, {HELPER} {len(helper_llm.requests)}",
    ]
    return Observation(
        timeline=lines,
        facts={
            "state": state,
            "answered_by": final[-1] if final else None,
            "wanted_state": {a["key"]: a["value"] for name, a in calls if name == "set_state"},
            "transfer": transfers,
        },
    )


def judge(obs: Observation):
    """Every call's effect must survive the merge: each state write, and a requested transfer."""
    state, wanted = obs.facts["state"], obs.facts["wanted_state"]
    lost = sorted(k for k, v in wanted.items() if state.get(k) != v)
    kept = sorted(k for k in wanted if k not in lost)
    extra = sorted(k for k in state if k not in wanted)
    answered_by = obs.facts["answered_by"]
    want_answer = HELPER if obs.facts["transfer"] else ROOT
    figures = f"state keys kept {kept}, lost {lost}; final answer by {answered_by}"
    if extra or answered_by not in (ROOT, HELPER):
        return unexpected(figures + f"; unexpected state keys {extra}" if extra else figures)
    transfer_lost = obs.facts["transfer"] and answered_by != HELPER
    if not lost and not transfer_lost:
        return fixed(figures)
    if len(lost) + transfer_lost == 1:
        what = "the transfer to " + HELPER if transfer_lost else f"the write of {lost[0]!r}"
        return reproduced(f"{figures}: the merge of the parallel calls' actions dropped {what}")
    return unexpected(figures + f", expected {want_answer} and every key")


# --- builds used to prove the oracles ---------------------------------------------------

MERGE_INSTALLED = AsInstalled("the pinned release, unpatched: the parallel responses' actions are deep-merged")
LAST_CALL_WINS = Release(
    "google-adk==1.6.1",
    "the last release whose merge_parallel_function_response_events lets each call's actions replace the previous ones",
)


def _extra_state_key(obs: Observation) -> None:
    """An edge (nox -s mutants): a state key no call wrote."""
    obs.facts["state"]["surprise"] = "written by nobody"


SCENARIO = Scenario(
    id="adk-parallel-calls-merge-actions",
    framework="google-adk",
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
    cases=(
        Case(
            "two-state-writes",
            partial(replay, calls=(CITY, UNIT)),
            judge,
            {"reproduced": LAST_CALL_WINS, "fixed": MERGE_INSTALLED},
            "set_state(city) and set_state(unit) in one model response",
            edges=(
                Edge(
                    "unexpected",
                    "every write kept, but the state holds a key no call wrote",
                    _extra_state_key,
                    MERGE_INSTALLED,
                ),
            ),
        ),
        Case(
            "state-then-transfer",
            partial(replay, calls=(CITY, TRANSFER)),
            judge,
            {"reproduced": LAST_CALL_WINS, "fixed": MERGE_INSTALLED},
            "set_state(city), then transfer_to_agent(helper_agent), in one response",
        ),
        Case(
            "transfer-then-state",
            partial(replay, calls=(TRANSFER, CITY)),
            judge,
            {"reproduced": LAST_CALL_WINS, "fixed": MERGE_INSTALLED},
            "transfer_to_agent(helper_agent), then set_state(city), in one response",
        ),
    ),
)
