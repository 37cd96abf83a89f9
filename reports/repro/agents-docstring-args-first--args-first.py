# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.23.1",
# ]
# [tool.uv]
# exclude-newer = "2026-10-02T15:42:07Z"
# ///
# agents-docstring-args-first:args-first. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   reproduced / reproduced: 0.6.9 (2026-01-20T01:57:01Z), 0.7.0 (2026-01-23T00:06:36Z),
#     0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z), 0.10.5 (2026-03-05T20:44:00Z),
#     0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z), 0.13.6 (2026-04-09T04:10:52Z),
#     0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z), 0.16.1 (2026-05-07T11:02:40Z),
#     0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z), 0.19.4 (2026-08-05T02:59:13Z),
#     0.20.0 (2026-08-11T03:12:50Z), 0.21.1 (2026-08-16T22:29:36Z), 0.22.3 (2026-09-17T22:20:45Z),
#     0.23.1 (2026-10-02T15:42:07Z)
#   fixed / fixed: 0.24.0 (2026-10-15T02:38:22Z)
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
