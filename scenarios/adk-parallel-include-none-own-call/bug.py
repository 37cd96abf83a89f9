"""adk-parallel-include-none-own-call: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
import importlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, InProcess, Release


@contextlib.contextmanager
def _patched(name, replace) -> Iterator[None]:
    """``name`` of the module the contents processor calls it from (private: 2.x moved it to
    flows/llm_flows/context/_contents.py) replaced by ``replace(original)``."""
    try:
        module = importlib.import_module("google.adk.flows.llm_flows.context._contents")
    except ImportError:
        module = importlib.import_module("google.adk.flows.llm_flows.contents")
    original = getattr(module, name)
    setattr(module, name, replace(original))
    try:
        yield
    finally:
        setattr(module, name, original)


def _calls_dropped(original):
    """A broken contents processor: every content holding a function call is left out of the request."""

    def current_turn(*args, **kwargs):
        return [c for c in original(*args, **kwargs) if not any(p.function_call for p in c.parts or [])]

    return current_turn


def _no_other_agents(original):
    """A fix that goes too far: no event of another agent starts the turn (nor is shown as another agent's)."""
    return lambda current_agent_name, event: False


PINNED = AsInstalled("the pinned release (2.13.0): the turn starts at an event of the agent's own branch")
REPORTED = Release("google-adk==1.18.0", "#3612's release (current on 2025-11-19): the follow-up request is empty")
CRASHED = Release("google-adk==1.13.0", "#2770's release (current on 2025-08-28): IndexError")
FIRST_FIXED = Release(
    "google-adk==1.19.0", "the first release whose turn start must be an event of the agent's own branch"
)
CALLS_DROPPED = InProcess(
    "the contents processor broken in process: contents holding a function call are left out", lambda: _patched(
        "_get_current_turn_contents", _calls_dropped)
)  # fmt: skip
TOO_FAR = InProcess(
    "a fix that goes too far, in process: another agent's reply never starts the turn",
    lambda: _patched("_is_other_agent_reply", _no_other_agents),
)


# Observations no build makes, one step across the judge's lines (nox -s mutants): each alters agent_a's
# follow-up request as the pinned release recorded it.
def _follow_up(alter):
    return lambda obs: alter(obs.facts["requests"]["agent_a"][1])


QUOTED_CITY = Edge(
    "fixed", "a text part that quotes agent_a's city is neither a call nor a response",
    _follow_up(lambda words: words.append("user:'asked about \"a-1\" (a-1)'")),
)  # fmt: skip
SIBLING_CALL = Edge(
    "unexpected",
    "agent_b's call leaked into agent_a's request",
    _follow_up(lambda words: words.append('model:call lookup({"city": "b-1"})')),
)
NO_QUESTION = Edge("unexpected", "the follow-up request lost the user's message", _follow_up(lambda w: w.pop(0)))
CALLS_LOST_NO_CRASH = Edge(
    "unexpected", "no IndexError, agent_a's two calls and responses lost (#3612's symptom)",
    _follow_up(lambda words: [words.remove(w) for w in list(words) if "lookup" in w]),
)  # fmt: skip

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/3612",
        "https://github.com/google/adk-python/issues/2770",
        "https://github.com/google/adk-python/issues/2404",
        "https://github.com/google/adk-python/pull/2961",
    ),
    description=(
        "Under a ParallelAgent, a sub-agent with include_contents='none' whose sibling's events come between "
        "its function call and the call's response loses its own call: its follow-up request carries the "
        "response without the call, or nothing (#3612), or building it raises IndexError in "
        "_rearrange_events_for_latest_function_response (#2770, with two calls in one response)."
    ),
    expected=(
        "The follow-up request holds the agent's own function call(s) and response(s) after the user's "
        "message, and none of the sibling's events; no IndexError."
    ),
    claims=Claim(
        pr="#2961",
        pr_state="open",
        source="#3612 closed (no fix named in what the thread shows); #2770 closed after a maintainer's reply, "
        "the reporter asking to reopen it (2025-08-29); #2404 (the same IndexError) closed, a maintainer "
        "(2025-11-05): 'PR #2961 fixes this by filtering by branch first when finding the turn start. Will be "
        "merged soon.'; PR #2961 shown open",
        quote="agents lose their own previous events when parallel execution causes event interleaving",
    ),
    range_notes=(
        "Before 1.5.0 include_contents='none' sent the model no contents at all, not even the user's message "
        "(every case not-applicable on 0.0.2-1.4.2): 1.5.0 is where the current turn (_get_current_turn_contents) "
        "first exists, not where the bug was introduced.",
        "The turn start was found before the branch filter on 1.5.0-1.18.0; the symptom changed in 1.16.0, where "
        "_rearrange_events_for_latest_function_response returns a one-event list as it is instead of reading "
        "events[-2] (IndexError before), and the lone response is then dropped: the follow-up request is empty.",
        "#3612 was filed on 2025-11-19 against 1.18.0; 1.19.0 (uploaded 2025-11-20) is the first release measured "
        "fixed: the turn start must pass _should_include_event_in_context (the branch filter), the approach "
        "PR #2961 describes; the thread shows no merged PR.",
    ),
    explanations=(
        Explanation(
            "interleaved", ">=1.5.0,<1.16.0",
            "the lost call crashes first: _rearrange_events_for_latest_function_response reads events[-2] of the "
            "one-event list left after the branch filter, IndexError (#2770, case parallel-calls)",
        ),
        Explanation(
            "parallel-calls", ">=1.16.0,<1.19.0",
            "no IndexError since 1.16.0 (a one-event list is returned as it is), but agent_a's follow-up request has "
            "lost both calls and both responses: #3612's symptom (case interleaved, reproduced there)",
        ),
    ),
    cases={
        "interleaved": CaseRole(
            "ParallelAgent [agent_a, agent_b], include_contents='none', one lookup call each; agent_b answers "
            "between agent_a's call and its response: agent_a's follow-up request (#3612)",
            reproduced=REPORTED, fixed=FIRST_FIXED, edges=(QUOTED_CITY, SIBLING_CALL, NO_QUESTION),
        ),
        "parallel-calls": CaseRole(
            "the same with two lookup calls in one response each: building agent_a's follow-up request (#2770)",
            reproduced=CRASHED, fixed=FIRST_FIXED, edges=(CALLS_LOST_NO_CRASH,),
        ),
        "single-agent": CaseRole(
            "control: an agent with include_contents='none' alone keeps its call and response after the user's "
            "message",
            reproduced=CALLS_DROPPED, fixed=PINNED, control=True,
        ),
        "sequential-reply": CaseRole(
            "non-regression: in a SequentialAgent [writer, reviewer], both include_contents='none', the "
            "reviewer's turn starts at the writer's reply, shown as another agent's",
            reproduced=TOO_FAR, fixed=PINNED, non_regression=True,
        ),
    },
)  # fmt: skip
