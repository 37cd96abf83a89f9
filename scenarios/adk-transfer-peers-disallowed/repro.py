# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: an agent with `disallow_transfer_to_peers=True` can still transfer to a sibling.

Upstream: https://github.com/google/adk-python/issues/3850 (and the closed PR
https://github.com/google/adk-python/pull/3862). The flag only removed the sibling from the prompt;
the flow ran whatever agent `transfer_to_agent` named. The fix refuses the transfer by raising
(`_get_agent_to_run` in the 1.x flow; `resolve_and_derive_transfer_context` in the 2.x workflow path).

Tree: `root` (sub-agents `agent_a`, `agent_b`), each with a scripted `BaseLlm`: root transfers to
agent_a, which calls `transfer_to_agent(agent_name="agent_b")`. Case `sibling`: agent_a has the flag,
agent_b must not run. Case `peers-allowed` (a control): without the flag, agent_b must run.
Prints every event run_async yielded, how the run ended and each agent's model calls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

CASES = {"sibling": dict(disallow=True), "peers-allowed": dict(disallow=False)}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, disallow):
    """Run the tree once; say the events and the model calls; return what the verdict reads."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class Scripted(BaseLlm):
        reply: dict = {}  # noqa: RUF012  # a pydantic field: each instance gets its own copy
        calls: int = 0

        async def generate_content_async(self, llm_request, stream=False):
            self.calls += 1
            part = types.Part(**self.reply) if self.calls == 1 else types.Part(text="(called again)")
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    def transfer(name):
        return dict(function_call=types.FunctionCall(name="transfer_to_agent", args={"agent_name": name}))

    llms = {
        "root": Scripted(model="root-model", reply=transfer("agent_a")),
        "agent_a": Scripted(model="a-model", reply=transfer("agent_b")),
        "agent_b": Scripted(model="b-model", reply=dict(text="agent_b answered")),
    }
    agent_a = LlmAgent(
        name="agent_a", model=llms["agent_a"], description="Handles account questions.",
        instruction="Help the user.", disallow_transfer_to_peers=disallow,
    )  # fmt: skip
    agent_b = LlmAgent(name="agent_b", model=llms["agent_b"], description="Exports data.", instruction="Export.")
    root = LlmAgent(name="root", model=llms["root"], instruction="Route the user.", sub_agents=[agent_a, agent_b])
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=root, session_service=sessions)
    session = await settled(sessions.create_session(app_name="repro", user_id="u"))
    question = types.Content(role="user", parts=[types.Part(text="Please export my data.")])
    ended, a_transfers = "completed", 0
    try:
        async for event in runner.run_async(user_id="u", session_id=session.id, new_message=question):
            shown = []
            for part in event.content.parts if event.content and event.content.parts else []:
                if part.function_call:
                    shown.append(f"call {part.function_call.name}({json.dumps(part.function_call.args)})")
                    a_transfers += event.author == "agent_a" and part.function_call.name == "transfer_to_agent"
                elif part.function_response:
                    shown.append(f"response {part.function_response.name}")
                else:
                    shown.append(repr(part.text))
            if event.actions and event.actions.transfer_to_agent:
                shown.append(f"actions.transfer_to_agent={event.actions.transfer_to_agent}")
            say(f"{event.author}: {' '.join(shown) or '<no content>'}")
    except Exception as exc:  # the fixed releases refuse the transfer by raising
        ended = f"{type(exc).__name__}: {exc}"
    calls = {name: llm.calls for name, llm in llms.items()}
    say(f"run ended: {ended}")
    say("model calls: " + ", ".join(f"{k}={v}" for k, v in calls.items()))
    return dict(disallow=disallow, calls=calls, ended=ended, a_transfers=a_transfers)


def judge(facts):
    """(outcome, detail): with the flag agent_b must not run; without it (the control) it must."""
    calls = facts["calls"]
    figures = (
        f"agent_a asked to transfer {facts['a_transfers']} time(s); agent_b's model called {calls['agent_b']} "
        f"time(s); run ended: {facts['ended']}"
    )
    if calls["root"] != 1 or calls["agent_a"] != 1 or facts["a_transfers"] != 1:
        return "unexpected", figures + ": the run never reached agent_a's transfer call"
    ran = calls["agent_b"] == 1 and facts["ended"] == "completed"
    if facts["disallow"]:
        if calls["agent_b"] == 0:
            return "fixed", figures
        if ran:
            return "reproduced", figures + ": the sibling ran although agent_a has disallow_transfer_to_peers=True"
    else:
        if ran:
            return "fixed", figures
        if calls["agent_b"] == 0:
            return "reproduced", figures + ": a sibling transfer was refused although peers are allowed"
    return "unexpected", figures


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
