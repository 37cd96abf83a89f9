"""SQLiteSession.pop_item() returns None (the empty-session answer) when the newest row is JSON null.

Upstream: https://github.com/openai/openai-agents-python/issues/4939 (closed; its fix, PR #4940,
closed unmerged). Stores a user and an assistant message in a SQLiteSession on a file in a
temporary folder, writes a JSON `null` row into its messages table, then calls
pop_item() through a fresh session. `reproduced`: None while both valid items remain. `fixed`:
the null row is dropped and the assistant message is popped, the user message left.
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
    try:
        from agents.memory import SQLiteSession
    except ImportError as exc:
        if exc.name == "agents":  # the framework itself is missing: the catch-all's error
            raise
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
        returned = await SQLiteSession("s1", path).pop_item()
        left = await SQLiteSession("s1", path).get_items()
    print("pop_item() returned:", returned)
    print("a fresh session then reads:", left)
    if returned == ASSISTANT and left == [USER]:
        print("verdict: fixed (pop_item dropped the null row and returned the newest valid item)")
        return 0
    if returned is None and len(left) == 2:
        print("verdict: reproduced (pop_item returned None while 2 valid items remain)")
        return 3
    print(f"verdict: cannot judge (returned {returned!r}, left {left!r})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
