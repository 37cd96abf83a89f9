"""adk-loop-nested-escalate: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess


def _loop_between(loop, author_name):
    """True when another LoopAgent sits between ``loop`` and the agent named ``author_name``."""
    from google.adk.agents import LoopAgent

    agent = loop.find_agent(author_name)
    while agent is not None and agent is not loop:
        if isinstance(agent, LoopAgent) and agent.name != author_name:
            return True
        agent = agent.parent_agent
    return False


@contextlib.contextmanager
def _loop_patched(scoped):
    """LoopAgent._run_async_impl replaced: scoped, it stops only for escalations no nested LoopAgent
    handled (PR #535's review); otherwise it never sees an escalation (the control broken)."""
    from google.adk.agents import LoopAgent

    original = LoopAgent.__dict__["_run_async_impl"]

    async def _scoped(self, ctx):
        times = 0
        while self.max_iterations is None or times < self.max_iterations:
            for sub_agent in self.sub_agents:
                should_exit = False
                async for event in sub_agent.run_async(ctx):
                    yield event
                    if event.actions.escalate and not _loop_between(self, event.author):
                        should_exit = True
                if should_exit:
                    return
            times += 1

    async def _ignored(self, ctx):
        for _ in range(self.max_iterations or 1):
            for sub_agent in self.sub_agents:
                async for event in sub_agent.run_async(ctx):
                    yield event

    LoopAgent._run_async_impl = _scoped if scoped else _ignored
    try:
        yield
    finally:
        LoopAgent._run_async_impl = original


BUG_INSTALLED = AsInstalled("the pinned release: LoopAgent stops on any escalation, whoever raised it (still open)")
SCOPED = InProcess(
    "LoopAgent._run_async_impl stops only for escalations with no LoopAgent between it and the author",
    lambda: _loop_patched(scoped=True),
)
CONTROL_HOLDS = AsInstalled("the pinned release: exit_loop stops a single loop")
ESCALATION_IGNORED = InProcess("LoopAgent._run_async_impl ignores escalations", lambda: _loop_patched(scoped=False))


def one_more(key):
    """An edge's alter: one more exit_loop call ("exit_calls") or one more run of the agent ``key``."""

    def alter(obs):
        counts = obs.facts if key == "exit_calls" else obs.facts["runs"]
        counts[key] += 1

    return alter


AFTER_INNER, AFTER_LOOP, EXIT_CALL = one_more("after_inner"), one_more("after_loop"), one_more("exit_calls")

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/526",
        "https://github.com/google/adk-python/issues/2808",
        "https://github.com/google/adk-python/pull/535",
        "https://github.com/google/adk-python/pull/6842",
    ),
    description=(
        "An escalation that ends a LoopAgent nested inside another LoopAgent (exit_loop, or a custom agent's "
        "EventActions(escalate=True)) also ends the outer loop: its remaining steps and iterations never run."
    ),
    expected=(
        "The escalation ends the loop it was raised in; the outer loop runs its next steps and iterations "
        "until its own exit or max_iterations."
    ),
    claims=Claim(pr="#535", pr_state="open", still_open=True, source="repro.py docstring: 'PR #535 (open)'"),
    cases={
        "inner-exit-loop": CaseRole(
            "outer(max 2)[inner(max 3)[worker: exit_loop], after_inner]: the outer loop must run twice",
            reproduced=BUG_INSTALLED, fixed=SCOPED,
            # Observations no build makes, one step across a line of the judge (nox -s mutants).
            edges=(
                Edge("unexpected", "after_inner ran once more than the outer loop's iterations", AFTER_INNER, SCOPED),
                Edge("unexpected", "exit_loop called once more", EXIT_CALL, SCOPED),
                Edge("unexpected", "after_inner ran once though the outer loop stopped", AFTER_INNER),
                Edge("unexpected", "exit_loop called twice though the outer loop stopped", EXIT_CALL),
            ),
        ),
        "inner-escalation-checker": CaseRole(
            "#2808: inner[step, checker every 3rd] in outer[inner, checker at 2nd]: expect 6 steps, 2 outer checks",
            reproduced=BUG_INSTALLED, fixed=SCOPED,
            edges=(
                Edge("unexpected", "one inner step more", one_more("step"), SCOPED),
                Edge("unexpected", "one outer check more", one_more("outer_checker"), SCOPED),
                Edge("unexpected", "one inner step more, the outer loop stopped", one_more("step")),
                Edge("unexpected", "one outer check, the outer loop stopped after it", one_more("outer_checker")),
            ),
        ),
        "exit-stops-loop": CaseRole(
            "control: Sequential[loop(max 3)[worker: exit_loop], after_loop]: one exit, after_loop once",
            reproduced=ESCALATION_IGNORED, fixed=CONTROL_HOLDS, control=True,
            edges=(
                Edge("unexpected", "after_loop ran twice", AFTER_LOOP),
                Edge("reproduced", "exit_loop called twice: the first did not stop the loop", EXIT_CALL),
                Edge("unexpected", "after_loop ran twice, exit_loop ignored", AFTER_LOOP, ESCALATION_IGNORED),
            ),
        ),
    },
)  # fmt: skip
