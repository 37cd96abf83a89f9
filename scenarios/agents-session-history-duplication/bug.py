"""agents-session-history-duplication: what the harness needs beside repro.py."""

import contextlib
import importlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, InProcess

FIXED = AsInstalled("the pinned release (0.24.0) saves only the new input")


# No release has the bug (#1550 and #1700 were both merged before 0.3.0), so the reproduced proofs
# patch 0.24.0 in process: agents/run_internal/session_persistence.py `prepare_input_with_session`
# returns the prepared input (history + new input) and the new turn's items to save; the runner saves
# only the latter (#1700's `original_user_input`). Reverting #1700 saves the prepared input instead.
def _saving_prepared_input(module_name):
    """Patch `module_name`'s `prepare_input_with_session` to hand back the prepared input as the items to save."""

    @contextlib.contextmanager
    def patch():
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

# Observations no build makes, one step across a line of the judge (nox -s mutants).
EDGES = (
    Edge(
        "unexpected",
        "each item stored once, in another order",
        lambda obs: obs.facts.update(stored=list(reversed(obs.facts["expected"]))),
    ),
    Edge(
        "reproduced",
        "one item stored a second time: the smallest repeat",
        lambda obs: obs.facts.update(stored=[*obs.facts["expected"], obs.facts["expected"][0]]),
    ),
)

BUG = Bug(
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
    claims=Claim(
        pr="#1700",
        pr_state="merged",
        quote="Save only the new user input to prevent duplication.",
        source="PR #1700 (merged), 'Fix session history duplication after PR #1550' (resolves #1699)",
    ),
    cases={
        "second-run": CaseRole(
            "three Runner.run calls on one SQLiteSession file, as the thread's repro (which stops at two)",
            reproduced=REVERT_1700, fixed=FIXED, edges=EDGES,
        ),
        "streamed": CaseRole(
            "the same three runs through Runner.run_streamed: must hold on every release",
            reproduced=BREAK_STREAMED, fixed=FIXED, control=True,
        ),
    },
)  # fmt: skip
