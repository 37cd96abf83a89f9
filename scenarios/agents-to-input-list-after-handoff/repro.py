# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: `to_input_list()` after a handoff repeats what its history summary records.

Upstream: https://github.com/openai/openai-agents-python/issues/2258, addressed by
https://github.com/openai/openai-agents-python/pull/2667 (`to_input_list(mode="normalized")`);
https://github.com/openai/openai-agents-python/pull/2272 made nested handoff history opt-in. With
nested history the handoff folds the transcript into one `<CONVERSATION HISTORY>` summary message,
and `to_input_list()` returned that summary *and* the raw items it summarises: a follow-up run built
from it sees the tool and handoff calls twice. The default mode ("preserve_all") keeps doing so on
purpose; the normalized mode is the fix.

The thread's run, with `Model` subclasses replaying scripted turns: Agent One calls starter_tool,
then hands off to Agent Two, which calls finisher_tool and answers. Prints the items of
`to_input_list()`, each summary as its records; every item of the run (the user's message, three
calls, their outputs, the answer) is counted across summary records and items.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import inspect
import json
import os
import re
import sys
from collections import Counter

CASES = {
    "default-settings": dict(nested=False),  # the thread's repro as written: RunConfig(), to_input_list()
    "nested-follow-up": dict(nested=True),  # nest_handoff_history=True; the normalized mode where it exists
}
USER_TEXT, ANSWER = "Kick off the two-agent workflow.", "All done."
CALL_IDS = ("call-starter", "call-handoff", "call-finisher")
EXPECTED = ["user message", *(f"{kind} {i}" for i in CALL_IDS for kind in ("function_call", "function_call_output"))]
EXPECTED.append("assistant answer")


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def key(text):
    """Which of the run's 8 items a summary record or an input item (as text) is."""
    ids = [i for i in CALL_IDS if i in text]
    if ids and "function_call" in text:
        return f"{'function_call_output' if 'function_call_output' in text else 'function_call'} {ids[0]}"
    return "user message" if USER_TEXT in text else "assistant answer" if ANSWER in text else f"other {text[:50]}"


async def observe(say, nested):
    """Run the two agents, read the follow-up history, count each item of the run."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, RunConfig, Runner, function_tool, handoff
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    fields = {f.name for f in dataclasses.fields(RunConfig)}
    if nested and "nest_handoff_history" not in fields:
        raise NotApplicable("agents.RunConfig has no nest_handoff_history field")

    def call(name, call_id):
        return rt.ResponseFunctionToolCall(id=f"fc-{call_id}", call_id=call_id, type="function_call", name=name,
                                           arguments="{}")  # fmt: skip

    class Scripted(Model):
        """One scripted turn (its output items) per call."""

        def __init__(self, *turns):
            self.turns = list(turns)

        async def get_response(self, *args, **kwargs):
            # 0.0.3's ModelResponse names the id referenceable_id (agents/items.py); later releases response_id
            named = {f.name for f in dataclasses.fields(ModelResponse)} & {"response_id", "referenceable_id"}
            return ModelResponse(output=self.turns.pop(0), usage=Usage(), **dict.fromkeys(named))

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    part = rt.ResponseOutputText(type="output_text", text=ANSWER, annotations=[])
    msg = rt.ResponseOutputMessage(id="msg-final", type="message", role="assistant", status="completed", content=[part])
    finisher_tool = function_tool(lambda: "finished", name_override="finisher_tool")
    to_two = handoff(Agent(name="Agent Two", model=Scripted([call("finisher_tool", "call-finisher")], [msg]),
                           tools=[finisher_tool]))  # fmt: skip
    one_model = Scripted([call("starter_tool", "call-starter")], [call(to_two.tool_name, "call-handoff")])
    starter_tool = function_tool(lambda: "starter response", name_override="starter_tool")
    one = Agent(name="Agent One", model=one_model, tools=[starter_tool], handoffs=[to_two])
    config = RunConfig(nest_handoff_history=True) if nested else RunConfig()
    result = await Runner.run(one, [{"role": "user", "content": USER_TEXT}], run_config=config)
    normalized = nested and "mode" in inspect.signature(result.to_input_list).parameters
    how = 'to_input_list(mode="normalized")' if normalized else "to_input_list()"
    items = result.to_input_list(mode="normalized") if normalized else result.to_input_list()
    say(f"{how}: {len(items)} items")
    seen, records_in_summaries, verbatim = Counter(), 0, 0
    for item in items:
        content = item.get("content") if isinstance(item, dict) else None
        if isinstance(content, str) and "<CONVERSATION HISTORY>" in content:
            body = content.split("<CONVERSATION HISTORY>")[1].split("</CONVERSATION HISTORY>")[0]
            records, prefix = re.split(r"\n(?=\d+\. )", body.strip()), "    "
            records_in_summaries += len(records)
            say(f"  summary with {len(records)} records:")
        else:
            records, prefix = [json.dumps(item, default=str)], "  item: "
            verbatim += 1
        for record in records:
            say(f"{prefix}{record[:110]}")
            seen[key(record)] += 1
    return dict(how=how, seen=dict(seen), final_output=result.final_output,
                summary=f"{records_in_summaries} summary records + {verbatim} items")  # fmt: skip


def judge(facts):
    """(outcome, detail): each of the run's 8 items must be in the follow-up history exactly once."""
    seen, how, summary = facts["seen"], facts["how"], facts["summary"]
    if facts["final_output"] != ANSWER:
        return "unexpected", f"the run ended with {facts['final_output']!r}, expected Agent Two's answer {ANSWER!r}"
    missing = [k for k in EXPECTED if not seen.get(k)]
    extra = [k for k in seen if k not in EXPECTED]
    if missing or extra:
        return (
            "unexpected",
            f"{how}: {summary}: missing {', '.join(missing) or 'none'}; extra {', '.join(extra) or 'none'}",
        )
    repeated = [f"{k} x{seen[k]}" for k in EXPECTED if seen[k] > 1]
    if repeated:
        return "reproduced", f"{how} repeats {len(repeated)} of the run's 8 items ({summary}): {', '.join(repeated)}"
    return "fixed", f"{how} holds each of the run's 8 items once ({summary})"


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
