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
