# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: with conversation_id / previous_response_id the runner resends earlier items on tool-loop turns.

Upstream: https://github.com/openai/openai-agents-python/issues/1789 (fix:
https://github.com/openai/openai-agents-python/pull/1827). With `Runner.run(..., conversation_id=...)`
the server already holds the conversation, so each model call of the run should send only the items
that are new since the last call. The runner sent the whole run's history on every turn of a tool
loop: the second request carried the user's message and the model's own function call `fc_...` again,
and the Responses API answered 400 "Duplicate item found with id fc_...". With
`previous_response_id=...` the same history was resent and every request chained to the caller's
response id instead of the run's latest response (no error, but the responses fork).

The framework's own OpenAIResponsesModel over a real `openai.AsyncOpenAI` client whose transport is
an `httpx.MockTransport`: a fake Responses server that answers with a function call, then text, and
that keeps server-side state as the API does (a conversation's items, a response chain) and answers
400 for an item id the conversation already holds ("Duplicate item found") or a pending function
call without its output ("No tool output found"). Prints each request: its conversation /
previous_response_id and the items of its input.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import importlib
import inspect
import json
import os
import sys

# state: the server-managed state the run is given ("conversation": conversation_id, "previous":
# previous_response_id, None: neither, the run keeps the history itself); streamed: Runner.run_streamed;
# calls: how many times the model calls the tool (with the same arguments) before it answers.
CASES = {
    "conversation-id": dict(state="conversation", streamed=False, calls=1),
    # What the reporter ran: Runner.run_streamed with conversation_id.
    "conversation-id-streamed": dict(state="conversation", streamed=True, calls=1),
    "previous-response-id": dict(state="previous", streamed=False, calls=1),
    # Two identical calls (same arguments, same output) chained by previous_response_id: each new tool
    # output must still be sent once. A fix that drops what looks already sent would go too far
    # (the server answers "No tool output found"); judged on that alone.
    "repeated-call-new-output-sent": dict(state="previous", streamed=False, calls=2),
    # Neither id: the run keeps the history itself and every request carries all of it.
    "control-local-history": dict(state=None, streamed=False, calls=1),
}
QUESTION = "Look up order 42."
ARGS = '{"order": "42"}'
RESULT = "order 42: shipped"
ANSWER = "Order 42 has shipped."
CONVERSATION = "conv_1"
CALLER_RESPONSE = "resp_0"  # the caller's previous response, made before this run


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def key(item):
    """What identifies an input item: a message by role and text, a call by its id, an output by its call."""
    kind = item.get("type") or ("message" if "role" in item else "?")
    if kind == "message":
        content = item.get("content")
        if isinstance(content, list):
            content = " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
        return f"{item.get('role')} message {str(content)[:40]!r}"
    if kind == "function_call":
        return f"function_call {item.get('id')}"
    if kind == "function_call_output":
        return f"function_call_output {item.get('call_id')}"
    return kind


def reply(n, script, streamed):
    """The n-th response (1-based): a function call while the script has calls left, then the answer."""
    if n <= script:
        item = dict(type="function_call", id=f"fc_{n}", call_id=f"call_{n}", name="lookup", arguments=ARGS)
        item["status"] = "completed"
    else:
        text = dict(type="output_text", text=ANSWER, annotations=[])
        item = dict(type="message", id=f"msg_{n}", role="assistant", status="completed", content=[text])
    body = dict(id=f"resp_{n}", object="response", created_at=0, model="m", status="completed", output=[item])
    body.update(parallel_tool_calls=True, tool_choice="auto", tools=[], usage=None)
    return [{"type": "response.completed", "sequence_number": 0, "response": body}] if streamed else body


class FakeServer:
    """The Responses API's server-side state: a conversation's items, each response's chain."""

    def __init__(self, calls, streamed):
        self.calls, self.streamed = calls, streamed
        self.requests = []  # what each request carried
        self.conversation = []  # the items conversation conv_1 holds
        self.chains = {CALLER_RESPONSE: []}  # response id -> every item up to and with that response

    def answer(self, body):
        """(status, JSON body or SSE events) for one request body."""
        conversation = body.get("conversation")
        if isinstance(conversation, dict):
            conversation = conversation.get("id")
        previous = body.get("previous_response_id")
        items = body.get("input")
        items = [{"role": "user", "content": items}] if isinstance(items, str) else list(items or [])
        self.requests.append(dict(conversation=conversation, previous=previous, input=[key(i) for i in items]))
        held = self.conversation if conversation else self.chains.get(previous, []) if previous else []
        held_ids = {i.get("id") for i in held if i.get("id")}
        for item in items:
            if conversation and item.get("id") in held_ids:
                return 400, error(f"Duplicate item found with id {item['id']}. Remove duplicate items from your input")
        answered = {i.get("call_id") for i in held + items if i.get("type") == "function_call_output"}
        for item in held:
            if item.get("type") == "function_call" and item.get("call_id") not in answered:
                return 400, error(f"No tool output found for function call {item['call_id']}.")
        n = len(self.requests)
        response = reply(n, self.calls, self.streamed)
        output = (response[0]["response"] if self.streamed else response)["output"]
        self.requests[-1]["output"] = [key(i) for i in output]
        if conversation:
            self.conversation.extend(items + output)
        self.chains[f"resp_{n}"] = held + items + output
        return 200, response


def error(message):
    return {"error": {"message": message, "type": "invalid_request_error", "param": "input", "code": None}}


async def observe(say, state, streamed, calls):
    """Run the tool loop against the fake server; say each request; return what they carried."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import openai
    from agents import Agent, Runner, function_tool, set_tracing_disabled

    try:
        from agents import OpenAIResponsesModel
    except ImportError as exc:
        raise NotApplicable(f"agents exports no OpenAIResponsesModel: {exc}") from None
    runner_call = Runner.run_streamed if streamed else Runner.run
    wanted = {"conversation": "conversation_id", "previous": "previous_response_id"}.get(state)
    if wanted and wanted not in inspect.signature(runner_call).parameters:
        raise NotApplicable(f"Runner.{runner_call.__name__} takes no {wanted}")

    set_tracing_disabled(True)  # nothing is exported to OpenAI's tracing endpoint

    # openai 3.x is built on httpx2 (the same API as httpx).
    httpx = importlib.import_module("httpx2" if int(openai.__version__.split(".")[0]) >= 3 else "httpx")
    server = FakeServer(calls, streamed)

    def handler(request):
        status, answer = server.answer(json.loads(request.content))
        if status != 200 or not streamed:
            return httpx.Response(status, json=answer)
        sse = "".join(f"data: {json.dumps(event)}\n\n" for event in answer)
        return httpx.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})

    @function_tool
    def lookup(order: str) -> str:
        """Look up an order."""
        return RESULT

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = openai.AsyncOpenAI(api_key="sk-dummy", base_url="http://fake.invalid/v1", max_retries=0, http_client=http)
    agent = Agent(name="assistant", model=OpenAIResponsesModel(model="m", openai_client=client), tools=[lookup])
    ids = {"conversation": dict(conversation_id=CONVERSATION), "previous": dict(previous_response_id=CALLER_RESPONSE)}
    error_text, final_output = None, None
    try:
        if streamed:
            result = Runner.run_streamed(agent, input=QUESTION, **ids.get(state, {}))
            async for _ in result.stream_events():
                pass
        else:
            result = await Runner.run(agent, input=QUESTION, **ids.get(state, {}))
        final_output = result.final_output
    except Exception as exc:
        error_text = f"{type(exc).__name__}: {exc}"
    for n, request in enumerate(server.requests, 1):
        held = f"conversation {request['conversation']}" if request["conversation"] else "no conversation"
        chained = request["previous"] or "-"
        say(f"request {n}: {held}, previous_response_id {chained}, input {request['input']}")
    say(f"run raised {error_text[:200]}" if error_text else f"run finished: final_output {final_output!r}")
    return dict(state=state, calls=calls, requests=server.requests, error=error_text, final_output=final_output)


def sent_before(requests, n):
    """What the server already had before request n (1-based): every earlier request's input, and the
    output of each response it answered."""
    return {item for request in requests[: n - 1] for item in request["input"] + request.get("output", [])}


def judge(facts):
    """(outcome, detail): with server-managed state each request after the first sends only the new tool
    output (and with previous_response_id chains to the run's latest response); without it, all of it."""
    requests, state = facts["requests"], facts["state"]
    question = key({"role": "user", "content": QUESTION})
    if not requests or question not in requests[0]["input"]:
        return "unexpected", f"the first request did not carry the user's message: {requests[:1]}"
    ended = (
        f"the run raised {facts['error'][:160]}" if facts["error"] else f"the run answered {facts['final_output']!r}"
    )
    # Each request after the first must carry the output of the call the response before it made.
    missing = [
        n for n in range(2, len(requests) + 1) if f"function_call_output call_{n - 1}" not in requests[n - 1]["input"]
    ]
    resent = {n: sorted(set(r["input"]) & sent_before(requests, n)) for n, r in enumerate(requests[1:], start=2)}
    resent = {n: items for n, items in resent.items() if items}
    if facts["calls"] > 1:
        # The non-regression case: judged on the new outputs alone (resending is the other cases' bug).
        figures = f"{len(requests)} requests; {ended}"
        if missing:
            return "reproduced", f"request(s) {missing} lacked the new tool output; {figures}"
        if len(requests) != facts["calls"] + 1 or facts["error"] or facts["final_output"] != ANSWER:
            return "unexpected", figures
        return "fixed", f"every request after the first carried its new tool output; {figures}"
    if len(requests) < 2:
        return "unexpected", f"{len(requests)} request(s); {ended}"
    second = requests[1]
    if state is None:
        figures = f"request 2 carried {second['input']}; {ended}"
        kept = {question, "function_call fc_1", "function_call_output call_1"} <= set(second["input"])
        if second["conversation"] or second["previous"]:
            return "unexpected", f"{figures}, with a server-side id nobody gave"
        if not kept:
            return "reproduced", f"the run's own history was not resent: {figures}"
        return ("fixed", figures) if len(requests) == 2 and facts["final_output"] == ANSWER else ("unexpected", figures)
    if state == "conversation" and any(r["conversation"] != CONVERSATION for r in requests):
        return "unexpected", f"a request did not carry {CONVERSATION}: {[r['conversation'] for r in requests]}"
    chain = [r["previous"] for r in requests]
    if state == "previous":
        # The first request chains to the caller's response, each later one to the run's response before it.
        expected_chain = [CALLER_RESPONSE] + [f"resp_{n}" for n in range(1, len(requests))]
        stuck = chain[1] == CALLER_RESPONSE
        figures = f"request 2 resent {resent.get(2)} and chained to {chain[1]}; {ended}"
        if resent.get(2) and stuck:
            return "reproduced", figures
        if resent or chain != expected_chain or missing:
            return "unexpected", f"requests chained to {chain}, resent {resent}, missing outputs {missing}; {ended}"
    else:
        figures = f"request 2 resent {resent.get(2)}; {ended}"
        if resent.get(2):
            return "reproduced", figures
        if resent or missing:
            return "unexpected", f"resent {resent}, missing outputs {missing}; {ended}"
    if facts["error"] or facts["final_output"] != ANSWER or len(requests) != 2:
        return "unexpected", f"{len(requests)} requests, nothing resent; {ended}"
    return "fixed", f"request 2 carried only {second['input']}; {ended}"


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
