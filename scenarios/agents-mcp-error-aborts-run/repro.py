# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]  # mcp comes with openai-agents wherever agents.mcp exists
# ///
"""openai-agents: an McpError from an MCP server's call_tool aborts the whole run.

Upstream: https://github.com/openai/openai-agents-python/issues/879 (fix:
https://github.com/openai/openai-agents-python/pull/2598; related
https://github.com/openai/openai-agents-python/issues/1788 and its configurable failure handlers,
https://github.com/openai/openai-agents-python/pull/2378). When the MCP server answers a tool call
with a JSON-RPC error (`mcp.shared.exceptions.McpError`: an upstream HTTP error, an unknown
argument), `MCPUtil.invoke_mcp_tool` re-raised it as `AgentsException`, which ended `Runner.run`
instead of giving the model the error as the tool's output so it can recover.

An in-process fake MCP server (an `agents.mcp.MCPServer` subclass: no subprocess, no network) that
lists one tool and answers its call with an McpError (or, in the control, with a text result); a
scripted model (a Model that calls the tool, then answers) and the framework's own Runner. Prints
the call, what the model's second request received as the tool's output, and how the run ended.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import inspect
import json
import os
import sys

CASES = {
    "mcp-error": dict(server_fails=True, raise_errors=False),
    # The server is built with failure_error_function=None (PR #2378): the documented way to have a
    # tool failure end the run. A fix that hands every McpError to the model would go too far.
    "raise-when-asked": dict(server_fails=True, raise_errors=True),
    # The server answers: its text reaches the model on every release.
    "control-success": dict(server_fails=False, raise_errors=False),
}
QUESTION = "Look up order 42."
ANSWER = "Here is what I found."
SERVER_ERROR = "upstream returned HTTP 502"
RESULT = "order 42: shipped"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def output_text(output):
    """A function_call_output's output as text (a string, or a list of content parts)."""
    if isinstance(output, str):
        return output
    parts = output if isinstance(output, list) else [output]
    return " ".join(str(p.get("text", p)) if isinstance(p, dict) else str(p) for p in parts)


async def observe(say, server_fails, raise_errors):
    """Run the agent against the fake server; say what the model received; return how the run ended."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Model, ModelResponse, Runner, Usage, set_tracing_disabled
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    try:
        from agents.mcp import MCPServer
    except ImportError as exc:
        raise NotApplicable(f"agents has no MCP support: {exc}") from None
    try:
        from mcp import types
        from mcp.shared import exceptions
    except ImportError as exc:
        raise NotApplicable(f"the mcp package is not installed with this release: {exc}") from None
    if "mcp_servers" not in getattr(Agent, "__dataclass_fields__", {}):
        raise NotApplicable("Agent takes no mcp_servers")

    if raise_errors and "failure_error_function" not in inspect.signature(MCPServer.__init__).parameters:
        raise NotApplicable("MCPServer takes no failure_error_function (PR #2378)")

    INTERNAL_ERROR = -32603  # JSON-RPC's internal error

    def mcp_error(code, message):
        """The MCP SDK's error for a JSON-RPC error answer: McpError(ErrorData) in mcp 1.x, MCPError in 2.x."""
        if hasattr(exceptions, "McpError"):
            return exceptions.McpError(types.ErrorData(code=code, message=message))
        return exceptions.MCPError(code, message)

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    class FakeServer(MCPServer):
        """One tool, `lookup`; its call fails with an MCP error or answers with text. All in process."""

        @property
        def name(self):
            return "orders"

        async def connect(self):
            pass

        async def cleanup(self):
            pass

        async def list_tools(self, *args, **kwargs):
            schema = {"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]}
            return [types.Tool(name="lookup", description="Look up an order.", inputSchema=schema)]

        async def call_tool(self, tool_name, arguments, *args, **kwargs):
            say(f"server: call_tool {tool_name} {json.dumps(arguments)}")
            if server_fails:
                say(f"server: raises the MCP error INTERNAL_ERROR {SERVER_ERROR!r}")
                raise mcp_error(INTERNAL_ERROR, SERVER_ERROR)
            return types.CallToolResult(content=[types.TextContent(type="text", text=RESULT)])

        async def list_prompts(self, *args, **kwargs):
            raise NotImplementedError

        async def get_prompt(self, *args, **kwargs):
            raise NotImplementedError

    def message(text):
        content = [ResponseOutputText(type="output_text", text=text, annotations=[])]
        return ResponseOutputMessage(id="msg_1", type="message", role="assistant", status="completed", content=content)

    def model_response(output):
        """A ModelResponse without an id (the field was `referenceable_id` before it was `response_id`)."""
        names = {f.name for f in dataclasses.fields(ModelResponse)}
        id_field = "response_id" if "response_id" in names else "referenceable_id"
        return ModelResponse(output=output, usage=Usage(), **{id_field: None})

    class ScriptedModel(Model):
        """Call 1: the lookup tool; call 2: the answer. Keeps every input."""

        def __init__(self):
            self.inputs = []

        async def get_response(self, system_instructions, input, *args, **kwargs):
            self.inputs.append(input)
            if len(self.inputs) == 1:
                call = ResponseFunctionToolCall(
                    type="function_call", id="fc_1", call_id="call_1", name="lookup", arguments='{"order": "42"}'
                )
                return model_response([call])
            return model_response([message(ANSWER)])

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError("the cases do not stream")

    model = ScriptedModel()
    server = FakeServer(failure_error_function=None) if raise_errors else FakeServer()
    agent = Agent(name="assistant", model=model, mcp_servers=[server])
    error, final_output = None, None
    try:
        result = await Runner.run(agent, input=QUESTION)
        final_output = result.final_output
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    received = []
    for item in model.inputs[1] if len(model.inputs) > 1 else []:
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "function_call_output":
            received.append(output_text(item.get("output")))
    for text in received:
        say(f"model call 2 received the tool output: {text[:160]!r}")
    say(f"run raised {error[:200]}" if error else f"run finished: final_output {final_output!r}")
    return dict(model_calls=len(model.inputs), received=received, error=error, final_output=final_output,
                expected_text=SERVER_ERROR if server_fails else RESULT, raise_errors=raise_errors)  # fmt: skip


def judge(facts):
    """(outcome, detail): the server's answer (its error, or its result) reaches the model once and the run
    ends normally; with failure_error_function=None the error ends the run instead."""
    error, received, wanted = facts["error"], facts["received"], facts["expected_text"]
    if facts["raise_errors"]:
        # failure_error_function=None: the error must end the run, not reach the model.
        if error is not None:
            figures = f"the run raised {error[:140]}"
            return ("fixed", figures) if wanted in error else ("unexpected", f"{figures}, not the server's error")
        reached = any(answers(text, wanted, generic=True) for text in received)
        figures = f"the run went on; the model received {received}, though the server asked for errors to raise"
        return ("reproduced", figures) if reached else ("unexpected", figures)
    if error is not None:
        figures = f"the run raised {error[:140]} after {facts['model_calls']} model call(s)"
        return ("reproduced", figures) if facts["model_calls"] == 1 and wanted in error else ("unexpected", figures)
    figures = f"{facts['model_calls']} model calls; the model received {received}"
    if facts["final_output"] != ANSWER or len(received) != 1:
        return "unexpected", f"{figures}; the run ended with {facts['final_output']!r}"
    if answers(received[0], wanted):
        return "fixed", figures
    # The control's symptom: the server answered, but its result is not what the model got.
    if wanted == RESULT:
        return "reproduced", f"{figures}, not the server's result"
    if answers(received[0], wanted, generic=True):
        # #879 asks for "a structured error payload so the agent can decide how to respond": the run
        # went on, but what the server said did not reach the model.
        return "unexpected", f"{figures}: the run went on, but without the server's error"
    return "unexpected", figures


def answers(text, wanted, generic=False):
    """The tool output the model got carries the server's answer: its text, or for an error the error's
    text; ``generic``: or the SDK's own error message, which says only that an error occurred (releases
    that keep exception text from the model)."""
    return wanted in text or (generic and wanted == SERVER_ERROR and "error occurred" in text.lower())


# --- the same in every reproduction: run the cases named on the command line -------------------


def run(case):
    """Run one case: its timeline, then its verdict line; return its outcome."""
    print(f"== {case}")
    try:
        outcome, detail = judge(asyncio.run(observe(print, **CASES[case])))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    return outcome


def main(argv):
    """Exit 3 if a case reproduced, else 0 if every case is fixed, else 125 (git bisect run's bad, good, skip)."""
    if any(case not in CASES for case in argv):
        print(f"verdict: error: unknown case in {argv}; valid: {', '.join(CASES)}")
        return 125
    outcomes = [run(case) for case in argv or CASES]
    return 3 if "reproduced" in outcomes else 0 if set(outcomes) == {"fixed"} else 125


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
