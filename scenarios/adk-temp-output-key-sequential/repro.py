# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: `output_key="temp:..."` inside a SequentialAgent is lost before anyone reads it.

Upstream: https://github.com/google/adk-python/issues/4564 (PR #4618) and
https://github.com/google/adk-python/issues/3047 (the writer's after_agent_callback; PR #4501). A `temp:`
key should live for the whole invocation and never be stored, but `BaseSessionService.append_event`
trimmed it from the event's state_delta before applying it; the fix applies it first (`_apply_temp_state`).

A SequentialAgent [writer (output_key "temp:draft"), reviewer], scripted `BaseLlm`s, run once. Cases:
what the reviewer's before_agent_callback reads, its instruction "Review this draft: {temp:draft}" (the
bug: KeyError), what the writer's after_agent_callback reads; `not-persisted` (a control): the stored
state holds no temp: key. Prints the stored events, what each callback read, the reviewer's system
instruction or the run's error, the stored state and the model calls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import json
import sys

CASES = {
    "next-agent-reads": dict(check="reviewer before_agent_callback"),
    "next-agent-instruction": dict(check="instruction", template=True),
    "after-callback-reads": dict(check="writer after_agent_callback"),
    "not-persisted": dict(check="stored"),
}
KEY = "temp:draft"
DRAFT = "Draft: ship on Friday."
FILLED = f"Review this draft: {DRAFT}"
MISSING = "<missing>"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, check, template=False):
    """One invocation of the pipeline; say what was stored and read; return what the verdict reads."""
    from google.adk.agents import LlmAgent, SequentialAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    class Scripted(BaseLlm):
        reply: str = ""
        calls: int = 0

        async def generate_content_async(self, llm_request, stream=False):
            self.calls += 1
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=self.reply)]))

    seen, instructions = {}, []

    def reader(who):
        return lambda callback_context: seen.update({who: callback_context.state.get(KEY, MISSING)})

    def before_model(callback_context, llm_request):
        si = llm_request.config.system_instruction if llm_request.config is not None else None
        instructions.append((si if isinstance(si, str) else str(si)).split("\n\n")[0])

    writer_llm, reviewer_llm = Scripted(model="writer-model", reply=DRAFT), Scripted(model="r-model", reply="Good.")
    writer = LlmAgent(
        name="writer", model=writer_llm, instruction="Write a draft.", output_key=KEY,
        after_agent_callback=reader("writer after_agent_callback"),
    )  # fmt: skip
    reviewer = LlmAgent(
        name="reviewer", model=reviewer_llm,
        instruction="Review this draft: {temp:draft}" if template else "Review the draft.",
        before_agent_callback=reader("reviewer before_agent_callback"), before_model_callback=before_model,
    )  # fmt: skip
    sessions = InMemorySessionService()
    runner = Runner(app_name="repro", agent=SequentialAgent(name="pipeline", sub_agents=[writer, reviewer]),
                    session_service=sessions)  # fmt: skip
    session = await settled(sessions.create_session(app_name="repro", user_id="u"))
    question = types.Content(role="user", parts=[types.Part(text="Write the release note.")])
    error = None
    try:
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=question):
            pass
    except KeyError as exc:  # the {temp:draft} template with nothing under the key
        error = f"KeyError: {exc.args[0] if exc.args else exc}"
    stored = await settled(sessions.get_session(app_name="repro", user_id="u", session_id=session.id))
    for event in stored.events:
        text = " ".join(repr(p.text) for p in (event.content.parts if event.content and event.content.parts else []))
        delta = event.actions.state_delta if event.actions else None
        shown = f"{text or '<no content>'} state_delta={json.dumps(delta)}" if delta else text or "<no content>"
        say(f"stored event: {event.author} {shown}")
    for who, value in sorted(seen.items()):
        say(f"{who} read state[{KEY!r}] = {value!r}")
    say(f"reviewer's system instruction: {instructions[0]!r}" if instructions else "reviewer's model: not called")
    if error:
        say(f"run ended with {error}")
    say(f"stored state: {json.dumps(dict(stored.state), sort_keys=True)}")
    say(f"model calls: writer {writer_llm.calls}, reviewer {reviewer_llm.calls}")
    return dict(
        check=check, seen=seen, error=error, stored_state=dict(stored.state), writer_calls=writer_llm.calls,
        reviewer_calls=reviewer_llm.calls, reviewer_instruction=instructions[0] if instructions else None,
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the draft is read within the invocation (by `check`), and never stored."""
    check, error, seen = facts["check"], facts["error"], facts["seen"]
    if facts["writer_calls"] != 1:
        return "unexpected", f"the writer's model was called {facts['writer_calls']} times, expected 1"
    if check == "stored":
        temp_keys = sorted(k for k in facts["stored_state"] if k.startswith("temp:"))
        if not temp_keys:
            return "fixed", f"the stored session state has no temp: key ({len(facts['stored_state'])} keys)"
        if temp_keys == [KEY]:
            return "reproduced", f"the stored session state holds {KEY!r} = {facts['stored_state'][KEY]!r}"
        return "unexpected", f"the stored session state holds {temp_keys}"
    if check == "instruction":
        got, calls = facts["reviewer_instruction"], facts["reviewer_calls"]
        if error is None and calls == 1 and got == FILLED:
            return "fixed", f"the reviewer was asked with {got!r}"
        if error is not None and KEY in error and calls == 0:
            return "reproduced", f"the run ended with {error} before the reviewer's model was called"
        return "unexpected", f"reviewer called {calls} times with {got!r}; error {error!r}"
    if error is not None:
        return "unexpected", f"the run ended with {error}"
    if check not in seen:
        return "unexpected", f"the {check} never ran"
    if seen[check] == DRAFT:
        return "fixed", f"the {check} read state[{KEY!r}] = {DRAFT!r}"
    if seen[check] == MISSING:
        return "reproduced", f"the {check} read nothing under {KEY!r}; the writer's draft was {DRAFT!r}"
    return "unexpected", f"the {check} read state[{KEY!r}] = {seen[check]!r}, expected {DRAFT!r}"


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
