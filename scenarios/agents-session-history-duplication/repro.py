# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: each run on a SQLiteSession saves the whole history again.

Upstream: https://github.com/openai/openai-agents-python/issues/1699, fixed by
https://github.com/openai/openai-agents-python/pull/1700. PR #1550 made `Runner.run` save the
*prepared* input (the session's history with the new message appended) at the start of a run, so
each run stored every earlier item again (2, 6, 14 items after three runs instead of 2, 4, 6).
PR #1700 saves only the caller's input. The streamed path never had the bug: a control.

A `Model` subclass answers question n with "Response n"; three runs on one `SQLiteSession` file in
a temporary folder, read back after each through a second `SQLiteSession`. Prints the count after
each run, the stored items and the model input of the last run.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import copy
import os
import sys
import tempfile

CASES = {"second-run": dict(streamed=False), "streamed": dict(streamed=True)}
RUNS = 3


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def describe(item):
    """One stored or input item: `role 'text' [id]`."""
    item = item if isinstance(item, dict) else item.model_dump(exclude_unset=True)
    content = item.get("content")
    text = content if isinstance(content, str) else "".join(part.get("text", "") for part in content)
    return f"{item.get('role')} {text!r}" + (f" [{item['id']}]" if item.get("id") else "")


async def observe(say, streamed):
    """Three runs on one session file; what the file holds after each."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Runner
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import Response, ResponseCompletedEvent, ResponseOutputMessage, ResponseOutputText

    try:
        from agents.memory import SQLiteSession
    except ImportError as exc:
        raise NotApplicable(f"agents.memory has no SQLiteSession: {exc}") from exc

    inputs = []  # each model call's input

    class Answers(Model):
        """Answers question n with "Response n"."""

        def output(self, args, kwargs):
            inputs.append(copy.deepcopy(kwargs["input"] if "input" in kwargs else args[1]))
            n = len(inputs)
            text = ResponseOutputText(type="output_text", text=f"Response {n}", annotations=[])
            return n, [ResponseOutputMessage(id=f"msg-{n}", type="message", role="assistant", status="completed",
                                             content=[text])]  # fmt: skip

        async def get_response(self, *args, **kwargs):
            return ModelResponse(output=self.output(args, kwargs)[1], usage=Usage(), response_id=None)

        async def stream_response(self, *args, **kwargs):
            n, output = self.output(args, kwargs)
            response = Response(
                id=f"resp-{n}", created_at=0, model="m", object="response", output=output, tool_choice="auto",
                tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    agent = Agent(name="Assistant", model=Answers())
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.db")
        session = SQLiteSession("session-1", path)
        for n in range(1, RUNS + 1):
            if streamed:
                async for _ in Runner.run_streamed(agent, f"Question {n}", session=session).stream_events():
                    pass
            else:
                await Runner.run(agent, f"Question {n}", session=session)
            reader = SQLiteSession("session-1", path)
            stored = [describe(item) for item in await reader.get_items()]
            reader.close()
            counts.append(len(stored))
            say(f"after run {n} ('Question {n}'): session file holds {len(stored)} items")
        session.close()
    say("session file:")
    for line in stored:
        say(f"  {line}")
    last_input = inputs[-1]
    last_input = [{"role": "user", "content": last_input}] if isinstance(last_input, str) else last_input
    say(f"model input of run {RUNS}: {len(last_input)} items")
    for item in last_input:
        say(f"  {describe(item)}")
    expected = []
    for n in range(1, RUNS + 1):
        expected += [f"user 'Question {n}'", f"assistant 'Response {n}' [msg-{n}]"]
    return dict(counts=counts, stored=stored, expected=expected)


def judge(facts):
    """(outcome, detail): the stored items must be each question and answer once, in order."""
    stored, expected, counts = facts["stored"], facts["expected"], facts["counts"]
    after = f"{', '.join(map(str, counts))} items after runs 1-{len(counts)}"
    if stored == expected:
        return "fixed", f"each run saves only its own items: {after}"
    repeated = sorted({line for line in stored if stored.count(line) > 1}, key=stored.index)
    if repeated and set(stored) == set(expected):
        want = ", ".join(str(2 * n) for n in range(1, len(counts) + 1))
        return "reproduced", (
            f"{after}, expected {want}: {len(repeated)} items stored more than once, "
            f"first {repeated[0]} x{stored.count(repeated[0])}"
        )
    return "unexpected", f"{after}; the stored items are not the {len(expected)} expected"


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
