"""harness/runtime/fakes/adk.py helpers on the pinned google-adk release: running an agent, the uncalled
model, event lines."""

from __future__ import annotations

import pytest

from conftest import installed
from harness.runtime.timeline import Placeholders

pytestmark = pytest.mark.skipif(installed("google-adk") is None, reason="google-adk not installed")


def _agent(model, **kwargs):
    from google.adk.agents import LlmAgent

    return LlmAgent(name="helper_agent", model=model, instruction="Answer.", **kwargs)


async def test_run_agent_runs_each_message_and_reads_the_session_back():
    from harness.runtime.fakes import adk

    llm = adk.ScriptedLlm(model="scripted", script=[adk.text("one"), adk.text("two")])
    session = await adk.run_agent(_agent(llm, output_key="last"), "first", "second", state={"seed": 1})
    ids = Placeholders()
    assert adk.session_timeline(session.events, ids) == [
        "[inv-1] user (user) 'first'",
        '[inv-1] helper_agent (model) \'one\' state_delta={"last": "one"}',
        "[inv-2] user (user) 'second'",
        '[inv-2] helper_agent (model) \'two\' state_delta={"last": "two"}',
    ]
    assert adk.state_line(session.state) == 'state {"last": "two", "seed": 1}'
    assert adk.state_line(session.state, ["last", "missing"]) == 'state {"last": "two", "missing": null}'
    assert adk.model_calls_line(llm) == "model calls: 2"


async def test_a_conversation_streams_events_and_passes_run_async_options():
    from harness.runtime.fakes import adk

    llm = adk.ScriptedLlm(model="scripted", script=[adk.text("hi")])
    conversation = await adk.start(_agent(llm), app_name="helpers", user_id="u")
    seen = [e.author async for e in conversation.stream("hello", state_delta={"k": "v"}, run_config=None)]
    session = await conversation.session()
    assert seen == ["helper_agent"] and [e.author for e in conversation.events] == seen
    assert (session.app_name, session.user_id, session.state) == ("helpers", "u", {"k": "v"})
    assert 'state_delta={"k": "v"}' in adk.event_line(session.events[0], Placeholders())


async def test_the_uncalled_model_counts_calls_instead_of_failing():
    from harness.runtime.fakes import adk

    llm = adk.UncalledLlm(model="must-not-be-called")
    session = await adk.run_agent(_agent(llm), "hello")
    assert len(llm.requests) == 1
    assert session.events[-1].content.parts[0].text == adk.UNCALLED_REPLY


def test_event_lines_show_the_role_and_every_non_empty_action():
    from google.adk.events import Event, EventActions
    from google.genai import types

    from harness.runtime.fakes import adk

    ids = Placeholders()
    as_user = Event(invocation_id="x", author="agent", content=types.Content(role="user", parts=[types.Part(text="t")]))
    as_model = Event(
        invocation_id="x", author="agent", content=types.Content(role="model", parts=[types.Part(text="t")])
    )
    assert adk.event_line(as_user, ids) != adk.event_line(as_model, ids)
    acted = Event(
        invocation_id="x",
        author="agent",
        actions=EventActions(
            transfer_to_agent="other", escalate=True, artifact_delta={"f.txt": 1}, rewind_before_invocation_id="y"
        ),
    )
    assert adk.event_line(acted, ids) == (
        '[inv-1] agent <no content> artifact_delta={"f.txt": 1} transfer_to_agent="other" escalate=true '
        'rewind_before_invocation_id="inv-2"'
    )


async def test_start_takes_plugins_for_an_agent():
    from google.adk.plugins import BasePlugin

    from harness.runtime.fakes import adk

    seen = []

    class Seen(BasePlugin):
        async def before_agent_callback(self, *, agent, callback_context):
            seen.append(agent.name)
            callback_context.state["plugged"] = True

    llm = adk.ScriptedLlm(model="scripted", script=[adk.text("hi")])
    session = await adk.run_agent(_agent(llm), "hello", plugins=[Seen(name="seen")])
    assert seen == ["helper_agent"] and session.state["plugged"] is True


def test_unawaited_coroutines_are_caught_as_a_fact():
    from harness.runtime.fakes.coroutines import unawaited_coroutines

    async def dropped_callback():
        return None

    with unawaited_coroutines() as unawaited:
        dropped_callback()  # called, never awaited: the warning comes when it is collected
    assert unawaited == [f"coroutine '{dropped_callback.__qualname__}' was never awaited"]
    with unawaited_coroutines() as none:
        pass
    assert none == []
