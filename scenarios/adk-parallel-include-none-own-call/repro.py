# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a ParallelAgent sub-agent with `include_contents='none'` loses its own function call.

Upstream: https://github.com/google/adk-python/issues/3612 and, the same code path with two calls in
one response, https://github.com/google/adk-python/issues/2770 (IndexError). With
`include_contents='none'` the request holds only the current turn: `_get_current_turn_contents`
(flows/llm_flows/contents.py) scans the session backward for the event that starts the turn, the
user's message or another agent's reply, before it filters by branch. Under a ParallelAgent the
sibling's events interleave with the agent's own, so the turn "starts" at the sibling's event, after
the agent's own function call: the branch filter then drops the sibling's event and the agent's
follow-up request has lost its call (the response alone; or nothing, once lone responses are dropped;
or an IndexError in `_rearrange_events_for_latest_function_response`, which read `events[-2]`).

A ParallelAgent [agent_a, agent_b], both `include_contents='none'`, scripted `BaseLlm`s: each calls the
tool `lookup` (once, or twice in one response), then answers. agent_b's model calls its tool only
once agent_a's call is recorded, and agent_a's tool returns only once agent_b has answered, so agent_b's
events sit between agent_a's call and its response, in one order on every release. Cases:
`interleaved` (#3612: one call each), `parallel-calls` (#2770: two calls each); `single-agent` (a
control: an agent alone keeps its call); `sequential-reply` (a fix could go too far: in a
SequentialAgent the turn of an agent with `include_contents='none'` still starts at the previous
agent's reply). Prints the session's events in order, each model request's contents, how the run ended.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

CASES = {
    "interleaved": dict(tree="parallel", calls=1),
    "parallel-calls": dict(tree="parallel", calls=2),
    "single-agent": dict(tree="single", calls=1),
    "sequential-reply": dict(tree="sequential", calls=0),
}
QUESTION = "What is the weather in Paris and in Rome?"
DRAFT = "Paris is sunny."
WAIT = 10.0  # seconds each agent waits at most for the other's event (never reached on a release measured)


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session services are synchronous."""
    return await value if inspect.isawaitable(value) else value


def shown(contents):
    """One request's (or event's) contents as short words: texts, calls with their arguments, responses."""
    words = []
    for content in contents:
        for part in content.parts or []:
            if part.function_call:
                words.append(f"{content.role}:call {part.function_call.name}({json.dumps(part.function_call.args)})")
            elif part.function_response:
                city = (part.function_response.response or {}).get("city")
                words.append(f"{content.role}:response {part.function_response.name}({city})")
            elif part.text is not None:
                words.append(f"{content.role}:{part.text!r}")
    return words


async def observe(say, tree, calls):
    """Run the tree once; say the events and the requests; return what the verdict reads."""
    from google.adk.agents import LlmAgent, ParallelAgent, SequentialAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    a_called, b_answered = asyncio.Event(), asyncio.Event()
    waited = {"interleaved": tree != "parallel"}

    class Scripted(BaseLlm):
        """First call: `calls` calls of lookup (or the text `reply`); then the text `reply`."""

        who: str = ""
        reply: str = ""
        calls: int = 0
        requests: list = []  # noqa: RUF012 (a pydantic field: each instance gets its own copy)

        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(shown(llm_request.contents or []))
            if len(self.requests) == 1 and self.who == "b" and tree == "parallel":
                await wait(a_called)  # agent_a's call first, agent_b's next: one order on every release
            if len(self.requests) == 1 and self.calls:
                parts = [
                    types.Part(function_call=types.FunctionCall(name="lookup", args={"city": f"{self.who}-{n}"}))
                    for n in range(1, self.calls + 1)
                ]
            else:
                parts = [types.Part(text=self.reply)]
            yield LlmResponse(content=types.Content(role="model", parts=parts))

    async def wait(signal):
        try:
            await asyncio.wait_for(signal.wait(), WAIT)
        except TimeoutError:
            return False
        return True

    async def lookup(city: str) -> dict:
        """The weather of a city."""
        if city.startswith("a-") and tree == "parallel":
            waited["interleaved"] = await wait(b_answered)  # agent_b's events between agent_a's call and response
        return {"city": city, "weather": "sunny"}

    def agent(name, llm, include="none", tools=True):
        return LlmAgent(
            name=name, model=llm, instruction="Answer with the tool's result.", include_contents=include,
            tools=[lookup] if tools else [],
        )  # fmt: skip

    if tree == "parallel":
        llms = {who: Scripted(model=f"{who}-model", who=who[-1], reply=f"{who} answered", calls=calls)
                for who in ("agent_a", "agent_b")}  # fmt: skip
        root = ParallelAgent(name="fan_out", sub_agents=[agent(who, llm) for who, llm in llms.items()])
    elif tree == "single":
        llms = {"agent_a": Scripted(model="a-model", who="a", reply="agent_a answered", calls=calls)}
        root = agent("agent_a", llms["agent_a"])
    else:
        llms = {"writer": Scripted(model="w-model", reply=DRAFT), "reviewer": Scripted(model="r-model", reply="Good.")}
        root = SequentialAgent(name="pipeline", sub_agents=[agent(who, llm, tools=False) for who, llm in llms.items()])
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=root, session_service=sessions)
    session = await settled(sessions.create_session(app_name="repro", user_id="u"))
    question = types.Content(role="user", parts=[types.Part(text=QUESTION)])
    error = where = None
    try:
        async for event in runner.run_async(user_id="u", session_id=session.id, new_message=question):
            if event.author == "agent_a" and event.get_function_calls():
                a_called.set()
            if event.author == "agent_b" and event.content and any(p.text for p in event.content.parts or []):
                b_answered.set()
    except Exception as exc:  # the IndexError of #2770 is the symptom of one case
        while len(getattr(exc, "exceptions", ())) == 1:  # an ExceptionGroup of one (the 2.x task groups)
            exc = exc.exceptions[0]
        error = f"{type(exc).__name__}: {exc}"
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = tb.tb_frame.f_code.co_name if tb is not None else None
    stored = await settled(sessions.get_session(app_name="repro", user_id="u", session_id=session.id))
    for event in stored.events:
        say(f"event {event.author}: {' '.join(shown([event.content])) if event.content else '<no content>'}")
    requests = {who: llm.requests for who, llm in llms.items()}
    for who, asked in requests.items():
        for n, contents in enumerate(asked, 1):
            say(f"{who} request {n}: {' | '.join(contents) or '<no contents>'}")
    say(f"run ended: {error or 'completed'}" + (f" (in {where})" if where else ""))
    first = next(iter(requests.values()))
    if first and not first[0]:
        raise NotApplicable(
            "include_contents='none' sends the model no contents at all, not even the user's message: "
            "this release keeps no current turn"
        )
    return dict(tree=tree, calls=calls, requests=requests, error=error, where=where, **waited)


def _own(words, who):
    """How many of ``who``'s calls and responses (lookup of ``who[-1]``-N) one request holds, and the sibling's."""
    mine = f'"{who[-1]}-'
    own_calls = sum(w.startswith("model:call lookup") and mine in w for w in words)
    own_responses = sum(w.startswith("user:response lookup") and f"({who[-1]}-" in w for w in words)
    sibling = sum(("call lookup" in w and mine not in w) or ("response lookup" in w and f"({who[-1]}-" not in w)
                  for w in words)  # fmt: skip
    return own_calls, own_responses, sibling


def judge(facts):
    """(outcome, detail): agent_a's follow-up request holds its own call and response (#3612); no IndexError
    (#2770); an agent alone keeps its call (control); a reviewer's turn starts at the writer's reply."""
    error, requests, calls = facts["error"], facts["requests"], facts["calls"]
    if facts["tree"] == "sequential":
        if error is not None:
            return "unexpected", f"the run ended with {error}"
        asked = requests["reviewer"]
        if len(asked) != 1:
            return "unexpected", f"the reviewer's model was called {len(asked)} times, expected 1"
        if any(DRAFT in w and "[writer]" in w for w in asked[0]):
            return "fixed", f"the reviewer's request ({len(asked[0])} parts) holds the writer's reply {DRAFT!r}"
        return "reproduced", (
            f"the reviewer's request ({len(asked[0])} parts) lost the writer's reply {DRAFT!r} as another agent's"
        )
    if not facts["interleaved"]:
        return (
            "unexpected",
            f"agent_b never answered within {WAIT:g} s of agent_a's call: the events did not interleave",
        )
    crashed = error is not None and error.startswith("IndexError") and facts["where"] == REARRANGE
    if facts["tree"] == "parallel" and calls == 2 and crashed:
        return "reproduced", f"the run ended with {error} in {REARRANGE} while agent_a's follow-up request was built"
    if error is not None:
        return "unexpected", f"the run ended with {error} (in {facts['where']})"
    asked = requests["agent_a"]
    if len(asked) != 2:
        return "unexpected", f"agent_a's model was called {len(asked)} times, expected 2"
    own_calls, own_responses, sibling = _own(asked[1], "agent_a")
    figures = (
        f"agent_a's follow-up request holds {own_calls} of its {calls} call(s), {own_responses} of its "
        f"{calls} response(s), {sibling} of agent_b's"
    )
    if sibling:
        return "unexpected", figures + ": the sibling's events leaked into agent_a's request"
    if own_calls == calls and own_responses == calls and QUESTION in asked[1][0]:
        return "fixed", figures + ", after the user's message"
    if own_calls == 0:
        if facts["tree"] == "single":
            return "reproduced", figures + ": an agent alone lost its call"
        if calls == 1:
            return "reproduced", figures + ": it lost its own call"
        return "unexpected", figures + ": no IndexError, but agent_a lost its own calls (#3612, case interleaved)"
    return "unexpected", figures


REARRANGE = "_rearrange_events_for_latest_function_response"


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
