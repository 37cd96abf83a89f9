# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a root agent's `output_key` does not capture the reply of the sub-agent it transferred to.

Upstream: https://github.com/google/adk-python/issues/3758. The agent-team tutorial says `output_key`
saves "the agent's final textual response for a turn", the delegated sub-agent's included; but
`LlmAgent.__maybe_save_output_to_state` (agents/llm_agent.py) returns early for every event another
agent authored, so once the root transfers, its key is never written.

A root LlmAgent with `output_key="last_reply"` and a sub-agent `greeter`, each on a scripted `BaseLlm`.
Cases: `transferred` (the bug: the root transfers to greeter, which answers); `root-replies` (a control:
the root answers itself, its key holds its reply); `sequential-sibling` (a fix could go too far: in a
SequentialAgent [writer (output_key "draft"), reviewer] the writer's key keeps the writer's reply, not
its sibling's). Prints the events the run yielded with their state deltas and the stored state.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

CASES = {
    "transferred": dict(tree="transfer"),
    "root-replies": dict(tree="root"),
    "sequential-sibling": dict(tree="sequential"),
}
GREETING = "Hello, there!"
ROOT_REPLY = "I can answer that myself."
DRAFT = "Draft: ship on Friday."
REVIEW = "Looks good."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session services are synchronous."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, tree):
    """Run the tree once; say the events and the stored state; return what the verdict reads."""
    from google.adk.agents import LlmAgent, SequentialAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class Scripted(BaseLlm):
        """Answers its first call with `reply` (a part's fields), every later one with a text saying so."""

        reply: dict = {}  # noqa: RUF012 (a pydantic field: each instance gets its own copy)
        calls: int = 0

        async def generate_content_async(self, llm_request, stream=False):
            self.calls += 1
            part = types.Part(**self.reply) if self.calls == 1 else types.Part(text="(called again)")
            yield LlmResponse(content=types.Content(role="model", parts=[part]))

    transfer = dict(function_call=types.FunctionCall(name="transfer_to_agent", args={"agent_name": "greeter"}))
    if tree == "sequential":
        llms = {"writer": Scripted(model="w-model", reply=dict(text=DRAFT)),
                "reviewer": Scripted(model="r-model", reply=dict(text=REVIEW))}  # fmt: skip
        writer = LlmAgent(name="writer", model=llms["writer"], instruction="Write a draft.", output_key="draft")
        reviewer = LlmAgent(name="reviewer", model=llms["reviewer"], instruction="Review the draft.")
        root, key = SequentialAgent(name="pipeline", sub_agents=[writer, reviewer]), "draft"
    else:
        llms = {"root": Scripted(model="root-model", reply=transfer if tree == "transfer" else dict(text=ROOT_REPLY)),
                "greeter": Scripted(model="g-model", reply=dict(text=GREETING))}  # fmt: skip
        greeter = LlmAgent(name="greeter", model=llms["greeter"], instruction="Greet.", description="Greets the user.")
        root = LlmAgent(
            name="root", model=llms["root"], instruction="Route the user.", output_key="last_reply",
            sub_agents=[greeter],
        )  # fmt: skip
        key = "last_reply"
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=root, session_service=sessions)
    session = await settled(sessions.create_session(app_name="repro", user_id="u"))
    question = types.Content(role="user", parts=[types.Part(text="Hi!")])
    async for event in runner.run_async(user_id="u", session_id=session.id, new_message=question):
        shown = []
        for part in event.content.parts if event.content and event.content.parts else []:
            if part.function_call:
                shown.append(f"call {part.function_call.name}({json.dumps(part.function_call.args)})")
            elif part.function_response:
                shown.append(f"response {part.function_response.name}")
            elif part.text:
                shown.append(repr(part.text))
        delta = dict(event.actions.state_delta) if event.actions and event.actions.state_delta else {}
        say(
            f"{event.author}: {' '.join(shown) or '<no content>'}"
            + (f" state_delta={json.dumps(delta)}" if delta else "")
        )
    stored = await settled(sessions.get_session(app_name="repro", user_id="u", session_id=session.id))
    state = dict(stored.state)
    calls = {name: llm.calls for name, llm in llms.items()}
    say(f"stored state: {json.dumps(state, sort_keys=True)}")
    say("model calls: " + ", ".join(f"{k}={v}" for k, v in calls.items()))
    return dict(tree=tree, key=key, state=state, calls=calls)


WANTED = {"transfer": GREETING, "root": ROOT_REPLY, "sequential": DRAFT}


def judge(facts):
    """(outcome, detail): the root's output_key holds the delegated greeter's reply (#3758); the root's own
    reply (control); in a pipeline the writer's key keeps the writer's reply (non-regression)."""
    tree, key, state, calls = facts["tree"], facts["key"], facts["state"], facts["calls"]
    expected_calls = {"root": 1, "greeter": 0} if tree == "root" else dict.fromkeys(calls, 1)
    if calls != expected_calls:
        return "unexpected", f"model calls {calls}, expected {expected_calls}"
    got, wanted = state.get(key), WANTED[tree]
    figures = f"state[{key!r}] = {got!r}"
    if got == wanted:
        return "fixed", figures
    if tree == "transfer" and got is None:
        return "reproduced", figures + f": the root transferred to greeter, whose reply was {GREETING!r}"
    if tree == "root" and got is None:
        return "reproduced", figures + f": the root's own reply {ROOT_REPLY!r} was not saved"
    if tree == "sequential" and got == REVIEW:
        return "reproduced", figures + f": the reviewer's reply overwrote the writer's {DRAFT!r}"
    return "unexpected", figures + f", expected {wanted!r}"


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
