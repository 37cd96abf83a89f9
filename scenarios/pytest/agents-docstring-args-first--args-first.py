"""A function tool whose docstring opens with Args: must still describe its parameters.

openai/openai-agents-python#3795: with no summary line before the Args: block, the docstring
parser took the whole block for the description, so before 0.24.0 the model saw the raw Args:
text as the tool's description and no parameter descriptions. Written with the public scripted
model, agents.testing.ScriptedModel (0.21.0 on), which records the tools each call receives.
"""

import pytest
from agents import Agent, Runner, function_tool
from agents.testing import ScriptedModel, assistant_message


def lookup(query: str, limit: int) -> str:
    """
    Args:
        query: the search query
        limit: max results to return
    """
    return query


@pytest.mark.asyncio
async def test_function_tool_docstring_starting_with_args_describes_parameters():
    model = ScriptedModel([[assistant_message("Here they are.")]])
    agent = Agent(name="Searcher", model=model, tools=[function_tool(lookup)])

    await Runner.run(agent, "Find three results for 'opening hours'.")

    assert model.first_call is not None
    (tool,) = model.first_call.tools
    properties = tool.params_json_schema["properties"]
    assert properties["query"].get("description") == "the search query"
    assert properties["limit"].get("description") == "max results to return"
    assert "Args:" not in (tool.description or "")
    model.assert_complete()
