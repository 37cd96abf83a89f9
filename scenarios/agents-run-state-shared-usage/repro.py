# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a RunState checkpoint shares its usage with the result it came from and with every other
checkpoint of that result, so resuming one bills the others.

Upstream: https://github.com/openai/openai-agents-python/pull/4479 ("fix: isolate usage between RunState
checkpoints"). `RunResult.to_state()` builds its checkpoint around the result's own RunContextWrapper (later a
`copy.copy` of it, `_copy_for_run_state`, which detaches approvals and tool invocations but not `usage`), and a
resumed run adds each model call to that wrapper's Usage in place. So after `result.to_state()` and a resume
the result the caller already holds reports the resumed run's requests, and of two checkpoints taken from one
result and each resumed once, the second reports the first's request too. Expected: each checkpoint carries the
result's usage forward as its own copy.

A scripted model (a Model whose every call reports one request, 100 input and 10 output tokens) and the
framework's own Runner and RunState: one run, `to_state()` checkpoints of its result, each resumed with
`Runner.run` (or `run_streamed`), in memory or through `to_json()` / `RunState.from_json`; one case stops on a
tool approval inside a nested `Agent.as_tool()` agent and resumes after approving it. Prints the model calls and
the usage of the result, of each resumed run and of each checkpoint's JSON.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import os
import sys

# checkpoints: how many to_state() of the first result; resumes: which checkpoint each resume runs from, in
# order; via: "memory" (the RunState itself) or "json" (to_json() then RunState.from_json); streamed: every run
# through run_streamed; nested: the agent answers through another agent (Agent.as_tool) whose tool needs approval,
# so the first run stops on it and the checkpoint is approved before its resume; check: what judge reads (below).
CASES = {
    # PR #4479's first symptom: after to_state() and a resume, the result already returned changes.
    "source-result-kept": dict(checkpoints=1, resumes=(0,), via="memory", streamed=False, nested=False,
                               check="source"),
    # Its second: two checkpoints from one result, each resumed once; the second reports the first's request.
    "two-checkpoints": dict(checkpoints=2, resumes=(0, 1), via="memory", streamed=False, nested=False,
                            check="resumes"),
    "two-checkpoints-streamed": dict(checkpoints=2, resumes=(0, 1), via="memory", streamed=True, nested=False,
                                     check="resumes"),
    # A resumed run still carries the checkpoint's usage forward (the first run's request beside its own): a fix
    # that detaches the checkpoint by starting its usage afresh would go too far.
    "resume-carries-usage": dict(checkpoints=1, resumes=(0,), via="memory", streamed=False, nested=False,
                                 check="carried"),
    # The nested agent's turns after the approval still count in the outer run (PR #4479 rebinds the nested
    # checkpoint's usage to the outer tool context): a fix that detaches the nested checkpoint too would go too far.
    "nested-resume-billed": dict(checkpoints=1, resumes=(0,), via="memory", streamed=False, nested=True,
                                 check="carried"),
    # Checkpoints through JSON are rebuilt with a Usage of their own: independent on every release.
    "control-json-checkpoints": dict(checkpoints=2, resumes=(0, 1), via="json", streamed=False, nested=False,
                                     check="resumes"),
    # Stricter than the thread: one checkpoint resumed twice (a RunState is the caller's resumable snapshot, PR
    # #4251): the second resume must start from the checkpoint's own usage, which must not change.
    "same-checkpoint-twice-stricter": dict(checkpoints=1, resumes=(0, 0), via="memory", streamed=False,
                                           nested=False, check="checkpoint"),
}  # fmt: skip
TOKENS = (100, 10)  # what each model call reports: input, output


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, checkpoints, resumes, via, streamed, nested, check):
    """Run once, take the checkpoints, resume them in order; say each usage; return what judge reads."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Model, ModelResponse, Runner, Usage, function_tool, set_tracing_disabled
    from openai.types import responses as rt

    try:
        from agents.run_state import RunState
    except ImportError as exc:
        raise NotApplicable(f"no agents.run_state ({exc}); RunResult.to_state() and RunState ship later") from None

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint
    calls = []  # the name of the agent whose model each call was

    def zeros(model):
        """Every required field of a pydantic model (the release's openai types: token details grew fields) as 0."""
        out = {}
        for name, field in model.model_fields.items():
            if field.is_required():
                kinds = [field.annotation, *getattr(field.annotation, "__args__", ())]
                inner = next((k for k in kinds if hasattr(k, "model_fields")), None)
                out[name] = zeros(inner) if inner is not None else 0
        return out

    class ScriptedModel(Model):
        """Calls its tool on its first call (if it has one), then answers with text; every call reports one
        request and TOKENS."""

        def __init__(self, name, tool=None):
            self.name, self.tool = name, tool

        def item(self):
            calls.append(self.name)
            if self.tool is not None:
                tool, self.tool = self.tool, None
                return rt.ResponseFunctionToolCall(
                    id=f"fc_{len(calls)}",
                    call_id=f"call_{tool}",
                    type="function_call",
                    name=tool,
                    arguments='{"input": "x"}',
                )
            text = rt.ResponseOutputText(type="output_text", text=f"answer {len(calls)}", annotations=[])
            return rt.ResponseOutputMessage(id=f"msg_{len(calls)}", type="message", role="assistant",
                                            status="completed", content=[text])  # fmt: skip

        async def get_response(self, *args, **kwargs):
            usage = Usage(requests=1, input_tokens=TOKENS[0], output_tokens=TOKENS[1], total_tokens=sum(TOKENS))
            return ModelResponse(output=[self.item()], usage=usage, response_id=None)

        async def stream_response(self, *args, **kwargs):
            counts = dict(input_tokens=TOKENS[0], output_tokens=TOKENS[1], total_tokens=sum(TOKENS))
            usage = rt.ResponseUsage.model_validate({**zeros(rt.ResponseUsage), **counts})
            response = rt.Response(
                id=f"resp_{len(calls) + 1}", created_at=0, model="m", object="response", output=[self.item()],
                tool_choice="auto", tools=[], top_p=None, parallel_tool_calls=False, status="completed", usage=usage,
            )  # fmt: skip
            fields = dict(type="response.completed", response=response, sequence_number=0)
            yield rt.ResponseCompletedEvent(
                **{k: v for k, v in fields.items() if k in rt.ResponseCompletedEvent.model_fields}
            )

    if nested:

        @function_tool(needs_approval=True)
        def lookup(input: str) -> str:
            return "found"

        helper = Agent(name="helper", model=ScriptedModel("helper", "lookup"), tools=[lookup])
        ask = helper.as_tool(tool_name="ask_helper", tool_description="Ask the helper.")
        agent = Agent(name="assistant", model=ScriptedModel("assistant", "ask_helper"), tools=[ask])
    else:
        agent = Agent(name="assistant", model=ScriptedModel("assistant"))

    async def run(start):
        if not streamed:
            return await Runner.run(agent, start)
        result = Runner.run_streamed(agent, start)
        async for _ in result.stream_events():
            pass
        return result

    def figures(usage):
        return (usage.requests, usage.input_tokens, usage.output_tokens)

    def line(usage):
        return f"requests={usage.requests} input_tokens={usage.input_tokens} output_tokens={usage.output_tokens}"

    def saved(state):
        """The checkpoint's usage as its JSON stores it (what a caller persists), and its model responses."""
        data = state.to_json()
        stored = data["context"]["usage"]
        return (stored["requests"], stored["input_tokens"], stored["output_tokens"]), len(data["model_responses"])

    result = await run("Hi")
    first, first_calls = figures(result.context_wrapper.usage), len(calls)
    say(f"first run ({'streamed' if streamed else 'Runner.run'}): model calls {calls}, "
        f"usage {line(result.context_wrapper.usage)}")  # fmt: skip
    if nested:
        say(f"it stopped for approval of {[getattr(item, 'name', '?') for item in result.interruptions]}")
    states = [result.to_state() for _ in range(checkpoints)]
    say(f"{checkpoints} checkpoint(s) taken with result.to_state()")
    if via == "json":
        states = [await RunState.from_json(agent, state.to_json()) for state in states]
        say("each checkpoint written with to_json() and read back with RunState.from_json")
    resumed, made = [], []
    for n, index in enumerate(resumes, 1):
        for item in states[index].get_interruptions():
            states[index].approve(item)
            say(f"checkpoint {index + 1}: approved {getattr(item, 'name', '?')}")
        before = len(calls)
        out = await run(states[index])
        resumed.append(figures(out.context_wrapper.usage))
        made.append(len(calls) - before)
        say(f"resume {n} from checkpoint {index + 1}: model calls {calls[before:]}, usage "
            f"{line(out.context_wrapper.usage)}, answered {out.final_output!r}")  # fmt: skip
    source = figures(result.context_wrapper.usage)
    say(f"afterwards the first run's result reports usage {line(result.context_wrapper.usage)}")
    stored = []
    for n, state in enumerate(states, 1):
        (requests, tokens_in, tokens_out), responses = saved(state)
        stored.append((requests, tokens_in, tokens_out))
        say(f"afterwards checkpoint {n}'s to_json() stores {responses} model response(s) and usage "
            f"requests={requests} input_tokens={tokens_in} output_tokens={tokens_out}")  # fmt: skip
    return dict(check=check, first_calls=first_calls, made=made, first=first, resumed=resumed, source=source,
                stored=stored)  # fmt: skip


def usage_of(requests):
    """What `requests` model calls report in all: (requests, input tokens, output tokens)."""
    return (requests, requests * TOKENS[0], requests * TOKENS[1])


def judge(facts):
    """(outcome, detail): every checkpoint carries the first run's usage forward as its own copy."""
    first, resumed, source, stored, made = (facts[k] for k in ("first", "resumed", "source", "stored", "made"))
    figures = f"first run {first}, resumed runs {resumed}, the result afterwards {source}, checkpoints {stored}"
    if first != usage_of(facts["first_calls"]) or not resumed or 0 in made:
        return "unexpected", f"model calls: first run {facts['first_calls']}, resumes {made}; {figures}"
    # What each resume must report: the first run's usage, carried forward, and its own calls.
    owed = [usage_of(first[0] + n) for n in made]
    check = facts["check"]
    if check in ("source", "carried"):
        (got,), (due,) = resumed, owed  # these cases resume once
        if check == "source":
            # The result handed back before the resume keeps its own usage.
            if got != due:
                return "unexpected", f"the resumed run reported other than {due}: {figures}"
            if source == first:
                return "fixed", figures
            return ("reproduced", f"the result gained the resume's requests: {figures}") if source == got else (
                "unexpected", figures)  # fmt: skip
        # The resumed run reports the first run's usage and every call it made (the nested agent's included).
        if got[0] < due[0] and got == usage_of(got[0]):
            return "reproduced", f"the resumed run reported less than {due}: {figures}"
        return ("fixed", figures) if got == due else ("unexpected", figures)
    (got, again), (due, due_again) = resumed, owed  # these cases resume twice
    if got != due:
        return "unexpected", f"the first resume reported other than {due}: {figures}"
    # The second resume, billed the first's calls too (the symptom of both two-resume cases).
    billed = again == usage_of(due_again[0] + made[0])
    if check == "resumes":
        # Each checkpoint resumed once from the same run reports only the first run's usage and its own calls.
        if again == due_again:
            return "fixed", figures
        return ("reproduced", f"the second resume billed the first's requests: {figures}") if billed else (
            "unexpected", figures)  # fmt: skip
    # check == "checkpoint": one checkpoint resumed twice; each resume starts from what it stored.
    if again == due_again and stored == [first]:
        return "fixed", figures
    grew = billed and stored == [again]
    return ("reproduced", f"the checkpoint kept both resumes' requests: {figures}") if grew else (
        "unexpected", figures)  # fmt: skip


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
