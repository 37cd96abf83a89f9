# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: a literal `${expression}` in an agent's instruction is read as the state variable `expression`.

Upstream: https://github.com/google/adk-python/issues/5706 (community fix PR #5711:
https://github.com/google/adk-python/pull/5711; downstream https://github.com/google/A2UI/issues/1388).
`inject_session_state` substitutes every `{+[^{}]*}+` match whose inside is an identifier, across
the whole instruction string: text that documents interpolation syntax (`${expression}`, in a tool
description or a JSON schema pasted into the instruction) becomes a state lookup. With no
`expression` key the run fails with `KeyError: Context variable not found: `expression``; with one,
the instruction the model receives is silently rewritten (`$42`). Expected: `${...}` stays as
written while `{user_name}` beside it is still filled in.

A scripted model (a BaseLlm that answers "ok" and keeps each request) under the framework's own
runner and an InMemorySessionService created with the case's state. Prints the instruction as the
model received it, or the exception the run raised. The cases: `missing-key` and `state-has-key`
are the bug; `placeholder` is a control (`{user_name}` filled in on every release);
`missing-placeholder` is a non-regression: a plain `{nobody}` with no such key must still fail as
the documentation says, so a fix that makes every unknown name literal (PR #5711's approach) goes
too far.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

DOC = "Templates write ${expression} to interpolate a value."
CASES = {
    "missing-key": dict(instruction=f"{DOC} Greet {{user_name}}.", state={"user_name": "Ada"}),
    "state-has-key": dict(instruction=f"{DOC} Greet {{user_name}}.", state={"user_name": "Ada", "expression": "42"}),
    "placeholder": dict(instruction="Greet {user_name}.", state={"user_name": "Ada"}),
    "missing-placeholder": dict(instruction="Greet {nobody}.", state={"user_name": "Ada"}),
}


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, instruction, state):
    """Run the agent once; say the instruction the model received, or the error the run raised."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """Answers every call with "ok" and keeps every request."""

        requests: list = []  # noqa: RUF012 (a pydantic field: each instance gets its own copy)

        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(llm_request)
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="ok")]))

    llm = ScriptedLlm(model="scripted")
    runner = InMemoryRunner(agent=LlmAgent(name="agent", model=llm, instruction=instruction), app_name="app")
    session = await settled(runner.session_service.create_session(app_name="app", user_id="user", state=state))
    say(f"instruction as written: {instruction!r}; state keys: {sorted(state)}")
    message = types.Content(role="user", parts=[types.Part(text="hi")])
    error = None
    try:
        async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=message):
            pass
    except KeyError as exc:  # the symptom: "Context variable not found"
        error = str(exc.args[0]) if exc.args else repr(exc)
        say(f"run_async raised KeyError: {error}")
    received = None
    if llm.requests:
        received = llm.requests[0].config.system_instruction
        received = received if isinstance(received, str) else str(received)
        say(f"model received: {received!r}")
    elif error is None:
        say("the model was never called")
    return dict(written=instruction, state=state, received=received, error=error)


def judge(facts):
    """(outcome, detail): `${...}` kept as written, `{user_name}` filled in, a plain unknown `{name}` refused."""
    received, error, written = facts["received"], facts["error"], facts["written"]
    if error is not None:
        if received is not None:
            return "unexpected", f"the model was called and the run raised KeyError: {error}"
        if "${expression}" in written and "expression" in error:
            return "reproduced", f"the literal ${{expression}} was looked up in state: KeyError: {error}"
        if "{nobody}" in written and "nobody" in error:
            return "fixed", f"the unknown placeholder {{nobody}} is refused: KeyError: {error}"
        return "unexpected", f"KeyError: {error}"
    if received is None:
        return "unexpected", "the model was never called and nothing was raised"
    if "{nobody}" in written:
        return "reproduced", f"the unknown placeholder {{nobody}} passed unnoticed: the model received {received!r}"
    filled = "{user_name}" not in received and "Ada" in received
    if "${expression}" not in written:  # the control: the plain placeholder alone
        if filled:
            return "fixed", f"{{user_name}} filled in: the model received {received!r}"
        return "reproduced", f"{{user_name}} was not filled in: the model received {received!r}"
    if not filled:
        return "unexpected", f"{{user_name}} was not filled in: the model received {received!r}"
    if DOC in received:
        return "fixed", f"${{expression}} kept as written beside the filled-in name: {received!r}"
    value = facts["state"].get("expression")
    if value is not None and f"${value}" in received:
        return "reproduced", f"${{expression}} silently replaced by the state's value: the model received {received!r}"
    return "unexpected", f"the model received {received!r}"


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
