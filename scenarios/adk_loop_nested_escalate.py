"""google-adk: an escalation inside a nested LoopAgent also ends every LoopAgent above it.

Symptom (#526, #2808): a ``LoopAgent`` has another ``LoopAgent`` among its sub-agents. When the
inner loop is ended the documented way (a sub-agent escalates: the ``exit_loop`` tool, or a
custom agent yielding ``EventActions(escalate=True)``), the outer loop ends as well: the steps
after the inner loop never run and the outer loop never starts its next iteration. #2808's
shape (an inner loop breaking after 5 steps inside an outer loop breaking after 5
iterations) runs 5 inner steps instead of 25. ``LoopAgent._run_async_impl``
(google/adk/agents/loop_agent.py) yields each event of a sub-agent and then stops when
``event.actions.escalate`` is set, whoever raised it: the inner loop's exit reaches the outer
loop as the same event and stops it too. PR #535 (open) resets ``escalate`` after the inner
loop consumes it (review: do not alter the history; stop only for escalations with no
``LoopAgent`` between this loop and the event's author); PR #6842 (closed) proposed scoped
escalations.

Cases: ``inner-exit-loop`` (#526): ``outer`` (``max_iterations=2``) runs ``inner``
(``max_iterations=3``: a scripted LlmAgent that calls ``exit_loop``) then ``after_inner``;
the outer loop must run twice (``after_inner`` twice, two ``exit_loop`` calls).
``inner-escalation-checker`` (#2808): ``inner`` runs ``step`` then a checker that escalates
on every 3rd call; ``outer`` runs ``inner`` then an outer checker that escalates on its 2nd
call: expected 6 inner steps and 2 outer checks, the bug gives 3 and 0. ``exit-stops-loop`` is
a control: a single ``LoopAgent`` (``max_iterations=3``) whose agent calls ``exit_loop``
inside a ``SequentialAgent``: the loop stops after its first iteration and the step after it
runs once, on every release (the Python ``SequentialAgent`` does not stop on escalations,
unlike adk-go#522).

Timeline: the session's events (author, parts, ``escalate``), then how many times each
agent ran and how many model calls were made.

What the harness found: both cases reproduce on every release run. The bisect from 1.0.0 found
no boundary (reproduced on 1.0.0 and 2.13.0); the matrix reproduces them on 1.39.1 (the last
1.x) and every 2.x line, 2.0.0 through 2.13.0 (the latest); the short scripts in
``scenarios/repro/`` reproduce them on 1.0.0, 1.1.1, 1.15.1, 1.24.0, 1.28.0, 2.0.0 and 2.13.0.
``LoopAgent``'s escalation check never changed scope (loop_agent.py of 1.x and 2.13.0: the
resumable rewrite and the ``max_iterations is None`` test changed, the ``event.actions.escalate``
test did not). Thread state: #526 open, #2808 closed without a fix, PR #535 open, PR #6842
closed; still open on google-adk 2.13.0. The fixed proof is an in-process
``LoopAgent._run_async_impl`` that stops only for escalations with no other ``LoopAgent`` between
it and the author (the review's design on PR #535). The control holds on every release.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Scenario
from harness.runtime.timeline import Placeholders

QUESTION = "Refine the plan."
OUTER_ITERATIONS = 2
INNER_ITERATIONS = 3
INNER_BREAK_EVERY = 3  # the inner checker escalates on its 3rd, 6th... call
OUTER_BREAK_AT = 2  # the outer checker escalates on its 2nd call


def _exit_loop_llm():
    """A scripted model for a loop worker: calls exit_loop, and answers its function response with text.

    Releases before exit_loop set skip_summarization ask the model again after the call;
    later ones do not. Each request is recorded (``llm.requests``).
    """
    from harness.runtime.fakes import adk

    class ExitLoopLlm(adk.ScriptedLlm):
        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(llm_request.contents)
            last = llm_request.contents[-1] if llm_request.contents else None
            answered = last is not None and any(p.function_response for p in (last.parts or []))
            yield adk.text("Done.") if answered else adk.calls(("exit_loop", {}))

    return ExitLoopLlm(model="scripted-exit-loop")


def _counting_agent(name: str, runs: dict[str, int], escalate_on=None):
    """A custom BaseAgent that counts its runs and escalates when ``escalate_on(run)`` says so."""
    from google.adk.agents import BaseAgent
    from google.adk.events import Event, EventActions
    from google.genai import types

    runs.setdefault(name, 0)  # every agent is counted, 0 when it never runs

    class Counting(BaseAgent):
        async def _run_async_impl(self, ctx):
            runs[self.name] += 1
            n = runs[self.name]
            escalate = bool(escalate_on and escalate_on(n))
            yield Event(
                author=self.name,
                invocation_id=ctx.invocation_id,
                content=types.Content(role="model", parts=[types.Part(text=f"{self.name} run {n}")]),
                actions=EventActions(escalate=True) if escalate else EventActions(),
            )

    return Counting(name=name)


async def replay(*, shape: str) -> Observation:
    from google.adk.agents import LlmAgent, LoopAgent, SequentialAgent
    from google.adk.tools import exit_loop

    from harness.runtime.fakes import adk

    runs: dict[str, int] = {}
    llm = None
    if shape == "exit-loop":
        llm = _exit_loop_llm()
        worker = LlmAgent(name="worker", model=llm, instruction="Call exit_loop when done.", tools=[exit_loop])
        inner = LoopAgent(name="inner", max_iterations=INNER_ITERATIONS, sub_agents=[worker])
        root = LoopAgent(
            name="outer", max_iterations=OUTER_ITERATIONS, sub_agents=[inner, _counting_agent("after_inner", runs)]
        )
    elif shape == "checker":
        inner = LoopAgent(
            name="inner",
            sub_agents=[
                _counting_agent("step", runs),
                _counting_agent("inner_checker", runs, lambda n: n % INNER_BREAK_EVERY == 0),
            ],
        )
        root = LoopAgent(
            name="outer", sub_agents=[inner, _counting_agent("outer_checker", runs, lambda n: n >= OUTER_BREAK_AT)]
        )
    else:  # the control: one loop, exit_loop, a step after it
        llm = _exit_loop_llm()
        worker = LlmAgent(name="worker", model=llm, instruction="Call exit_loop when done.", tools=[exit_loop])
        loop = LoopAgent(name="loop", max_iterations=INNER_ITERATIONS, sub_agents=[worker])
        root = SequentialAgent(name="pipeline", sub_agents=[loop, _counting_agent("after_loop", runs)])
    session = await adk.run_agent(root, QUESTION)
    ids = Placeholders()
    exit_calls = sum(
        1
        for e in session.events
        if e.content and any(p.function_call and p.function_call.name == "exit_loop" for p in (e.content.parts or []))
    )
    timeline = [
        *adk.session_timeline(session.events, ids),
        "runs: " + (", ".join(f"{name} {n}" for name, n in sorted(runs.items())) or "none"),
        f"exit_loop calls: {exit_calls}",
        *([adk.model_calls_line(llm)] if llm is not None else []),
    ]
    return Observation(timeline=timeline, facts={"runs": runs, "exit_calls": exit_calls})


def judge_inner_exit_loop(obs: Observation):
    """The outer loop goes on after the inner loop's exit_loop."""
    after, calls = obs.facts["runs"]["after_inner"], obs.facts["exit_calls"]
    figures = f"after_inner ran {after} times, exit_loop called {calls} times"
    if after == OUTER_ITERATIONS and calls == OUTER_ITERATIONS:
        return fixed(f"{figures}: the outer loop ran its {OUTER_ITERATIONS} iterations")
    if after == 0 and calls == 1:
        return reproduced(f"{figures}: the inner loop's exit_loop ended the outer loop too")
    return unexpected(f"{figures}, expected {OUTER_ITERATIONS} and {OUTER_ITERATIONS}")


def judge_inner_checker(obs: Observation):
    """#2808: the inner loop's escalation ends the inner loop only."""
    runs = obs.facts["runs"]
    steps, outer = runs["step"], runs["outer_checker"]
    figures = f"{steps} inner steps, {outer} outer checks"
    if steps == INNER_BREAK_EVERY * OUTER_BREAK_AT and outer == OUTER_BREAK_AT:
        return fixed(f"{figures}: each escalation ended its own loop")
    if steps == INNER_BREAK_EVERY and outer == 0:
        return reproduced(f"{figures}: the inner checker's escalation ended the outer loop too")
    return unexpected(f"{figures}, expected {INNER_BREAK_EVERY * OUTER_BREAK_AT} and {OUTER_BREAK_AT}")


def judge_exit_stops_loop(obs: Observation):
    """Control: exit_loop ends a single loop after one iteration; the next step runs."""
    after, calls = obs.facts["runs"]["after_loop"], obs.facts["exit_calls"]
    figures = f"exit_loop called {calls} times, after_loop ran {after} times"
    if calls >= 2 and after == 1:
        return reproduced(f"{figures}: exit_loop did not stop the loop")
    if calls == 1 and after == 1:
        return fixed(f"{figures}: the loop stopped at its first exit_loop")
    return unexpected(f"{figures}, expected 1 and 1")


# --- builds used to prove the oracles (tests only) ----------------------------------------


def _loop_between(loop, author_name: str) -> bool:
    """True when another LoopAgent sits between ``loop`` and the agent named ``author_name``."""
    from google.adk.agents import LoopAgent

    agent = loop.find_agent(author_name)
    while agent is not None and agent is not loop:
        if isinstance(agent, LoopAgent) and agent.name != author_name:
            return True
        agent = agent.parent_agent
    return False


@contextlib.contextmanager
def _scoped_escalation():
    """A LoopAgent that stops only for escalations no nested LoopAgent handled (PR #535's review)."""
    from google.adk.agents import LoopAgent

    original = LoopAgent.__dict__["_run_async_impl"]

    async def _run_async_impl(self, ctx):
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

    LoopAgent._run_async_impl = _run_async_impl  # type: ignore[method-assign]
    try:
        yield
    finally:
        LoopAgent._run_async_impl = original  # type: ignore[method-assign]


@contextlib.contextmanager
def _escalation_ignored():
    """Break the control: LoopAgent never sees an escalation."""
    from google.adk.agents import LoopAgent

    original = LoopAgent.__dict__["_run_async_impl"]

    async def _run_async_impl(self, ctx):
        for _ in range(self.max_iterations or 1):
            for sub_agent in self.sub_agents:
                async for event in sub_agent.run_async(ctx):
                    yield event

    LoopAgent._run_async_impl = _run_async_impl  # type: ignore[method-assign]
    try:
        yield
    finally:
        LoopAgent._run_async_impl = original  # type: ignore[method-assign]


BUG_INSTALLED = AsInstalled("the pinned release: LoopAgent stops on any escalation, whoever raised it (still open)")
SCOPED = InProcess(
    "LoopAgent._run_async_impl stops only for escalations with no LoopAgent between it and the author",
    _scoped_escalation,
)
CONTROL_HOLDS = AsInstalled("the pinned release: exit_loop stops a single loop")
ESCALATION_IGNORED = InProcess("LoopAgent._run_async_impl ignores escalations", _escalation_ignored)

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _one_more_after(obs: Observation) -> None:
    for name in ("after_inner", "after_loop"):
        if name in obs.facts["runs"]:
            obs.facts["runs"][name] += 1


def _one_more_exit(obs: Observation) -> None:
    obs.facts["exit_calls"] += 1


def _one_more_step(obs: Observation) -> None:
    obs.facts["runs"]["step"] += 1


def _one_more_outer(obs: Observation) -> None:
    obs.facts["runs"]["outer_checker"] += 1


SCENARIO = Scenario(
    id="adk-loop-nested-escalate",
    framework="google-adk",
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
    cases=(
        Case(
            "inner-exit-loop",
            partial(replay, shape="exit-loop"),
            judge_inner_exit_loop,
            {"reproduced": BUG_INSTALLED, "fixed": SCOPED},
            "outer(max 2)[inner(max 3)[worker: exit_loop], after_inner]: the outer loop must run twice",
            edges=(
                Edge(
                    "unexpected", "after_inner ran once more than the outer loop's iterations", _one_more_after, SCOPED
                ),
                Edge("unexpected", "exit_loop called once more", _one_more_exit, SCOPED),
                Edge("unexpected", "after_inner ran once though the outer loop stopped", _one_more_after),
                Edge("unexpected", "exit_loop called twice though the outer loop stopped", _one_more_exit),
            ),
        ),
        Case(
            "inner-escalation-checker",
            partial(replay, shape="checker"),
            judge_inner_checker,
            {"reproduced": BUG_INSTALLED, "fixed": SCOPED},
            "#2808: inner[step, checker every 3rd] in outer[inner, checker at 2nd]: expect 6 steps, 2 outer checks",
            edges=(
                Edge("unexpected", "one inner step more", _one_more_step, SCOPED),
                Edge("unexpected", "one outer check more", _one_more_outer, SCOPED),
                Edge("unexpected", "one inner step more, the outer loop stopped", _one_more_step),
                Edge("unexpected", "one outer check, the outer loop stopped after it", _one_more_outer),
            ),
        ),
        Case(
            "exit-stops-loop",
            partial(replay, shape="single"),
            judge_exit_stops_loop,
            {"reproduced": ESCALATION_IGNORED, "fixed": CONTROL_HOLDS},
            "control: Sequential[loop(max 3)[worker: exit_loop], after_loop]: one exit, after_loop once",
            control=True,
            edges=(
                Edge("unexpected", "after_loop ran twice", _one_more_after),
                Edge("reproduced", "exit_loop called twice: the first did not stop the loop", _one_more_exit),
                Edge("unexpected", "after_loop ran twice, exit_loop ignored", _one_more_after, ESCALATION_IGNORED),
            ),
        ),
    ),
)
