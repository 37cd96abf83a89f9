# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]  # mcp comes with openai-agents wherever agents.mcp exists
# ///
"""openai-agents: with use_structured_content=True, an MCP tool result flagged isError reaches the model as
its structuredContent payload, the error text dropped, so the model sees an apparent success.

Upstream: https://github.com/openai/openai-agents-python/pull/4224. An MCP server answers a call with a
`CallToolResult` whose `isError` is set, its failure text in `content` and a `structuredContent` payload
beside it (MCP allows both). `MCPUtil.invoke_mcp_tool` (agents/mcp/util.py) checked only
`server.use_structured_content` and returned the structured payload exclusively, so a server built with
`use_structured_content=True` had its error text replaced by the payload. Expected (as the TypeScript SDK
does): for a result the server flagged as an error, its content wins; a successful result still reaches the
model as its structured payload.

An in-process fake MCP server (an `agents.mcp.MCPServer` subclass: no subprocess, no network) that lists one
tool, `query`, and answers its call with a scripted `CallToolResult`; a scripted model (a Model that calls the
tool, then answers) and the framework's own Runner. Prints what the server answered, what the model's second
request received as the tool's output, and how the run ended.

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

# is_error: the server flags the result as an error; structured: the server is built with
# use_structured_content=True.
CASES = {
    "error-with-structured-content": dict(is_error=True, structured=True),
    # A successful result with both: the model gets the structured payload, as use_structured_content asks. A fix
    # that always prefers content over structuredContent would go too far.
    "success-uses-structured-content": dict(is_error=False, structured=True),
    # The same error result from a server that did not ask for structured content: its text reaches the model.
    "control-error-without-structured": dict(is_error=True, structured=False),
}
QUESTION = "How many open orders are there?"
ANSWER = "Here is what I found."
ERROR_TEXT = "database connection refused"
SUCCESS_TEXT = "3 open orders"
# What the server puts in structuredContent: an empty result beside the error (it reads as "no orders"), the
# rows beside the success.
ERROR_PAYLOAD = {"orders": [], "count": 0}
SUCCESS_PAYLOAD = {"orders": ["41", "42", "43"], "count": 3}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def output_text(output):
    """A function_call_output's output as text (a string, or a list of content parts)."""
    if isinstance(output, str):
        return output
    parts = output if isinstance(output, list) else [output]
    return " ".join(str(p.get("text", p)) if isinstance(p, dict) else str(p) for p in parts)


async def observe(say, is_error, structured):
    """Run the agent against the fake server; say what the model received; return what judge reads."""
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
    except ImportError as exc:
        raise NotApplicable(f"the mcp package is not installed with this release: {exc}") from None
    if "use_structured_content" not in inspect.signature(MCPServer.__init__).parameters:
        raise NotApplicable("MCPServer takes no use_structured_content")
    if not ({"structuredContent", "structured_content"} & set(types.CallToolResult.model_fields)):
        raise NotApplicable("this release's mcp has no CallToolResult.structuredContent")

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint
    text = ERROR_TEXT if is_error else SUCCESS_TEXT
    payload = ERROR_PAYLOAD if is_error else SUCCESS_PAYLOAD

    class FakeServer(MCPServer):
        """One tool, `query`; its call answers with the case's CallToolResult. All in process."""

        @property
        def name(self):
            return "orders"

        async def connect(self):
            pass

        async def cleanup(self):
            pass

        async def list_tools(self, *args, **kwargs):
            schema = {"type": "object", "properties": {"status": {"type": "string"}}, "required": ["status"]}
            return [types.Tool(name="query", description="Count orders.", inputSchema=schema)]

        async def call_tool(self, tool_name, arguments, *args, **kwargs):
            say(f"server: call_tool {tool_name} {json.dumps(arguments)}")
            say(f"server: answers isError={is_error}, content [text {text!r}], structuredContent {json.dumps(payload)}")
            content = [types.TextContent(type="text", text=text)]
            return types.CallToolResult(content=content, structuredContent=payload, isError=is_error)

        async def list_prompts(self, *args, **kwargs):
            raise NotImplementedError

        async def get_prompt(self, *args, **kwargs):
            raise NotImplementedError

    def message(answer):
        content = [ResponseOutputText(type="output_text", text=answer, annotations=[])]
        return ResponseOutputMessage(id="msg_1", type="message", role="assistant", status="completed", content=content)

    def model_response(output):
        """A ModelResponse without an id (the field was `referenceable_id` before it was `response_id`)."""
        names = {f.name for f in dataclasses.fields(ModelResponse)}
        id_field = "response_id" if "response_id" in names else "referenceable_id"
        return ModelResponse(output=output, usage=Usage(), **{id_field: None})

    class ScriptedModel(Model):
        """Call 1: the query tool; call 2: the answer. Keeps every input."""

        def __init__(self):
            self.inputs = []

        async def get_response(self, system_instructions, input, *args, **kwargs):
            self.inputs.append(input)
            if len(self.inputs) == 1:
                call = ResponseFunctionToolCall(
                    type="function_call", id="fc_1", call_id="call_1", name="query", arguments='{"status": "open"}'
                )
                return model_response([call])
            return model_response([message(ANSWER)])

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError("the cases do not stream")

    model = ScriptedModel()
    server = FakeServer(use_structured_content=structured)
    say(f"the server is built with use_structured_content={structured}")
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
    for output in received:
        say(f"model call 2 received the tool output: {output[:200]!r}")
    say(f"run raised {error[:200]}" if error else f"run finished: final_output {final_output!r}")
    return dict(model_calls=len(model.inputs), received=received, error=error, final_output=final_output,
                is_error=is_error, structured=structured, text=text, payload=json.dumps(payload))  # fmt: skip


def judge(facts):
    """(outcome, detail): an error result reaches the model as its error text, with structured content asked for
    or not; a successful result of a server that asked for structured content reaches it as its payload."""
    received, text, payload = facts["received"], facts["text"], facts["payload"]
    figures = f"{facts['model_calls']} model calls; the model received {received}"
    if facts["error"] is not None or facts["final_output"] != ANSWER or len(received) != 1:
        return "unexpected", f"{figures}; the run ended with {facts['error'] or repr(facts['final_output'])}"
    (output,) = received  # exactly one, checked above
    has_text, has_payload = text in output, payload in output
    if facts["is_error"] and facts["structured"]:
        # The thread's symptom: the error text replaced by the payload (an apparent success). The text with the
        # payload beside it still tells the model the call failed.
        if has_text:
            return "fixed", f"{figures}: the error text reached the model"
        return ("reproduced", f"{figures}: the structured payload, not the error text") if has_payload else (
            "unexpected", f"{figures}: neither the error text nor the payload")  # fmt: skip
    if facts["is_error"]:
        # No structured content asked for: the error text, and not the payload.
        if has_text and not has_payload:
            return "fixed", f"{figures}: the error text, not the payload"
        return ("reproduced", f"{figures}: the payload reached the model") if has_payload else (
            "unexpected", f"{figures}: no error text")  # fmt: skip
    # A successful result with structured content asked for: the payload reaches the model.
    if has_payload:
        return "fixed", f"{figures}: the structured payload reached the model"
    return ("reproduced", f"{figures}: only the text content, structuredContent ignored") if has_text else (
        "unexpected", f"{figures}: neither the payload nor the text")  # fmt: skip


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
