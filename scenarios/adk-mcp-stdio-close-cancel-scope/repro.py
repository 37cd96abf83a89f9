# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk", "mcp<2"]
# ///
"""google-adk: closing a Runner whose MCPToolset talks to a local stdio server reports "Attempted to exit
cancel scope in a different task than it was entered in".

Upstream: https://github.com/google/adk-python/issues/2196 (AgentEvaluator.evaluate's teardown with an
MCPToolset over StdioServerParameters; the workaround in the thread: close the toolset yourself). The
MCP SDK's stdio client holds an anyio cancel scope, which must be exited in the task that entered it.
The MCP session is opened by the run (in the task the run ran in); `Runner.close()` closes it from the
task that calls close, and releases that wrap `toolset.close()` in `asyncio.wait_for` close it from a
task of its own on CPython before 3.12, so the scope is exited in another task: the session manager
prints the error (tools/mcp_tool/mcp_session_manager.py), or its session task logs it
(tools/mcp_tool/session_context.py).

A local stdio MCP server (`mcp`'s FastMCP, a subprocess of this interpreter) with one tool, the
framework's MCPToolset and Runner, and a scripted BaseLlm that calls the tool once and then answers.
Cases: `close-other-task` (the bug: the turn runs in a task, `runner.close()` is awaited from another);
`close-same-task` (the turn and `runner.close()` in one task, as `async with Runner(...)` does);
`tool-call` (a control: the MCP tool's result reaches the model and the turn ends); `server-exits` (a fix
could go too far: after `runner.close()` the server process has exited). Prints the turn's tool calls
and results, and what close reported (raised, logged, printed on stderr, or handed to the event loop).

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import contextlib
import logging
import os
import re
import sys
import tempfile
import warnings

CASES = {
    "close-other-task": dict(close_in="other-task", check="scope"),
    "close-same-task": dict(close_in="same-task", check="scope"),
    "tool-call": dict(close_in="other-task", check="tool"),
    "server-exits": dict(close_in="other-task", check="exits"),
}
SCOPE_ERROR = "Attempted to exit cancel scope in a different task than it was entered in"
SERVER = """
import os
from mcp.server.fastmcp import FastMCP

server = FastMCP("pid-server")


@server.tool()
def server_pid() -> int:
    \"\"\"The MCP server's process id.\"\"\"
    return os.getpid()


server.run()
"""


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def process_state(pid):
    """'running', or 'exited' once the process is gone or a zombie (Linux's /proc; elsewhere a signal 0)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return "exited" if stat.read().rsplit(")", 1)[-1].split()[0] in ("Z", "X") else "running"
    except FileNotFoundError:
        return "exited"
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return "exited"
        return "running"


def shown(text):
    """One line of what close reported, with no addresses and no paths."""
    text = re.sub(r"0x[0-9a-f]+|\b[0-9a-f]{10,}\b", "<addr>", " ".join(str(text).split()))
    text = re.sub(r"Task-\d+", "Task-<n>", text)
    return re.sub(r"(?:[A-Za-z]:)?(?:[/\\][\w.+-]+){2,}(?::\d+)?", "<path>", text)[:240]


@contextlib.contextmanager
def stderr_captured(lines):
    """Collect what is written to file descriptor 2 (the session manager prints on sys.stderr as it was
    when the framework was imported, so only the descriptor catches it)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            lines.extend(line for line in sink.read().decode(errors="replace").splitlines() if line.strip())


async def observe(say, close_in, check):
    """One turn that calls the MCP tool, then runner.close(); say what the turn and the close did."""
    warnings.filterwarnings("ignore")
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    try:
        from google.adk.tools.mcp_tool.mcp_toolset import MCPToolset
        from mcp import StdioServerParameters
    except ImportError as exc:
        raise NotApplicable(f"no MCPToolset ({exc})") from None
    if not hasattr(Runner, "close"):
        raise NotApplicable("Runner has no close()")
    server = StdioServerParameters(command=sys.executable, args=["-c", SERVER])
    try:
        from google.adk.tools.mcp_tool.mcp_session_manager import StdioConnectionParams

        params = StdioConnectionParams(server_params=server, timeout=30)
    except ImportError:  # the first releases take the server parameters themselves
        params = server
    try:
        toolset = MCPToolset(connection_params=params)
    except TypeError as exc:
        raise NotApplicable(f"MCPToolset(connection_params=...) refused: {exc}") from None

    class ScriptedLlm(BaseLlm):
        """Calls server_pid once, then answers."""

        calls: int = 0

        async def generate_content_async(self, llm_request, stream=False):
            self.calls += 1
            if self.calls == 1:
                part = types.Part(function_call=types.FunctionCall(name="server_pid", args={}))
            else:
                part = types.Part(text="The server answered.")
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    reported = []  # (channel, line) of what the close reported

    class Reported(logging.Handler):
        def emit(self, record):
            reported.append(("logged", f"{record.levelname} {record.getMessage()}"))

    agent = LlmAgent(name="agent", model=ScriptedLlm(model="scripted"), instruction="Ask the server.", tools=[toolset])
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=agent, session_service=sessions)
    session = await sessions.create_session(app_name="repro", user_id="u")
    question = types.Content(role="user", parts=[types.Part(text="Which process serves you?")])
    seen = dict(pid=None, answer=None, tool_error=None)

    async def turn():
        async for event in runner.run_async(user_id="u", session_id=session.id, new_message=question):
            for part in event.content.parts if event.content and event.content.parts else []:
                if part.function_call:
                    say(f"{event.author}: call {part.function_call.name}")
                elif part.function_response:
                    found = re.search(r"\b(\d{2,})\b", str(part.function_response.response))
                    seen["pid"] = int(found.group(1)) if found else None
                    if seen["pid"] is None:
                        seen["tool_error"] = shown(part.function_response.response)
                    say(f"{event.author}: response {part.function_response.name}: "
                        + ("a process id" if seen["pid"] else seen["tool_error"]))  # fmt: skip
                elif part.text:
                    seen["answer"] = part.text
                    say(f"{event.author}: {part.text!r}")

    raised, stderr_lines, state, cancelled = None, [], "running", 0
    if close_in == "other-task":
        await asyncio.create_task(turn())
    else:
        await turn()
    say(f"runner.close() from {'another task' if close_in == 'other-task' else 'the task that ran the turn'}")
    handler = Reported(level=logging.WARNING)
    logging.getLogger().addHandler(handler)
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: reported.append(
        ("event loop", f"{context.get('message')}: {context.get('exception')!r}")))  # fmt: skip

    try:
        with stderr_captured(stderr_lines):
            try:
                await runner.close()
            except BaseException as exc:  # CancelledError included: some releases raise it out of close
                raised = shown(f"{type(exc).__name__}: {exc}")
            # Up to 5 s for the server to exit; not where the turn's own task closed (there the cleanup can be
            # cancelled by the scope, and the process's state then races the cancellation), nor after a raise.
            watched = not raised and (check == "exits" or close_in == "other-task")
            for _ in range(50 if watched else 0):
                if seen["pid"] is None or (state := process_state(seen["pid"])) == "exited":
                    break
                try:
                    await asyncio.sleep(0.1)
                except asyncio.CancelledError:  # a scope left open keeps cancelling this task
                    cancelled += 1
    finally:
        logging.getLogger().removeHandler(handler)
        loop.set_exception_handler(None)
    reported.extend(("stderr", line) for line in stderr_lines if "Processing request" not in line)
    for channel, line in reported:
        say(f"close {channel}: {shown(line)}")
    if raised:
        say(f"close raised {raised}")
    if cancelled:
        say("the task that closed the runner was cancelled again while it waited for the server to exit")
    if not watched:
        state = None
    say(f"MCP server process: {state or 'not checked' if seen['pid'] else 'unknown (no process id)'}")
    return dict(check=check, close_in=close_in, pid=seen["pid"] is not None, answer=seen["answer"],
                tool_error=seen["tool_error"], reported=[shown(line) for _, line in reported], raised=raised,
                server=state if seen["pid"] else None)  # fmt: skip


def judge(facts):
    """(outcome, detail): close reports no cancel-scope error (#2196: reproduced when it does, by any channel);
    the control: the MCP tool's result reached the model; the non-regression: the server exited after close."""
    scope = [line for line in facts["reported"] + [facts["raised"] or ""] if SCOPE_ERROR in line]
    if not facts["pid"] or facts["answer"] is None:
        outcome = "reproduced" if facts["check"] == "tool" else "unexpected"
        return outcome, f"the tool call did not complete: {facts['tool_error']}, answer {facts['answer']!r}"
    if facts["check"] == "tool":
        return "fixed", "server_pid's result reached the model, which answered"
    if facts["check"] == "exits":
        if facts["server"] == "exited":
            return "fixed", "the MCP server process exited after runner.close()"
        if facts["server"] == "running":
            return "reproduced", "the MCP server process is still running 5 s after runner.close()"
        return "unexpected", f"runner.close() raised {facts['raised']}; the server was not checked"
    if scope:
        return "reproduced", f"runner.close() ({facts['close_in']}) reported: {scope[0]}"
    if facts["raised"]:
        return "unexpected", f"runner.close() raised {facts['raised']}"
    cancelled = [line for line in facts["reported"] if "cancel scope" in line]
    if cancelled:
        return "unexpected", f"runner.close()'s cleanup was cancelled by the cancel scope: {cancelled[0]}"
    if facts["server"] not in ("exited", None):
        return "unexpected", f"no error, but the MCP server process is still {facts['server']}"
    return "fixed", f"runner.close() ({facts['close_in']}) reported nothing; the server exited"


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
