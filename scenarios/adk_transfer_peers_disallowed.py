"""google-adk: an agent with ``disallow_transfer_to_peers=True`` can still transfer to a sibling.

Symptom (#3850): ``disallow_transfer_to_peers=True`` only changed the prompt (the sibling is no
longer offered as a transfer target), but the flow ran whatever agent ``transfer_to_agent``
named: a sub-agent that read a sibling's name in the shared history, or was told it by the
user, called ``transfer_to_agent(agent_name=<sibling>)`` and the sibling ran. PR #3862
(closed) proposed a check in ``_get_agent_to_run``; the check that shipped in 1.x (commit
fa18d26a) raises ``ValueError: Transfer to sibling agent ... is disallowed``. A later comment on
the thread (2026-08-26) reports that on 2.7.1 the 2.x path let it through again, because
``workflow/utils/_transfer_utils.py`` resolved a sibling without reading the flag; 2.9.0's
``resolve_and_derive_transfer_context`` raises "Cannot transfer from 'agent_a' to peer agent
'agent_b': disallow_transfer_to_peers is set".

Tree: ``root`` (sub-agents ``agent_a`` and ``agent_b``); ``root`` transfers to ``agent_a``,
whose scripted model then calls ``transfer_to_agent(agent_name="agent_b")``.

Cases: ``sibling`` is #3850's reproduction (``agent_a`` has ``disallow_transfer_to_peers=True``:
``agent_b`` must not run). ``peers-allowed`` is a control (a non-regression variant): the same
tree without the flag, where the transfer to the sibling must still happen (a fix that blocked
every sibling transfer would say ``reproduced`` there).

Timeline: every event run_async yielded (author, parts, actions), how the run ended (the
exception's type and message when the framework refused), and each agent's model calls.

What the harness found (bisect over every final release from 1.0.0, then over the 2.x line):
``sibling`` reproduces on 1.0.0 to 1.39.0 and is fixed on 1.39.1 (2026-08-27, the last 1.x
release: its ``_get_agent_to_run`` got the check, 1.39.0's has none); on the 2.x line it
reproduces on 2.0.0 to 2.8.0 and is fixed on 2.9.0 to 2.13.0, the latest. 2.7.1 and 2.8.0 carry
the same check in ``base_llm_flow._get_agent_to_run``, but the 2.x runner resolves the transfer
in the workflow path, whose ``resolve_and_derive_transfer_context`` (workflow/utils/
_transfer_utils.py) reads ``disallow_transfer_to_peers`` (and ``disallow_transfer_to_parent``)
only from 2.9.0: the diff of 2.8.0 and 2.9.0 adds exactly those two checks. ``peers-allowed``
holds everywhere. Outside the harness, scenarios/repro/adk-transfer-peers-disallowed--sibling.py
prints "agent_b answered" (exit 3) on 1.20.0, 1.39.0, 2.0.0, 2.7.1 and 2.8.0, and the refusal
(exit 0: ValueError, or 2.13.0's WorkflowDataError) on 1.39.1, 2.9.0 and 2.13.0, which matches
the thread's 2026-08-26 comment (2.7.1 lets it through). The thread (#3850, filed 2025-12-06,
1.20.0 current) is still open in the index although the bug is fixed on both lines; PR #3862
is closed.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

QUESTION = "Please export my data."
B_ANSWER = "agent_b answered"


def _agents(*, disallow: bool):
    """root -> (agent_a, agent_b); each agent's scripted model, by name."""
    from google.adk.agents import LlmAgent

    from harness.runtime.fakes import adk

    llms = {
        "root": adk.ScriptedLlm(
            model="root-model", script=[adk.calls(("transfer_to_agent", {"agent_name": "agent_a"}))]
        ),
        "agent_a": adk.ScriptedLlm(
            model="a-model", script=[adk.calls(("transfer_to_agent", {"agent_name": "agent_b"}))]
        ),
        "agent_b": adk.ScriptedLlm(model="b-model", script=[adk.text(B_ANSWER)]),
    }
    agent_a = LlmAgent(
        name="agent_a",
        model=llms["agent_a"],
        description="Handles account questions.",
        instruction="Help the user.",
        disallow_transfer_to_peers=disallow,
    )
    agent_b = LlmAgent(name="agent_b", model=llms["agent_b"], description="Exports data.", instruction="Export.")
    root = LlmAgent(name="root", model=llms["root"], instruction="Route the user.", sub_agents=[agent_a, agent_b])
    return root, llms


async def replay(*, disallow: bool) -> Observation:
    """Run the tree once; record the events, how the run ended, and each agent's model calls."""
    from harness.runtime.fakes import adk

    root, llms = _agents(disallow=disallow)
    conversation = await adk.start(root)
    ids = Placeholders()
    lines, ended = [], "completed"
    try:
        async for event in conversation.stream(QUESTION):
            lines.append(adk.event_line(event, ids))
    except Exception as exc:  # the fixed releases refuse the transfer by raising
        ended = f"{type(exc).__name__}: {exc}"
    a_transfers = [
        e
        for e in conversation.events
        if e.author == "agent_a" and e.get_function_calls() and e.get_function_calls()[0].name == "transfer_to_agent"
    ]
    calls = {name: len(llm.requests) for name, llm in llms.items()}
    lines += [f"run ended: {ended}", "model calls: " + ", ".join(f"{k}={v}" for k, v in calls.items())]
    b_texts = [adk.describe_part(p, ids) for e in conversation.events if e.author == "agent_b" for p in e.content.parts]
    return Observation(
        timeline=lines,
        facts={"calls": calls, "ended": ended, "a_transfers": len(a_transfers), "b_texts": b_texts},
    )


def _figures(obs: Observation) -> str:
    calls = obs.facts["calls"]
    return (
        f"agent_a asked to transfer {obs.facts['a_transfers']} time(s); agent_b's model called {calls['agent_b']} "
        f"time(s); run ended: {obs.facts['ended']}"
    )


def _reached_transfer(obs: Observation) -> bool:
    calls = obs.facts["calls"]
    return calls["root"] == 1 and calls["agent_a"] == 1 and obs.facts["a_transfers"] == 1


def judge(obs: Observation):
    """agent_a forbids peer transfers: agent_b must not run."""
    figures = _figures(obs)
    if not _reached_transfer(obs):
        return unexpected(figures + ": the run never reached agent_a's transfer call")
    b_calls = obs.facts["calls"]["agent_b"]
    if b_calls == 0:
        return fixed(figures)
    if b_calls == 1 and obs.facts["ended"] == "completed":
        return reproduced(figures + ": the sibling ran although agent_a has disallow_transfer_to_peers=True")
    return unexpected(figures)


def judge_peers_allowed(obs: Observation):
    """Control: without the flag the transfer to the sibling happens and agent_b answers."""
    figures = _figures(obs)
    if not _reached_transfer(obs):
        return unexpected(figures + ": the run never reached agent_a's transfer call")
    b_calls = obs.facts["calls"]["agent_b"]
    if b_calls == 1 and obs.facts["ended"] == "completed":
        return fixed(figures)
    if b_calls == 0:
        return reproduced(figures + ": a sibling transfer was refused although peers are allowed")
    return unexpected(figures)


# --- builds used to prove the oracles (tests only) ------------------------------------------


@contextlib.contextmanager
def _refuse_every_sibling():
    """A fix that goes too far, in process: every transfer to a sibling is refused, flag or not."""
    from google.adk.agents import LlmAgent

    init = LlmAgent.__init__

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        object.__setattr__(self, "disallow_transfer_to_peers", True)

    LlmAgent.__init__ = __init__  # type: ignore[method-assign]  # every agent built in the patch forbids peers
    try:
        yield
    finally:
        LlmAgent.__init__ = init  # type: ignore[method-assign]


LAST_WITHOUT_CHECK = Release("google-adk==2.8.0", "the last 2.x release whose workflow path ignores the flag")
FIRST_WITH_CHECK = Release("google-adk==2.9.0", "the first 2.x release whose transfer resolution reads the flag")
PEERS_STILL_ALLOWED = AsInstalled("the pinned release, unpatched: a sibling transfer without the flag happens")
TOO_BROAD_FIX = InProcess(
    "a fix that goes too far, in process: every agent forbids peer transfers", _refuse_every_sibling
)


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _root_called_twice(obs: Observation) -> None:
    obs.facts["calls"]["root"] = 2


def _a_called_twice(obs: Observation) -> None:
    obs.facts["calls"]["agent_a"] = 2


def _two_transfers(obs: Observation) -> None:
    obs.facts["a_transfers"] = 2


def _b_called_twice(obs: Observation) -> None:
    obs.facts["calls"]["agent_b"] = 2


def _b_ran_then_error(obs: Observation) -> None:
    obs.facts["ended"] = "RuntimeError: after agent_b"


EDGES = (
    Edge("unexpected", "the refusal, but root's model was called twice", _root_called_twice, AsInstalled()),
    Edge("unexpected", "the refusal, but agent_a's model was called twice", _a_called_twice, AsInstalled()),
    Edge("unexpected", "the refusal, but agent_a asked to transfer twice", _two_transfers, AsInstalled()),
    Edge("unexpected", "the bug, but agent_b's model was called twice", _b_called_twice, LAST_WITHOUT_CHECK),
    Edge("unexpected", "agent_b ran, then the run failed", _b_ran_then_error, LAST_WITHOUT_CHECK),
)
CONTROL_EDGES = (
    Edge("unexpected", "the sibling ran twice", _b_called_twice, PEERS_STILL_ALLOWED),
    Edge("unexpected", "the sibling ran, then the run failed", _b_ran_then_error, PEERS_STILL_ALLOWED),
)

SCENARIO = Scenario(
    id="adk-transfer-peers-disallowed",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/3850",
        "https://github.com/google/adk-python/pull/3862",
    ),
    description=(
        "A sub-agent with disallow_transfer_to_peers=True that calls transfer_to_agent with a "
        "sibling's name is transferred to that sibling: the flag only removes the sibling from the prompt."
    ),
    expected=(
        "The transfer to a sibling is refused when the transferring agent disallows peer transfers: "
        "the sibling does not run."
    ),
    cases=(
        Case(
            "sibling",
            partial(replay, disallow=True),
            judge,
            {"reproduced": LAST_WITHOUT_CHECK, "fixed": FIRST_WITH_CHECK},
            "agent_a (disallow_transfer_to_peers=True) calls transfer_to_agent('agent_b'), its sibling",
            edges=EDGES,
        ),
        Case(
            "peers-allowed",
            partial(replay, disallow=False),
            judge_peers_allowed,
            {"reproduced": TOO_BROAD_FIX, "fixed": PEERS_STILL_ALLOWED},
            "control: without the flag, agent_a's transfer to its sibling happens",
            control=True,
            edges=CONTROL_EDGES,
        ),
    ),
)
