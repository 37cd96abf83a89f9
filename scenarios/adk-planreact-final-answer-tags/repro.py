# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: PlanReActPlanner hides a final answer written between paired /*FINAL_ANSWER*/ tags as a thought.

Upstream: https://github.com/google/adk-python/issues/3689 (related: #3507,
https://github.com/google/adk-python/issues/3507; PR #6709, which strips the planning tags from the
parts: https://github.com/google/adk-python/pull/6709). `PlanReActPlanner._handle_non_function_call_parts`
splits a text part on the *last* `/*FINAL_ANSWER*/` (`_split_by_last_pattern`). A model that closes
the answer with a second tag, `/*REASONING*/ ... /*FINAL_ANSWER*/ answer /*FINAL_ANSWER*/`, gets
everything before the closing tag, the answer included, marked `thought=True`, and nothing (or only
whitespace) as the visible answer. Expected: the reasoning is a thought part and the text between
the tags is the answer, a part without `thought`.

A scripted model (a BaseLlm that answers each call with the next scripted text and keeps each
request) on an LlmAgent with `planner=PlanReActPlanner()`, under the framework's own runner. Prints
each part of the agent's reply event as the session recorded it (`thought` or `answer`, its text).
`paired-tags` is the bug; `single-tag` (the tag format the planner's own instruction asks for) is
a control. `paired-tags-next-turn` (#3507) asks a second question and prints the history the model
receives on that turn: the first answer must be in it as the model's words (where the history
drops thought parts, an answer hidden as a thought is gone from it); `single-tag-next-turn` is its
control.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

ANSWER = "Paris is the capital of France."
REASONING = "/*REASONING*/ The user asks for the capital of France; I know it. "
CASES = {
    "paired-tags": dict(reply=f"{REASONING}/*FINAL_ANSWER*/ {ANSWER} /*FINAL_ANSWER*/", turns=1),
    "single-tag": dict(reply=f"{REASONING}/*FINAL_ANSWER*/ {ANSWER}", turns=1),
    "paired-tags-next-turn": dict(reply=f"{REASONING}/*FINAL_ANSWER*/ {ANSWER} /*FINAL_ANSWER*/", turns=2),
    "single-tag-next-turn": dict(reply=f"{REASONING}/*FINAL_ANSWER*/ {ANSWER}", turns=2),
}
QUESTIONS = ("What is the capital of France?", "And of Italy?")
SECOND_REPLY = "/*FINAL_ANSWER*/ Rome is the capital of Italy."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, reply, turns):
    """Run the planner agent for `turns` questions; say the reply event's parts (and the second turn's history)."""
    from google.adk.agents import LlmAgent
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.planners import PlanReActPlanner
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    class ScriptedLlm(BaseLlm):
        """Answers each model call with the next scripted text and keeps every request."""

        turns: list = []  # noqa: RUF012 (a pydantic field: each instance gets its own copy)
        requests: list = []  # noqa: RUF012

        async def generate_content_async(self, llm_request, stream=False):
            self.requests.append(llm_request.model_copy(deep=True))
            text = self.turns[len(self.requests) - 1]
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))

    llm = ScriptedLlm(model="scripted", turns=[reply, SECOND_REPLY])
    agent = LlmAgent(name="agent", model=llm, planner=PlanReActPlanner())
    runner = InMemoryRunner(agent=agent, app_name="app")
    session = await settled(runner.session_service.create_session(app_name="app", user_id="user"))
    say(f"model reply: {reply!r}")
    for question in QUESTIONS[:turns]:
        message = types.Content(role="user", parts=[types.Part(text=question)])
        async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=message):
            pass
    session = await settled(runner.session_service.get_session(app_name="app", user_id="user", session_id=session.id))
    replies = [e for e in session.events if e.author == "agent" and e.content and e.content.parts]
    parts = [(bool(p.thought), p.text) for p in replies[0].content.parts if p.text is not None]
    for thought, text in parts:
        say(f"reply part ({'thought' if thought else 'answer'}): {text!r}")
    history = None
    if turns == 2:
        history = []
        for content in llm.requests[1].contents:
            text = " ".join((p.text or "").strip() for p in content.parts or [] if p.text is not None)
            history.append((content.role, text))
            say(f"second turn's history: {content.role}: {text!r}")
    return dict(parts=parts, history=history)


def _words(text):
    return " ".join(text.split())


def judge(facts):
    """(outcome, detail): the answer is a part without `thought`; on a second turn, the model's first answer is
    in the history the model receives (#3507's symptom, judged alone)."""
    answers = [_words(t) for thought, t in facts["parts"] if not thought and t.strip()]
    thoughts = [_words(t) for thought, t in facts["parts"] if thought]
    hidden = any(ANSWER in t for t in thoughts)
    shown = [a for a in answers if ANSWER in a]
    figures = f"{len(thoughts)} thought parts, visible answer parts {answers}"
    if facts["history"] is not None:
        model_turns = [text for role, text in facts["history"] if role == "model"]
        remembered = any(ANSWER in _words(t) for t in model_turns)
        figures += f"; the second turn's history has {len(model_turns)} model turns"
        if remembered:
            return "fixed", figures + ", the first answer among them"
        return "reproduced", figures + ": the first answer is missing from the history"
    if shown and not hidden and answers == [ANSWER]:
        return "fixed", figures
    if hidden and not shown:
        return "reproduced", figures + ": the answer is inside a thought part"
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
