# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a function call naming a tool the agent does not have (a hallucinated name) bypasses
`on_tool_error_callback`: the lookup's ValueError "Function get_wether is not found in the tools_dict." ends the
run and the callback that would answer it is never called.

Upstream: https://github.com/google/adk-python/issues/2933 ("sometimes Gemini calls function with wrong tool
name, will cause a ValueError, how can I handle this Error"), https://github.com/google/adk-python/issues/2346
with PRs https://github.com/google/adk-python/pull/2310 and https://github.com/google/adk-python/pull/2345,
https://github.com/google/adk-python/issues/2050 and https://github.com/google/adk-python/issues/4005 ("Tool
lookup errors not gracefully handled by on_tool_error_callback"). `_execute_single_function_call_async`
(flows/llm_flows/functions.py) looked the tool up (`_get_tool_and_context`) before the try block that routes a
tool's exception to the plugins' and the agent's `on_tool_error_callback`, so a name missing from `tools_dict`
raised straight out of the run. Expected: the lookup error reaches `on_tool_error_callback`, whose answer becomes
the function response the model is sent, and the run continues.

A scripted model (a BaseLlm) calls `get_wether` (the agent's tool is `get_weather`), then answers;
`InMemoryRunner.run_async`. Cases: `plugin-callback` (a plugin's `on_tool_error_callback` answers: #2933's
release has it), `agent-callback` (the agent's own `on_tool_error_callback`, #4005's words);
`control-tool-raises` (the registered tool raises and the plugin's callback answers: the callback works for a
tool's own error); `callback-declines` (a fix could go too far: when the plugin's callback returns None, the
unknown call must not succeed and no other tool may run in its place, as a name-correcting fix would do; the
lookup error may end the run or reach the model as an error). Prints each event, each callback call, the cities
get_weather ran for and the function response the model was sent.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

CASES = {
    "plugin-callback": dict(where="plugin", called="get_wether", city="Paris", answers=True),
    "agent-callback": dict(where="agent", called="get_wether", city="Paris", answers=True),
    "control-tool-raises": dict(where="plugin", called="get_weather", city="Atlantis", answers=True),
    "callback-declines": dict(where="plugin", called="get_wether", city="Paris", answers=False),
}
ANSWER = {"error": "no tool named get_wether; call get_weather"}
STATIONS = {"Paris": "sunny"}
TOOL_RUNS = []  # each city get_weather was run for, in this process's current case


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session services are synchronous."""
    return await value if inspect.isawaitable(value) else value


def get_weather(city: str) -> dict:
    """Returns the weather in the given city."""
    TOOL_RUNS.append(city)
    if city not in STATIONS:
        raise RuntimeError(f"no weather station in {city}")
    return {"weather": STATIONS[city]}


def first_line(exc):
    return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:100]}"


async def observe(say, where, called, city, answers):
    """Run one turn in which the model calls `called`; say the events and callbacks; return what judge reads."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """Calls `called` on its first call, answers on every later one; keeps every request."""

        called: str = ""
        requests: list = []  # noqa: RUF012 (a pydantic field: each instance gets its own copy)

        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(llm_request)
            if len(self.requests) == 1:
                part = types.Part(function_call=types.FunctionCall(name=self.called, args={"city": city}))
            else:
                part = types.Part(text="Sorry, I could not get the weather.")
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    seen = []
    TOOL_RUNS.clear()

    def on_error(tool, error):
        seen.append(f"{tool.name}: {first_line(error)}")
        say(f"on_tool_error_callback ({where}) called for {tool.name}: {first_line(error)}")
        return dict(ANSWER) if answers else None

    llm = ScriptedLlm(model="scripted", called=called)
    agent_kwargs, runner_kwargs = {}, {}
    if where == "agent":
        if "on_tool_error_callback" not in LlmAgent.model_fields:
            raise NotApplicable("LlmAgent has no on_tool_error_callback")
        agent_kwargs["on_tool_error_callback"] = lambda tool, args, tool_context, error: on_error(tool, error)
    else:
        try:
            from google.adk.plugins import BasePlugin
        except ImportError as exc:
            raise NotApplicable(f"no google.adk.plugins: {exc}") from exc
        if not hasattr(BasePlugin, "on_tool_error_callback"):
            raise NotApplicable("BasePlugin has no on_tool_error_callback")
        if "plugins" not in inspect.signature(InMemoryRunner.__init__).parameters:
            raise NotApplicable("InMemoryRunner takes no plugins")

        class ErrorPlugin(BasePlugin):
            async def on_tool_error_callback(self, *, tool, tool_args, tool_context, error):
                return on_error(tool, error)

        runner_kwargs["plugins"] = [ErrorPlugin(name="tool_errors")]
    agent = LlmAgent(name="agent", model=llm, instruction="Answer with the tool.", tools=[get_weather], **agent_kwargs)
    runner = InMemoryRunner(agent=agent, app_name="app", **runner_kwargs)
    say(f"the agent's tools: get_weather; the model calls {called}; the {where} callback "
        + ("answers" if answers else "returns None"))  # fmt: skip
    session = await settled(runner.session_service.create_session(app_name="app", user_id="user"))
    message = types.Content(role="user", parts=[types.Part(text="What is the weather in Paris?")])
    run_error = None
    try:
        async for event in runner.run_async(user_id="user", session_id=session.id, new_message=message):
            for part in event.content.parts if event.content and event.content.parts else []:
                if part.function_call:
                    say(f"event {event.author}: call {part.function_call.name}({json.dumps(part.function_call.args)})")
                elif part.function_response:
                    response = json.dumps(part.function_response.response, sort_keys=True, default=repr)
                    say(f"event {event.author}: response {part.function_response.name} {response}")
                elif part.text:
                    say(f"event {event.author}: {part.text!r}")
    except Exception as exc:  # the symptom: the lookup error ends the run
        run_error = first_line(exc)
        say(f"run_async raised {run_error}")
    sent = None
    for request in llm.requests[1:]:
        for content in request.contents:
            for part in content.parts or []:
                if part.function_response and part.function_response.name == called:
                    sent = json.dumps(part.function_response.response, sort_keys=True, default=repr)
    say(f"get_weather ran for {TOOL_RUNS}; model calls: {len(llm.requests)}; function response sent: {sent}")
    return dict(
        called=called, answers=answers, seen=seen, run_error=run_error, model_calls=len(llm.requests), sent=sent,
        tool_runs=list(TOOL_RUNS),
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the callback is called with the lookup error and its answer reaches the model (#2933,
    #4005; the control: with the tool's own error); when the callback declines, the unknown call must not succeed
    (the lookup error ends the run or reaches the model as an error) and no other tool runs in its place."""
    called, seen, failed, sent, calls = (facts[k] for k in ("called", "seen", "run_error", "sent", "model_calls"))
    answer = json.dumps(ANSWER, sort_keys=True)
    if not facts["answers"]:
        if facts["tool_runs"]:
            return "reproduced", f"get_weather ran for {facts['tool_runs']} in place of the unknown {called}"
        if failed is not None and called in failed and sent is None and calls == 1:
            return "fixed", f"the callback declined ({len(seen)} call(s)) and the lookup error ended the run: {failed}"
        if failed is None and sent is not None and calls == 2:
            if "error" in json.loads(sent):
                return "fixed", f"the callback declined ({len(seen)} call(s)); the model was sent the lookup error"
            return "reproduced", f"the unknown call succeeded: the model was sent {sent}"
        return "unexpected", f"callback calls {seen}, run error {failed}, model calls {calls}, sent {sent}"
    if len(seen) == 1 and seen[0].startswith(called) and sent == answer and failed is None and calls == 2:
        return "fixed", f"on_tool_error_callback was called ({seen[0]}) and the model was sent its answer"
    if not seen and failed is not None and sent is None:
        return "reproduced", f"on_tool_error_callback was never called; the run ended with {failed}"
    return "unexpected", f"callback calls {seen}, run error {failed}, model calls {calls}, sent {sent}"


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
