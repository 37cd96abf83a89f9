# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a JSON `null` row in a SQLiteSession is returned as a history item.

Upstream: https://github.com/openai/openai-agents-python/issues/4939 and its fix,
https://github.com/openai/openai-agents-python/pull/4940 (closed without being merged).
`SQLiteSession` decodes each row with `json.loads` and skips only rows that fail to decode: a row
holding valid JSON that is not an object comes back as an item. With a `null` as the newest row,
`get_items(limit=1)` returns `[None]`, `pop_item()` returns `None` (the documented "the session is
empty") while valid items remain, and `Runner.run` sends the model an input list holding `None`.

A `SQLiteSession` on a file in a temporary folder holds a user and an assistant message, plus a
`null` row written straight into its messages table (as a crashed or foreign writer would leave
it); the case's call goes through a fresh `SQLiteSession` (`runner-input`: a `Model` subclass
records its input). Prints what the call returned and what the file holds afterwards.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import contextlib
import json
import os
import sqlite3
import sys
import tempfile

CASES = {"get-items-limit": dict(call="get-items-limit"), "pop-item": dict(call="pop-item"),
         "runner-input": dict(call="runner-input")}  # fmt: skip
USER = {"role": "user", "content": "valid 0"}
ASSISTANT = {"role": "assistant", "content": "valid 1"}
NEXT = "next question"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def observe(say, call):
    """Store two messages and a null row, then make the case's call through a fresh session."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    from agents import Agent, Runner
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    try:
        from agents.memory import SQLiteSession
    except ImportError as exc:
        raise NotApplicable(f"agents.memory has no SQLiteSession: {exc}") from exc

    class Recording(Model):
        """Answers once; keeps its input."""

        async def get_response(self, *args, **kwargs):
            self.input = list(kwargs["input"] if "input" in kwargs else args[1])
            text = ResponseOutputText(type="output_text", text="Here you go.", annotations=[])
            item = ResponseOutputMessage(id="m-1", type="message", role="assistant", status="completed", content=[text])
            return ModelResponse(output=[item], usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "session.db")
        sessions = [SQLiteSession("session-1", path) for _ in range(3)]  # the writer, the caller, the reader
        await sessions[0].add_items([dict(USER), dict(ASSISTANT)])
        table = getattr(sessions[0], "messages_table", "agent_messages")
        with contextlib.closing(sqlite3.connect(path)) as conn:
            conn.execute(f"INSERT INTO {table} (session_id, message_data) VALUES (?, ?)", ("session-1", "null"))
            conn.commit()
        if call == "get-items-limit":
            returned = list(await sessions[1].get_items(limit=1))
            say(f"get_items(limit=1) returned {json.dumps(returned)}")
        elif call == "pop-item":
            returned = await sessions[1].pop_item()
            say(f"pop_item() returned {json.dumps(returned)}")
        else:
            model = Recording()
            await Runner.run(Agent(name="Assistant", model=model), NEXT, session=sessions[1])
            returned = [item if item is None or isinstance(item, dict) else item.model_dump() for item in model.input]
            for n, item in enumerate(returned, 1):
                say(f"model input item {n}: {json.dumps(item, sort_keys=True)}")
        left = list(await sessions[2].get_items())
        for session in sessions:
            session.close()
    say(f"a fresh session then reads {len(left)} items: {json.dumps(left, sort_keys=True)}")
    return dict(call=call, returned=returned, left=left)


def judge(facts):
    """(outcome, detail): the null row must be passed over like a corrupt row."""
    call, returned, left = facts["call"], facts["returned"], facts["left"]
    if call == "get-items-limit":
        if returned == [ASSISTANT]:
            return "fixed", "get_items(limit=1) passed over the null row and returned the newest valid item"
        if returned == [None]:
            return "reproduced", "get_items(limit=1) returned [None]: the null row counted as the newest item"
    elif call == "pop-item":
        if returned == ASSISTANT and left == [USER]:
            return "fixed", "pop_item() dropped the null row and returned the newest valid item; 1 item left"
        if returned is None and len(left) == 2:
            return (
                "reproduced",
                f"pop_item() returned None (the 'empty session' answer) while {len(left)} valid items remain",
            )
    else:
        expected = [USER, ASSISTANT, {"role": "user", "content": NEXT}]
        pairs = [item and {"role": item.get("role"), "content": item.get("content")} for item in returned]
        if pairs == expected:
            return "fixed", f"the model got the {len(returned)} valid items; the null row was passed over"
        if None in pairs and [item for item in pairs if item is not None] == expected:
            return "reproduced", f"the model's input holds None at position {pairs.index(None) + 1} of {len(pairs)}"
    return "unexpected", f"{call} returned {returned!r}; the file holds {left!r}"


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
