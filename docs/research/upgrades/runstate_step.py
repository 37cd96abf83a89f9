"""Writer/reader step for openai-agents RunState across releases.

usage: python runstate_step.py write|read STATE_FILE
  write: run an agent whose scripted model calls a needs_approval tool; the run stops on the
         approval interruption; state.to_string() goes to STATE_FILE.
  read:  RunState.from_string(agent, text), approve the interruption, Runner.run(agent, state);
         prints the final output and whether the tool ran.
"""
import asyncio
import importlib.metadata as md
import sys

from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (ResponseFunctionToolCall, ResponseOutputMessage,
                                    ResponseOutputText)

VERSION = md.version("openai-agents")
set_tracing_disabled(True)
RAN = []


@function_tool(needs_approval=True)
def approve_me(x: int) -> str:
  """A tool that needs approval."""
  RAN.append(x)
  return f"tool ran with {x}"


class Scripted(Model):
  """First turn: call approve_me; after a tool output: answer."""

  async def get_response(self, *args, **kwargs):
    inp = kwargs["input"] if "input" in kwargs else args[1]
    items = inp if isinstance(inp, list) else []
    done = any((i.get("type") if isinstance(i, dict) else getattr(i, "type", None))
               == "function_call_output" for i in items)
    if done:
      text = ResponseOutputText(type="output_text", text="final answer", annotations=[])
      out = ResponseOutputMessage(id="m-1", type="message", role="assistant",
                                  status="completed", content=[text])
    else:
      out = ResponseFunctionToolCall(type="function_call", call_id="call-1", name="approve_me",
                                     arguments='{"x": 7}', id="fc-1", status="completed")
    return ModelResponse(output=[out], usage=Usage(), response_id=None)

  def stream_response(self, *args, **kwargs):
    raise NotImplementedError


def agent():
  return Agent(name="Assistant", model=Scripted(), tools=[approve_me])


def err(e):
  t = str(e).strip().splitlines()[0] if str(e).strip() else ""
  return f"{type(e).__module__}.{type(e).__name__}: {t}"


async def main(mode, path):
  print(f"openai-agents {VERSION} {mode}")
  from agents.run_state import RunState, CURRENT_SCHEMA_VERSION
  a = agent()
  if mode == "write":
    result = await Runner.run(a, "please run the tool")
    print(f"write interruptions={len(result.interruptions)} schema={CURRENT_SCHEMA_VERSION}")
    open(path, "w").write(result.to_state().to_string())
    return 0
  text = open(path).read()
  try:
    state = await RunState.from_string(a, text)
  except Exception as e:  # noqa: BLE001
    print(f"from_string ERROR {err(e)}")
    return 1
  print(f"from_string ok interruptions={len(state.get_interruptions())} reader_schema={CURRENT_SCHEMA_VERSION}")
  try:
    for item in state.get_interruptions():
      state.approve(item)
    result = await Runner.run(a, state)
    print(f"resume ok final_output={result.final_output!r} tool_ran={RAN}")
  except Exception as e:  # noqa: BLE001
    print(f"resume ERROR {err(e)}")
    return 1
  return 0


if __name__ == "__main__":
  sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
