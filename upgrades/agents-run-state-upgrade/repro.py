# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a run paused for a tool approval, saved by one release, resumed by another.

Upstream: https://github.com/openai/openai-agents-python/pull/2502 ("bump RunState schema to 1.1
with explicit backward-read policy") and https://github.com/openai/openai-agents-python/pull/2632
("align RunState schema policy with release boundaries"). A human-in-the-loop run stops when the
model calls a tool declared `needs_approval=True`; the application saves the paused run with
`result.to_state().to_string()` and later, perhaps after upgrading the SDK, restores it with
`RunState.from_string(agent, text)`, approves the call and resumes it with `Runner.run(agent,
state)`. The maintainers' policy (#2502): newer releases read older snapshots (every schema
version shipped in a release stays in `SUPPORTED_SCHEMA_VERSIONS`), and older releases refuse a
newer snapshot on purpose ("forward compatibility fail-fast"): 0.8.x accepts only its own schema
1.0, so `from_string` in 0.8.4 raises `UserError: Run state schema version 1.2 is not supported.
Please use version 1.0` on what 0.9.3 wrote. RunState and `needs_approval` ship from 0.8.0.

Nothing is faked but the model: a scripted `agents.models.interface.Model` (no network, no API
key, tracing off) whose first turn calls the tool `approve_me` with `{"x": 7}` and, once the tool's
output is in its input, answers "final answer". The agent has that one function tool,
`needs_approval=True`.

    python repro.py write CASE STATE   # release A: run until the approval interruption; writes
                                       # STATE/run_state.json (to_string()) and STATE/writer.json
    python repro.py read CASE STATE    # release B: from_string, approve, Runner.run; judges

The reader's outcome: reproduced (exit 3) when B refuses the snapshot or loses the paused call
(the downgrade #2502 makes fail fast); fixed (exit 0) when B resumes it, the tool runs exactly once
with x=7 and the final output is the scripted answer; unexpected (125) when B resumes but the tool
runs twice or never, or another answer comes back; not-applicable (125) where the release has no
RunState or no `needs_approval`; error (125) otherwise.
"""

import asyncio
import importlib.metadata
import inspect
import json
import os
import sys

CASES = {
    "resume-approval": "a run paused for approval of approve_me(x=7): from_string, approve, Runner.run",
}
STEPS = ("write", "read")
ARGUMENT = 7
ANSWER = "final answer"
SNAPSHOT = "run_state.json"
WRITER = "writer.json"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def installed() -> str:
    """The openai-agents release of this environment (read when a step runs, not at import)."""
    return importlib.metadata.version("openai-agents")


RAN = []  # the argument of each call of the tool, in this process


def framework():
    """The release's RunState and an agent with the approval tool on the scripted model."""
    os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-no-network")
    import agents
    from agents import Agent, function_tool
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    try:
        from agents.run_state import RunState
    except ImportError:
        raise NotApplicable(
            f"openai-agents {installed()} has no agents.run_state (RunState ships from 0.8.0)"
        ) from None
    if "needs_approval" not in inspect.signature(function_tool).parameters:
        raise NotApplicable(f"openai-agents {installed()}: function_tool has no needs_approval (from 0.8.0)")
    if hasattr(agents, "set_tracing_disabled"):
        agents.set_tracing_disabled(True)

    @function_tool(needs_approval=True)
    def approve_me(x: int) -> str:
        """A tool that needs a human's approval."""
        RAN.append(x)
        return f"tool ran with {x}"

    class Scripted(Model):
        """First turn: call approve_me(x=7); once the tool's output is in the input: answer."""

        async def get_response(self, *args, **kwargs):
            given = kwargs["input"] if "input" in kwargs else args[1]
            items = given if isinstance(given, list) else []
            kinds = [i.get("type") if isinstance(i, dict) else getattr(i, "type", None) for i in items]
            if "function_call_output" in kinds:
                text = ResponseOutputText(type="output_text", text=ANSWER, annotations=[])
                out = ResponseOutputMessage(
                    id="msg-1", type="message", role="assistant", status="completed", content=[text]
                )
            else:
                out = ResponseFunctionToolCall(
                    type="function_call",
                    call_id="call-1",
                    name="approve_me",
                    arguments=json.dumps({"x": ARGUMENT}),
                    id="fc-1",
                    status="completed",
                )
            return ModelResponse(output=[out], usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError("the scripted model does not stream")

    return RunState, Agent(name="Assistant", model=Scripted(), tools=[approve_me])


def schema_version():
    from agents import run_state

    return getattr(run_state, "CURRENT_SCHEMA_VERSION", "?")


def described(interruption):
    raw = getattr(interruption, "raw_item", None)
    name = getattr(interruption, "name", None) or getattr(raw, "name", None) or (raw or {}).get("name")
    arguments = getattr(raw, "arguments", None) or (raw.get("arguments") if isinstance(raw, dict) else None)
    return f"{name}({arguments})"


def save(state, name, text):
    with open(os.path.join(state, name), "w") as f:
        f.write(text)


def load(state, name):
    """The text of STATE/name, or None when the writer left none."""
    try:
        with open(os.path.join(state, name)) as f:
            return f.read()
    except OSError:
        return None


def error_text(exc):
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {first}"


async def write(say, state):
    """Run until the approval interruption; save the paused run and the writer's release."""
    from agents import Runner

    _RunState, agent = framework()
    result = await Runner.run(agent, "please run the tool")
    interruptions = list(getattr(result, "interruptions", None) or [])
    say(
        f"openai-agents {installed()}: Runner.run stopped with {len(interruptions)} interruption(s): "
        f"{', '.join(described(i) for i in interruptions) or 'none'}; tool calls so far: {RAN}"
    )
    if len(interruptions) != 1 or RAN:
        raise RuntimeError(f"the run did not pause on one approval: interruptions={len(interruptions)}, ran={RAN}")
    text = result.to_state().to_string()
    save(state, SNAPSHOT, text)
    save(state, WRITER, json.dumps({"version": installed(), "schema": schema_version()}))
    written = json.loads(text).get("$schemaVersion", "?")
    say(f"wrote STATE/{SNAPSHOT}: result.to_state().to_string(), $schemaVersion {written}")
    return f"the paused run (RunState schema {written}) of openai-agents {installed()}"


async def read(say, state):
    """from_string, approve the interruption, resume; (outcome, detail)."""
    from agents import Runner

    RunState, agent = framework()
    writer = json.loads(load(state, WRITER) or "{}").get("version", "?")
    text = load(state, SNAPSHOT)
    if text is None:
        raise RuntimeError(f"STATE/{SNAPSHOT} is missing: the writer saved no run")
    who = f"openai-agents {installed()} cannot resume the run {writer} paused"
    say(
        f"read STATE/{SNAPSHOT}: written by openai-agents {writer}, $schemaVersion "
        f"{json.loads(text).get('$schemaVersion', '?')}; this release writes {schema_version()}"
    )
    try:
        restored = RunState.from_string(agent, text)
        if inspect.isawaitable(restored):
            restored = await restored
    except Exception as exc:
        say(f"RunState.from_string: {error_text(exc)}")
        return "reproduced", f"{who}: {error_text(exc)}"
    interruptions = list(restored.get_interruptions())
    say(
        f"RunState.from_string: ok, {len(interruptions)} interruption(s): "
        f"{', '.join(described(i) for i in interruptions) or 'none'}"
    )
    if not interruptions:
        return "reproduced", f"{who}: the restored state has no interruption to approve (the paused call is lost)"
    for interruption in interruptions:
        restored.approve(interruption)
    try:
        result = await Runner.run(agent, restored)
    except Exception as exc:
        say(f"approved; Runner.run: {error_text(exc)}")
        return "reproduced", f"{who}: Runner.run after approve: {error_text(exc)}"
    say(f"approved; Runner.run resumed: tool calls {RAN}, final_output {result.final_output!r}")
    if RAN == [ARGUMENT] and result.final_output == ANSWER:
        return "fixed", (
            f"openai-agents {installed()} resumed the run {writer} paused: approve_me ran once "
            f"with x={ARGUMENT}, final output {ANSWER!r}"
        )
    return "unexpected", (
        f"openai-agents {installed()} resumed the run {writer} paused but the tool ran "
        f"{len(RAN)} time(s) with {RAN} and the final output is {result.final_output!r}"
    )


def main(argv):
    if len(argv) != 3 or argv[0] not in STEPS or argv[1] not in CASES:
        print(f"verdict: error: unknown step or case in {argv}; valid: {'|'.join(STEPS)} {'|'.join(CASES)} STATE")
        return 125
    step, case, state = argv
    print(f"== {step} {case}")
    try:
        if step == "write":
            outcome, detail = "written", asyncio.run(write(print, state))
        else:
            outcome, detail = asyncio.run(read(print, state))
    except NotApplicable as exc:
        outcome, detail = "not-applicable", str(exc)
    except Exception as exc:
        outcome, detail = "error", error_text(exc)
    print(f"verdict: {outcome}: {' '.join(str(detail).split())}")
    if step == "write":
        return 0 if outcome == "written" else 125
    return {"fixed": 0, "reproduced": 3}.get(outcome, 125)


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.exit(code)
