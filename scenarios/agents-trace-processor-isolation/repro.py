# /// script
# requires-python = ">=3.10"
# dependencies = ["openai-agents"]
# ///
"""openai-agents: a trace processor that raises keeps the processors after it from seeing the span or trace end.

Upstream: https://github.com/openai/openai-agents-python/pull/1292 ("Handle processor exceptions"):
`SynchronousMultiTracingProcessor` (agents/tracing/provider.py; agents/tracing/setup.py in the first
releases) called each registered processor in turn with nothing around the call, so when one raised in
`on_span_end` or `on_trace_end` the exception left the loop: the processors registered after it never
received the event (an exporter loses the span or the whole trace), and the exception reached the code
that closed the span (a `with custom_span(...)` block, or the runner closing its agent span, which fails
the run). The fix wraps each call in try/except and logs the error.

Two processors written here and installed with `set_trace_processors` (the only processors while the
case runs, so nothing is exported anywhere; the previous ones are put back afterwards): `Failing` raises
in the hook the case names, `Recorder` keeps every event. Prints the events the recorder received and
each exception that reached the code closing a span or trace. The runner case runs a scripted `Model`
(through a `ModelProvider` written here, so no OpenAI client is built). Case `failing-last` is the control: a
processor registered after the recorder cannot take its events away on any release.

    uv run repro.py [CASE]     # CASE: one of CASES below; none runs each in turn

Exit status: 0 fixed, 3 reproduced, 125 unexpected, not-applicable or error (git bisect run's
"skip"); with no CASE, 3 if any case reproduced, else 0 if every case is fixed, else 125.
"""

import asyncio
import os
import sys

CASES = {
    "span-end": dict(fails_in="on_span_end", failing_first=True, runner=False),
    "trace-end": dict(fails_in="on_trace_end", failing_first=True, runner=False),
    "runner-span-end": dict(fails_in="on_span_end", failing_first=True, runner=True),
    "failing-last": dict(fails_in="on_span_end", failing_first=False, runner=False),
}
ANSWER = "All steps done."


class NotApplicable(Exception):
    """The release lacks what the case needs."""


def label(span):
    """A span as 'type name' (the span data's type, and its name where it has one)."""
    data = span.span_data
    return " ".join(str(x) for x in (data.type, getattr(data, "name", None)) if x)


async def observe(say, fails_in, failing_first, runner):
    """Close spans and a trace (by hand, or through Runner.run) with a failing processor beside a recorder."""
    # As the harness runs it, and from any shell: no trace leaves the process, and a placeholder key,
    # never a real one (openai-agents 0.0.x builds an OpenAI client on import and needs a key; the
    # scripted model sends no request).
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    os.environ["OPENAI_API_KEY"] = "sk-placeholder-not-used"
    import agents.tracing as tracing
    from agents import Agent, ModelResponse, RunConfig, Runner
    from agents.models.interface import Model, ModelProvider
    from agents.tracing import TracingProcessor, custom_span, set_tracing_disabled, trace
    from agents.usage import Usage
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    events = []

    class Recorder(TracingProcessor):
        """Keeps every event it receives."""

        def on_trace_start(self, trace):
            events.append(f"trace_start {trace.name}")

        def on_trace_end(self, trace):
            events.append(f"trace_end {trace.name}")

        def on_span_start(self, span):
            events.append(f"span_start {label(span)}")

        def on_span_end(self, span):
            events.append(f"span_end {label(span)}")

        def shutdown(self):
            pass

        def force_flush(self):
            pass

    class Failing(TracingProcessor):
        """Raises in the hook the case names; ignores every other event."""

        def hook(self, name):
            if name == fails_in:
                raise RuntimeError(f"Failing.{name} broke")

        def on_trace_start(self, trace):
            self.hook("on_trace_start")

        def on_trace_end(self, trace):
            self.hook("on_trace_end")

        def on_span_start(self, span):
            self.hook("on_span_start")

        def on_span_end(self, span):
            self.hook("on_span_end")

        def shutdown(self):
            pass

        def force_flush(self):
            pass

    class Scripted(Model):
        async def get_response(self, *args, **kwargs):
            text = ResponseOutputText(type="output_text", text=ANSWER, annotations=[])
            item = ResponseOutputMessage(id="m-1", type="message", role="assistant", status="completed", content=[text])
            return ModelResponse(output=[item], usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    class ScriptedProvider(ModelProvider):
        """Stands in for the default OpenAIProvider, which the first releases build (with a client) for every run."""

        def get_model(self, model_name):
            return Scripted()

    # The processors in place now (the OpenAI exporter, unless disabled), to put back afterwards.
    provider = tracing.get_trace_provider() if hasattr(tracing, "get_trace_provider") else tracing.GLOBAL_TRACE_PROVIDER
    saved = list(provider._multi_processor._processors)
    escaped, final = [], None
    recorder, failing = Recorder(), Failing()
    tracing.set_trace_processors([failing, recorder] if failing_first else [recorder, failing])
    set_tracing_disabled(False)  # disabled by environment above; only the two processors above see it
    try:
        try:
            with trace("checkout"):
                if runner:
                    agent = Agent(name="Cashier", model=Scripted())
                    config = RunConfig(model_provider=ScriptedProvider())
                    try:
                        final = (await Runner.run(agent, "Check out my cart.", run_config=config)).final_output
                    except Exception as exc:  # the failing processor's exception, when it reaches the run
                        escaped.append(f"Runner.run raised {type(exc).__name__}: {exc}")
                else:
                    for step in ("step-1", "step-2"):
                        try:
                            with custom_span(step):
                                pass
                        except Exception as exc:
                            escaped.append(f"closing span {step} raised {type(exc).__name__}: {exc}")
        except Exception as exc:
            escaped.append(f"closing trace checkout raised {type(exc).__name__}: {exc}")
    finally:
        set_tracing_disabled(True)  # off again, as the harness runs every case
        tracing.set_trace_processors(saved)
    order = "Failing, Recorder" if failing_first else "Recorder, Failing"
    say(f"processors: {order}; Failing raises in {fails_in}")
    for event in events:
        say(f"recorder got {event}")
    for line in escaped:
        say(line)
    if runner:
        say(f"final output: {final!r}")
    starts = [e.split(" ", 1)[1] for e in events if e.startswith("span_start")]
    ends = [e.split(" ", 1)[1] for e in events if e.startswith("span_end")]
    return dict(
        starts=starts, ends=ends, trace_start="trace_start checkout" in events,
        trace_end="trace_end checkout" in events, escaped=len(escaped), runner=runner, final=final,
    )  # fmt: skip


def judge(facts):
    """(outcome, detail): the recorder must receive the end of every span it saw start, and of the trace."""
    starts, ends = facts["starts"], facts["ends"]
    if not facts["trace_start"] or not starts:
        return "unexpected", f"the recorder saw {len(starts)} span starts and trace start {facts['trace_start']}"
    missing = [s for s in starts if s not in ends] + ([] if facts["trace_end"] else ["the trace"])
    escaped = f"; {facts['escaped']} exception(s) reached the code closing them" if facts["escaped"] else ""
    if any(end not in starts for end in ends):
        return "unexpected", f"the recorder got ends of spans it never saw start: {ends}"
    if missing:
        return "reproduced", (
            f"the recorder missed the end of {', '.join(missing)} (the processor before it raised){escaped}"
        )
    if facts["runner"] and facts["final"] != ANSWER:
        return "unexpected", f"every end reached the recorder, but the run ended with {facts['final']!r}"
    return "fixed", f"the recorder got the end of all {len(starts)} span(s) and of the trace{escaped}"


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
