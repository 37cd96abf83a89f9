"""openai-agents: each run on a SQLiteSession saves the whole history again.

Upstream: https://github.com/openai/openai-agents-python/issues/1699, fixed by
https://github.com/openai/openai-agents-python/pull/1700. PR #1550 ("Save session on turn
rather than at final response") made ``Runner.run`` save the run's input to the session at
its start, but it saved the *prepared* input: the session's history with the new message
appended (``_prepare_input_with_session``). So the second run on a session stored the first
run's items again: after two runs the thread's repro counts 6 items instead of 4, and every
later run re-saves everything before it (2, 6, 14 items after three runs). PR #1700 keeps the
caller's input apart and saves only that.

The replay: one agent, the scripted model answers each question; three ``Runner.run`` calls
on one ``SQLiteSession`` on a real file in a temporary directory (the ``streamed`` control:
``Runner.run_streamed``). After each run the harness reads the file back through a second
``SQLiteSession`` and records how many items it holds; at the end, every stored item, and
the model input of the last run (which is where a duplicated history reaches the model).

The oracle reads the stored items: ``fixed`` when they are the three questions and answers,
each once, in order; ``reproduced`` when an item is stored more than once (the history saved
again); ``unexpected`` otherwise (an item missing, another order).

What the harness found: no release on the index has the bug. #1550 (commit 9ad29496) and
#1700 (commit 3556d7bc) were merged a day apart, both after 0.2.11 and both in 0.3.0, so
every release from 0.2.0 (the first with ``SQLiteSession``) to 0.24.0 is ``fixed``; 0.0.x and
0.1.0 are ``not-applicable``. Checked outside the harness: the thread's repro run with the
0.3.0 environment's Python on the source of commit 9ad29496 (``git archive``) stores 6 items
after two runs; on commit 3556d7bc, 4. The streamed path saved only the new input even at
9ad29496 (4 items), hence the control. The case stays as a regression guard; its
``reproduced`` proof reverts #1700 in process on the pinned release.
"""

from __future__ import annotations

import contextlib
from functools import partial

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, Observation, Scenario
from harness.runtime.timeline import Placeholders

RUNS = (("Question 1", "Response 1"), ("Question 2", "Response 2"), ("Question 3", "Response 3"))


async def replay(*, streamed: bool) -> Observation:
    """Three runs on one session file; what the file holds after each."""
    from agents import Agent, Runner

    from harness.runtime.fakes import agents_sessions
    from harness.runtime.fakes import openai_agents as oa

    model = oa.ScriptedModel(
        "answers", [[oa.text_message(answer, f"msg-{n}")] for n, (_, answer) in enumerate(RUNS, 1)]
    )
    agent = Agent(name="Assistant", model=model)
    ids = Placeholders()
    ids.keep(*(f"msg-{n}" for n in range(1, len(RUNS) + 1)))
    lines: list[str] = []
    counts: list[int] = []
    with agents_sessions.SessionFile() as store:
        session = store.open()
        for n, (question, _) in enumerate(RUNS, 1):
            if streamed:
                await oa.drain_stream(Runner.run_streamed(agent, question, session=session))
            else:
                await Runner.run(agent, question, session=session)
            stored = await store.stored_items()
            counts.append(len(stored))
            lines.append(f"after run {n} ({question!r}): session file holds {len(stored)} items")
    lines.append("session file:")
    lines += oa.item_lines(stored, ids, indent="  ")
    last_input = oa.as_input_list(model.last_input)
    lines.append(f"model input of run {len(RUNS)}: {len(last_input)} items")
    lines += oa.item_lines(last_input, ids, indent="  ")
    expected = []
    for n, (question, answer) in enumerate(RUNS, 1):
        expected += [{"role": "user", "content": question}, oa.text_message(answer, f"msg-{n}")]
    return Observation(
        timeline=lines,
        facts={
            "counts": counts,
            "stored": [oa.describe_item(oa.raw_item(item), ids) for item in stored],
            "expected": [oa.describe_item(oa.raw_item(item), ids) for item in expected],
        },
    )


def judge(obs: Observation):
    f = obs.facts
    stored, expected, counts = f["stored"], f["expected"], f["counts"]
    after = ", ".join(map(str, counts))
    if stored == expected:
        return fixed(f"each run saves only its own items: {after} items after runs 1-{len(counts)}")
    repeated = sorted({line for line in stored if stored.count(line) > 1}, key=stored.index)
    if repeated and set(stored) == set(expected):
        return reproduced(
            f"{after} items after runs 1-{len(counts)}, "
            f"expected {', '.join(str(2 * n) for n in range(1, len(counts) + 1))}: "
            f"{len(repeated)} items stored more than once, first {repeated[0]} x{stored.count(repeated[0])}"
        )
    return unexpected(
        f"{after} items after runs 1-{len(counts)}; the stored items are not the {len(expected)} expected"
    )


# --- proofs -------------------------------------------------------------------------------------
# No release has the bug (see the docstring), so the reproduced proofs patch 0.24.0 in process.
# 0.24.0's agents/run_internal/session_persistence.py `prepare_input_with_session` returns the
# prepared input (history + new input) and, separately, the items of the new turn to save; the
# runner saves only the latter (what PR #1700 introduced as `original_user_input`). Reverting
# #1700 means saving the prepared input instead, as commit 9ad29496 (#1550) did.


def _saving_prepared_input(module_name: str):
    """Patch ``module_name``'s ``prepare_input_with_session`` to hand back the prepared input as the items to save."""

    @contextlib.contextmanager
    def patch():
        import importlib

        module = importlib.import_module(module_name)
        original = module.prepare_input_with_session

        async def prepare_and_save_everything(*args, **kwargs):
            prepared, to_save = await original(*args, **kwargs)
            if to_save and isinstance(prepared, list):  # a session run (not server-managed)
                to_save = list(prepared)
            return prepared, to_save

        module.prepare_input_with_session = prepare_and_save_everything
        try:
            yield
        finally:
            module.prepare_input_with_session = original

    return patch


REVERT_1700 = InProcess(
    "0.24.0 with PR #1700 reverted in Runner.run (agents/run.py): the prepared input, history "
    "included, is saved as the run's input",
    _saving_prepared_input("agents.run"),
)
BREAK_STREAMED = InProcess(
    "0.24.0 with the streamed loop (agents/run_internal/run_loop.py) saving the prepared input, "
    "history included, as the run's input",
    _saving_prepared_input("agents.run_internal.run_loop"),
)

# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _stored_in_another_order(obs: Observation) -> None:
    obs.facts["stored"] = list(reversed(obs.facts["expected"]))


def _first_question_stored_twice(obs: Observation) -> None:
    obs.facts["stored"] = [*obs.facts["expected"], obs.facts["expected"][0]]


EDGES = (
    Edge("unexpected", "each item stored once, in another order", _stored_in_another_order),
    Edge("reproduced", "one item stored a second time: the smallest repeat", _first_question_stored_twice),
)

SCENARIO = Scenario(
    id="agents-session-history-duplication",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/issues/1699",
        "https://github.com/openai/openai-agents-python/pull/1700",
        "https://github.com/openai/openai-agents-python/pull/1550",
    ),
    description=(
        "A second Runner.run on a SQLiteSession saves the session's whole history again along "
        "with the new message, so the history doubles with every run."
    ),
    expected="Each run adds only its own input and output to the session: 2, 4, 6 items after three runs.",
    cases=(
        Case(
            "second-run",
            partial(replay, streamed=False),
            judge,
            {"reproduced": REVERT_1700, "fixed": AsInstalled("the pinned release (0.24.0) saves only the new input")},
            "three Runner.run calls on one SQLiteSession file, as the thread's repro (which stops at two)",
            edges=EDGES,
        ),
        Case(
            "streamed",
            partial(replay, streamed=True),
            judge,
            {
                "reproduced": BREAK_STREAMED,
                "fixed": AsInstalled("the pinned release (0.24.0) saves only the new input"),
            },
            "the same three runs through Runner.run_streamed: must hold on every release",
            control=True,
        ),
    ),
)
