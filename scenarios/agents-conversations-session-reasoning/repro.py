# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: OpenAIConversationsSession sends the run's reasoning items to the Conversations API.

Upstream: https://github.com/openai/openai-agents-python/issues/1709. With a reasoning model, a run
on an `OpenAIConversationsSession` ends with the session persisting the turn through
`conversations.items.create`, and the API answers 400 "Invalid item" (param "item"). The reporter
printed the items the SDK sent: the user input, a reasoning item `{"id": "rs_...", "summary": [],
"type": "reasoning"}` and the assistant message; a later comment on the thread quotes the same
reasoning item without its id (`{"summary": [], "type": "reasoning"}`), rejected the same way. Both
are reasoning items with an empty summary and no `encrypted_content`: the shape this script looks
for in what the SDK sends.

The framework's own OpenAIResponsesModel and OpenAIConversationsSession over one real
`openai.AsyncOpenAI` client whose transport is an `httpx.MockTransport`: the Responses endpoint answers
with the reply of a reasoning model (a reasoning item with an empty summary, then the answer), the
Conversations endpoint holds conversation `conv_1`, lists its items and records every
`conversations.items.create` body. The fake does not validate items: the verdict reads what the SDK
sent. Prints each item sent, one line each.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import importlib
import json
import os
import sys

# reasoning: the model's reply starts with a reasoning item; check: what the verdict reads in the items
# sent ("reasoning": no reasoning item with an empty summary and no encrypted_content; "answer": the
# user's input and the assistant's answer are persisted).
CASES = {
    "reasoning-empty-summary": dict(reasoning=True, check="reasoning"),
    "answer-persisted": dict(reasoning=True, check="answer"),
    "control-no-reasoning": dict(reasoning=False, check="answer"),
}
QUESTION = "Hello"
ANSWER = "Hello! How can I help you today?"
CONVERSATION = "conv_1"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def response(reasoning):
    """The Responses API's reply: a reasoning item with an empty summary (where asked), then the answer."""
    text = dict(type="output_text", text=ANSWER, annotations=[])
    answer = dict(type="message", id="msg_1", role="assistant", status="completed", content=[text])
    output = [dict(type="reasoning", id="rs_1", summary=[]), answer] if reasoning else [answer]
    body = dict(id="resp_1", object="response", created_at=0, model="m", status="completed", output=output)
    body.update(parallel_tool_calls=True, tool_choice="auto", tools=[], usage=None)
    return body


def shape(item):
    """One line for an item the SDK sent: its type (or role), id, and a reasoning item's summary."""
    kind = item.get("type") or "message"
    parts = [kind if "role" not in item else f"{kind} role={item['role']}"]
    parts.append(f"id={item['id']}" if "id" in item else "no id")
    if kind == "reasoning":
        parts.append(f"summary={json.dumps(item.get('summary'))}")
        parts.append("encrypted_content" if item.get("encrypted_content") else "no encrypted_content")
    return " ".join(parts)


def empty_shell(item):
    """A reasoning item as the thread shows it rejected: an empty summary and no encrypted_content."""
    return item.get("type") == "reasoning" and not item.get("summary") and not item.get("encrypted_content")


def text_of(item):
    """A message item's text (a string, or its content parts)."""
    content = item.get("content")
    if isinstance(content, str):
        return content
    return " ".join(str(p.get("text", "")) for p in content or [] if isinstance(p, dict))


async def observe(say, reasoning, check):
    """Run the agent on the session; say each item sent to conversations.items.create; return them."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import Agent, Runner, set_tracing_disabled

    try:
        from agents import OpenAIConversationsSession, OpenAIResponsesModel
    except ImportError as exc:
        raise NotApplicable(f"agents exports no OpenAIConversationsSession: {exc}") from None

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    created, calls = [], []

    def handler(request):
        path = request.url.path
        calls.append(f"{request.method} {path}")
        if path.endswith("/responses"):
            return httpx.Response(200, json=response(reasoning))
        if path.endswith(f"/conversations/{CONVERSATION}/items") and request.method == "POST":
            items = json.loads(request.content).get("items") or []
            created.append(items)
            data = [dict(item, id=item.get("id") or f"item_{n}") for n, item in enumerate(items, 1)]
            return httpx.Response(200, json=dict(object="list", data=data, first_id=None, last_id=None, has_more=False))
        if path.endswith(f"/conversations/{CONVERSATION}/items"):
            return httpx.Response(200, json=dict(object="list", data=[], first_id=None, last_id=None, has_more=False))
        if path.endswith(f"/conversations/{CONVERSATION}"):
            return httpx.Response(200, json=dict(id=CONVERSATION, object="conversation", created_at=0, metadata={}))
        return httpx.Response(404, json=dict(error=dict(message=f"the fake has no {request.method} {path}")))

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    session = OpenAIConversationsSession(conversation_id=CONVERSATION, openai_client=client)
    agent = Agent(name="assistant", model=OpenAIResponsesModel(model="m", openai_client=client))
    say(f"model reply: {'a reasoning item (empty summary), then ' if reasoning else ''}the answer")
    result = await Runner.run(agent, input=QUESTION, session=session)
    sent = [item for batch in created for item in batch]
    for n, batch in enumerate(created, 1):
        for item in batch:
            say(f"conversations.items.create {n}: {shape(item)}")
    say(f"run finished: final_output {result.final_output!r}")
    return dict(
        check=check, reasoning=reasoning, final_output=result.final_output, batches=len(created),
        shells=[shape(item) for item in sent if empty_shell(item)],
        reasoning_sent=sum(item.get("type") == "reasoning" for item in sent),
        user_sent=sum(item.get("role") == "user" and QUESTION in text_of(item) for item in sent),
        answer_sent=sum(item.get("role") == "assistant" and ANSWER in text_of(item) for item in sent),
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): no reasoning item with an empty summary and no encrypted_content reaches
    conversations.items.create ("reasoning"); the user's input and the answer are persisted once each
    ("answer")."""
    if facts["final_output"] != ANSWER:
        return "unexpected", f"the run ended with {facts['final_output']!r}, not the fake's answer"
    user, answer, shells = facts["user_sent"], facts["answer_sent"], facts["shells"]
    figures = (
        f"{facts['batches']} conversations.items.create calls sent the user input {user}x, the answer {answer}x, "
        f"{facts['reasoning_sent']} reasoning items ({len(shells)} with an empty summary and no encrypted_content"
        f"{': ' + '; '.join(shells) if shells else ''})"
    )
    if facts["check"] == "answer":
        if user == 1 and answer == 1:
            return "fixed", figures
        return ("reproduced", f"{figures}: the turn is not persisted") if answer == 0 else ("unexpected", figures)
    if user != 1 or answer != 1:
        return "unexpected", f"{figures}: the turn itself is not persisted once"
    if shells:
        return "reproduced", f"{figures}: the item the Conversations API answers 'Invalid item' for"
    return "fixed", figures


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
