"""openai-agents: an output guardrail tripwire drops a tool that already ran from the session.

Upstream: https://github.com/openai/openai-agents-python/pull/4148 ("keep committed tool
session records when a streamed output guardrail trips", its description holds the repro).
When the final output comes straight from a tool (``tool_use_behavior="stop_on_first_tool"``,
``StopAtTools``, or a custom callable), the tool has already run by the time the agent's
output guardrails see that output. If a guardrail trips, ``Runner.run_streamed`` saved
nothing of the turn: the session kept the user's message only, the ``function_call`` /
``function_call_output`` pair of a side effect that did happen was gone, and the next run on
the session lets the model issue the same call again. ``_finalize_streamed_final_output``
(``agents/run_internal/run_loop.py``) saved the turn's items only after the guardrails
passed; the fix keeps the tool records (and reasoning tied to them) when a tripwire fires,
and drops the rejected output only.

The replay: one agent with a recording tool ``book_flight`` and an output guardrail that
always trips; the scripted model calls the tool once; the session is ``SQLiteSession`` on a
real file, read back through a second ``SQLiteSession``.

Timeline: how the run ended (the exception type), the run's item stream events (streamed
cases), what the tool ran with, and every item stored in the session file. The oracle:
``fixed`` when the file holds the user's message, the call and its output; ``reproduced``
when the tool ran but the file holds the user's message without the call and its output;
``unexpected`` for anything else (no tripwire, the tool not run exactly once, other items).

What the harness found (every final release from 0.2.0, the first with ``SQLiteSession``;
bisected per case, each boundary on its own half of the range):

- streamed (both cases): fixed 0.2.0-0.12.5; reproduced 0.13.0-0.19.2; fixed from 0.19.3.
  Every release saves the final turn after the output guardrails, but up to 0.12.5 the
  streamed loop swallowed the tripwire (``_run_output_guardrails_for_stream`` returned ``[]``
  and ``stream_events()`` raised it later), so the save still ran. PR #2758 ("preserve
  streamed output guardrail tripwires in the run loop", commit 58d3ed23, the only change to
  the loop between 0.12.5 and 0.13.0) re-raises it, which skips the save. 0.19.3 carries
  PR #4148 (commit 04aaa50c). From 0.22.0 (PR #4507) the stored output's text is replaced with a notice
  ("Output withheld by an output guardrail.") because it is the rejected final output; the
  call and its output record stay, so the oracle counts that as ``fixed`` and the detail says so.
- not streamed: the thread says ``Runner.run`` does not have the problem, which holds from
  0.8.0 on. 0.3.0-0.7.0 lose the tool records the same way (``agents/run.py`` saved the final
  turn after ``_run_output_guardrails``, which raised); 0.2.x is ``unexpected``: it saved a
  run's input and output together at the end, so a tripwire left the session empty, not even
  the user's message (0.3.0 started saving the input first, PR #1550). Boundaries 0.2.11 ->
  0.3.0 and 0.7.0 -> 0.8.0 (the runner rewrite into ``agents/run_internal``).
"""

from __future__ import annotations

from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Observation, Release, Scenario
from harness.runtime.timeline import Placeholders

USER_TEXT = "Book me a flight to Paris."
CALL_ID = "call-book"
TOOL = "book_flight"
TOOL_RESULT = "booked flight PA-1"
GUARDRAIL = "block_booking_confirmation"


def _behavior(kind: str):
    if kind == "stop_on_first_tool":
        return "stop_on_first_tool"
    # agents.agent.StopAtTools (a TypedDict) exists from 0.0.x; `agents` exports it from 0.2.5 only.
    from agents.agent import StopAtTools

    return StopAtTools(stop_at_tool_names=[TOOL])


async def replay(*, streamed: bool, behavior: str) -> Observation:
    """The model calls the tool, the tool's result is the final output, the guardrail trips."""
    from agents import Agent, GuardrailFunctionOutput, OutputGuardrail, Runner

    from harness.runtime.fakes import agents_sessions
    from harness.runtime.fakes import openai_agents as oa

    async def block(context, agent, output):
        return GuardrailFunctionOutput(output_info={"blocked": str(output)}, tripwire_triggered=True)

    book = oa.RecordingTool(TOOL, {"city": "string"}, result=TOOL_RESULT)
    model = oa.ScriptedModel("booking", [[oa.function_call(TOOL, {"city": "Paris"}, call_id=CALL_ID)]])
    agent = Agent(
        name="Booking",
        model=model,
        tools=[book.tool],
        tool_use_behavior=_behavior(behavior),
        output_guardrails=[OutputGuardrail(guardrail_function=block, name=GUARDRAIL)],
    )
    ids = Placeholders()
    ids.keep(CALL_ID)
    lines: list[str] = []
    raised = None
    events: list = []
    with agents_sessions.SessionFile() as store:
        session = store.open()
        try:
            if streamed:
                result = Runner.run_streamed(agent, USER_TEXT, session=session)
                # Collect the events one by one: the tripwire is raised from the stream itself.
                async for event in result.stream_events():
                    events.append(event)
            else:
                await Runner.run(agent, USER_TEXT, session=session)
        except Exception as exc:  # the tripwire is the expected ending; anything else is recorded too
            raised = type(exc).__name__
        verb = "run_streamed" if streamed else "run"
        lines.append(f"{verb} ended with {raised or 'no exception'}")
        if streamed:
            lines.append(oa.item_events_line(events))
        stored, stored_lines = await store.read_back(ids)
    return Observation(
        timeline=[*lines, *book.call_lines(ids), *stored_lines],
        facts={
            "raised": raised,
            "tool_runs": len(book.calls),
            "stored": [_shape(oa.raw_item(item)) for item in stored],
            "outputs": [
                oa.raw_item(i).get("output") for i in stored if _shape(oa.raw_item(i))[0] == "function_call_output"
            ],
        },
    )


def _shape(item: dict) -> tuple:
    """What the oracle compares: the item's kind and what identifies it (not a tool output's text,
    which releases from 0.22.0 replace with a notice when that output is the rejected final output)."""
    kind = item.get("type") or "message"
    if kind in ("function_call", "function_call_output"):
        return (kind, item.get("call_id"))
    from harness.runtime.fakes.openai_agents import content_text

    return (item.get("role") or kind, content_text(item.get("content")))


EXPECTED = [("user", USER_TEXT), ("function_call", CALL_ID), ("function_call_output", CALL_ID)]


def judge(obs: Observation):
    f = obs.facts
    stored = f["stored"]
    if f["raised"] != "OutputGuardrailTripwireTriggered":
        return unexpected(
            f"the run ended with {f['raised'] or 'no exception'}, expected OutputGuardrailTripwireTriggered"
        )
    if f["tool_runs"] != 1:
        return unexpected(f"the tool ran {f['tool_runs']} times, expected once before the guardrail")
    if stored == EXPECTED:
        output = f["outputs"][0]
        how = "its output" if output == TOOL_RESULT else f"its output (text withheld: {output!r})"
        return fixed(
            f"the tripwire fired after the tool ran; the session keeps the user's message, {CALL_ID} and {how}"
        )
    if stored == EXPECTED[:1]:
        return reproduced(
            f"the tool ran once but after the tripwire the session holds 1 item (the user's message): "
            f"the function_call and output of {CALL_ID} are lost"
        )
    if not stored:
        return unexpected("after the tripwire the session holds nothing, not even the user's message")
    return unexpected(f"after the tripwire the session holds {len(stored)} items: {stored}")


AS_INSTALLED = AsInstalled("the pinned release (0.24.0) keeps the tool records when the tripwire fires (PR #4148)")
STREAMED_BUG = Release("openai-agents==0.19.2", "the last release before PR #4148")

SCENARIO = Scenario(
    id="agents-tripwire-drops-tool-items",
    framework="openai-agents",
    links=("https://github.com/openai/openai-agents-python/pull/4148",),
    description=(
        "When a tool's result is the final output (stop_on_first_tool, StopAtTools) and an output "
        "guardrail trips, the session keeps only the user's message: the call and output of a tool "
        "that already ran are not saved, so the next run can repeat the side effect."
    ),
    expected=(
        "After the tripwire the session holds the user's message, the function_call and its "
        "function_call_output (only the rejected output is withheld), streamed or not."
    ),
    cases=(
        Case(
            "stop-on-first-tool-streamed",
            partial(replay, streamed=True, behavior="stop_on_first_tool"),
            judge,
            {"reproduced": STREAMED_BUG, "fixed": AS_INSTALLED},
            'Runner.run_streamed, tool_use_behavior="stop_on_first_tool", an output guardrail that trips',
        ),
        Case(
            "stop-at-tools-streamed",
            partial(replay, streamed=True, behavior="stop_at_tools"),
            judge,
            {"reproduced": STREAMED_BUG, "fixed": AS_INSTALLED},
            "the same with StopAtTools(stop_at_tool_names=['book_flight'])",
        ),
        Case(
            "stop-on-first-tool",
            partial(replay, streamed=False, behavior="stop_on_first_tool"),
            judge,
            {
                "reproduced": Release("openai-agents==0.7.0", "the last release before the runner rewrite of 0.8.0"),
                "fixed": AS_INSTALLED,
            },
            "the same through Runner.run (the thread's 'Runner.run does not have this problem')",
        ),
    ),
)
