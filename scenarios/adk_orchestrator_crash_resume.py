"""google-adk: a resumed orchestrator replays its log lines and counters, and nothing says so.

Symptom (seed: "Expose a replay indicator on Context", #7943): a resumable ``Workflow`` whose
orchestrator node (``@node(rerun_on_resume=True)``, calling ``ctx.run_node``) crashes after
its two children finished. On ``run_async(invocation_id=..., new_message=None)`` ADK answers
the children from the session (their bodies do not run again) but re-executes the
orchestrator body from the top, so every log line and counter increment between the
``run_node`` calls fires a second time. ``Context`` exposes nothing that tells the replayed
call from the live one (run_id, attempt_count, resume_inputs read the same), and there is no
public accessor for the current Context a ``logging.Filter`` could read.

The seed proposes a read-only ``Context.is_replaying`` (True while the body is re-executed
and recorded child results remain to be handed back) and a public ``current_context()``, so
its ``DropReplayedRecords`` filter drops the replayed records; a line emitted after the last
recorded result was delivered stays, since it may never have been emitted live.

Timeline: the orchestrator's and children's emissions in order (``counter name -> n`` and
``log message``, marked when the release's indicator says "replaying" or the filter dropped
the record), the first run's recorded events and its crash, the resume, and the resumed
run's output events. The reproduction is the seed's, through the public API only.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import logging

from harness.runtime.outcomes import fixed, reproduced, unexpected
from harness.runtime.scenario import AsInstalled, Case, Edge, InProcess, NotApplicable, Observation, Scenario
from harness.runtime.timeline import Placeholders, quote

APP = "crash_resume_app"
LOGGER = __name__ + ".app"  # the scenario's own logger; its handlers are removed after the run

# The orchestrator's emissions, in body order. The first two come before the last recorded
# child result (child_b's) is handed back on resume: those are the replayed ones.
ORCHESTRATOR_EMISSIONS = ("orchestrator_started", "child_a_finished", "child_b_finished")
REPLAYED = ("orchestrator_started", "child_a_finished")
CHILDREN = ("child_a", "child_b")
OUTPUT = "AB"

# Where a release could expose the proposed indicator: the flag on Context, and a function
# returning the current Context. The seed leaves the names open; these are the plausible ones.
FLAG_NAMES = ("is_replaying", "is_replay", "replaying")
ACCESSOR_MODULES = ("google.adk.agents", "google.adk.agents.context", "google.adk.workflow", "google.adk")
ACCESSOR_NAMES = ("current_context", "get_current_context")


def _workflow_api():
    """The workflow API the reproduction needs, or NotApplicable quoting what is missing."""
    try:
        workflow = importlib.import_module("google.adk.workflow")
    except ImportError as exc:
        raise NotApplicable(f"no workflow API: cannot import google.adk.workflow ({exc})") from exc
    missing = [n for n in ("START", "Workflow", "node") if not hasattr(workflow, n)]
    if missing:
        raise NotApplicable(f"google.adk.workflow has no {', '.join(missing)}")
    try:
        from google.adk.agents import Context
    except ImportError as exc:
        raise NotApplicable(f"no google.adk.agents.Context: {exc}") from exc
    if not hasattr(Context, "run_node"):
        raise NotApplicable("Context.run_node is missing")
    try:
        from google.adk.apps import App, ResumabilityConfig
    except ImportError as exc:
        raise NotApplicable(f"no resumable apps: {exc}") from exc
    from google.adk.runners import Runner

    if "invocation_id" not in inspect.signature(Runner.run_async).parameters:
        raise NotApplicable("Runner.run_async has no parameter invocation_id")
    return workflow, Context, App, ResumabilityConfig


def accessor_candidates() -> list[tuple[str, object]]:
    """Public callables that could return the current Context, by plausible name."""
    from google.adk.agents import Context

    found = []
    for module_name in ACCESSOR_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in ACCESSOR_NAMES:
            candidate = getattr(module, name, None)
            if callable(candidate):
                found.append((f"{module_name}.{name}()", candidate))
    for name in ("current", "get_current", *ACCESSOR_NAMES):
        candidate = getattr(Context, name, None)
        if callable(candidate):
            found.append((f"Context.{name}()", candidate))
    return found


def probe_indicator(ctx, candidates) -> tuple[str | None, object | None]:
    """Inside a node body: the flag ``ctx`` carries, and the first accessor returning ``ctx``.

    Both are checked on the live objects, so an attribute set per instance or an accessor
    exported under another module is found the same way as the seed's proposal.
    """
    flag = next((n for n in FLAG_NAMES if _has(ctx, n)), None)
    accessor = None
    for where, candidate in candidates:
        try:
            if candidate() is ctx:
                accessor = (where, candidate)
                break
        except Exception:  # a same-named callable with another meaning: not the accessor
            continue
    return flag, accessor


def _has(obj, name: str) -> bool:
    try:
        return isinstance(getattr(obj, name), bool)
    except Exception:
        return False


def _describe_event(event, ids: Placeholders) -> str | None:
    """An output or error event on one line; None for events carrying neither."""
    info = getattr(event, "node_info", None)
    where = getattr(info, "path", None) or event.author
    output = getattr(event, "output", None)
    if output is not None:
        return f"[{ids('inv', event.invocation_id)}] event {where} output={output!r}"
    if getattr(event, "error_code", None) or getattr(event, "error_message", None):
        message = ids.scrub(str(event.error_message))
        return f"[{ids('inv', event.invocation_id)}] event {where} error {event.error_code}: {quote(message)}"
    return None


async def crash_and_resume() -> Observation:
    """The seed's reproduction: log, run two children, crash once; resume with the same id."""
    from harness.runtime.fakes import adk

    workflow, Context, App, ResumabilityConfig = _workflow_api()

    candidates = accessor_candidates()
    timeline: list[str] = []
    counters: dict[str, int] = {}
    attempts = {"orchestrator": 0}
    found: dict[str, object] = {"flag": None, "accessor": None}  # probed in the orchestrator body

    def replaying() -> bool:
        flag, accessor = found["flag"], found["accessor"]
        if not (flag and accessor):
            return False
        ctx = accessor[1]()
        return bool(ctx is not None and getattr(ctx, flag, False))

    class DropReplayedRecords(logging.Filter):
        """The seed's filter, reading whatever indicator the release exposes."""

        def filter(self, record: logging.LogRecord) -> bool:
            return not replaying()

    class Capture(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.INFO)
            self.records: list[logging.LogRecord] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.records.append(record)

    log = logging.getLogger(LOGGER)
    raw, kept = Capture(), Capture()  # raw: every record; kept: behind the seed's filter
    kept.addFilter(DropReplayedRecords())  # keeps everything while no indicator was found

    class TimelineHandler(logging.Handler):
        """Runs after ``raw`` and ``kept``: one timeline line per record, marked if dropped."""

        def emit(self, record: logging.LogRecord) -> None:
            dropped = not any(r is record for r in kept.records)
            timeline.append(f"log {record.getMessage()}" + (" [dropped by DropReplayedRecords]" if dropped else ""))

    def count(name: str) -> None:
        counters[name] = counters.get(name, 0) + 1
        timeline.append(f"counter {name} -> {counters[name]}" + (" [replaying]" if replaying() else ""))

    def child_a(node_input):
        count("child_a_runs")
        log.info("child_a ran")
        return "A"

    def child_b(node_input):
        count("child_b_runs")
        log.info("child_b ran")
        return node_input + "B"

    async def orchestrator(ctx, node_input):
        attempts["orchestrator"] += 1
        if attempts["orchestrator"] == 1:
            found["flag"], found["accessor"] = probe_indicator(ctx, candidates)
        count("orchestrator_started")
        log.info(
            "orchestrator started (run_id=%s attempt_count=%s resume_inputs=%s)",
            getattr(ctx, "run_id", "?"),
            getattr(ctx, "attempt_count", "?"),
            getattr(ctx, "resume_inputs", "?"),
        )
        a = await ctx.run_node(nodes["child_a"], node_input=node_input)
        count("child_a_finished")
        log.info("orchestrator: child_a finished with %r", a)
        ab = await ctx.run_node(nodes["child_b"], node_input=a)
        count("child_b_finished")
        log.info("orchestrator: child_b finished with %r", ab)
        if attempts["orchestrator"] == 1:
            raise RuntimeError("simulated crash after the children finished")
        yield ab

    # The scenario module uses postponed annotations, so give the node its Context type as an
    # object: releases find the context parameter by annotation.
    orchestrator.__annotations__["ctx"] = Context
    try:
        nodes = {"child_a": workflow.node(child_a), "child_b": workflow.node(child_b)}
        nodes["orchestrator"] = workflow.node(rerun_on_resume=True)(orchestrator)
    except TypeError as exc:
        raise NotApplicable(f"google.adk.workflow.node(rerun_on_resume=True) is not supported: {exc}") from exc

    root = workflow.Workflow(name="root", edges=[(workflow.START, nodes["orchestrator"])])
    app = App(name=APP, root_agent=root, resumability_config=ResumabilityConfig(is_resumable=True))
    conversation = await adk.start(app)
    ids = Placeholders()

    saved = (log.level, log.propagate)
    adk_log = logging.getLogger("google_adk")
    adk_level = adk_log.level
    handlers = (raw, kept, TimelineHandler(logging.INFO))
    log.setLevel(logging.INFO)
    log.propagate = False
    adk_log.setLevel(logging.CRITICAL)  # the crash's traceback, as in the seed
    for h in handlers:
        log.addHandler(h)
    crash = resume_error = None
    resumed_outputs: list[str] = []
    resumed_invocations: list[str] = []
    orchestrator_output = False
    invocation_id = None
    try:
        timeline.append("first run")
        try:
            async for event in conversation.stream("go"):
                invocation_id = event.invocation_id
                line = _describe_event(event, ids)
                if line:
                    timeline.append(line)
                if getattr(event, "error_code", None):
                    crash = crash or f"error event {event.error_code}"
        except Exception as exc:  # the seed's crash propagates out of run_async on 2.13.0
            crash = f"raised {type(exc).__name__}"
            timeline.append(f"first run raised {type(exc).__name__}: {quote(ids.scrub(str(exc)))}")
        if invocation_id is None:
            timeline.append("first run yielded no event: no invocation to resume")
            return Observation(timeline=timeline, facts={"first_invocation": None})

        timeline.append(f"resume [{ids('inv', invocation_id)}] new_message=None")
        resume_boundary = len(raw.records)
        try:
            async for event in conversation.stream(None, invocation_id=invocation_id):
                inv = ids("inv", event.invocation_id)
                if inv not in resumed_invocations:
                    resumed_invocations.append(inv)
                line = _describe_event(event, ids)
                if line:
                    timeline.append(line)
                    output = getattr(event, "output", None)
                    if output is not None:
                        path = getattr(getattr(event, "node_info", None), "path", None) or event.author
                        last = path.rsplit("/", 1)[-1]
                        resumed_outputs.append(f"{last}={output!r}")
                        orchestrator_output |= last.startswith("orchestrator@") and output == OUTPUT
        except Exception as exc:
            resume_error = f"{type(exc).__name__}: {ids.scrub(str(exc)).splitlines()[0] if str(exc) else ''}"
            timeline.append(f"resume raised {type(exc).__name__}: {quote(ids.scrub(str(exc)))}")
    finally:
        for h in handlers:
            log.removeHandler(h)
        log.setLevel(saved[0])
        log.propagate = saved[1]
        adk_log.setLevel(adk_level)

    keys = {  # log message prefix -> emission name
        "orchestrator started": "orchestrator_started",
        "orchestrator: child_a finished": "child_a_finished",
        "orchestrator: child_b finished": "child_b_finished",
        "child_a ran": "child_a_runs",
        "child_b ran": "child_b_runs",
    }

    def key_of(record) -> str:
        return next(v for k, v in keys.items() if record.getMessage().startswith(k))

    flag, accessor = found["flag"], found["accessor"]
    dropped = [
        ("resume" if i >= resume_boundary else "first", key_of(r))
        for i, r in enumerate(raw.records)
        if not any(k is r for k in kept.records)
    ]
    return Observation(
        timeline=timeline,
        facts={
            "child_runs": {c: counters.get(f"{c}_runs", 0) for c in CHILDREN},
            "emissions": {e: counters.get(e, 0) for e in ORCHESTRATOR_EMISSIONS},
            "log_records": {e: sum(key_of(r) == e for r in raw.records) for e in ORCHESTRATOR_EMISSIONS},
            "crash": crash,
            "resume_error": resume_error,
            "resumed_outputs": resumed_outputs,
            "output_delivered": orchestrator_output,
            "first_invocation": ids("inv", invocation_id),
            "resumed_invocations": resumed_invocations,
            "indicator": f"Context.{flag} + {accessor[0]}" if (flag and accessor) else None,
            "indicator_probe": " + ".join(
                (
                    f"Context.{flag}" if flag else "no Context flag",
                    accessor[0] if accessor else "no current-context accessor",
                )
            ),
            "dropped": dropped,
        },
    )


def judge(obs: Observation):
    f = obs.facts
    if f["first_invocation"] is None:
        return unexpected("crash not resumable: the first run yielded no event, so no invocation id to resume")
    runs = ", ".join(f"{c} ran {n}x" for c, n in f["child_runs"].items())
    fired = ", ".join(f"{e} {n}x" for e, n in f["emissions"].items())
    outputs = ", ".join(f["resumed_outputs"]) or "none"
    figures = f"{runs}; orchestrator emissions {fired}; resumed outputs: {outputs}"
    first, resumed = f["first_invocation"], f["resumed_invocations"]
    if f["crash"] is None:
        return unexpected(f"the first run did not crash (the orchestrator's crash was absorbed); {figures}")
    if f["resume_error"] is not None:
        return unexpected(f"crash not resumable: the resume raised {f['resume_error']}; {figures}")
    if not resumed:
        return unexpected(f"the resume of {first} produced nothing (no event, orchestrator not re-run); {figures}")
    if resumed != [first]:
        how = f"the resume of {first} ran as {', '.join(resumed)}"
        if any(n != 1 for n in f["child_runs"].values()):
            how += " and re-executed the children"
        return unexpected(f"{how}; {figures}")
    if any(n != 1 for n in f["child_runs"].values()):
        return unexpected(f"children re-executed on resume instead of answered from the session; {figures}")
    if not f["output_delivered"]:
        return unexpected(f"the resume did not deliver the orchestrator's output {OUTPUT!r}; {figures}")
    replayed_twice = all(f["emissions"][e] == 2 for e in REPLAYED)
    if f["indicator"] is None:
        if replayed_twice:
            return reproduced(f"{figures}; no replay indicator ({f['indicator_probe']})")
        return unexpected(
            f"emissions before the last recorded result did not fire twice; {figures}; no replay indicator"
        )
    expected = [("resume", e) for e in REPLAYED]
    dropped = ", ".join(f"{p} {e}" for p, e in f["dropped"]) or "nothing"
    if f["dropped"] == expected and replayed_twice:
        return fixed(f"{figures}; {f['indicator']} present, DropReplayedRecords dropped {dropped}")
    return unexpected(
        f"{f['indicator']} present but DropReplayedRecords dropped {dropped}, expected resume "
        + " and resume ".join(REPLAYED)
        + f"; {figures}"
    )


# --- builds used to prove the oracle (tests only) ----------------------------------------
# No release has the indicator, so ``fixed`` is shown with an in-process emulation of the
# seed's proposal on the pinned release (2.13.0), through private internals:
# - workflow/_base_node.py ``BaseNode.run``: when a node body starts, note which direct
#   children already have a recorded output in this invocation (what ADK answers from the
#   session on resume; upstream would read the recovered executions of workflow/_workflow.py
#   and workflow/_dynamic_node_scheduler.py);
# - workflow/_dynamic_node_scheduler.py ``DynamicNodeScheduler._execute_step``: when a child
#   result is handed back to the parent, strike it off;
# - agents/context.py ``Context.is_replaying``: True while recorded results remain;
# - utils/_sync_runner.py ``_SYNC_CALLABLE_CONTEXT`` (bound around every node body step by
#   BaseNode.run): exposed as ``google.adk.agents.current_context()``.

_PENDING = "_scenario_replay_pending"


def _recorded_children(ctx) -> set[str]:
    prefix = (ctx.node_path or "") + "/"
    found = set()
    for event in ctx.session.events:
        path = getattr(getattr(event, "node_info", None), "path", None) or ""
        if (
            event.invocation_id == ctx.invocation_id
            and getattr(event, "output", None) is not None
            and path.startswith(prefix)
            and "/" not in path[len(prefix) :]
        ):
            found.add(path)
    return found


@contextlib.contextmanager
def _emulated_replay_indicator():
    import google.adk.agents as agents_package
    from google.adk.agents import context as context_module
    from google.adk.utils import _sync_runner
    from google.adk.workflow import _base_node, _dynamic_node_scheduler

    BaseNode = _base_node.BaseNode
    Scheduler = _dynamic_node_scheduler.DynamicNodeScheduler
    Context = context_module.Context
    original_run, original_step = BaseNode.__dict__["run"], Scheduler.__dict__["_execute_step"]

    def run(self, *, ctx, node_input):
        setattr(ctx, _PENDING, _recorded_children(ctx))
        return original_run(self, ctx=ctx, node_input=node_input)

    async def _execute_step(self, ctx, *args, **kwargs):
        child_ctx = await original_step(self, ctx, *args, **kwargs)
        getattr(ctx, _PENDING, set()).discard(getattr(child_ctx, "node_path", None))
        return child_ctx

    def is_replaying(self) -> bool:
        """True while this body is re-executed and recorded child results remain to be delivered."""
        return bool(getattr(self, _PENDING, None))

    def current_context():
        return _sync_runner._SYNC_CALLABLE_CONTEXT.get()

    BaseNode.run = run
    Scheduler._execute_step = _execute_step
    Context.is_replaying = property(is_replaying)
    agents_package.current_context = current_context
    context_module.current_context = current_context
    try:
        yield
    finally:
        BaseNode.run = original_run
        Scheduler._execute_step = original_step
        del Context.is_replaying
        del agents_package.current_context
        del context_module.current_context


EMULATED_INDICATOR = InProcess(
    "the seed's proposal emulated on the pinned release: Context.is_replaying and "
    "google.adk.agents.current_context() over _SYNC_CALLABLE_CONTEXT",
    _emulated_replay_indicator,
)
NO_INDICATOR = AsInstalled("the pinned release, unpatched (2.13.0 has no replay indicator)")


def _replayed_once(obs: Observation) -> None:
    """An edge (nox -s mutants): the emissions before the last recorded result fired only once."""
    obs.facts["emissions"][REPLAYED[0]] = 1


REPLAYED_ONCE = Edge(
    "unexpected",
    "the indicator is present and the filter dropped the resume's records, but the orchestrator's "
    f"{REPLAYED[0]} fired once: not the replay the case is about",
    _replayed_once,
    EMULATED_INDICATOR,
)

SCENARIO = Scenario(
    id="adk-orchestrator-crash-resume",
    framework="google-adk",
    links=(
        "https://github.com/google/adk-python/issues/7943",
        "https://github.com/google/adk-python/issues/6779",
    ),
    description=(
        "On resume, a workflow orchestrator node (rerun_on_resume=True, ctx.run_node) is "
        "re-executed from the top while its children are answered from the session, so every "
        "log line and counter before the last recorded child result fires twice, and nothing "
        "in the public API marks the call as a replay."
    ),
    expected=(
        "A read-only Context.is_replaying and a public accessor for the current Context, so a "
        "logging.Filter drops the replayed records and keeps those after the last recorded result."
    ),
    cases=(
        Case(
            "crash-resume",
            crash_and_resume,
            judge,
            {"reproduced": NO_INDICATOR, "fixed": EMULATED_INDICATOR},
            "orchestrator logs, runs two children, crashes once; "
            "resume with run_async(invocation_id, new_message=None)",
            edges=(REPLAYED_ONCE,),
        ),
    ),
)
