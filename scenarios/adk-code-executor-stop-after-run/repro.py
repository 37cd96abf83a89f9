# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a code block runs, then the turn ends with MODEL_RETURNED_NO_CONTENT before the model sees the result.

Upstream: https://github.com/google/adk-python/issues/7002 (PR #7003; the guard from #5631). An agent
with a (non-built-in) code executor gets a model reply holding a fenced python block with
finish_reason=STOP. The code execution response processor runs the block, emits the result and
clears the reply's content as its signal that the flow goes on to another model call; the empty
STOP guard added for #5631 (a model that really returns nothing) then reads that cleared reply as
empty and ends the invocation with error_code MODEL_RETURNED_NO_CONTENT: the model never gets to
answer with the result.

A scripted model (a BaseLlm that answers each call with the next scripted turn and keeps every
request), a recording BaseCodeExecutor (returns a fixed stdout for the code it is given, runs
nothing), the framework's own runner and session service. Prints the code the executor got, each
event of the session (author, kinds of parts, error code), and how many model calls there were.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import sys

CASES = {
    "code-then-answer": dict(first="code"),
    "empty-stop": dict(first="empty"),
}
QUESTION = "What is 6 * 7?"
CODE_REPLY = "```python\nprint(6 * 7)\n```"
ANSWER = "The answer is 42."
NO_CONTENT = "MODEL_RETURNED_NO_CONTENT"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def describe(part):
    """One part, in a few words: its kind and what it holds."""
    if part.executable_code:
        return f"executable_code {part.executable_code.code.strip()!r}"
    if part.code_execution_result:
        return f"code_execution_result {(part.code_execution_result.output or '').strip()!r}"
    if part.text is not None:
        return f"text {part.text.strip()!r}"
    return "other part"


async def observe(say, first):
    """Run the agent on the scripted turns; say what the executor and the session recorded."""
    from google.adk.agents import LlmAgent
    from google.adk.code_executors.base_code_executor import BaseCodeExecutor
    from google.adk.code_executors.code_execution_utils import CodeExecutionResult
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    if "finish_reason" not in LlmResponse.model_fields:
        raise NotApplicable("LlmResponse has no finish_reason: a scripted reply cannot say STOP")

    class ScriptedLlm(BaseLlm):
        """Answers each model call with the next scripted turn and keeps every request."""

        turns: list = []  # noqa: RUF012 (a pydantic field: each instance gets its own copy)
        requests: list = []  # noqa: RUF012

        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(llm_request)
            yield self.turns[min(len(self.requests), len(self.turns)) - 1]

    class RecordingCodeExecutor(BaseCodeExecutor):
        """Returns a fixed stdout for each code block and keeps the blocks it was given."""

        codes: list = []  # noqa: RUF012

        def execute_code(self, invocation_context, code_execution_input):
            self.codes.append(code_execution_input.code)
            return CodeExecutionResult(stdout="42\n")

    def reply(text):
        parts = [types.Part(text=text)] if text is not None else []
        return LlmResponse(content=types.Content(role="model", parts=parts), finish_reason=types.FinishReason.STOP)

    turns = [reply(CODE_REPLY), reply(ANSWER)] if first == "code" else [reply(None), reply(ANSWER)]
    llm = ScriptedLlm(model="scripted", turns=turns)
    executor = RecordingCodeExecutor()
    agent = LlmAgent(name="code_agent", model=llm, instruction="Answer with python.", code_executor=executor)
    runner = InMemoryRunner(agent=agent, app_name="app")
    session = await runner.session_service.create_session(app_name="app", user_id="user")
    message = types.Content(role="user", parts=[types.Part(text=QUESTION)])
    async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=message):
        pass
    session = await runner.session_service.get_session(app_name="app", user_id="user", session_id=session.id)

    say(f"model's first reply: {'the fenced python block' if first == 'code' else 'no parts'}, finish_reason=STOP")
    say(f"code executor ran {len(executor.codes)} block(s): {[c.strip() for c in executor.codes]}")
    events = []
    for event in session.events:
        parts = event.content.parts if event.content and event.content.parts else []
        kinds = "; ".join(describe(p) for p in parts) or "no parts"
        error = getattr(event, "error_code", None)
        events.append(dict(author=event.author, parts=kinds, error=error))
        say(f"event {event.author}: {kinds}" + (f" (error_code {error})" if error else ""))
    saw_result = False
    if len(llm.requests) > 1:
        seen = [describe(p) for c in llm.requests[1].contents for p in (c.parts or [])]
        saw_result = any("42" in s and "print" not in s for s in seen)
    say(f"model calls: {len(llm.requests)}; the second call saw the execution result: {saw_result}")
    return dict(
        first=first,
        executed=len(executor.codes),
        model_calls=len(llm.requests),
        saw_result=saw_result,
        errors=[e["error"] for e in events if e["error"]],
        last_text=events[-1]["parts"] if events else "",
    )


def judge(facts):
    """(outcome, detail): the code case reaches a second model call that answers with the result;
    the empty case (a model that really returned nothing) still ends with MODEL_RETURNED_NO_CONTENT."""
    calls, errors, executed = facts["model_calls"], facts["errors"], facts["executed"]
    answered = facts["last_text"] == f"text {ANSWER!r}"
    figures = (
        f"{executed} block(s) executed, {calls} model call(s), errors {errors or 'none'}, "
        f"the second call saw the result: {facts['saw_result']}, last event: {facts['last_text']}"
    )
    if facts["first"] == "code":
        if executed == 1 and calls == 1 and NO_CONTENT in errors:
            return "reproduced", f"the code ran, then the turn ended with {NO_CONTENT}: {figures}"
        if executed == 1 and calls == 2 and facts["saw_result"] and answered and not errors:
            return "fixed", f"the second model call saw the result and answered: {figures}"
        return "unexpected", figures
    # A non-regression: a genuinely empty STOP reply is still reported (the #5631 guard), not passed over.
    if executed == 0 and calls == 1 and NO_CONTENT in errors:
        return "fixed", f"an empty STOP reply still ends with {NO_CONTENT}: {figures}"
    if executed == 0 and NO_CONTENT not in errors:
        return "reproduced", f"an empty STOP reply is not reported as {NO_CONTENT}: {figures}"
    return "unexpected", figures


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
