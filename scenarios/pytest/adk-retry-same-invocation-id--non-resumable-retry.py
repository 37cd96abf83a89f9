"""A retry of run_async with the caller's invocation_id must not record the user message twice.

google/adk-python#4506: a task queue redelivers a message with the same invocation_id on a plain
(non-resumable) app; before 2.9.0 every delivery appended the user event again, so the session
held the user turn twice. Written as tests/unittests/runners/ tests are: a small BaseLlm fake in
the test (the idiom of testing_utils.MockModel) and an InMemorySessionService.
"""

from collections.abc import AsyncGenerator

import pytest
from google.adk.agents import LlmAgent
from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

APP_NAME = "test_app"
USER_ID = "test_user"
INVOCATION_ID = "inv-task-retry"


class MockModel(BaseLlm):
    """Answers every request with the same text and counts the requests."""

    model: str = "mock"
    requests: list[LlmRequest] = []  # noqa: RUF012 - a pydantic field (copied per instance)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(llm_request)
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="ack")]))


@pytest.mark.asyncio
async def test_retry_with_same_invocation_id_appends_user_message_once():
    session_service = InMemorySessionService()
    agent = LlmAgent(name="root_agent", model=MockModel())
    runner = Runner(app_name=APP_NAME, agent=agent, session_service=session_service)
    session = await session_service.create_session(app_name=APP_NAME, user_id=USER_ID)
    message = types.Content(role="user", parts=[types.Part(text="hello")])

    for _ in range(2):  # the delivery, then the queue's retry of it
        async for _ in runner.run_async(
            user_id=USER_ID, session_id=session.id, new_message=message, invocation_id=INVOCATION_ID
        ):
            pass

    session = await session_service.get_session(app_name=APP_NAME, user_id=USER_ID, session_id=session.id)
    user_events = [e for e in session.events if e.author == "user" and e.invocation_id == INVOCATION_ID]
    assert len(user_events) == 1
