"""A @function_tool whose docstring opens with Args: (no summary line) loses its parameter descriptions.

Upstream: https://github.com/openai/openai-agents-python/pull/3795 (closed unmerged; its repro).
Builds the tool with function_tool and runs it on an agent whose scripted Model (no network)
records the tools it receives, then answers. `reproduced`: neither parameter reaches the model
with a description and the tool's description is the raw Args: block. `fixed`: both parameters
carry their docstring text and the description holds no Args:.
Exit 0 fixed, 3 reproduced, 125 cannot judge.
"""

import asyncio
import os
import sys

os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-no-network")  # some releases build a client

EXPECTED = {"query": "the search query", "limit": "max results to return"}


async def main() -> int:
    from agents import Agent, ModelResponse, Runner, function_tool, set_tracing_disabled
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)

    def lookup(query: str, limit: int) -> str:
        """
        Args:
            query: the search query
            limit: max results to return
        """
        return query

    class RecordingModel(Model):
        tools: list = []  # noqa: RUF012 - the last call's tools, read once after the run

        async def get_response(self, *args, **kwargs):
            RecordingModel.tools = list(kwargs["tools"] if "tools" in kwargs else args[3])
            text = ResponseOutputText(type="output_text", text="Here they are.", annotations=[])
            item = ResponseOutputMessage(id="m-1", type="message", role="assistant", status="completed", content=[text])
            fields = {"output": [item], "usage": Usage(), "response_id": "resp-1", "referenceable_id": "resp-1"}
            return ModelResponse(**{k: v for k, v in fields.items() if k in ModelResponse.__dataclass_fields__})

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    agent = Agent(name="Searcher", model=RecordingModel(), tools=[function_tool(lookup)])
    await Runner.run(agent, "Find three results for 'opening hours'.")
    (tool,) = RecordingModel.tools
    description = tool.description or ""
    params = {name: p.get("description") for name, p in tool.params_json_schema["properties"].items()}
    print(f"tool description sent to the model: {description!r}")
    print(f"parameter descriptions sent to the model: {params}")
    if params == EXPECTED and "Args:" not in description:
        print("verdict: fixed (2 of 2 parameters described, no Args: block in the description)")
        return 0
    if set(params) == set(EXPECTED) and not any(params.values()) and description.startswith("Args:"):
        print("verdict: reproduced (0 of 2 parameters described, the description is the raw Args: block)")
        return 3
    print(f"verdict: cannot judge (description {description!r}, parameters {params})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
