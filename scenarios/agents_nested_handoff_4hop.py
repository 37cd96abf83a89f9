"""openai-agents: a 4-hop nested handoff repeats earlier agents' messages in the history summary.

With ``RunConfig(nest_handoff_history=True)``, each handoff folds the transcript so far into
one ``<CONVERSATION HISTORY>`` summary message for the next agent, and forwards the previous
agent's own message verbatim as well (the single-hop behaviour of upstream issue 2171). On the
next handoff that verbatim copy came back as a ``pre_handoff_item`` and ``nest_handoff_history``
(``agents/handoffs/history.py``) summarised it again, next to the flattened earlier summary
that already recorded it. In a chain A -> B -> C -> D, D's summary lists A's message twice
(records #2 and #5) and B's twice (#6 and #9): 12 records instead of 10, one more duplicate
per extra hop. The seed PR (#3791) dedupes forwarded ``pre_handoff_items`` against the flattened
history; its review adds the over-deletion probe of the last case: two agents that
legitimately say byte-identical text (same message id) must both still reach D.

Timeline: what D's model received, one line per item in order: each summary block as a
header (``summary N (formats): K records``) followed by its numbered records, and each item
forwarded verbatim. Records are decoded from every summary format the releases write (the
``role: content`` lines of 0.6-0.16, the JSON records of 0.17 on) into one normalised form,
so timelines of different releases compare line by line; ids are the scenario's own.

Releases (matrix and bisect): reproduced from 0.6.0 (where nest_handoff_history arrived) to
0.18.3; fixed from 0.19.0, whose rewrite of agents/handoffs/history.py forwards the verbatim
items inside the nested history, before the seed PR (so the PR is a guard against regression).
The proofs are real releases: 0.18.3 reproduces, the pinned 0.24.0 is fixed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import partial
from typing import Any

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

AGENTS = ("A", "B", "C", "D")
USER_TEXT = "USERQ"
SHARED_TEXT = "same text"  # identical-messages-kept: what A and B both say
SHARED_ID = "msg-same"  # ... under one message id, like upstream's FakeModel reusing id "1"
FINAL_TEXT = "D: final"


def _said(agent: str, identical: bool) -> tuple[str, str]:
    """(text, message id) of an agent's message before it hands off."""
    if identical and agent in ("A", "B"):
        return SHARED_TEXT, SHARED_ID
    return f"{agent}: msg", f"msg-{agent}"


# --- reading D's input (the summary readers live in harness/runtime/fakes/openai_agents.py) -------------


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _label(key: tuple) -> str:
    """How a record is named in a verdict's detail: a message by its text."""
    if key[0] == "message":
        return quote(key[2], 40)
    if key[0] in ("function_call", "function_call_output"):
        return f"{key[0]} {key[1]}"
    return quote(key[1], 40)


def read_model_input(model_input: Any) -> tuple[list[str], dict[str, Any]]:
    """D's input as timeline lines and facts: summary blocks, verbatim items, unreadable bits."""
    from harness.runtime.fakes import handoff_history

    ids = Placeholders()
    ids.keep(*(f"msg-{a}" for a in AGENTS), *(f"call-{a}" for a in AGENTS), SHARED_ID)
    return handoff_history.read_nested_history(model_input, ids)


# --- the replay ------------------------------------------------------------------------------


async def replay(*, streamed: bool, identical: bool = False) -> Observation:
    """Run A -> B -> C -> D with nested handoff history and read what D's model received."""
    from harness.runtime.fakes import handoff_history
    from harness.runtime.fakes import openai_agents as oa

    handoff_history.require_nest_handoff_history()
    from agents import Agent, RunConfig, Runner

    models = {name: oa.ScriptedModel(name) for name in AGENTS}
    agents = {name: Agent(name=name, model=models[name]) for name in AGENTS}
    for name, nxt in itertools.pairwise(AGENTS):  # A -> B -> C -> D
        agents[name].handoffs = [agents[nxt]]
        text, msg_id = _said(name, identical)
        models[name].add_turn(oa.text_message(text, msg_id), oa.handoff_call(agents[nxt], call_id=f"call-{name}"))
    models["D"].add_turn(oa.text_message(FINAL_TEXT, "msg-D"))

    run_config = RunConfig(nest_handoff_history=True)
    if streamed:
        result = Runner.run_streamed(agents["A"], input=USER_TEXT, run_config=run_config)
        await oa.drain_stream(result)
    else:
        result = await Runner.run(agents["A"], input=USER_TEXT, run_config=run_config)

    calls = {name: len(m.inputs) for name, m in models.items()}
    if not models["D"].inputs:
        last = getattr(getattr(result, "last_agent", None), "name", "?")
        return Observation(
            timeline=[f"D's model was never called; the run ended with agent {last}, model calls {calls}"],
            facts={"d_called": False, "calls": calls},
        )
    lines, facts = read_model_input(models["D"].inputs[0])
    facts.update(
        d_called=True,
        calls=calls,
        expected={name: ("message", "assistant", _said(name, identical)[0]) for name in AGENTS[:3]},
    )
    return Observation(timeline=lines, facts=facts)


# --- oracles --------------------------------------------------------------------------------


def _unjudgeable(obs: Observation):
    """A verdict when D's input cannot be read, else None: never a silent pass."""
    from harness.runtime.fakes import openai_agents as oa

    f = obs.facts
    if not f.get("d_called"):
        return unexpected(f"D's model was never called (model calls {f.get('calls')}); the chain did not reach D")
    if f["unreadable"]:
        return unexpected(
            f"D's history has {_n(len(f['unreadable']), 'part')} this oracle cannot read, first: {f['unreadable'][0]}"
        )
    if not f["blocks"]:
        return unexpected(
            f"D received no {oa.DEFAULT_HISTORY_MARKERS[0]} summary block ({len(f['verbatim'])} items, all verbatim); "
            "history was not nested"
        )
    return None


def judge_no_repeats(obs: Observation):
    """Seed check (a): no summary block repeats a record; plus none of A/B/C's messages lost."""
    verdict = _unjudgeable(obs)
    if verdict:
        return verdict
    blocks, verbatim = obs.facts["blocks"], obs.facts["verbatim"]
    repeats = []
    for n, keys in enumerate(blocks, 1):
        counts = Counter(keys)
        dups = [f"{_label(k)} x{c}" for k, c in counts.items() if c > 1]
        if dups:
            where = "D's history block" if len(blocks) == 1 else f"D's history block {n}"
            repeats.append(f"{where} repeats {_n(len(dups), 'record')}: {', '.join(dups)}")
    if repeats:
        total = _n(sum(map(len, blocks)), "record")
        return reproduced("; ".join(repeats) + f" ({total} in {_n(len(blocks), 'block')})")
    problems, reached = [], []
    for agent, key in obs.facts["expected"].items():
        in_blocks = sum(1 for keys in blocks if key in keys)
        forwarded = verbatim.count(key)
        if in_blocks + forwarded == 0:
            problems.append(f"{agent}'s message {_label(key)} never reaches D (0 summary records, 0 verbatim)")
        elif in_blocks > 1:
            problems.append(f"{agent}'s message {_label(key)} is recorded in {in_blocks} summary blocks")
        how = [_n(in_blocks, "summary record")] if in_blocks else []
        how += ["verbatim" if forwarded == 1 else f"{forwarded}x verbatim"] if forwarded else []
        reached.append(f"{_label(key)} {' + '.join(how) or 'missing'}")
    if problems:
        return unexpected("no block repeats a record, but " + "; ".join(problems))
    total = _n(sum(map(len, blocks)), "record")
    return fixed(f"no history block repeats a record ({total} in {_n(len(blocks), 'block')}); " + ", ".join(reached))


def judge_identical_kept(obs: Observation):
    """Over-deletion probe: A's and B's byte-identical message reaches D exactly twice."""
    verdict = _unjudgeable(obs)
    if verdict:
        return verdict
    key = obs.facts["expected"]["A"]
    in_blocks = sum(keys.count(key) for keys in obs.facts["blocks"])
    fwd = obs.facts["verbatim"].count(key)
    total = in_blocks + fwd
    figures = (
        f"{_label(key)} (A's and B's identical message) reaches D {_n(total, 'time')} "
        f"({_n(in_blocks, 'summary record')}, {fwd} verbatim), expected 2"
    )
    if total == 2:
        return fixed(figures)
    if total > 2:
        return reproduced(figures)
    return unexpected(figures + ": a legitimate message was deleted")


# --- builds used to prove the oracles (tests only) --------------------------------------------
# 0.18.3, the last release before 0.19.0, has the bug (matrix and bisect: reproduced from
# 0.6.0 to 0.18.3). 0.19.0 rewrote agents/handoffs/history.py: the verbatim items are forwarded
# inside the nested input_history (`_nest_handoff_history_with_provenance`), so no forwarded
# copy comes back as a pre_handoff_item to be summarised again. 0.24.0, the pinned release, is fixed.

LAST_BEFORE_FIX = Release(
    "openai-agents==0.18.3",
    "the last release before 0.19.0's nested-history rewrite (agents/handoffs/history.py)",
)
AS_INSTALLED = AsInstalled("the pinned release (0.24.0) nests without repeating forwarded messages")


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _without(obs: Observation, key: tuple) -> None:
    obs.facts["blocks"] = [[k for k in keys if k != key] for keys in obs.facts["blocks"]]
    obs.facts["verbatim"] = [k for k in obs.facts["verbatim"] if k != key]


def _a_lost(obs: Observation) -> None:
    _without(obs, obs.facts["expected"]["A"])


def _a_in_two_blocks(obs: Observation) -> None:
    key = obs.facts["expected"]["A"]
    _without(obs, key)
    obs.facts["blocks"][0].append(key)
    obs.facts["blocks"].append([key])


def _identical_three_times(obs: Observation) -> None:
    obs.facts["verbatim"].append(obs.facts["expected"]["A"])


NO_REPEAT_EDGES = (
    Edge("unexpected", "no block repeats a record, but A's message never reaches D", _a_lost, AS_INSTALLED),
    Edge(
        "unexpected",
        "no block repeats a record, but A's message is in two summary blocks",
        _a_in_two_blocks,
        AS_INSTALLED,
    ),
)

SCENARIO = Scenario(
    id="agents-nested-handoff-4hop",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/pull/3791",
        "https://github.com/openai/openai-agents-python/issues/2171",
    ),
    description=(
        "With nest_handoff_history=True, a chain of handoffs A -> B -> C -> D gives D a "
        "<CONVERSATION HISTORY> summary that lists each earlier agent's message twice: the "
        "verbatim-forwarded copy is summarised again at the next hop, compounding per hop."
    ),
    expected=(
        "No summary block repeats a record, and each earlier agent's message reaches the last "
        "agent (in the summary, or forwarded verbatim) and at most once across the summaries; "
        "two agents that say identical text are both kept."
    ),
    cases=(
        Case(
            "nested-4hop",
            partial(replay, streamed=False),
            judge_no_repeats,
            {"reproduced": LAST_BEFORE_FIX, "fixed": AS_INSTALLED},
            "Runner.run, RunConfig(nest_handoff_history=True), A -> B -> C -> D as in the seed",
            edges=NO_REPEAT_EDGES,
        ),
        Case(
            "nested-4hop-streamed",
            partial(replay, streamed=True),
            judge_no_repeats,
            {"reproduced": LAST_BEFORE_FIX, "fixed": AS_INSTALLED},
            "the same chain through Runner.run_streamed, consuming stream_events()",
        ),
        Case(
            "identical-messages-kept",
            partial(replay, streamed=False, identical=True),
            judge_identical_kept,
            {"reproduced": LAST_BEFORE_FIX, "fixed": AS_INSTALLED},
            "A and B say byte-identical text with one message id: D must see it exactly twice",
            edges=(
                Edge(
                    "reproduced",
                    "the identical message reaches D three times: still the over-count",
                    _identical_three_times,
                    AS_INSTALLED,
                ),
            ),
        ),
    ),
)
