# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a Chat Completions agent's items, replayed to a Responses model, carry id "__fake_id__".

Upstream: https://github.com/openai/openai-agents-python/issues/972 and #2293 (also #270, #1485). The SDK
gives each item it converts from a Chat Completions reply the placeholder id FAKE_RESPONSES_ID
("__fake_id__"); when a handoff (or the next run's to_input_list()) sends those items to an
OpenAIResponsesModel, the Responses API answers 400 "Expected an ID that begins with 'msg'".

Agent 1 on OpenAIChatCompletionsModel, agent 2 on OpenAIResponsesModel, each over a real openai.AsyncOpenAI
client with an httpx.MockTransport. The fake Responses endpoint answers 400 as the real one does when an
input item's id does not begin with its type's prefix (msg/fc/rs...).

    uv run repro.py [CASE]

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error.
"""

import asyncio
import importlib
import json
import os
import sys

CASES = {
    "handoff-to-responses": dict(handoff=True),
    "next-run-input-list": dict(handoff=False),
    "control-responses-only": dict(handoff=None),
    "responses-real-id-kept": dict(handoff=None, keep_ids=True),
}
QUESTION, ANSWER, ANSWER_2 = "Say apple.", "apple", "banana"
PREFIX = {"message": "msg", "function_call": "fc", "reasoning": "rs"}
SYMPTOM = "Expected an ID that begins with"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def chat(n, message):
    finish = "tool_calls" if "tool_calls" in message else "stop"
    choice = dict(index=0, message={"role": "assistant", "content": None, **message}, finish_reason=finish)
    return dict(id=f"c{n}", object="chat.completion", created=0, model="m", choices=[choice])


def response(n, text):
    item = dict(
        type="message",
        id=f"msg_{n}",
        role="assistant",
        status="completed",
        content=[dict(type="output_text", text=text, annotations=[])],
    )
    return dict(id=f"resp_{n}", object="response", created_at=0, model="m", output=[item], status="completed",
                parallel_tool_calls=True, tool_choice="auto", tools=[])  # fmt: skip


def bad_ids(items):
    """The (index, id) of each input item whose id the real Responses API refuses."""
    out = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        want = PREFIX.get(item.get("type", "message" if "role" in item else None)) if isinstance(item, dict) else None
        if want and "id" in item and item["id"] is not None and not str(item["id"]).startswith(want):
            out.append((i, item["id"], want))
    return out


async def observe(say, handoff, keep_ids=False):
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner

    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    chat_turns = (
        [dict(tool_calls=[dict(index=0, id="call_h", type="function",
                               function=dict(name="transfer_to_responder", arguments="{}"))])]
        if handoff else [dict(content=ANSWER)]
    )  # fmt: skip
    served = []

    def handler(request):
        body = json.loads(request.content)
        kind = "responses" if request.url.path.endswith("/responses") else "chat"
        served.append((kind, body))
        if kind == "chat":
            return httpx.Response(200, json=chat(len(served), chat_turns[min(len(served), len(chat_turns)) - 1]))
        bad = bad_ids(body.get("input"))
        if bad:
            i, got, want = bad[0]
            msg = f"Invalid 'input[{i}].id': '{got}'. {SYMPTOM} '{want}'."
            err = dict(message=msg, type="invalid_request_error", param=f"input[{i}].id", code="invalid_value")
            return httpx.Response(400, json=dict(error=err))
        return httpx.Response(200, json=response(len(served), ANSWER_2 if handoff is not None else ANSWER))

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    responder = Agent(name="responder", model=OpenAIResponsesModel(model="m", openai_client=client))
    first_model = OpenAIChatCompletionsModel if handoff is not None else OpenAIResponsesModel
    first = Agent(name="first", model=first_model(model="m", openai_client=client),
                  handoffs=[responder] if handoff else [])  # fmt: skip
    error = result = None
    try:
        result = await Runner.run(first, input=QUESTION)
        if not handoff:
            follow = result.to_input_list() + [{"role": "user", "content": "Now say banana."}]
            result = await Runner.run(responder, input=follow)
    except Exception as exc:  # the bug raises: an observation
        error = exc
    for n, (kind, body) in enumerate(served, 1):
        items = body.get("input") if kind == "responses" else body.get("messages")
        say(f"request {n} ({kind}): {json.dumps(items, sort_keys=True)[:300]}")
    ending = f"raised {type(error).__name__}: {str(error)[:200]}" if error else f"finished: {result.final_output!r}"
    say(f"run {ending}")
    resp = [body for kind, body in served if kind == "responses"]
    return dict(
        handoff=handoff, keep_ids=keep_ids, requests=[k for k, _ in served],
        replayed=[item for item in (resp[-1].get("input") if len(resp) > 1 else []) if isinstance(item, dict)],
        error=None if error is None else f"{type(error).__name__}: {error}",
        bad_ids=[list(b) for body in resp for b in bad_ids(body.get("input"))],
        final_output=getattr(result, "final_output", None),
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the Responses request after the Chat Completions turn must carry no fake ids."""
    error, bad = facts["error"], facts["bad_ids"]
    if bad:
        if error and SYMPTOM in error and "__fake_id__" in json.dumps(bad):
            return "reproduced", f"the Responses request carried item ids {bad[:3]}; the run raised {error[:120]!r}"
        return "unexpected", f"refused ids {bad[:3]}, error {str(error)[:120]!r}"
    if error:
        return "unexpected", f"the run raised something else: {error[:160]!r}"
    if "responses" not in facts["requests"]:
        return "unexpected", f"no Responses request was sent ({facts['requests']})"
    replayed = facts["replayed"]
    if facts["handoff"] is None and not any(ANSWER in json.dumps(item.get("content")) for item in replayed):
        return "unexpected", "run 2's Responses request lacks run 1's answer"
    if facts["keep_ids"]:
        ids = [item.get("id") for item in replayed if item.get("role") == "assistant"]
        if ids != ["msg_1"]:
            return "reproduced", f"a fix gone too far: the Responses item's own id was not replayed (ids {ids})"
        return "fixed", "run 1's Responses message was replayed with its own id 'msg_1'"
    expected = ANSWER if facts["handoff"] is None else ANSWER_2
    if facts["final_output"] != expected:
        return "unexpected", f"the run finished with {facts['final_output']!r}, expected {expected!r}"
    return "fixed", f"the Responses request carried no refused id; the run finished with {expected!r}"


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
