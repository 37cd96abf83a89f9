# /// script
# requires-python = ">=3.10"
# dependencies = ["google-adk"]
# ///
"""google-adk: under SSE streaming, an after_model_callback replacement turns every delta final.

Upstream: https://github.com/google/adk-python/issues/7035 (fixes:
https://github.com/google/adk-python/pull/7036, https://github.com/google/adk-python/pull/7038).
With `RunConfig(streaming_mode=StreamingMode.SSE)` the after-model callbacks run on every streamed
`LlmResponse`, the `partial=True` deltas included, and a replacement is used as it is. A callback
that builds a new `LlmResponse` leaves `partial` at None, read as final: every delta is yielded as
a final event and stored in the session as a model event of its own. The fix (flows/llm_flows/
core/_finalizer.py) carries `partial` over from the replaced response when the replacement leaves
it unset.

Faked: the model (a `BaseLlm` subclass streaming "Hel", "lo ", "world" as partial deltas, then
"Hello world"). The callback, the agent's or a plugin's, rebuilds each response with its text
upper-cased; `no-callback` (a control) has none. Prints each event yielded, the session's model
events and the model calls.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import inspect
import sys

CASES = {
    "agent-callback": dict(callback="agent"),
    "plugin-callback": dict(callback="plugin"),
    "no-callback": dict(callback="none"),
}
DELTAS = ("Hel", "lo ", "world")
FINAL = "Hello world"


class NotApplicable(Exception):
    """The release lacks what the case needs."""


async def settled(value):
    """``value``, awaited where it is awaitable: google-adk 0.x's session and memory services are
    synchronous (0.5.0's ``InMemorySessionService.create_session`` returns the Session itself)."""
    return await value if inspect.isawaitable(value) else value


async def observe(say, callback):
    """Ask once in SSE mode; say what run_async yields and what the session stores."""
    from google.adk.agents import LlmAgent
    from google.adk.agents.run_config import RunConfig, StreamingMode
    from google.adk.models import BaseLlm, LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    calls = []

    def reply(text, partial=None):
        return LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]), partial=partial)

    def text_of(e):
        return "".join(p.text or "" for p in e.content.parts) if e.content and e.content.parts else ""

    def shout(llm_response):  # a replacement built from scratch: partial left unset
        return reply(text_of(llm_response).upper())

    class StreamingModel(BaseLlm):
        async def generate_content_async(self, llm_request, stream=False):
            calls.append(1)
            if stream:
                for delta in DELTAS:
                    yield reply(delta, partial=True)
            yield reply(FINAL)

    options, plugins = {}, {}
    if callback == "agent":
        options["after_model_callback"] = lambda callback_context, llm_response: shout(llm_response)
    if callback == "plugin":
        try:
            from google.adk.plugins import BasePlugin
        except ImportError as exc:
            raise NotApplicable(f"no plugins in this release: {exc}") from exc
        if "plugins" not in inspect.signature(Runner.__init__).parameters:
            raise NotApplicable("Runner() takes no plugins in this release")

        class ShoutPlugin(BasePlugin):
            async def after_model_callback(self, *, callback_context, llm_response):
                return shout(llm_response)

        plugins["plugins"] = [ShoutPlugin(name="shout_plugin")]
    agent = LlmAgent(name="assistant", model=StreamingModel(model="scripted"), instruction="Answer.", **options)
    sessions = InMemorySessionService()
    runner = Runner(app_name="sse_app", agent=agent, session_service=sessions, **plugins)
    session = await settled(sessions.create_session(app_name="sse_app", user_id="u"))
    question = types.Content(role="user", parts=[types.Part(text="Say hello.")])
    sse = RunConfig(streaming_mode=StreamingMode.SSE)
    yielded = []
    async for e in runner.run_async(user_id="u", session_id=session.id, new_message=question, run_config=sse):
        yielded.append(bool(e.partial))
        say(f"yielded {'[partial] ' if e.partial else ''}{e.author} {text_of(e)!r}")
    session = await settled(sessions.get_session(app_name="sse_app", user_id="u", session_id=session.id))
    for e in session.events:
        say(f"session: {e.author} {text_of(e)!r}")
    say(f"model calls: {len(calls)}")
    stored = [text_of(e) for e in session.events if e.author == "assistant" and text_of(e)]
    return dict(callback=callback, partials=sum(yielded), stored=stored, calls=len(calls))


def judge(facts):
    """(outcome, detail): the deltas stay partial and the session stores only the final text."""
    partials, stored, control = facts["partials"], facts["stored"], facts["callback"] == "none"
    figures = f"{partials} partial events yielded, {len(stored)} model events stored {stored}"
    if facts["calls"] != 1:
        return "unexpected", f"{figures}; the model was called {facts['calls']} times, expected 1"
    if partials == len(DELTAS) and stored == [FINAL if control else FINAL.upper()]:
        return "fixed", figures
    if control and partials < len(DELTAS) and len(stored) > 1:
        return "reproduced", f"{figures}: streamed deltas stored as final events with no callback involved"
    if not control and partials == 0 and stored == [d.upper() for d in (*DELTAS, FINAL)]:
        return "reproduced", f"{figures}: every streamed delta lost partial and was stored as a final event"
    return "unexpected", figures


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
