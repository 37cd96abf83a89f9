"""An LlmAgent's output_key must hold the answer its before_agent_callback gives.

google/adk-python#4837: when before_agent_callback returns Content, the model is skipped and the
callback's answer is the agent's answer, but before 2.4.0 output_key was not written to state.
Written as tests/unittests/agents/ tests are: a small BaseLlm fake in the test (the idiom of
testing_utils.MockModel; here it must not be called) and an InMemorySessionService.
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


class MockModel(BaseLlm):
    """Records each request; a call answers with a text the assertions would notice."""

    model: str = "mock"
    requests: list[LlmRequest] = []  # noqa: RUF012 - a pydantic field (copied per instance)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.requests.append(llm_request)
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="model answer")]))


def cached_answer(callback_context):
    return types.Content(parts=[types.Part(text="cached answer")])


@pytest.mark.asyncio
async def test_output_key_saves_before_agent_callback_content():
    model = MockModel()
    agent = LlmAgent(
        name="my_agent",
        model=model,
        instruction="Answer questions.",
        output_key="result",
        before_agent_callback=cached_answer,
    )
    session_service = InMemorySessionService()
    runner = Runner(app_name=APP_NAME, agent=agent, session_service=session_service)
    session = await session_service.create_session(app_name=APP_NAME, user_id=USER_ID)
    message = types.Content(role="user", parts=[types.Part(text="What is the answer?")])

    async for _ in runner.run_async(user_id=USER_ID, session_id=session.id, new_message=message):
        pass

    session = await session_service.get_session(app_name=APP_NAME, user_id=USER_ID, session_id=session.id)
    assert not model.requests
    assert session.state.get("result") == "cached answer"
