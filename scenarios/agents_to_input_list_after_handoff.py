"""openai-agents: ``to_input_list()`` after a handoff repeats what its history summary records.

Upstream: https://github.com/openai/openai-agents-python/issues/2258 (".to_input_list()
provides unparseable data if handoff happens in that run"), addressed by
https://github.com/openai/openai-agents-python/pull/2667 (``to_input_list(mode="normalized")``,
0.12.2); the default that made it common was reverted by
https://github.com/openai/openai-agents-python/pull/2272 (nested handoff history opt-in, 0.7.0).

With nested handoff history, the handoff folds the transcript into one assistant message
holding a ``<CONVERSATION HISTORY>`` summary. ``result.to_input_list()`` then returned that
summary *and* the raw items it summarises: the first agent's tool call and output and the
handoff call and output appear twice (once as summary records, once as items), and the user's
message survives only as a line inside the summary. Saved and fed to the next run, as the
thread does, the model sees the same calls twice.

The replay is the thread's own: Agent One calls ``starter_tool`` then hands off to Agent Two,
which calls ``finisher_tool`` and answers; the input is one user message. Timeline: the items
of ``to_input_list()``, each summary decoded into its numbered records (the readers of
``harness/runtime/fakes/openai_agents.py`` decode the summary formats of every release into one form;
``verbatim:`` marks an item that is itself, not a summary record). The
oracle counts every item of the run (the user's message, three calls, their outputs, the
answer) across summary records and items: ``fixed`` when each appears exactly once,
``reproduced`` when all appear and some more than once, ``unexpected`` otherwise (an item
missing, a record this oracle cannot read, anything extra).

Cases:

- ``default-settings``: the thread's repro as written (``RunConfig()``, ``to_input_list()``).
  Fixed 0.2.0-0.5.1 (no nested history yet), reproduced 0.6.0-0.6.9 (nesting on by default),
  fixed from 0.7.0 (PR #2272 made nesting opt-in).
- ``nested-follow-up``: nesting switched on (``RunConfig(nest_handoff_history=True)``) and the
  follow-up history taken the way the release offers: ``to_input_list(mode="normalized")``
  from 0.12.2 (PR #2667), ``to_input_list()`` before. Not applicable before 0.6.0 (no
  ``nest_handoff_history``), reproduced 0.6.0-0.12.1, fixed from 0.12.2.

What the harness found beyond the thread: the default ``to_input_list()`` (mode
``"preserve_all"``) with nesting on still repeats the summarised items on 0.24.0; upstream
kept it on purpose ("keeps the historical behavior", result.py) and added the normalized mode
instead, which is why the thread still reads as open while the fix shipped in 0.12.2.
"""

from __future__ import annotations

import inspect
from collections import Counter
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders, quote

USER_TEXT = "Kick off the two-agent workflow."
ANSWER = "All done."
IDS = ("call-starter", "call-handoff", "call-finisher", "msg-final")


async def replay(*, nested: bool) -> Observation:
    """Agent One: a tool, then a handoff; Agent Two: a tool, then the answer; read to_input_list()."""
    from agents import Agent, RunConfig, Runner, handoff

    from harness.runtime.fakes import handoff_history
    from harness.runtime.fakes import openai_agents as oa

    if nested:
        handoff_history.require_nest_handoff_history()
    starter = oa.RecordingTool("starter_tool", result="starter response")
    finisher = oa.RecordingTool("finisher_tool", result="finished")
    two_model = oa.ScriptedModel(
        "two", [[oa.function_call("finisher_tool", call_id="call-finisher")], [oa.text_message(ANSWER, "msg-final")]]
    )
    two = Agent(
        name="Agent Two",
        handoff_description="Pass control to Agent Two to finish the run.",
        model=two_model,
        tools=[finisher.tool],
    )
    one_model = oa.ScriptedModel(
        "one",
        [[oa.function_call("starter_tool", call_id="call-starter")], [oa.handoff_call(two, call_id="call-handoff")]],
    )
    one = Agent(name="Agent One", model=one_model, tools=[starter.tool], handoffs=[handoff(agent=two)])
    run_config = RunConfig(nest_handoff_history=True) if nested else RunConfig()
    result = await Runner.run(one, [{"role": "user", "content": USER_TEXT}], run_config=run_config)

    if nested and "mode" in inspect.signature(result.to_input_list).parameters:
        how, items = 'to_input_list(mode="normalized")', result.to_input_list(mode="normalized")
    else:
        how, items = "to_input_list()", result.to_input_list()
    ids = Placeholders()
    ids.keep(*IDS)
    lines, facts = handoff_history.read_nested_history(items, ids)
    handoff_output = [
        handoff_history.history_item_key(oa.raw_item(i))
        for i in result.new_items
        if oa.item_type(i) == "function_call_output" and oa.raw_item(i).get("call_id") == "call-handoff"
    ]
    expected = [
        ("message", "user", USER_TEXT),
        handoff_history.history_item_key(oa.raw_item(oa.function_call("starter_tool", call_id="call-starter"))),
        ("function_call_output", "call-starter", "starter response"),
        handoff_history.history_item_key(oa.raw_item(oa.handoff_call(two, call_id="call-handoff"))),
        *handoff_output,  # the handoff's output text is the framework's own
        handoff_history.history_item_key(oa.raw_item(oa.function_call("finisher_tool", call_id="call-finisher"))),
        ("function_call_output", "call-finisher", "finished"),
        ("message", "assistant", ANSWER),
    ]
    facts.update(how=how, expected=expected, final_output=result.final_output)
    return Observation(timeline=[f"{how}: {len(oa.as_input_list(items))} items", *lines], facts=facts)


def _label(key: tuple) -> str:
    if key[0] == "message":
        return f"{key[1]} {quote(key[2], 40)}"
    if key[0] in ("function_call", "function_call_output"):
        return f"{key[0]} {key[1]}"
    return quote(key[1], 40)


def judge(obs: Observation):
    f = obs.facts
    if f["final_output"] != ANSWER:
        return unexpected(f"the run ended with {f['final_output']!r}, expected Agent Two's answer {ANSWER!r}")
    if f["unreadable"]:
        return unexpected(f"{f['how']} holds a summary this oracle cannot read: {f['unreadable'][0]}")
    if len(f["expected"]) != 8:
        return unexpected(f"the run's items hold {len(f['expected']) - 7} handoff outputs, expected 1")
    seen = Counter(key for block in f["blocks"] for key in block) + Counter(f["verbatim"])
    expected = f["expected"]
    missing = [_label(k) for k in expected if seen[k] == 0]
    extra = [_label(k) for k in seen if k not in expected]
    summary = f"{sum(map(len, f['blocks']))} summary records + {len(f['verbatim'])} items"
    if missing or extra:
        what = "; ".join(
            filter(None, [missing and f"missing {', '.join(missing)}", extra and f"extra {', '.join(extra)}"])
        )
        return unexpected(f"{f['how']}: {summary}: {what}")
    repeated = [f"{_label(k)} x{seen[k]}" for k in expected if seen[k] > 1]
    if repeated:
        return reproduced(f"{f['how']} repeats {len(repeated)} of the run's 8 items ({summary}): {', '.join(repeated)}")
    return fixed(f"{f['how']} holds each of the run's 8 items once ({summary})")


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _user_message_lost(obs: Observation) -> None:
    key = obs.facts["expected"][0]
    obs.facts["blocks"] = [[k for k in block if k != key] for block in obs.facts["blocks"]]
    obs.facts["verbatim"] = [k for k in obs.facts["verbatim"] if k != key]


def _message_nobody_sent(obs: Observation) -> None:
    obs.facts["verbatim"].append(("message", "user", "a message nobody sent"))


FIXED_NESTED = AsInstalled('the pinned release (0.24.0) with to_input_list(mode="normalized")')

SCENARIO = Scenario(
    id="agents-to-input-list-after-handoff",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/issues/2258",
        "https://github.com/openai/openai-agents-python/pull/2667",
        "https://github.com/openai/openai-agents-python/pull/2272",
    ),
    description=(
        "After a run with a handoff and nested handoff history, result.to_input_list() returns the "
        "<CONVERSATION HISTORY> summary and also the raw items it summarises, so a follow-up run "
        "built from it sees the earlier tool and handoff calls twice."
    ),
    expected=(
        "The follow-up history holds each item of the run once: the user's message, every call and "
        "output, and the answer (in the summary or as an item, not both)."
    ),
    cases=(
        Case(
            "default-settings",
            partial(replay, nested=False),
            judge,
            {
                "reproduced": Release("openai-agents==0.6.9", "the last release with nested history on by default"),
                "fixed": AsInstalled("the pinned release (0.24.0): nested history is opt-in since 0.7.0 (PR #2272)"),
            },
            "the thread's repro as written: RunConfig(), to_input_list()",
        ),
        Case(
            "nested-follow-up",
            partial(replay, nested=True),
            judge,
            {
                "reproduced": Release("openai-agents==0.12.1", "the last release before PR #2667"),
                "fixed": FIXED_NESTED,
            },
            'RunConfig(nest_handoff_history=True); to_input_list(mode="normalized") where the release has it',
            edges=(
                Edge(
                    "unexpected",
                    "nothing repeated, but the user's message is missing",
                    _user_message_lost,
                    FIXED_NESTED,
                ),
                Edge(
                    "unexpected",
                    "nothing repeated or missing, but an item the run never made",
                    _message_nobody_sent,
                    FIXED_NESTED,
                ),
            ),
        ),
    ),
)
