# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: an agent after a ParallelAgent does not see the group's replies once the pattern is nested.

Upstream: https://github.com/google/adk-python/issues/3470 (and PR
https://github.com/google/adk-python/pull/3889, shown open). `SequentialAgent[ParallelAgent[A, B],
reducer]` works: the reducer's request holds A's and B's replies. Nested in an outer ParallelAgent
(one such track per branch), the reducer sees neither; and in `SequentialAgent[ParallelAgent[A, B],
ParallelAgent[C, D]]` (the thread's second comment) C sees neither A nor B. An agent's request keeps
only events whose branch is its own or an ancestor of it (`_is_event_belongs_to_branch`,
flows/llm_flows/contents.py): A's branch `...group_1.a1` is a descendant of the reducer's, and in the
chain `group_1.a1` and `group_2.a2` are neither, so a finished group's replies are filtered out like a
running sibling's.

Scripted `BaseLlm`s (each answers once with a text) and the framework's own runner and in-memory
session service. Each agent answers only after the agent before it in a fixed order has been
recorded, so the session holds one order on every release. Cases: `nested-reducer` (#3470's
description), `parallel-after-parallel` (its comment); `control-single-reducer` (a control: the pattern
alone, which the thread says works); `other-track-hidden` (a fix could go too far: the nested reducer
must still not see the other track's agents, which run beside it). Prints the branch of each agent's
request and what it held.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

# tree: which agent tree runs; viewer: the agent whose request is read; sees / hides: whose replies that
# request must hold / must not hold.
CASES = {
    "nested-reducer": dict(tree="nested", viewer="reducer_1", sees=("a1", "b1"), hides=()),
    "parallel-after-parallel": dict(tree="chain", viewer="a2", sees=("a1", "b1"), hides=()),
    "control-single-reducer": dict(tree="single", viewer="reducer_1", sees=("a1", "b1"), hides=()),
    # The outer ParallelAgent's tracks run side by side: track_2's replies are recorded before reducer_1
    # asks, and must stay out of its request (the isolation the branches exist for).
    "other-track-hidden": dict(tree="nested", viewer="reducer_1", sees=(), hides=("a2", "b2")),
}
QUESTION = "Summarise the findings."
# The order the agents answer in (each waits until the one before it is recorded).
ORDER = {
    "nested": ("a2", "b2", "reducer_2", "a1", "b1", "reducer_1"),
    "chain": ("a1", "b1", "a2", "b2"),
    "single": ("a1", "b1", "reducer_1"),
}
WAIT = 10.0  # seconds an agent waits at most for the one before it (never reached on a release measured)


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session services are synchronous."""
    return await value if inspect.isawaitable(value) else value


def reply(who):
    """The text agent ``who`` answers with."""
    return f"{who} found {len(who) * 7}."


async def observe(say, tree, viewer, sees, hides):
    """Run the tree once; say what each agent's request held; return what the verdict reads."""
    from google.adk.agents import LlmAgent, ParallelAgent, SequentialAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    order = ORDER[tree]
    recorded = {who: asyncio.Event() for who in order}
    requests, timed_out = {}, []

    class Scripted(BaseLlm):
        """Notes the request's texts, waits for the agent before it in ORDER, answers with reply(who)."""

        who: str = ""

        async def generate_content_async(self, llm_request, stream=False):
            texts = [p.text for c in llm_request.contents or [] for p in c.parts or [] if p.text]
            requests.setdefault(self.who, []).append(texts)
            before = order.index(self.who) - 1
            if before >= 0:
                try:
                    await asyncio.wait_for(recorded[order[before]].wait(), WAIT)
                except (TimeoutError, asyncio.TimeoutError):  # two classes before Python 3.11
                    timed_out.append(self.who)
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=reply(self.who))]))

    def agent(who):
        return LlmAgent(name=who, model=Scripted(model=f"{who}-model", who=who), instruction=f"You are {who}.")

    def group(n):
        return ParallelAgent(name=f"group_{n}", sub_agents=[agent(f"a{n}"), agent(f"b{n}")])

    def track(n):
        return SequentialAgent(name=f"track_{n}", sub_agents=[group(n), agent(f"reducer_{n}")])

    if tree == "nested":
        root = ParallelAgent(name="fan_out", sub_agents=[track(1), track(2)])
    elif tree == "chain":
        root = SequentialAgent(name="pipeline", sub_agents=[group(1), group(2)])
    else:
        root = track(1)
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=root, session_service=sessions)
    session = await settled(sessions.create_session(app_name="repro", user_id="u"))
    question = types.Content(role="user", parts=[types.Part(text=QUESTION)])
    branches = {}
    async for event in runner.run_async(user_id="u", session_id=session.id, new_message=question):
        if event.author in recorded and event.content and any(p.text for p in event.content.parts or []):
            branches[event.author] = event.branch
            recorded[event.author].set()
    for who in order:
        for texts in requests.get(who, []):
            held = [other for other in order if other != who and any(reply(other) in text for text in texts)]
            say(f"{who} (branch {branches.get(who)}) request: the question {'held' if QUESTION in texts else 'missing'}"
                f", replies of {', '.join(held) or 'no other agent'}")  # fmt: skip
    asked = requests.get(viewer, [])
    held = [[other for other in order if any(reply(other) in text for text in texts)] for texts in asked]
    return dict(
        viewer=viewer, sees=list(sees), hides=list(hides), requests=len(asked), held=held[0] if held else [],
        question=bool(asked) and QUESTION in asked[0], timed_out=timed_out,
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the viewer's request holds the replies it must see and none it must not."""
    viewer, held = facts["viewer"], facts["held"]
    if facts["timed_out"]:
        return "unexpected", f"{', '.join(facts['timed_out'])} waited {WAIT:g} s in vain: the agents did not run"
    if facts["requests"] != 1 or not facts["question"]:
        return (
            "unexpected",
            f"{viewer}'s model was called {facts['requests']} times, question held: {facts['question']}",
        )
    seen = [who for who in facts["sees"] if who in held]
    leaked = [who for who in facts["hides"] if who in held]
    figures = f"{viewer}'s request holds the replies of {', '.join(held) or 'no other agent'}"
    if facts["hides"]:
        if leaked:
            return "reproduced", f"{figures}: {', '.join(leaked)} of the other track leaked in"
        return "fixed", f"{figures}: none of {', '.join(facts['hides'])} (the other track)"
    if seen == facts["sees"]:
        return "fixed", figures
    if not seen:
        return "reproduced", f"{figures}: none of {', '.join(facts['sees'])}, which answered before it"
    return "unexpected", f"{figures}: only part of {', '.join(facts['sees'])}"


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
