# /// script
# requires-python = ">=3.11"
# dependencies = [
#   "openai-agents==0.24.0",
# ]
# [tool.uv]
# exclude-newer = "2026-10-15T02:38:22Z"
# ///
# agents-session-history-duplication:streamed. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).
# Checked beside the harness's case on every release below; to try one, set its version and its
# exclude-newer date above. By the case's outcome / this script's verdict, release (date):
#   not-applicable / cannot-judge: 0.1.0 (2025-06-27T20:58:04Z)
#   fixed / fixed: 0.2.0 (2025-07-15T15:49:35Z), 0.6.9 (2026-01-20T01:57:01Z),
#     0.7.0 (2026-01-23T00:06:36Z), 0.8.4 (2026-02-11T19:14:31Z), 0.9.3 (2026-02-20T22:56:23Z),
#     0.10.5 (2026-03-05T20:44:00Z), 0.11.1 (2026-03-09T06:34:08Z), 0.12.5 (2026-03-19T07:19:17Z),
#     0.13.6 (2026-04-09T04:10:52Z), 0.14.8 (2026-04-29T03:40:08Z), 0.15.3 (2026-05-06T12:13:01Z),
#     0.16.1 (2026-05-07T11:02:40Z), 0.17.8 (2026-07-06T23:37:13Z), 0.18.3 (2026-07-17T03:40:26Z),
#     0.19.4 (2026-08-05T02:59:13Z), 0.20.0 (2026-08-11T03:12:50Z), 0.21.1 (2026-08-16T22:29:36Z),
#     0.22.3 (2026-09-17T22:20:45Z), 0.23.1 (2026-10-02T15:42:07Z), 0.24.0 (2026-10-15T02:38:22Z)
"""Control for "a second run on a SQLiteSession saves the whole history again", streamed.

Upstream: https://github.com/openai/openai-agents-python/issues/1699 (fixed by PR #1700).
The streamed path never had the bug; this script guards the behaviour beside it.

Three Runner.run_streamed calls on one SQLiteSession file (temporary folder), a scripted
model that streams one answer per question; the file is read back through a second session.
reproduced (the control broke): an item is stored more than once (the history saved again).
Exit codes: 0 fixed, 3 reproduced, 125 cannot judge (no SQLiteSession, any other error).
"""

import asyncio
import os
import sys
import tempfile


async def main():
    from agents import Agent, Runner, set_tracing_disabled
    from agents.models.interface import Model
    from openai.types.responses import Response, ResponseCompletedEvent, ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)

    def message(text, msg_id):
        part = ResponseOutputText(type="output_text", text=text, annotations=[])
        return ResponseOutputMessage(id=msg_id, type="message", role="assistant", status="completed", content=[part])

    def text_of(item):
        content = item.get("content")
        return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)

    class Answers(Model):
        """Streams "Response n" for question n (a response.completed event carries the output)."""

        def __init__(self):
            self.turn = 0

        async def get_response(self, *args, **kwargs):
            raise NotImplementedError

        async def stream_response(self, *args, **kwargs):
            self.turn += 1
            output = [message(f"Response {self.turn}", f"msg-{self.turn}")]
            response = Response(
                id=f"resp-{self.turn}", created_at=0, model="scripted", object="response", output=output,
                tool_choice="auto", tools=[], top_p=None, parallel_tool_calls=False, status="completed",
            )  # fmt: skip
            yield ResponseCompletedEvent(type="response.completed", response=response, sequence_number=0)

    from agents.memory import SQLiteSession

    agent = Agent(name="Assistant", model=Answers())
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.db")
        counts = []
        for n in (1, 2, 3):
            result = Runner.run_streamed(agent, f"Question {n}", session=SQLiteSession("s1", path))
            async for _ in result.stream_events():
                pass
            stored = await SQLiteSession("s1", path).get_items()
            counts.append(len(stored))
            print(f"after run {n}: session holds {len(stored)} items")
    texts = [text_of(item) for item in stored]
    for n, item in enumerate(stored, 1):
        print(f"  {n}. {item.get('role')} {text_of(item)!r}")
    repeated = len(texts) - len(set(texts))
    figures = f"{', '.join(map(str, counts))} items after runs 1-3, expected 2, 4, 6"
    if counts == [2, 4, 6] and repeated == 0:
        print(f"verdict: fixed ({figures})")
        return 0
    if repeated:
        print(f"verdict: reproduced ({figures}; {repeated} items stored more than once)")
        return 3
    print(f"verdict: cannot judge ({figures}, but nothing repeated)")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except Exception as exc:
        print(f"verdict: cannot judge (error: {type(exc).__name__}: {exc})")
        sys.exit(125)
