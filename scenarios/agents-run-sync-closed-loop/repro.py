# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: Runner.run_sync after the thread's default event loop was closed raises "Event loop is closed".

Upstream: https://github.com/openai/openai-agents-python/pull/4102 (its behaviour since
https://github.com/openai/openai-agents-python/pull/2006, per the backlog that names it). run_sync
schedules the run on the thread's default event loop (`asyncio.get_event_loop()`, later the policy's
`get_event_loop()`), and reuses it so loop-bound session primitives keep working across calls. When
application code has closed that default loop, run_sync scheduled onto the closed loop and raised
`RuntimeError: Event loop is closed` before the run began. Expected: a closed default loop is replaced
by a new one (kept as the thread's default); an open default loop is still reused; a call from inside
a running loop is still refused.

A scripted model (a Model that answers with text and notes which loop it ran on) and the framework's
own Runner.run_sync. The harness runs `observe` inside a running event loop, so the closed-loop and
reuse cases run run_sync in a thread of their own (where no loop runs, as in a plain script); the
control calls it from the running loop itself. Prints which loop each run ran on and what the
thread's default loop is afterwards.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import os
import sys

# default_loop: what the thread's default event loop is before run_sync ("closed": set, then closed;
# "open": set and open); runs: how many run_sync calls; inside_loop: call run_sync from a running loop.
CASES = {
    "closed-default-loop": dict(default_loop="closed", runs=1, inside_loop=False),
    # An open default loop is reused by every call (the session primitives bound to it keep working):
    # a fix that makes a new loop for each call would go too far.
    "open-default-loop-reused": dict(default_loop="open", runs=2, inside_loop=False),
    # From inside a running event loop run_sync is refused with RuntimeError, the model never called.
    "control-running-loop-refused": dict(default_loop=None, runs=1, inside_loop=True),
}
ANSWER = "Hello from the scripted model."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, default_loop, runs, inside_loop):
    """Call Runner.run_sync as the case says; say which loop each run ran on; return what judge reads."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Model, ModelResponse, Runner, Usage, set_tracing_disabled
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint
    loops = {}  # label -> loop: the loops the case made, and the one each run ran on
    ran_on = []

    def label(loop):
        """A loop's name in the timeline (an object's address would differ between runs)."""
        for name, known in loops.items():
            if loop is known:
                return name
        return "none" if loop is None else "another loop"

    def note_run_loop(loop):
        """The loop a run ran on: one the case made, else a loop run_sync made ("a new loop")."""
        if not any(loop is known for known in loops.values()):
            loops["a new loop"] = loop
        ran_on.append(label(loop))

    def model_response(output):
        """A ModelResponse without an id (the field was `referenceable_id` before it was `response_id`)."""
        names = {f.name for f in dataclasses.fields(ModelResponse)}
        id_field = "response_id" if "response_id" in names else "referenceable_id"
        return ModelResponse(output=output, usage=Usage(), **{id_field: None})

    class ScriptedModel(Model):
        """Answers with text; notes the loop each call runs on."""

        async def get_response(self, *args, **kwargs):
            note_run_loop(asyncio.get_running_loop())
            content = [ResponseOutputText(type="output_text", text=ANSWER, annotations=[])]
            message = ResponseOutputMessage(id="msg_1", type="message", role="assistant", status="completed",
                                            content=content)  # fmt: skip
            return model_response([message])

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError("the cases do not stream")

    agent = Agent(name="assistant", model=ScriptedModel())
    errors, answers = [], []

    def call_run_sync():
        for n in range(1, runs + 1):
            try:
                answers.append(Runner.run_sync(agent, "Hi").final_output)
                say(f"run_sync {n}: ran on {ran_on[-1] if ran_on else 'no loop'}, answered {answers[-1]!r}")
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
                say(f"run_sync {n}: raised {errors[-1][:160]}")

    default_after = None
    if inside_loop:
        say("run_sync called from inside a running event loop")
        call_run_sync()
    else:

        def in_thread():
            nonlocal default_after
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            loops["the default loop"] = loop
            if default_loop == "closed":
                loop.close()
                loops["the closed default loop"] = loops.pop("the default loop")
            say(f"a new thread: its default event loop is set and {default_loop}")
            call_run_sync()
            try:
                after = asyncio.get_event_loop_policy().get_event_loop()
            except RuntimeError as exc:
                after = None
                say(f"afterwards the policy has no default loop: {exc}")
            state = "closed" if after is None or after.is_closed() else "open"
            default_after = f"{label(after)} ({state})"
            say(f"afterwards the thread's default loop is {default_after}")
            for loop in [after, *loops.values()]:
                if loop is not None and not loop.is_closed():
                    loop.close()

        # A thread of its own, where no event loop runs (as in a plain script's main thread).
        await asyncio.to_thread(in_thread)
    return dict(
        case_loop=default_loop, inside_loop=inside_loop, runs=runs, errors=errors, answers=answers,
        ran_on=ran_on, default_after=default_after,
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): run_sync replaces a closed default loop, reuses an open one, and refuses to run
    inside a running loop."""
    errors, answers, ran_on = facts["errors"], facts["answers"], facts["ran_on"]
    figures = (
        f"errors {errors}; answers {len(answers)}; ran on {ran_on}; default loop afterwards {facts['default_after']}"
    )
    if facts["inside_loop"]:
        if answers:
            return "reproduced", f"run_sync ran inside a running loop: {figures}"
        refused = [error.split(":")[0] for error in errors] == ["RuntimeError"] and not ran_on
        return ("fixed", f"refused: {' '.join(errors)[:120]}") if refused else ("unexpected", figures)
    if len(errors) + len(answers) != facts["runs"]:
        return "unexpected", figures
    if any(answer != ANSWER for answer in answers):
        return "unexpected", figures
    if facts["case_loop"] == "closed":
        if errors:
            closed = errors == ["RuntimeError: Event loop is closed"] and not ran_on
            return ("reproduced", figures) if closed else ("unexpected", figures)
        # The run goes on a new loop, which stays the thread's default (PR #4102's test).
        replaced = ran_on == ["a new loop"] and facts["default_after"] == "a new loop (open)"
        return ("fixed", figures) if replaced else ("unexpected", figures)
    # An open default loop: every run on it, and it stays the default.
    if errors:
        return "unexpected", figures
    if all(loop == "the default loop" for loop in ran_on) and facts["default_after"] == "the default loop (open)":
        return "fixed", figures
    return ("reproduced", figures) if "a new loop" in ran_on else ("unexpected", figures)


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
