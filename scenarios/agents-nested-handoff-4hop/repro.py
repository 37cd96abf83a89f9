# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a 4-hop nested handoff repeats earlier agents' messages in the history summary.

Upstream: https://github.com/openai/openai-agents-python/pull/3791 (the seed fix; see also
https://github.com/openai/openai-agents-python/issues/2171). With `RunConfig(nest_handoff_history=True)`
each handoff folds the transcript into one `<CONVERSATION HISTORY>` summary message for the next agent
and forwards the previous agent's own message verbatim as well; at the next hop that verbatim copy came
back as a `pre_handoff_item` and was summarised again (agents/handoffs/history.py). In A -> B -> C -> D,
D's summary lists A's and B's messages twice. Case `identical-messages-kept` is the PR review's
over-deletion probe: A and B say byte-identical text (one message id), and D must see it exactly twice.

A `Model` subclass written here (no network) scripts each agent: its message, then the handoff; D
answers. Prints what D's model received, one line per item (a summary: one line per line of it).

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import dataclasses
import json
import os
import sys

CASES = {
    "nested-4hop": dict(streamed=False, identical=False),
    "nested-4hop-streamed": dict(streamed=True, identical=False),
    "identical-messages-kept": dict(streamed=False, identical=True),
}
MARKER = "<CONVERSATION HISTORY>"
SAME = "same text"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def said(name, identical):
    """(text, message id) of an agent's message before it hands off."""
    return (SAME, "msg-same") if identical and name in "AB" else (f"{name}: msg", f"msg-{name}")


async def observe(say, streamed, identical):
    """Run A -> B -> C -> D with nested handoff history; say what D's model received."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, RunConfig, Runner, handoff
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types import responses as rt

    if "nest_handoff_history" not in {f.name for f in dataclasses.fields(RunConfig)}:
        raise NotApplicable("agents.RunConfig has no nest_handoff_history field")

    def message(text, msg_id):
        part = rt.ResponseOutputText(type="output_text", text=text, annotations=[])
        return rt.ResponseOutputMessage(id=msg_id, type="message", role="assistant", status="completed", content=[part])

    class Scripted(Model):
        """Replays one turn of output items and records the input it was given."""

        def __init__(self, *output):
            self.output, self.inputs = list(output), []

        async def get_response(self, *args, **kwargs):
            self.inputs.append(kwargs.get("input", args[1] if len(args) > 1 else None))
            return ModelResponse(output=self.output, usage=Usage(), response_id=None)

        async def stream_response(self, *args, **kwargs):
            self.inputs.append(kwargs.get("input", args[1] if len(args) > 1 else None))
            response = rt.Response(
                id="resp-1", created_at=0, model="m", object="response", output=self.output, tool_choice="auto",
                tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield rt.ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    d = nxt = Agent(name="D", model=Scripted(message("D: final", "msg-D")))
    for name in ("C", "B", "A"):
        to_next = handoff(nxt)
        call = rt.ResponseFunctionToolCall(
            id=f"fc-{name}", call_id=f"call-{name}", type="function_call", name=to_next.tool_name, arguments="{}"
        )
        nxt = Agent(name=name, model=Scripted(message(*said(name, identical)), call), handoffs=[to_next])
    config = RunConfig(nest_handoff_history=True)
    if streamed:
        result = Runner.run_streamed(nxt, "USERQ", run_config=config)
        async for _ in result.stream_events():
            pass
    else:
        await Runner.run(nxt, "USERQ", run_config=config)
    if not d.model.inputs:
        say("D's model was never called")
        return dict(d_called=False)
    summaries, verbatim = [], []
    for item in d.model.inputs[0]:
        content = item.get("content") if isinstance(item, dict) else None
        if isinstance(content, str) and MARKER in content:
            summaries.append(content)
            say(f"D received a history summary of {len(content.splitlines())} lines:")
            for line in content.splitlines():
                say(f"  | {line}")
        else:
            verbatim.append(json.dumps(item, sort_keys=True, default=str))
            say(f"D received verbatim: {verbatim[-1][:200]}")
    texts = [said(name, identical)[0] for name in "ABC"]
    return dict(d_called=True, identical=identical, texts=texts, summaries=summaries, verbatim="\n".join(verbatim))


def judge(facts):
    """(outcome, detail): no summary repeats a record; A's, B's and C's messages each reach D."""
    if not facts["d_called"]:
        return "unexpected", "D's model was never called; the chain did not reach D"
    summaries, verbatim = facts["summaries"], facts["verbatim"]
    if not summaries:
        return "unexpected", f"D received no {MARKER} summary block; history was not nested"
    if facts["identical"]:
        in_blocks, forwarded = sum(s.count(SAME) for s in summaries), verbatim.count(SAME)
        figures = (
            f"{SAME!r} (A's and B's identical message) reaches D {in_blocks + forwarded} times "
            f"({in_blocks} summary records, {forwarded} verbatim), expected 2"
        )
        if in_blocks + forwarded == 2:
            return "fixed", figures
        return ("reproduced", figures) if in_blocks + forwarded > 2 else ("unexpected", figures + ": one was deleted")
    repeated = [f"{t!r} x{s.count(t)}" for s in summaries for t in facts["texts"] if s.count(t) > 1]
    if repeated:
        return "reproduced", f"D's history summary repeats {len(repeated)} records: {', '.join(repeated)}"
    problems, reached = [], []
    for text in facts["texts"]:
        in_blocks, forwarded = sum(text in s for s in summaries), verbatim.count(text)
        if in_blocks + forwarded == 0:
            problems.append(f"{text!r} never reaches D")
        elif in_blocks > 1:
            problems.append(f"{text!r} is recorded in {in_blocks} summary blocks")
        reached.append(f"{text!r} {in_blocks} summary record + {forwarded} verbatim")
    if problems:
        return "unexpected", "no summary repeats a record, but " + "; ".join(problems)
    return "fixed", f"no history summary repeats a record ({len(summaries)} summaries); " + ", ".join(reached)


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
