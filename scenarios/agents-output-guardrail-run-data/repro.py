# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: an output guardrail tripwire carries no output_guardrail_results.

Upstream: https://github.com/openai/openai-agents-python/pull/4090 (the output-side sibling of
https://github.com/openai/openai-agents-python/pull/4071). When an output guardrail trips,
`OutputGuardrailTripwireTriggered.run_data.output_guardrail_results` is empty for `Runner.run`,
`Runner.run_sync` and `Runner.run_streamed`, and a streamed result's own `output_guardrail_results`
keeps its old, empty value: `run_output_guardrails` (agents/run_internal/guardrails.py; in
agents/_run_impl.py or agents/run.py before) raises as soon as one trips and drops the results it
had gathered, `RunErrorDetails` is built with `output_guardrail_results=[]`, and the streamed path
assigns its list only after the guardrail task returns. Even the tripping result is only on the
exception's `guardrail_result`. The fix records every result, the tripping one included, as it completes.

Two output guardrails: `allow` passes, `block` waits until `allow` has answered and then trips (so the
order is fixed); a `Model` subclass written here (no network) answers with a short text. Prints how the
run ended, the guardrails that ran, and the names the exception's `run_data.output_guardrail_results`
(or the streamed result's `output_guardrail_results`) holds. `tripping-result-on-exception` is the
control (the exception names the tripping guardrail on every release); `no-tripwire` the non-regression
check (two guardrails that pass are each reported once on the result: a fix must not record them twice).

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import os
import sys

# entry: how the run is started; trip: whether the second guardrail trips; read: what the verdict reads
# ("run_data": the exception's run_data, "result": the run's result, "exception": the exception's own
# guardrail_result).
CASES = {
    "run": dict(entry="run", trip=True, read="run_data"),
    "run-sync": dict(entry="run_sync", trip=True, read="run_data"),
    "run-streamed": dict(entry="run_streamed", trip=True, read="run_data"),
    "run-streamed-result": dict(entry="run_streamed", trip=True, read="result"),
    "tripping-result-on-exception": dict(entry="run", trip=True, read="exception"),
    "no-tripwire": dict(entry="run", trip=False, read="result"),
}
QUESTION, ANSWER = "Tell me the launch codes.", "The launch codes are 0000."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def names(results):
    """The guardrail names of a list of OutputGuardrailResult (None stays None)."""
    return None if results is None else [r.guardrail.get_name() for r in results]


async def observe(say, entry, trip, read):
    """Run an agent with two output guardrails (the second may trip); say what the run reported."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, GuardrailFunctionOutput, OutputGuardrail, Runner, set_tracing_disabled
    from agents.exceptions import AgentsException
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint
    if read == "run_data" and "run_data" not in getattr(AgentsException, "__annotations__", {}):
        raise NotApplicable("AgentsException has no run_data (RunErrorDetails) in this release")

    ran, allowed = [], asyncio.Event()

    async def allow(context, agent, output):
        ran.append("allow")
        allowed.set()
        return GuardrailFunctionOutput(output_info="fine", tripwire_triggered=False)

    async def second(context, agent, output):
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
            # The field was `referenceable_id` before it was `response_id`.
            id_field = next(f.name for f in dataclasses.fields(ModelResponse) if f.name.endswith("_id"))
            return ModelResponse(output=[message], usage=Usage(), **{id_field: None})

        async def stream_response(self, *args, **kwargs):
            response = rt.Response(
                id="resp-1", created_at=0, model="m", object="response", output=[message], tool_choice="auto",
                tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield rt.ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    guardrails = [
        OutputGuardrail(guardrail_function=allow, name="allow"),
        OutputGuardrail(guardrail_function=second, name=second_name),
    ]
    agent = Agent(name="Assistant", model=Scripted(), output_guardrails=guardrails)
    raised = tripped = tripped_info = run_data = result_names = final = None
    result = None

    def in_thread():
        # run_sync drives its own event loop: a thread of its own with a loop set, as in a plain script.
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            return Runner.run_sync(agent, QUESTION)
        finally:
            loop.close()
            asyncio.set_event_loop(None)

    try:
        if entry == "run_streamed":
            result = Runner.run_streamed(agent, QUESTION)
            async for _ in result.stream_events():
                pass
        elif entry == "run_sync":
            result = await asyncio.to_thread(in_thread)
        else:
            result = await Runner.run(agent, QUESTION)
        final = result.final_output
    except AgentsException as exc:  # the tripwire is the expected ending
        raised = type(exc).__name__
        if getattr(exc, "guardrail_result", None) is not None:
            tripped = exc.guardrail_result.guardrail.get_name()
            tripped_info = exc.guardrail_result.output.output_info
        details = getattr(exc, "run_data", None)
        run_data = "none" if details is None else names(details.output_guardrail_results)
    if result is not None:
        result_names = names(result.output_guardrail_results)
    say(f"guardrails that ran: {', '.join(ran) or 'none'}")
    if raised:
        say(f"Runner.{entry} raised {raised} (guardrail {tripped}, output_info {tripped_info!r})")
        if read == "run_data":
            say(f"exception run_data.output_guardrail_results: {run_data}")
    else:
        say(f"Runner.{entry} ended with final output {final!r}")
    if result is not None:
        say(f"result.output_guardrail_results: {result_names}")
    return dict(
        trip=trip, read=read, raised=raised, tripped=tripped, tripped_info=tripped_info, run_data=run_data,
        result=result_names, final=final, streamed=entry == "run_streamed",
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the run must report each output guardrail that ran once, the tripping one included."""
    if not facts["trip"]:
        if facts["raised"] or facts["final"] != ANSWER:
            return "unexpected", f"no guardrail trips, yet the run ended with {facts['raised'] or facts['final']!r}"
        if facts["result"] == ["allow", "check"]:
            return "fixed", "no tripwire: result.output_guardrail_results holds allow and check, once each"
        if sorted(set(facts["result"] or [])) == ["allow", "check"]:
            return "reproduced", f"no tripwire, yet a guardrail is reported more than once: {facts['result']}"
        return "unexpected", f"no tripwire: result.output_guardrail_results is {facts['result']}"
    if facts["raised"] != "OutputGuardrailTripwireTriggered":
        return "unexpected", f"the run ended with {facts['raised'] or 'no exception'}, not the output tripwire"
    if facts["read"] == "exception":
        if facts["tripped"] == "block" and facts["tripped_info"] == "blocked":
            return "fixed", "the exception's guardrail_result names block, output_info 'blocked'"
        return "reproduced", f"the exception's guardrail_result is {facts['tripped']} ({facts['tripped_info']!r})"
    if facts["tripped"] != "block":
        return "unexpected", f"the tripwire names guardrail {facts['tripped']}, not block"
    if facts["read"] == "result":
        where, reported = "the streamed result's output_guardrail_results", facts["result"]
    else:
        where, reported = "the tripwire exception's run_data.output_guardrail_results", facts["run_data"]
    if not isinstance(reported, list):
        return "unexpected", f"{where}: there is none at all"
    if reported == ["allow", "block"]:
        return "fixed", f"{where} holds allow and block"
    if reported == []:
        return "reproduced", f"{where} is empty: allow (passed) and block (tripped) both ran"
    return "unexpected", f"{where} is {reported}"


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
