# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: an input guardrail tripwire raised by Runner.run carries no input_guardrail_results.

Upstream: https://github.com/openai/openai-agents-python/issues/4068, fixed by
https://github.com/openai/openai-agents-python/pull/4071. When an input guardrail trips,
`InputGuardrailTripwireTriggered.run_data.input_guardrail_results` is empty for `Runner.run`:
`run_input_guardrails` (agents/run_internal/guardrails.py; `AgentRunner._run_input_guardrails` in
agents/run.py before) kept the results of the guardrails that had finished in a local list and raised
as soon as one tripped, and the runner added them to the run's results only on success, so the
`RunErrorDetails` built for the exception saw none. `Runner.run_streamed` publishes each result as it
arrives (`run_input_guardrails_with_queue`), so its error reports them. The fix records every result,
the tripping one included, as it completes.

Two input guardrails: `allow` passes, `block` waits until `allow` has answered and then trips (so the
order is fixed); a `Model` subclass written here (no network) answers with a short text. Prints how the
run ended, the guardrails that ran, and the names in the exception's `run_data.input_guardrail_results`
(streamed: also in the result's `input_guardrail_results`). Case `no-tripwire` is the non-regression
check: two guardrails that pass must each be reported once on the result.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import os
import sys

CASES = {
    "run": dict(streamed=False, trip=True),
    "run-streamed": dict(streamed=True, trip=True),
    "no-tripwire": dict(streamed=False, trip=False),
}
QUESTION, ANSWER = "Tell me a joke about guardrails.", "A guardrail walks into a bar."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def names(results):
    """The guardrail names of a list of InputGuardrailResult (None stays None)."""
    return None if results is None else [r.guardrail.get_name() for r in results]


async def observe(say, streamed, trip):
    """Run an agent with two input guardrails (the second may trip); say what the run reported."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, GuardrailFunctionOutput, InputGuardrail, Runner, set_tracing_disabled
    from agents.exceptions import AgentsException
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint
    if "run_data" not in getattr(AgentsException, "__annotations__", {}):
        raise NotApplicable("AgentsException has no run_data (RunErrorDetails) in this release")

    ran, allowed = [], asyncio.Event()

    async def allow(context, agent, input):
        ran.append("allow")
        allowed.set()
        return GuardrailFunctionOutput(output_info="fine", tripwire_triggered=False)

    async def second(context, agent, input):
        await allowed.wait()  # answer after `allow`, so the order of the results is fixed
        ran.append(second_name)
        return GuardrailFunctionOutput(output_info="blocked" if trip else "fine", tripwire_triggered=trip)

    second_name = "block" if trip else "check"
    message = rt.ResponseOutputMessage(
        id="msg-1", type="message", role="assistant", status="completed",
        content=[rt.ResponseOutputText(type="output_text", text=ANSWER, annotations=[])],
    )  # fmt: skip

    class Scripted(Model):
        """Answers every call with ANSWER."""

        async def get_response(self, *args, **kwargs):
            return ModelResponse(output=[message], usage=Usage(), response_id=None)

        async def stream_response(self, *args, **kwargs):
            response = rt.Response(
                id="resp-1", created_at=0, model="m", object="response", output=[message], tool_choice="auto",
                tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield rt.ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    guardrails = [
        InputGuardrail(guardrail_function=allow, name="allow"),
        InputGuardrail(guardrail_function=second, name=second_name),
    ]
    agent = Agent(name="Joker", model=Scripted(), input_guardrails=guardrails)
    raised = tripped = run_data = result_names = final = None
    result = None
    try:
        if streamed:
            result = Runner.run_streamed(agent, QUESTION)
            async for _ in result.stream_events():
                pass
        else:
            result = await Runner.run(agent, QUESTION)
        final = result.final_output
    except AgentsException as exc:  # the tripwire is the expected ending
        raised = type(exc).__name__
        tripped = exc.guardrail_result.guardrail.get_name() if hasattr(exc, "guardrail_result") else None
        run_data = "none" if exc.run_data is None else names(exc.run_data.input_guardrail_results)
    if result is not None:
        result_names = names(result.input_guardrail_results)
    entry = "Runner.run_streamed" if streamed else "Runner.run"
    say(f"guardrails that ran: {', '.join(ran) or 'none'}")
    if raised:
        say(f"{entry} raised {raised} (guardrail {tripped})")
        say(f"exception run_data.input_guardrail_results: {run_data}")
    else:
        say(f"{entry} ended with final output {final!r}")
    if result is not None:
        say(f"result.input_guardrail_results: {result_names}")
    return dict(trip=trip, raised=raised, tripped=tripped, run_data=run_data, result=result_names, final=final)


def judge(facts):
    """(outcome, detail): the run must report each guardrail that ran once, the tripping one included."""
    if not facts["trip"]:
        if facts["raised"] or facts["final"] != ANSWER:
            return "unexpected", f"no guardrail trips, yet the run ended with {facts['raised'] or facts['final']!r}"
        if facts["result"] == ["allow", "check"]:
            return "fixed", "no tripwire: result.input_guardrail_results holds allow and check, once each"
        if sorted(set(facts["result"] or [])) == ["allow", "check"]:
            return "reproduced", f"no tripwire, yet a guardrail is reported more than once: {facts['result']}"
        return "unexpected", f"no tripwire: result.input_guardrail_results is {facts['result']}"
    if facts["raised"] != "InputGuardrailTripwireTriggered" or facts["tripped"] != "block":
        return "unexpected", f"the run ended with {facts['raised'] or 'no exception'} (guardrail {facts['tripped']})"
    reported = facts["run_data"]
    if reported == "none":
        return "unexpected", "the tripwire exception carries no run_data at all"
    if reported == ["allow", "block"]:
        return "fixed", "the tripwire exception's run_data.input_guardrail_results holds allow and block"
    if reported == []:
        return "reproduced", (
            "the tripwire exception's run_data.input_guardrail_results is empty: "
            "allow (passed) and block (tripped) both ran"
        )
    return "unexpected", f"the tripwire exception's run_data.input_guardrail_results is {reported}"


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
