"""SQLiteSession.get_items(limit=1) returns [None] when the newest stored row is JSON null.

Upstream: https://github.com/openai/openai-agents-python/issues/4939 (closed; its fix, PR #4940,
closed unmerged). Stores a user and an assistant message in a SQLiteSession on a file in a
temporary folder, writes a JSON `null` row into its messages table, then reads
get_items(limit=1) through a fresh session. `reproduced`: [None]. `fixed`: the null row is
passed over and the newest valid item comes back. Exit 0 fixed, 3 reproduced, 125 cannot judge.
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
        returned = await SQLiteSession("s1", path).get_items(limit=1)
    print("get_items(limit=1) returned:", returned)
    if returned == [ASSISTANT]:
        print("verdict: fixed (the null row was passed over; the newest valid item came back)")
        return 0
    if returned == [None]:
        print("verdict: reproduced (get_items(limit=1) returned [None])")
        return 3
    print(f"verdict: cannot judge (returned {returned!r})")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:  # any failure: cannot judge
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
