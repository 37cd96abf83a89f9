# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.24.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-15T02:38:22Z"
# ///
# agents-sqlite-session-json-null:pop-item. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 0.1.0 (2025-06-27T20:58:04Z)
#   reproduced / reproduced: 0.2.0 (2025-07-15T15:49:35Z), 0.6.9 (2026-01-20T01:57:01Z),
#     0.7.0 (2026-01-23T00:06:36Z), 0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z),
#     0.10.5 (2026-03-05T20:44:00Z), 0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z),
#     0.13.6 (2026-04-09T04:10:52Z), 0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z),
#     0.16.1 (2026-05-07T11:02:40Z), 0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z),
#     0.19.4 (2026-08-05T02:59:13Z), 0.20.0 (2026-08-11T03:12:50Z), 0.21.1 (2026-08-16T22:29:36Z),
#     0.22.3 (2026-09-17T22:20:45Z), 0.23.1 (2026-10-02T15:42:07Z), 0.24.0 (2026-10-15T02:38:22Z)
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
