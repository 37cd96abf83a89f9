"""Runner.run on a SQLiteSession holding a JSON null row sends None to the model as an input item.

Upstream: https://github.com/openai/openai-agents-python/issues/4939 (closed; its fix, PR #4940,
closed unmerged). Stores a user and an assistant message in a SQLiteSession on a file in a
temporary folder, writes a JSON `null` row into its messages table, then runs
an agent on a fresh session with a scripted Model (no network) that records its input.
`reproduced`: the input holds None. `fixed`: the input is the two valid messages and the new one.
Exit 0 fixed, 3 reproduced, 125 cannot judge.
"""

import asyncio
import os
import sqlite3
import sys

os.environ.setdefault("OPENAI_API_KEY", "sk-dummy-no-network")  # some releases build a client
import tempfile
from contextlib import closing

USER = {"role": "user", "content": "valid 0"}
ASSISTANT = {"role": "assistant", "content": "valid 1"}


async def main() -> int:
    from agents import Agent, ModelResponse, Runner, set_tracing_disabled
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)

    class RecordingModel(Model):
        async def get_response(self, *args, **kwargs):
            self.input = list(kwargs["input"] if "input" in kwargs else args[1])
            text = ResponseOutputText(type="output_text", text="Here you go.", annotations=[])
            item = ResponseOutputMessage(id="m-1", type="message", role="assistant", status="completed", content=[text])
            fields = {"output": [item], "usage": Usage(), "response_id": "resp-1", "referenceable_id": "resp-1"}
            return ModelResponse(**{k: v for k, v in fields.items() if k in ModelResponse.__dataclass_fields__})

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    try:
        from agents.memory import SQLiteSession
    except ImportError as exc:
        print(f"verdict: cannot judge (no SQLiteSession before 0.2.0: {exc})")
        return 125
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "session.db")
        writer = SQLiteSession("s1", path)
        await writer.add_items([dict(USER), dict(ASSISTANT)])
        table = getattr(writer, "messages_table", "agent_messages")
        with closing(sqlite3.connect(path)) as conn:
            conn.execute(f"INSERT INTO {table} (session_id, message_data) VALUES (?, ?)", ("s1", "null"))
            conn.commit()
        model = RecordingModel()
        await Runner.run(Agent(name="Assistant", model=model), "next", session=SQLiteSession("s1", path))
    pairs = [i if i is None else (dict(i).get("role"), dict(i).get("content")) for i in model.input]
    print("model input:", pairs)
    expected = [("user", "valid 0"), ("assistant", "valid 1"), ("user", "next")]
    if pairs == expected:
        print("verdict: fixed (the model got the 3 valid items)")
        return 0
    if None in pairs and [p for p in pairs if p is not None] == expected:
        print(f"verdict: reproduced (None at position {pairs.index(None) + 1} of the model's {len(pairs)} input items)")
        return 3
    print(f"verdict: cannot judge (model input {pairs!r})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
