# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a repeated identical tool call runs the tool again.

Upstream: https://github.com/google/adk-python/issues/3940; the fix proposed in
https://github.com/google/adk-python/pull/7193 (successor of #4189) adds an opt-in
`RunConfig.dedupe_tool_calls`: within one invocation, identical calls (same agent, branch, tool
name and canonical arguments) share one tool execution, and each duplicate still gets its own
function response event, marked `custom_metadata['adk_tool_call_cache_hit']`.

A scripted `BaseLlm` repeats get_weather(city='Paris') in the next model step (`across-steps`),
twice in one response while the slow tool runs (`same-step`), or with its arguments in another
key order (`reordered-args`); `different-args` is a control (Paris, then London: both must run).
The run passes `RunConfig(dedupe_tool_calls=True)` where RunConfig has the field. Prints the
session's events, the tool's executions and the model calls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

PARIS = {"city": "Paris"}
PARIS_C = {"city": "Paris", "unit": "C"}
ANSWER = "It is sunny in Paris."
# A model turn: a list of get_weather arguments (one call each, in one response), or the answer.
CASES = {
    "across-steps": dict(turns=([PARIS], [PARIS], ANSWER)),
    "same-step": dict(turns=([PARIS, PARIS], ANSWER)),
    "reordered-args": dict(turns=([PARIS_C], [{"unit": "C", "city": "Paris"}], ANSWER)),
    "different-args": dict(turns=([PARIS], [{"city": "London"}], "It is sunny in Paris and in London."), same=False),
}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def canonical(args):
    """The arguments as the fix compares them: key order does not matter."""
    return json.dumps(args or {}, sort_keys=True)


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, turns, same=True):
    """Ask once while the model plays `turns`; say the session; return what the verdict reads."""
    from google.adk.agents import LlmAgent, RunConfig
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.adk.tools import ToolContext
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """Plays the turns in order."""

        turns: list
        calls: int = 0

        async def generate_content_async(self, llm_request, stream=False):
            turn = self.turns[self.calls]
            self.calls += 1
            if isinstance(turn, str):
                parts = [types.Part(text=turn)]
            else:
                parts = [types.Part(function_call=types.FunctionCall(name="get_weather", args=a)) for a in turn]
            yield LlmResponse(content=types.Content(role="model", parts=parts))

    executions = []

    async def get_weather(city: str, tool_context: ToolContext, unit: str = "C") -> dict:
        """Returns the current weather in a city."""
        executions.append((tool_context.function_call_id, {"city": city, "unit": unit}))
        await asyncio.sleep(0.05)  # a slow tool: a same-step duplicate arrives while it runs
        return {"city": city, "unit": unit, "forecast": "sunny"}

    llm = ScriptedLlm(model="scripted", turns=list(turns))
    agent = LlmAgent(
        name="weather_agent", model=llm, instruction="Answer weather questions with get_weather.", tools=[get_weather]
    )
    if "dedupe_tool_calls" in RunConfig.model_fields:
        config = RunConfig(dedupe_tool_calls=True)
        say("run_config dedupe_tool_calls=True")
    else:
        config = RunConfig()
        say("run_config default (this RunConfig has no dedupe_tool_calls)")
    if agent.before_tool_callback:  # none here; a patched build of the framework may add them
        say(f"tool callbacks: {agent.before_tool_callback.__doc__}")
    sessions = InMemorySessionService()
    runner = Runner(app_name="weather_app", agent=agent, session_service=sessions)
    session = await settled(sessions.create_session(app_name="weather_app", user_id="u"))
    message = types.Content(role="user", parts=[types.Part(text="What is the weather in Paris?")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message, run_config=config):
        pass
    session = await settled(sessions.get_session(app_name="weather_app", user_id="u", session_id=session.id))
    names = {}  # call id -> call-N, in order of appearance

    def name(call_id):
        return names.setdefault(call_id, f"call-{len(names) + 1}")

    calls, answered, cache_hits = [], set(), 0
    for event in session.events:
        shown = []
        for part in event.content.parts if event.content and event.content.parts else []:
            fc, fr = part.function_call, part.function_response
            if fc:
                calls.append((name(fc.id), canonical(fc.args)))
                shown.append(f"call {name(fc.id)} get_weather({json.dumps(fc.args)})")
            elif fr:
                answered.add(name(fr.id))
                shown.append(f"response {name(fr.id)} -> {canonical(fr.response)}")
            else:
                shown.append(repr(part.text))
        hit = (getattr(event, "custom_metadata", None) or {}).get("adk_tool_call_cache_hit")
        cache_hits += bool(hit)
        say(f"{event.author}: {' '.join(shown)}{' [cache-hit]' if hit else ''}")
    # same-step runs the two calls as concurrent tasks: list executions in the order of their calls.
    order = {call: i for i, (call, _) in enumerate(calls)}
    runs = sorted(((name(c), canonical(a)) for c, a in executions), key=lambda run: order.get(run[0], len(order)))
    for call, args in runs:
        say(f"executed get_weather({args}) for {call}")
    say(f"model calls: {llm.calls}")
    return dict(calls=calls, answered=answered, executions=runs, cache_hits=cache_hits, same=same)


def judge(facts):
    """(outcome, detail): identical calls share one run, each answered; distinct calls each run."""
    calls, runs = facts["calls"], facts["executions"]
    unanswered = [c for c, _ in calls if c not in facts["answered"]]
    n, k = len(runs), len(calls)
    kind = "identical" if facts["same"] else "distinct"
    figures = f"get_weather executed {n} time{'s' if n != 1 else ''} for {k} {kind} calls"
    args = [a for _, a in calls]
    if k != 2 or len(set(args)) != (1 if facts["same"] else 2):
        return "unexpected", f"the session holds {k} get_weather calls with arguments {args}, expected 2 {kind} calls"
    if facts["same"]:
        if n == 2:
            return "reproduced", figures + ", expected 1"
        if n == 1 and not unanswered:
            hits = facts["cache_hits"]
            return (
                "fixed",
                f"{figures}; both calls answered, {hits} response event{'s' if hits != 1 else ''} marked as cache hit",
            )
        return (
            "unexpected",
            f"{figures}, expected 1 shared execution answering both; unanswered: {unanswered or 'none'}",
        )
    dropped = [c for c, _ in calls if c not in {c for c, _ in runs}]
    if n == 2 and not dropped and not unanswered:
        return "fixed", figures + "; both calls answered"
    if n == 1 and len(dropped) == 1:
        fate = "got no function response" if dropped[0] in unanswered else "was answered from the other call's run"
        return "reproduced", f"{figures}, expected 2: {dropped[0]} did not run and {fate}"
    return "unexpected", f"{figures}; calls that never ran: {dropped or 'none'}; unanswered: {unanswered or 'none'}"


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
