#!/usr/bin/env -S uv run --script
# /// script
# requires-python = ">=3.11"
# dependencies = [
#     "openai-agents==0.18.3",
# ]
# [tool.uv]
# exclude-newer = "2026-07-17T03:40:26Z"
# ///
"""agents-nested-handoff-4hop, case identical-messages-kept: a standalone reproduction (openai-agents).

Bug: With nest_handoff_history=True, a chain of handoffs A -> B -> C -> D gives D a
<CONVERSATION HISTORY> summary that lists each earlier agent's message twice: the verbatim-
forwarded copy is summarised again at the next hop, compounding per hop.

Expected: No summary block repeats a record, and each earlier agent's message reaches the
last agent (in the summary, or forwarded verbatim) and at most once across the summaries;
two agents that say identical text are both kept.

This case (identical-messages-kept): A and B say byte-identical text with one message id: D
must see it exactly twice.

Upstream:
    https://github.com/openai/openai-agents-python/pull/3791
    https://github.com/openai/openai-agents-python/issues/2171

The inline metadata above pins openai-agents==0.18.3, the newest release of the harness's
record on which this case reproduces; its dependencies are resolved as of that release's
upload (2026-07-17T03:40:26Z, uv's exclude-newer), as the harness's matrix installs it. To
try another release, change the pin and exclude-newer (or delete it).

What the harness recorded (reports/matrix.json):
    openai-agents 0.5.1: not-applicable: agents.RunConfig has no nest_handoff_history field
    openai-agents 0.6.0 – 0.18.3 (14 releases run): reproduced: 'same text' (A's and B's identical message) reaches D 4 times (4 summary records, 0 verbatim), expected 2
    openai-agents 0.19.0 – 0.24.0 (7 releases run): fixed: 'same text' (A's and B's identical message) reaches D 2 times (2 summary records, 0 verbatim), expected 2

Run it:
    uv run agents-nested-handoff-4hop--identical-messages-kept.py        # in a fresh environment with the pinned release
    python agents-nested-handoff-4hop--identical-messages-kept.py        # with the openai-agents this Python has (e.g. your checkout, pip install -e .)

It prints the normalised timeline (ids the framework invents become placeholders such as
inv-1, in first-seen order), then one verdict line, and exits 0 when the case is fixed, 1
when it reproduces, 2 otherwise (unexpected, not-applicable, error). No network is used: the
model is a scripted fake.

The code is agent-bug-harness's own, bundled verbatim at the end of this file (BUNDLE): the
scenario module, the harness modules it imports (fakes, timeline helpers, outcomes) and the
runner that judges the case as the matrix does. A small importer makes them importable under
their own names, so the scenario runs unmodified.

The scenario's own notes (its module docstring):

    openai-agents: a 4-hop nested handoff repeats earlier agents' messages in the history summary.

    With ``RunConfig(nest_handoff_history=True)``, each handoff folds the transcript so far into
    one ``<CONVERSATION HISTORY>`` summary message for the next agent, and forwards the previous
    agent's own message verbatim as well (the single-hop behaviour of upstream issue 2171). On the
    next handoff that verbatim copy came back as a ``pre_handoff_item`` and ``nest_handoff_history``
    (``agents/handoffs/history.py``) summarised it again, next to the flattened earlier summary
    that already recorded it. In a chain A -> B -> C -> D, D's summary lists A's message twice
    (records #2 and #5) and B's twice (#6 and #9): 12 records instead of 10, one more duplicate
    per extra hop. The seed PR (#3791) dedupes forwarded ``pre_handoff_items`` against the flattened
    history; its review adds the over-deletion probe of the last case: two agents that
    legitimately say byte-identical text (same message id) must both still reach D.

    Timeline: what D's model received, one line per item in order: each summary block as a
    header (``summary N (formats): K records``) followed by its numbered records, and each item
    forwarded verbatim. Records are decoded from every summary format the releases write (the
    ``role: content`` lines of 0.6-0.16, the JSON records of 0.17 on) into one normalised form,
    so timelines of different releases compare line by line; ids are the scenario's own.

    Releases (matrix and bisect): reproduced from 0.6.0 (where nest_handoff_history arrived) to
    0.18.3; fixed from 0.19.0, whose rewrite of agents/handoffs/history.py forwards the verbatim
    items inside the nested history, before the seed PR (so the PR is a guard against regression).
    The proofs are real releases: 0.18.3 reproduces, the pinned 0.24.0 is fixed.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.metadata
import importlib.util
import os
import sys

SCENARIO = "agents-nested-handoff-4hop"
SCENARIO_MODULE = "scenarios.agents_nested_handoff_4hop"  # bundled below (first in BUNDLE), with what it imports
CASE = "identical-messages-kept"
FRAMEWORK = "openai-agents"
# Imported before the case starts, as the harness's workers do (harness/worker.py), so the
# framework's import time does not count against the case's timeout.
FRAMEWORK_MODULE = "agents"
EXIT_STATUS = {"fixed": 0, "reproduced": 1}  # anything else: 2
# The file name bundled modules are compiled under: a name, not a directory (tracebacks and
# warnings show /bundle/harness/adk.py; the lines come from BUNDLE).
BUNDLE_ROOT = "/bundle"


class BundleImporter(importlib.abc.MetaPathFinder, importlib.abc.InspectLoader):
    """Imports the modules in BUNDLE under their own names (harness.timeline, scenarios.x, ...)."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources
        self.paths = {path[:-3].replace("/", ".").removesuffix(".__init__"): path for path in sources}

    def find_spec(self, name, path=None, target=None):
        if name not in self.paths:
            return None
        spec = importlib.util.spec_from_loader(name, self, origin=f"{BUNDLE_ROOT}/{self.paths[name]}",
                                               is_package=self.is_package(name))
        spec.has_location = True  # __file__ is set, and tracebacks show the bundled lines
        return spec

    def is_package(self, name: str) -> bool:
        return self.paths[name].endswith("/__init__.py")

    def get_source(self, name: str) -> str:
        return self.sources[self.paths[name]]

    def get_code(self, name: str):
        return compile(self.get_source(name), f"{BUNDLE_ROOT}/{self.paths[name]}", "exec", dont_inherit=True)


def main() -> int:
    # As the harness's workers run (harness/environments.py): set before the framework is
    # imported, so openai-agents never tries to export a trace.
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    sys.meta_path.insert(0, BundleImporter(BUNDLE))
    try:
        version = importlib.metadata.version(FRAMEWORK)
    except importlib.metadata.PackageNotFoundError:
        print(f"{SCENARIO}:{CASE}: error: {FRAMEWORK} is not installed in this Python; `uv run` this file, "
              f"or install {FRAMEWORK} (or your checkout of it) first")
        return 2
    try:
        importlib.import_module(FRAMEWORK_MODULE)
    except Exception:
        pass  # the case imports it again and reports the failure as an error

    from harness.runner import run_case  # bundled: harness/runner.py

    scenario = importlib.import_module(SCENARIO_MODULE).SCENARIO
    case = scenario.case(CASE)
    # stdout is the timeline and the verdict; whatever the framework prints goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        result = run_case(scenario, case)
    sys.stdout.write(result.timeline)
    print(f"{scenario.id}:{case.id} on {FRAMEWORK} {version}: {result.outcome}: {result.detail}")
    return EXIT_STATUS.get(result.outcome, 2)


# --- agent-bug-harness's code for this case, verbatim: relative path -> source ----------------
BUNDLE = {
    "scenarios/agents_nested_handoff_4hop.py": r'''"""openai-agents: a 4-hop nested handoff repeats earlier agents' messages in the history summary.

With ``RunConfig(nest_handoff_history=True)``, each handoff folds the transcript so far into
one ``<CONVERSATION HISTORY>`` summary message for the next agent, and forwards the previous
agent's own message verbatim as well (the single-hop behaviour of upstream issue 2171). On the
next handoff that verbatim copy came back as a ``pre_handoff_item`` and ``nest_handoff_history``
(``agents/handoffs/history.py``) summarised it again, next to the flattened earlier summary
that already recorded it. In a chain A -> B -> C -> D, D's summary lists A's message twice
(records #2 and #5) and B's twice (#6 and #9): 12 records instead of 10, one more duplicate
per extra hop. The seed PR (#3791) dedupes forwarded ``pre_handoff_items`` against the flattened
history; its review adds the over-deletion probe of the last case: two agents that
legitimately say byte-identical text (same message id) must both still reach D.

Timeline: what D's model received, one line per item in order: each summary block as a
header (``summary N (formats): K records``) followed by its numbered records, and each item
forwarded verbatim. Records are decoded from every summary format the releases write (the
``role: content`` lines of 0.6-0.16, the JSON records of 0.17 on) into one normalised form,
so timelines of different releases compare line by line; ids are the scenario's own.

Releases (matrix and bisect): reproduced from 0.6.0 (where nest_handoff_history arrived) to
0.18.3; fixed from 0.19.0, whose rewrite of agents/handoffs/history.py forwards the verbatim
items inside the nested history, before the seed PR (so the PR is a guard against regression).
The proofs are real releases: 0.18.3 reproduces, the pinned 0.24.0 is fixed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import partial
from typing import Any

from harness.outcomes import fixed, reproduced, unexpected
from harness.scenario import AsInstalled, Case, Edge, Observation, Release, Scenario
from harness.timeline import Placeholders, quote

AGENTS = ("A", "B", "C", "D")
USER_TEXT = "USERQ"
SHARED_TEXT = "same text"  # identical-messages-kept: what A and B both say
SHARED_ID = "msg-same"  # ... under one message id, like upstream's FakeModel reusing id "1"
FINAL_TEXT = "D: final"


def _said(agent: str, identical: bool) -> tuple[str, str]:
    """(text, message id) of an agent's message before it hands off."""
    if identical and agent in ("A", "B"):
        return SHARED_TEXT, SHARED_ID
    return f"{agent}: msg", f"msg-{agent}"


# --- reading D's input (the summary readers live in harness/openai_agents.py) -------------


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _label(key: tuple) -> str:
    """How a record is named in a verdict's detail: a message by its text."""
    if key[0] == "message":
        return quote(key[2], 40)
    if key[0] in ("function_call", "function_call_output"):
        return f"{key[0]} {key[1]}"
    return quote(key[1], 40)


def read_model_input(model_input: Any) -> tuple[list[str], dict[str, Any]]:
    """D's input as timeline lines and facts: summary blocks, verbatim items, unreadable bits."""
    from harness import openai_agents as oa

    ids = Placeholders()
    ids.keep(*(f"msg-{a}" for a in AGENTS), *(f"call-{a}" for a in AGENTS), SHARED_ID)
    return oa.read_nested_history(model_input, ids)


# --- the replay ------------------------------------------------------------------------------


async def replay(*, streamed: bool, identical: bool = False) -> Observation:
    """Run A -> B -> C -> D with nested handoff history and read what D's model received."""
    from harness import openai_agents as oa

    oa.require_nest_handoff_history()
    from agents import Agent, RunConfig, Runner

    models = {name: oa.ScriptedModel(name) for name in AGENTS}
    agents = {name: Agent(name=name, model=models[name]) for name in AGENTS}
    for name, nxt in itertools.pairwise(AGENTS):  # A -> B -> C -> D
        agents[name].handoffs = [agents[nxt]]
        text, msg_id = _said(name, identical)
        models[name].add_turn(oa.text_message(text, msg_id), oa.handoff_call(agents[nxt], call_id=f"call-{name}"))
    models["D"].add_turn(oa.text_message(FINAL_TEXT, "msg-D"))

    run_config = RunConfig(nest_handoff_history=True)
    if streamed:
        result = Runner.run_streamed(agents["A"], input=USER_TEXT, run_config=run_config)
        await oa.drain_stream(result)
    else:
        result = await Runner.run(agents["A"], input=USER_TEXT, run_config=run_config)

    calls = {name: len(m.inputs) for name, m in models.items()}
    if not models["D"].inputs:
        last = getattr(getattr(result, "last_agent", None), "name", "?")
        return Observation(
            timeline=[f"D's model was never called; the run ended with agent {last}, model calls {calls}"],
            facts={"d_called": False, "calls": calls},
        )
    lines, facts = read_model_input(models["D"].inputs[0])
    facts.update(
        d_called=True,
        calls=calls,
        expected={name: ("message", "assistant", _said(name, identical)[0]) for name in AGENTS[:3]},
    )
    return Observation(timeline=lines, facts=facts)


# --- oracles --------------------------------------------------------------------------------


def _unjudgeable(obs: Observation):
    """A verdict when D's input cannot be read, else None: never a silent pass."""
    from harness import openai_agents as oa

    f = obs.facts
    if not f.get("d_called"):
        return unexpected(f"D's model was never called (model calls {f.get('calls')}); the chain did not reach D")
    if f["unreadable"]:
        return unexpected(
            f"D's history has {_n(len(f['unreadable']), 'part')} this oracle cannot read, first: {f['unreadable'][0]}"
        )
    if not f["blocks"]:
        return unexpected(
            f"D received no {oa.DEFAULT_HISTORY_MARKERS[0]} summary block ({len(f['verbatim'])} items, all verbatim); "
            "history was not nested"
        )
    return None


def judge_no_repeats(obs: Observation):
    """Seed check (a): no summary block repeats a record; plus none of A/B/C's messages lost."""
    verdict = _unjudgeable(obs)
    if verdict:
        return verdict
    blocks, verbatim = obs.facts["blocks"], obs.facts["verbatim"]
    repeats = []
    for n, keys in enumerate(blocks, 1):
        counts = Counter(keys)
        dups = [f"{_label(k)} x{c}" for k, c in counts.items() if c > 1]
        if dups:
            where = "D's history block" if len(blocks) == 1 else f"D's history block {n}"
            repeats.append(f"{where} repeats {_n(len(dups), 'record')}: {', '.join(dups)}")
    if repeats:
        total = _n(sum(map(len, blocks)), "record")
        return reproduced("; ".join(repeats) + f" ({total} in {_n(len(blocks), 'block')})")
    problems, reached = [], []
    for agent, key in obs.facts["expected"].items():
        in_blocks = sum(1 for keys in blocks if key in keys)
        forwarded = verbatim.count(key)
        if in_blocks + forwarded == 0:
            problems.append(f"{agent}'s message {_label(key)} never reaches D (0 summary records, 0 verbatim)")
        elif in_blocks > 1:
            problems.append(f"{agent}'s message {_label(key)} is recorded in {in_blocks} summary blocks")
        how = [_n(in_blocks, "summary record")] if in_blocks else []
        how += ["verbatim" if forwarded == 1 else f"{forwarded}x verbatim"] if forwarded else []
        reached.append(f"{_label(key)} {' + '.join(how) or 'missing'}")
    if problems:
        return unexpected("no block repeats a record, but " + "; ".join(problems))
    total = _n(sum(map(len, blocks)), "record")
    return fixed(f"no history block repeats a record ({total} in {_n(len(blocks), 'block')}); " + ", ".join(reached))


def judge_identical_kept(obs: Observation):
    """Over-deletion probe: A's and B's byte-identical message reaches D exactly twice."""
    verdict = _unjudgeable(obs)
    if verdict:
        return verdict
    key = obs.facts["expected"]["A"]
    in_blocks = sum(keys.count(key) for keys in obs.facts["blocks"])
    fwd = obs.facts["verbatim"].count(key)
    total = in_blocks + fwd
    figures = (
        f"{_label(key)} (A's and B's identical message) reaches D {_n(total, 'time')} "
        f"({_n(in_blocks, 'summary record')}, {fwd} verbatim), expected 2"
    )
    if total == 2:
        return fixed(figures)
    if total > 2:
        return reproduced(figures)
    return unexpected(figures + ": a legitimate message was deleted")


# --- builds used to prove the oracles (tests only) --------------------------------------------
# 0.18.3, the last release before 0.19.0, has the bug (matrix and bisect: reproduced from
# 0.6.0 to 0.18.3). 0.19.0 rewrote agents/handoffs/history.py: the verbatim items are forwarded
# inside the nested input_history (`_nest_handoff_history_with_provenance`), so no forwarded
# copy comes back as a pre_handoff_item to be summarised again. 0.24.0, the pinned release, is fixed.

LAST_BEFORE_FIX = Release(
    "openai-agents==0.18.3",
    "the last release before 0.19.0's nested-history rewrite (agents/handoffs/history.py)",
)
AS_INSTALLED = AsInstalled("the pinned release (0.24.0) nests without repeating forwarded messages")


# --- edges: observations no build makes, one step across an oracle's line (nox -s mutants) ----


def _without(obs: Observation, key: tuple) -> None:
    obs.facts["blocks"] = [[k for k in keys if k != key] for keys in obs.facts["blocks"]]
    obs.facts["verbatim"] = [k for k in obs.facts["verbatim"] if k != key]


def _a_lost(obs: Observation) -> None:
    _without(obs, obs.facts["expected"]["A"])


def _a_in_two_blocks(obs: Observation) -> None:
    key = obs.facts["expected"]["A"]
    _without(obs, key)
    obs.facts["blocks"][0].append(key)
    obs.facts["blocks"].append([key])


def _identical_three_times(obs: Observation) -> None:
    obs.facts["verbatim"].append(obs.facts["expected"]["A"])


NO_REPEAT_EDGES = (
    Edge("unexpected", "no block repeats a record, but A's message never reaches D", _a_lost, AS_INSTALLED),
    Edge(
        "unexpected",
        "no block repeats a record, but A's message is in two summary blocks",
        _a_in_two_blocks,
        AS_INSTALLED,
    ),
)

SCENARIO = Scenario(
    id="agents-nested-handoff-4hop",
    framework="openai-agents",
    links=(
        "https://github.com/openai/openai-agents-python/pull/3791",
        "https://github.com/openai/openai-agents-python/issues/2171",
    ),
    description=(
        "With nest_handoff_history=True, a chain of handoffs A -> B -> C -> D gives D a "
        "<CONVERSATION HISTORY> summary that lists each earlier agent's message twice: the "
        "verbatim-forwarded copy is summarised again at the next hop, compounding per hop."
    ),
    expected=(
        "No summary block repeats a record, and each earlier agent's message reaches the last "
        "agent (in the summary, or forwarded verbatim) and at most once across the summaries; "
        "two agents that say identical text are both kept."
    ),
    cases=(
        Case(
            "nested-4hop",
            partial(replay, streamed=False),
            judge_no_repeats,
            {"reproduced": LAST_BEFORE_FIX, "fixed": AS_INSTALLED},
            "Runner.run, RunConfig(nest_handoff_history=True), A -> B -> C -> D as in the seed",
            edges=NO_REPEAT_EDGES,
        ),
        Case(
            "nested-4hop-streamed",
            partial(replay, streamed=True),
            judge_no_repeats,
            {"reproduced": LAST_BEFORE_FIX, "fixed": AS_INSTALLED},
            "the same chain through Runner.run_streamed, consuming stream_events()",
        ),
        Case(
            "identical-messages-kept",
            partial(replay, streamed=False, identical=True),
            judge_identical_kept,
            {"reproduced": LAST_BEFORE_FIX, "fixed": AS_INSTALLED},
            "A and B say byte-identical text with one message id: D must see it exactly twice",
            edges=(
                Edge(
                    "reproduced",
                    "the identical message reaches D three times: still the over-count",
                    _identical_three_times,
                    AS_INSTALLED,
                ),
            ),
        ),
    ),
)
''',
    "harness/__init__.py": r'''"""Reproduction and regression harness for AI-agent frameworks.

The core (this package, minus the per-framework modules ``adk`` and
``openai_agents``) imports no framework, so it loads in every environment.
"""

__version__ = "0.1.0"
''',
    "harness/frameworks.py": r'''"""The frameworks the harness knows: PyPI name, import name, scenario id prefix."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Framework:
    name: str  # the PyPI name, as in reports/matrix.json
    id_prefix: str  # every scenario id of this framework starts with it
    entry_module: str  # what a scenario's first import pulls in (the bench's import floor)


FRAMEWORKS: dict[str, Framework] = {
    f.name: f
    for f in (
        Framework("google-adk", "adk-", "google.adk.runners"),
        Framework("openai-agents", "agents-", "agents"),
    )
}


class UnknownFramework(ValueError):
    pass


def get(name: str) -> Framework:
    """The framework called ``name`` (PyPI spelling, case and ``_``/``-`` insensitive)."""
    key = name.strip().lower().replace("_", "-")
    try:
        return FRAMEWORKS[key]
    except KeyError:
        raise UnknownFramework(f"unknown framework {name!r}; valid: {', '.join(sorted(FRAMEWORKS))}") from None
''',
    "harness/netguard.py": r'''"""Fail any network connection attempted while a case runs, naming the destination.

Fakes must be complete and tracing exporters off; this turns a leak into an ``error``
result instead of a call to a model provider.
"""

from __future__ import annotations

import contextlib
import socket


class NetworkBlocked(RuntimeError):
    pass


def _destination(address: object) -> str:
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return str(address)


@contextlib.contextmanager
def blocked():
    """Within this block, connect(), create_connection() and getaddrinfo() raise NetworkBlocked."""
    saved = (socket.socket.connect, socket.socket.connect_ex, socket.create_connection, socket.getaddrinfo)

    def connect(self, address, *a, **k):
        if self.family == getattr(socket, "AF_UNIX", None):
            return saved[0](self, address, *a, **k)
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def connect_ex(self, address, *a, **k):
        if self.family == getattr(socket, "AF_UNIX", None):
            return saved[1](self, address, *a, **k)
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def create_connection(address, *a, **k):
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def getaddrinfo(host, port, *a, **k):
        raise NetworkBlocked(f"network access blocked: name lookup of {host}:{port}")

    # Replacing the socket methods for the duration is the guard's whole job (mypy refuses
    # assignments to methods unless told).
    socket.socket.connect, socket.socket.connect_ex = connect, connect_ex  # type: ignore[method-assign]
    socket.create_connection, socket.getaddrinfo = create_connection, getaddrinfo
    try:
        yield
    finally:
        original_connect, original_connect_ex, original_create_connection, original_getaddrinfo = saved
        socket.socket.connect, socket.socket.connect_ex = original_connect, original_connect_ex  # type: ignore[method-assign]
        socket.create_connection, socket.getaddrinfo = original_create_connection, original_getaddrinfo
''',
    "harness/openai_agents.py": r'''"""openai-agents specifics: a scripted fake ``Model`` and helpers to describe model input.

Written for this project (the upstream test suite's ``FakeModel`` is not in the released
package). Public API only (``agents.models.interface.Model``, ``agents.items.ModelResponse``,
the ``openai.types.responses`` output items and stream events), so it works on every
openai-agents release from 0.6 on, and as far as the scenarios reach back (``Runner.run``
from 0.0.2, streamed runs from 0.2.0, checked by the session scenarios):

- ``Model.get_response`` / ``stream_response`` take their arguments positionally in some
  releases' runners and by keyword in others, so the fake accepts ``*args, **kwargs`` and
  reads ``input`` from either;
- ``ModelResponse`` gained ``request_id`` (0.10) and ``raw_usage`` (0.20), and called
  ``response_id`` ``referenceable_id`` before 0.0.10; the fake passes only the fields the
  installed dataclass declares;
- streamed runs: every release's runner builds the turn's ``ModelResponse`` from the
  ``ResponseCompletedEvent`` it receives (``agents/run.py`` before 0.12,
  ``agents/run_internal/run_loop.py`` after), and newer ones also collect the items of
  ``ResponseOutputItemDoneEvent``. The fake streams what a real Responses stream sends for
  its items (:func:`stream_events_for`): ``response.created``, ``response.in_progress``; per
  output item ``output_item.added``, for a message's text parts ``content_part.added``,
  several ``output_text.delta`` (one per word), ``output_text.done``, ``content_part.done``,
  for a function call ``function_call_arguments.delta``/``.done``; ``output_item.done``; then
  ``response.completed``. Event fields are passed only where the installed ``openai`` event
  model declares them (``sequence_number``, ``logprobs`` and ``name`` came in later releases).

Helpers the scenarios share: :class:`RecordingTool` (a function tool that records its
calls), :func:`drain_stream` / :func:`run_item_names` / :func:`text_deltas` (what a streamed
run emitted), :func:`item_lines` (numbered item lines), :func:`counts_by_type` /
:func:`counts_by_call_id`, :func:`to_dict` (SDK object to dict), :class:`SessionFile` (a
``SQLiteSession`` on a real file, read back through a fresh session), and the readers of
nested handoff history summaries (:func:`read_nested_history`, :func:`history_item_key`).

Tracing export is switched off on import (``agents.set_tracing_disabled(True)``), on top of
the ``OPENAI_AGENTS_DISABLE_TRACING=1`` the runner sets, so no trace reaches the network even
when ``agents`` was imported before the environment variable was set.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from typing import Any

import agents
from agents.items import ModelResponse
from agents.models.interface import Model
from agents.usage import Usage
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseFunctionCallArgumentsDeltaEvent,
    ResponseFunctionCallArgumentsDoneEvent,
    ResponseFunctionToolCall,
    ResponseInProgressEvent,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
)

from harness.timeline import Placeholders, quote

SCRIPTED_MODEL_NAME = "scripted-model"


def disable_tracing() -> None:
    """Switch off trace export process-wide, where the release has the switch."""
    setter = getattr(agents, "set_tracing_disabled", None)
    if callable(setter):
        setter(True)


disable_tracing()


class ScriptExhausted(AssertionError):
    """The run asked the fake model for more turns than the scenario scripted."""


# --- scripted output items -------------------------------------------------------------


def text_message(text: str, id: str = "msg-1") -> ResponseOutputMessage:
    """An assistant message output item with the given text and message id."""
    return ResponseOutputMessage(
        id=id,
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def handoff_tool_name(target: Any) -> str:
    """The tool name of a handoff to ``target`` (an Agent, a Handoff, or a tool name)."""
    if isinstance(target, str):
        return target
    if hasattr(target, "tool_name"):  # a Handoff object
        return target.tool_name
    from agents.handoffs import Handoff

    return Handoff.default_tool_name(target)


def handoff_call(
    target: Any, call_id: str = "call-1", id: str | None = None, arguments: str = "{}"
) -> ResponseFunctionToolCall:
    """A function call output item that hands off to ``target`` (``transfer_to_<name>``).

    Give each call of a run its own ``call_id``: recent releases treat a reused one as a replay.
    """
    return ResponseFunctionToolCall(
        id=id if id is not None else f"fc-{call_id}",
        call_id=call_id,
        type="function_call",
        name=handoff_tool_name(target),
        arguments=arguments,
        status="completed",
    )


def function_call(
    name: str, arguments: dict[str, Any] | None = None, call_id: str = "call-1"
) -> ResponseFunctionToolCall:
    """A function call output item for a plain function tool.

    Give each call of a run its own ``call_id``: recent releases treat a reused one as a replay.
    """
    return ResponseFunctionToolCall(
        id=f"fc-{call_id}",
        call_id=call_id,
        type="function_call",
        name=name,
        arguments=json.dumps(arguments or {}, sort_keys=True),
        status="completed",
    )


# --- the fake model ----------------------------------------------------------------------


_MODEL_RESPONSE_FIELDS = {f.name for f in dataclasses.fields(ModelResponse)}


def _model_response(output: list[Any], response_id: str) -> ModelResponse:
    # request_id (0.10+) and raw_usage (0.20+) keep their defaults where they exist;
    # 0.0.2-0.0.9 named response_id ``referenceable_id`` (a required field).
    kwargs: dict[str, Any] = {
        "output": output,
        "usage": Usage(),
        "response_id": response_id,
        "referenceable_id": response_id,
    }
    return ModelResponse(**{k: v for k, v in kwargs.items() if k in _MODEL_RESPONSE_FIELDS})


def _response(output: list[Any], response_id: str, status: str) -> Response:
    return Response(
        id=response_id,
        created_at=0,
        model=SCRIPTED_MODEL_NAME,
        object="response",
        output=output,
        tool_choice="auto",
        tools=[],
        top_p=None,
        parallel_tool_calls=False,
        status=status,
        usage=None,
    )


def _event(cls: type, sequence_number: int, **fields: Any) -> Any:
    # ``sequence_number`` (and ``logprobs`` of the text events, ``name`` of
    # function_call_arguments.done) are required by recent openai releases and unknown to
    # older ones; pass each field only where the event model declares it.
    declared = getattr(cls, "model_fields", {})
    fields["sequence_number"] = sequence_number
    return cls(**{k: v for k, v in fields.items() if k in declared})


def text_chunks(text: str) -> list[str]:
    """How the fake streams a text: one delta per word (with its leading space), at least two."""
    pieces = re.findall(r"\s*\S+\s*$|\s*\S+", text) or [text]
    if len(pieces) == 1 and len(text) > 1:
        pieces = [text[: len(text) // 2], text[len(text) // 2 :]]
    return pieces


def _item_events(item: Any, index: int) -> list[tuple[type, dict[str, Any]]]:
    """The stream events of one output item, as a real Responses stream sends them."""
    item_id = getattr(item, "id", None)
    kind = getattr(item, "type", None)
    if kind == "message":
        added_item = item.model_copy(update={"status": "in_progress", "content": []}, deep=True)
    elif kind == "function_call":
        added_item = item.model_copy(update={"status": "in_progress", "arguments": ""}, deep=True)
    else:
        added_item = item.model_copy(deep=True)
    events: list[tuple[type, dict[str, Any]]] = [
        (
            ResponseOutputItemAddedEvent,
            {"type": "response.output_item.added", "item": added_item, "output_index": index},
        )
    ]
    at = {"item_id": item_id, "output_index": index}
    if kind == "message":
        for c, part in enumerate(item.content):
            part_at = {**at, "content_index": c}
            is_text = getattr(part, "type", None) == "output_text"
            empty = part.model_copy(update={"text": ""}, deep=True) if is_text else part.model_copy(deep=True)
            events.append(
                (ResponseContentPartAddedEvent, {"type": "response.content_part.added", "part": empty, **part_at})
            )
            if is_text:
                events += [
                    (
                        ResponseTextDeltaEvent,
                        {"type": "response.output_text.delta", "delta": d, "logprobs": [], **part_at},
                    )
                    for d in text_chunks(part.text)
                ]
                events.append(
                    (
                        ResponseTextDoneEvent,
                        {"type": "response.output_text.done", "text": part.text, "logprobs": [], **part_at},
                    )
                )
            events.append(
                (
                    ResponseContentPartDoneEvent,
                    {"type": "response.content_part.done", "part": part.model_copy(deep=True), **part_at},
                )
            )
    elif kind == "function_call":
        events += [
            (
                ResponseFunctionCallArgumentsDeltaEvent,
                {"type": "response.function_call_arguments.delta", "delta": item.arguments, **at},
            ),
            (
                ResponseFunctionCallArgumentsDoneEvent,
                {"type": "response.function_call_arguments.done", "arguments": item.arguments, "name": item.name, **at},
            ),
        ]
    events.append(
        (
            ResponseOutputItemDoneEvent,
            {"type": "response.output_item.done", "item": item.model_copy(deep=True), "output_index": index},
        )
    )
    return events


def stream_events_for(output: list[Any], response_id: str) -> list[Any]:
    """Every event of a Responses stream whose completed response holds ``output``, numbered in order."""
    specs: list[tuple[type, dict[str, Any]]] = [
        (ResponseCreatedEvent, {"type": "response.created", "response": _response([], response_id, "in_progress")}),
        (
            ResponseInProgressEvent,
            {"type": "response.in_progress", "response": _response([], response_id, "in_progress")},
        ),
    ]
    for index, item in enumerate(output):
        specs += _item_events(item, index)
    specs.append(
        (
            ResponseCompletedEvent,
            {"type": "response.completed", "response": _response(output, response_id, "completed")},
        )
    )
    return [_event(cls, seq, **fields) for seq, (cls, fields) in enumerate(specs)]


def _input_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    # (system_instructions, input, model_settings, tools, output_schema, handoffs, tracing, *, ...)
    if "input" in kwargs:
        return kwargs["input"]
    if len(args) >= 2:
        return args[1]
    raise TypeError("ScriptedModel: the runner called the model without an input argument")


def _instructions_of(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if "system_instructions" in kwargs:
        return kwargs["system_instructions"]
    return args[0] if args else None


class ScriptedModel(Model):
    """A ``Model`` that replays scripted turns in order and records what each turn received.

    Each turn is a list of output items (see :func:`text_message`, :func:`handoff_call`).
    ``inputs[n]`` is a deep copy of the input of turn ``n + 1``, taken when the call is made.

    Usage: ``ScriptedModel("A", [[text_message("A: msg"), handoff_call(agent_b)]])``.
    """

    def __init__(self, name: str = "scripted", turns: Iterable[Iterable[Any]] = ()) -> None:
        self.name = name
        self.turns: list[list[Any]] = [list(t) for t in turns]
        self.inputs: list[Any] = []
        self.instructions: list[Any] = []
        self.streamed: list[bool] = []

    def add_turn(self, *items: Any) -> ScriptedModel:
        self.turns.append(list(items))
        return self

    @property
    def last_input(self) -> Any:
        if not self.inputs:
            raise AssertionError(f"ScriptedModel {self.name!r} was never called")
        return self.inputs[-1]

    def _next_turn(self, args: tuple[Any, ...], kwargs: dict[str, Any], streamed: bool) -> tuple[int, list[Any]]:
        # Copy the input: the runner keeps mutating its lists after the call returns.
        self.inputs.append(copy.deepcopy(_input_of(args, kwargs)))
        self.instructions.append(copy.deepcopy(_instructions_of(args, kwargs)))
        self.streamed.append(streamed)
        turn = len(self.inputs)
        if turn > len(self.turns):
            raise ScriptExhausted(
                f"ScriptedModel {self.name!r}: the run asked for model turn {turn}, but the scenario "
                f"scripted only {len(self.turns)}; add a turn to the script or check why the agent looped"
            )
        return turn, [item.model_copy(deep=True) for item in self.turns[turn - 1]]

    def _response_id(self, turn: int) -> str:
        return f"resp-{self.name}-{turn}"

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        turn, output = self._next_turn(args, kwargs, streamed=False)
        return _model_response(output, self._response_id(turn))

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        # Record the call eagerly (like get_response), then stream the scripted turn.
        turn, output = self._next_turn(args, kwargs, streamed=True)
        return self._stream(turn, output)

    async def _stream(self, turn: int, output: list[Any]) -> AsyncIterator[Any]:
        for event in stream_events_for(output, self._response_id(turn)):
            yield event


# --- describing model input --------------------------------------------------------------


def _get(item: Any, key: str) -> Any:
    if isinstance(item, dict):
        return item.get(key)
    return getattr(item, key, None)


def content_text(content: Any) -> str:
    """The text of a message's content: a string, or the text parts of a content list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    texts = []
    for part in content:
        text = _get(part, "text")
        if text is None:
            text = _get(part, "refusal")
        texts.append(str(text) if text is not None else f"<{_get(part, 'type') or 'part'}>")
    return "".join(texts)


def as_input_list(model_input: Any) -> list[Any]:
    """The model input as a list of items (a bare string input is one user message)."""
    if isinstance(model_input, str):
        return [{"role": "user", "content": model_input}]
    return list(model_input)


def describe_item(item: Any, ids: Placeholders) -> str:
    """One input item, normalised: ``role 'text' [id]``, a function call, or its output."""
    kind = _get(item, "type")
    role = _get(item, "role")
    if kind == "function_call":
        return f"function_call {ids('call', _get(item, 'call_id'))} {_get(item, 'name')}({_get(item, 'arguments')})"
    if kind == "function_call_output":
        return f"function_call_output {ids('call', _get(item, 'call_id'))} -> {quote(_get(item, 'output'))}"
    if role is not None:
        line = f"{role} {quote(content_text(_get(item, 'content')))}"
        if _get(item, "id") is not None:
            line += f" [{ids('msg', _get(item, 'id'))}]"
        return line
    return f"{kind or 'item'} {quote(json.dumps(item, sort_keys=True, default=str))}"


# --- objects, items and counts ------------------------------------------------------------


def to_dict(obj: Any) -> Any:
    """An SDK object as a plain dict (pydantic models: the fields that were set; dataclasses:
    every field); a dict is copied; anything else is returned as it is."""
    if isinstance(obj, dict):
        return copy.deepcopy(obj)
    if hasattr(obj, "model_dump"):
        return obj.model_dump(exclude_unset=True)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.asdict(obj)
    return obj


def raw_item(item: Any) -> Any:
    """A run item's raw item as a dict (``RunItem.raw_item``); an input item as a dict."""
    return to_dict(getattr(item, "raw_item", item))


def item_type(item: Any) -> str:
    """An item's ``type``; a message input item without one (``{"role": ..., "content": ...}``) is ``message``."""
    data = raw_item(item)
    kind = _get(data, "type")
    if kind is None and _get(data, "role") is not None:
        return "message"
    return str(kind or type(item).__name__)


def item_lines(items: Iterable[Any], ids: Placeholders, indent: str = "") -> list[str]:
    """``1. user 'hi'``, ``2. function_call call-1 get({...})``: one numbered line per item, in order.

    Run items (``result.new_items``), input items (``result.to_input_list()``, session
    items) and SDK objects alike.
    """
    return [f"{indent}{n}. {describe_item(raw_item(item), ids)}" for n, item in enumerate(items, 1)]


def session_file_lines(items: Iterable[Any], ids: Placeholders) -> list[str]:
    """``session file holds 2 items:`` then one numbered, indented line per stored item.

    How the session scenarios show what a ``SessionFile`` kept (``store.stored_items()``).
    """
    items = list(items)
    return [f"session file holds {len(items)} items:", *item_lines(items, ids, indent="  ")]


def counts_by_type(items: Iterable[Any]) -> dict[str, int]:
    """How many items of each type, by type name, sorted."""
    counts = Counter(item_type(item) for item in items)
    return dict(sorted(counts.items()))


def counts_by_call_id(items: Iterable[Any], ids: Placeholders | None = None) -> dict[str, dict[str, int]]:
    """For each call id (as a placeholder when ``ids`` is given): how many items of each type carry it.

    A call answered once reads ``{"function_call": 1, "function_call_output": 1}``; a
    duplicated one shows a 2. Items without a call id are not counted.
    """
    counts: dict[str, Counter] = {}
    for item in items:
        call_id = _get(raw_item(item), "call_id")
        if call_id is None:
            continue
        key = ids("call", call_id) if ids is not None else str(call_id)
        counts.setdefault(key, Counter())[item_type(item)] += 1
    return {k: dict(sorted(v.items())) for k, v in counts.items()}


def counts_line(label: str, counts: dict[str, Any]) -> str:
    """``label {...}``: a counts mapping on one timeline line."""
    return f"{label} {json.dumps(counts, sort_keys=True)}"


# --- streamed runs -------------------------------------------------------------------------


async def drain_stream(result: Any) -> list[Any]:
    """Consume ``result.stream_events()`` of a ``Runner.run_streamed`` result; every event, in order."""
    return [event async for event in result.stream_events()]


def run_item_names(events: Iterable[Any]) -> list[str]:
    """The names of the ``run_item_stream_event`` events (``tool_called``, ``tool_output``, ...), in order."""
    return [event.name for event in events if getattr(event, "type", None) == "run_item_stream_event"]


def item_events_line(events: Iterable[Any], label: str = "item events") -> str:
    """``item events: tool_called, tool_output`` (:func:`run_item_names`), or ``(none)``."""
    return f"{label}: {', '.join(run_item_names(events)) or '(none)'}"


def raw_event_types(events: Iterable[Any]) -> list[str]:
    """The types of the raw model stream events (``response.output_text.delta``, ...), in order."""
    return [event.data.type for event in events if getattr(event, "type", None) == "raw_response_event"]


def text_deltas(events: Iterable[Any]) -> list[str]:
    """The text deltas the raw model stream carried, in order."""
    return [
        event.data.delta
        for event in events
        if getattr(event, "type", None) == "raw_response_event"
        and getattr(event.data, "type", None) == "response.output_text.delta"
    ]


# --- tools ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ToolCall:
    """One call of a :class:`RecordingTool`: the call id the runner gave, and the arguments."""

    call_id: str | None
    arguments: dict[str, Any]


class RecordingTool:
    """A function tool that records every call and answers with ``result``.

    ``parameters`` maps each argument to its JSON type (``{"city": "string"}``), all required.
    ``result`` is the answer, or a function of the arguments returning it (a non-string
    answer is sent as JSON). Give ``tool.tool`` to the Agent; read ``tool.calls``.

    Usage: ``weather = RecordingTool("get_weather", {"city": "string"}, result="sunny")``.
    """

    def __init__(
        self,
        name: str,
        parameters: dict[str, str] | None = None,
        result: Any = "ok",
        description: str = "",
    ) -> None:
        from agents import FunctionTool

        self.name = name
        self.result = result
        self.calls: list[ToolCall] = []
        params = dict(parameters or {})
        schema = {
            "type": "object",
            "properties": {p: {"type": t} for p, t in params.items()},
            "required": list(params),
            "additionalProperties": False,
        }
        self.tool = FunctionTool(
            name=name,
            description=description or f"The scenario's {name} tool.",
            params_json_schema=schema,
            on_invoke_tool=self._invoke,
            strict_json_schema=True,
        )

    async def _invoke(self, context: Any, arguments: str) -> str:
        args = json.loads(arguments) if arguments else {}
        # ToolContext.tool_call_id (every release from 0.6); None where the context lacks it.
        self.calls.append(ToolCall(getattr(context, "tool_call_id", None), args))
        answer: Any = self.result(args) if callable(self.result) else self.result
        return answer if isinstance(answer, str) else json.dumps(answer, sort_keys=True)

    def call_lines(self, ids: Placeholders) -> list[str]:
        """``tool get_weather ran for call-1 with {"city": "Paris"}``, one line per call, in order."""
        return [
            f"tool {self.name} ran for {ids('call', c.call_id)} with {json.dumps(c.arguments, sort_keys=True)}"
            for c in self.calls
        ]


# --- sessions on a real SQLite file --------------------------------------------------------


class SessionFile:
    """An openai-agents ``SQLiteSession`` on a real database file in a fresh temporary directory.

    Scenarios about what a run saves to its session use the framework's own ``SQLiteSession``
    on a file (never ``:memory:``, never a mock), and read what was stored back through a
    second ``SQLiteSession`` opened on the same file, as the next process would.

    Usage::

        with SessionFile() as store:
            await Runner.run(agent, "hi", session=store.open())
            items = await store.stored_items()
    """

    def __init__(self, session_id: str = "session-1") -> None:
        self.session_id = session_id
        self._tmp: Any = None
        self._opened: list[Any] = []

    def __enter__(self) -> SessionFile:
        import tempfile

        self._tmp = tempfile.TemporaryDirectory(prefix="harness-agents-session-")
        return self

    def __exit__(self, *exc: Any) -> None:
        for session in self._opened:
            close = getattr(session, "close", None)  # SQLiteSession.close (every release from 0.2)
            if callable(close):
                close()
        self._opened.clear()
        self._tmp.cleanup()

    @property
    def path(self) -> str:
        import os

        return os.path.join(self._tmp.name, "agents-session.db")

    def open(self) -> Any:
        """A new ``SQLiteSession`` on the file (raises NotApplicable where the release has none)."""
        try:
            from agents.memory import SQLiteSession
        except ImportError as exc:
            from harness.scenario import NotApplicable

            raise NotApplicable(f"agents.memory has no SQLiteSession: {exc}") from exc
        session = SQLiteSession(self.session_id, self.path)
        self._opened.append(session)
        return session

    async def stored_items(self) -> list[Any]:
        """Every item stored under the session id, read through a freshly opened session."""
        return list(await self.open().get_items())

    async def read_back(self, ids: Placeholders) -> tuple[list[Any], list[str]]:
        """The stored items (:meth:`stored_items`) and their timeline lines (:func:`session_file_lines`)."""
        items = await self.stored_items()
        return items, session_file_lines(items, ids)


# --- nested handoff history (RunConfig.nest_handoff_history) --------------------------------
# With nest_handoff_history, a handoff folds the transcript into one assistant message that
# holds a <CONVERSATION HISTORY> block of numbered records (agents/handoffs/history.py). The
# records were written as ``role: content`` / ``type: {json}`` lines in 0.6-0.16 and as one
# JSON item per record from 0.17; the readers below decode both into input-item dicts, so
# timelines of different releases compare line by line.

# A release that exposes get_conversation_history_wrappers() is asked for its own markers.
DEFAULT_HISTORY_MARKERS = ("<CONVERSATION HISTORY>", "</CONVERSATION HISTORY>")
_ROLES = {"user", "assistant", "system", "developer"}
_NUMBERED_RE = re.compile(r"^(\d+)\.\s?(.*)$", re.DOTALL)
_ROLE_LINE_RE = re.compile(r"^([A-Za-z_][\w-]*)(?: \(([^()]*)\))?:(?: (.*))?$", re.DOTALL)
_BARE_ROLE_RE = re.compile(r"^([A-Za-z_]+)(?: \(([^()]*)\))?$")


def require_nest_handoff_history() -> None:
    """Raise NotApplicable where ``RunConfig`` has no ``nest_handoff_history`` (before 0.6)."""
    from agents import RunConfig

    from harness.scenario import NotApplicable

    if dataclasses.is_dataclass(RunConfig):
        names = {f.name for f in dataclasses.fields(RunConfig)}
    else:
        import inspect

        names = set(inspect.signature(RunConfig).parameters)
    if "nest_handoff_history" not in names:
        raise NotApplicable("agents.RunConfig has no nest_handoff_history field")


def history_markers() -> tuple[str, str]:
    """The summary message's start and end markers, as the installed release writes them."""
    try:
        from agents.handoffs.history import get_conversation_history_wrappers
    except ImportError:
        return DEFAULT_HISTORY_MARKERS
    return tuple(get_conversation_history_wrappers())


def history_item_key(item: dict) -> tuple:
    """What identifies an item whatever the format it was written in (message ids aside)."""
    kind, role = item.get("type"), item.get("role")
    if kind == "function_call":
        return ("function_call", item.get("call_id"), item.get("name"), item.get("arguments"))
    if kind == "function_call_output":
        return ("function_call_output", item.get("call_id"), content_text(item.get("output")))
    if role is not None and kind in (None, "message"):
        return ("message", role, content_text(item.get("content")))
    rest = {k: v for k, v in item.items() if k not in ("id", "status", "provider_data")}
    return ("item", json.dumps(rest, sort_keys=True, default=str))


def parse_history_record(body: str) -> tuple[dict, str] | None:
    """One summary record (number stripped) as (item, format), or None if unreadable."""
    if body.startswith("{"):  # 0.17 on: the item as JSON
        try:
            item = json.loads(body)
        except json.JSONDecodeError:
            return None
        return (item, "json") if isinstance(item, dict) else None
    m = _ROLE_LINE_RE.match(body)
    if m:
        head, name, rest = m.group(1), m.group(2), m.group(3) or ""
        if head in _ROLES:  # "role: content", content a string or a JSON list of parts
            content: Any = rest
            if rest.startswith("["):
                try:
                    parts = json.loads(rest)
                except json.JSONDecodeError:
                    parts = None
                if isinstance(parts, list) and all(isinstance(p, dict) for p in parts):
                    content = parts
            item = {"role": head, "content": content}
            if name:
                item["name"] = name
            return item, "role-text"
        try:  # "function_call: {...}": an item type and the rest of the item as JSON (0.6-0.16)
            rest_item = json.loads(rest)
        except json.JSONDecodeError:
            return None
        if not isinstance(rest_item, dict):
            return None
        return {"type": head, **rest_item}, "typed"
    m = _BARE_ROLE_RE.match(body)
    if m and m.group(1) in _ROLES:  # a role whose content was empty (0.6-0.16)
        return {"role": m.group(1), "content": ""}, "role-text"
    return None


def history_summary_block(item: Any, markers: tuple[str, str]) -> dict | None:
    """A summary message's records, or None if ``item`` is not a summary message.

    ``{"records": [(number, item or None, raw text or None)], "formats": {...}, "unreadable": [...]}``
    """
    if not isinstance(item, dict):
        return None
    content = item.get("content")
    if item.get("role") != "assistant" or not isinstance(content, str) or markers[0] not in content:
        return None
    block: dict[str, Any] = {"records": [], "formats": set(), "unreadable": []}
    start = content.index(markers[0]) + len(markers[0])
    end = content.find(markers[1], start)
    if end == -1:
        block["unreadable"].append(f"no {markers[1]} after {markers[0]}")
        return block
    bodies: list[str] = []
    for line in content[start:end].splitlines():
        if not line.strip():
            continue
        m = _NUMBERED_RE.match(line.strip())
        if m and int(m.group(1)) == len(bodies) + 1:
            bodies.append(m.group(2))
        elif bodies:  # a record spread over several lines
            bodies[-1] += "\n" + line.rstrip()
        elif line.strip() != "(no previous turns recorded)":
            block["unreadable"].append(line.strip())
    for number, body in enumerate(bodies, 1):
        parsed = parse_history_record(body.strip())
        if parsed is None:
            block["unreadable"].append(f"{number}. {body.strip()}")
            block["records"].append((number, None, body.strip()))
            continue
        record, fmt = parsed
        block["formats"].add(fmt)
        block["records"].append((number, record, None))
    return block


def read_nested_history(items: Any, ids: Placeholders) -> tuple[list[str], dict[str, Any]]:
    """A list of input items that may hold history summaries, as timeline lines and facts.

    Lines: ``summary N (formats): K records`` followed by its numbered records, and
    ``verbatim: <item>`` for every other item, in order. Facts: ``blocks`` (per summary, the
    :func:`history_item_key` of each readable record), ``verbatim`` (the keys of the other
    items) and ``unreadable`` (what could not be decoded, which an oracle must not pass over).
    """
    markers = history_markers()
    lines: list[str] = []
    blocks: list[list[tuple]] = []
    verbatim: list[tuple] = []
    unreadable: list[str] = []
    for item in as_input_list(items):
        item = to_dict(item)  # an SDK object rather than an input dict
        block = history_summary_block(item, markers)
        if block is None:
            verbatim.append(history_item_key(item) if isinstance(item, dict) else ("item", repr(item)))
            lines.append(f"verbatim: {describe_item(item, ids)}")
            continue
        n = len(blocks) + 1
        formats = ", ".join(sorted(block["formats"])) or "empty"
        lines.append(f"summary {n} ({formats}): {len(block['records'])} records")
        keys = []
        for number, record, raw in block["records"]:
            if record is None:
                lines.append(f"  {number}. <unreadable> {quote(raw)}")
                continue
            keys.append(history_item_key(record))
            lines.append(f"  {number}. {describe_item(record, ids)}")
        unreadable += [f"summary {n}: {quote(u, 60)}" for u in block["unreadable"]]
        blocks.append(keys)
    return lines, {"blocks": blocks, "verbatim": verbatim, "unreadable": unreadable}
''',
    "harness/outcomes.py": r'''"""The five outcome words of the contract, and a verdict: an outcome with its detail."""

from __future__ import annotations

from dataclasses import dataclass

REPRODUCED = "reproduced"
FIXED = "fixed"
UNEXPECTED = "unexpected"
NOT_APPLICABLE = "not-applicable"
ERROR = "error"

OUTCOMES = (REPRODUCED, FIXED, UNEXPECTED, NOT_APPLICABLE, ERROR)


@dataclass(frozen=True)
class Verdict:
    """One outcome plus a one-line human detail with the figures."""

    outcome: str
    detail: str

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.outcome!r}; valid: {', '.join(OUTCOMES)}")
        if "\n" in self.detail:
            raise ValueError(f"a verdict's detail is one line, got {self.detail!r}")


def reproduced(detail: str) -> Verdict:
    return Verdict(REPRODUCED, detail)


def fixed(detail: str) -> Verdict:
    return Verdict(FIXED, detail)


def unexpected(detail: str) -> Verdict:
    return Verdict(UNEXPECTED, detail)
''',
    "harness/runner.py": r'''"""Run one case in this process and turn what happens into a result.

Every case gets a fresh event loop, a network guard, a timeout, and its logging
configuration restored afterwards, so one case cannot change what the next one sees.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import traceback
from dataclasses import asdict, dataclass

from harness import netguard
from harness.outcomes import ERROR, NOT_APPLICABLE, Verdict
from harness.scenario import Case, NotApplicable, Observation, Scenario
from harness.timeline import render

DEFAULT_TIMEOUT = 60.0

# Environment every case runs under: no provider key can be read, no tracing exported.
# (openai-agents exports traces to api.openai.com unless disabled: src/agents/tracing/__init__.py)
CASE_ENVIRONMENT = {
    "OPENAI_AGENTS_DISABLE_TRACING": "1",
    "OPENAI_API_KEY": "",
    "GOOGLE_API_KEY": "",
    "GEMINI_API_KEY": "",
    "ADK_DISABLE_TELEMETRY": "1",
}


@dataclass
class CaseResult:
    scenario: str
    case: str
    outcome: str
    detail: str
    timeline: str

    def to_dict(self) -> dict:
        return asdict(self)


_PATH_RE = re.compile(r"(?:/[^\s'\":]+)+/(?=[^\s/'\":]+)")


def strip_paths(text: str) -> str:
    """Drop directory parts of absolute paths, keeping package-relative ones when recognisable."""

    def shorten(m: re.Match) -> str:
        path = m.group(0)
        for anchor in ("/site-packages/", "/src/"):
            if anchor in path:
                return path.split(anchor, 1)[1]
        return ""

    return _PATH_RE.sub(shorten, text)


def error_detail(exc: BaseException, lines: int = 3) -> str:
    """The error's last lines, on one line, without machine paths."""
    text = "".join(traceback.format_exception(exc)).strip().splitlines()
    tail = [line.strip() for line in text[-lines:] if line.strip()]
    return strip_paths(" | ".join(tail))


# wait_for runs the case in a task of its own, as it always has; asyncio.timeout (what ASYNC109
# suggests) would run it in this one, which the frameworks' context handling could notice.
async def _observe(case: Case, timeout: float) -> Observation:  # noqa: ASYNC109
    return await asyncio.wait_for(case.run(), timeout)


def _verdict(case: Case, timeout: float) -> tuple[Verdict, str]:
    try:
        observation = asyncio.run(_observe(case, timeout))
    except NotApplicable as exc:
        return Verdict(NOT_APPLICABLE, strip_paths(str(exc).splitlines()[0] if str(exc) else "not applicable")), ""
    except TimeoutError:
        return Verdict(ERROR, f"timed out after {timeout:g}s"), ""
    except Exception as exc:  # the harness reports every failure as data, never raises
        return Verdict(ERROR, error_detail(exc)), ""
    timeline = render(observation.timeline)
    try:
        verdict = case.oracle(observation)
        if not isinstance(verdict, Verdict):
            raise TypeError(f"oracle returned {type(verdict).__name__}, expected Verdict")
    except Exception as exc:
        return Verdict(ERROR, "oracle failed: " + error_detail(exc)), timeline
    return verdict, timeline


def run_case(scenario: Scenario, case: Case, timeout: float = DEFAULT_TIMEOUT) -> CaseResult:
    """Run ``case`` and judge it; exceptions, timeouts and network use become ``error``."""
    root = logging.getLogger()
    saved_handlers, saved_level = list(root.handlers), root.level
    saved_env = dict(os.environ)  # a case may set any variable; none may reach the next case
    os.environ.update(CASE_ENVIRONMENT)
    try:
        with netguard.blocked():
            verdict, timeline = _verdict(case, timeout)
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        if dict(os.environ) != saved_env:
            os.environ.clear()
            os.environ.update(saved_env)
    return CaseResult(scenario.id, case.id, verdict.outcome, verdict.detail, timeline)
''',
    "harness/scenario.py": r'''"""The scenario API: a documented bug, its cases, and how each case's oracle is proven.

A scenario module in ``scenarios/`` defines one module-level ``SCENARIO``. Its top level
imports only the standard library and the harness core; framework imports live inside the
case functions, so the harness can list and validate every scenario in any environment.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from harness import frameworks
from harness.outcomes import FIXED, REPRODUCED, UNEXPECTED, Verdict

ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# A plain requirement: name, optional extras, optional version specifiers (no URLs, no markers).
REQUIREMENT_RE = re.compile(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?\s*([<>=!~]=?\s*[0-9][0-9A-Za-z.*+!-]*\s*,?\s*)*$"
)


class ScenarioError(ValueError):
    """A scenario module breaks the scenario contract."""


class NotApplicable(Exception):
    """Raised by a case when the build lacks the API it needs; the message quotes what."""


@dataclass
class Observation:
    """What a case saw: its normalised timeline and the facts its oracle reads."""

    timeline: list[str]
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class InProcess:
    """A build obtained by patching the installed release in this process.

    ``patch`` returns a context manager that applies, for example, the seed PR's guard
    (a reference fix) or reverts an upstream change. Used only by the harness's own tests.
    """

    description: str
    patch: Callable[[], AbstractContextManager[Any]]


@dataclass(frozen=True)
class AsInstalled:
    """The release installed for ``nox -s tests`` shows this outcome unpatched."""

    description: str = "the pinned release, unpatched"


PIN_RE = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([0-9][0-9A-Za-z.+!-]*)\s*$")


@dataclass(frozen=True)
class Release:
    """A real release shows this outcome: ``Release("openai-agents==0.8.0", "the last release before #123")``.

    The proof test (and ``python -m harness run ID:CASE --proof OUTCOME``) runs the case in
    that release's matrix environment (``.nox/builds/<framework>-<version>``, dependencies
    as of its upload date), unpatched. The honest proof for a bug upstream has fixed: the
    last release with the bug, or the first without it.
    """

    spec: str
    description: str = ""

    @property
    def framework(self) -> str:
        """The framework's PyPI name, as the spec spells it (``frameworks.get`` normalises it)."""
        m = PIN_RE.match(self.spec)
        return m.group(1) if m else ""

    @property
    def version(self) -> str:
        m = PIN_RE.match(self.spec)
        return m.group(2) if m else ""


Build = InProcess | AsInstalled | Release


@dataclass(frozen=True)
class Edge:
    """An observation at one of the oracle's lines: the case's observation on ``build``, with
    ``alter`` applied to a copy of it, must get ``outcome``.

    ``alter`` edits the copy in place (or returns a new Observation): for example
    ``lambda obs: obs.facts.update(calls=[...])`` for two calls with different arguments, where
    the scenario's script only ever sends identical ones. Proofs show the oracle can say
    ``reproduced`` and ``fixed`` on real builds; an edge shows it draws the line where the
    docstring says, on an observation no build has to produce (a guard against a malformed
    observation, a count one past the bug's), so a mutant of the oracle that moves the line is
    caught (``nox -s mutants``). It is no evidence about any release: reports never show it.
    ``build`` is ``AsInstalled()`` (the pinned release), an ``InProcess`` patch, or a ``Release``
    (in its matrix environment, for a case that does not apply to the pinned release).
    """

    outcome: str
    description: str
    alter: Callable[[Observation], Observation | None]
    build: Build = AsInstalled()


@dataclass(frozen=True)
class Case:
    """One variant of a scenario: how to replay it, and how to judge what it saw.

    ``proofs`` says how a build showing each of ``reproduced`` and ``fixed`` is obtained,
    so a harness-level test can show the oracle is able to say both.

    ``control=True`` marks a control case: behaviour that must hold (``fixed``) on every
    release, beside the bug (for example the non-streamed path of a streamed bug). It still
    declares both proofs: its ``reproduced`` proof breaks it in this process (``InProcess``),
    so the oracle is shown able to fail. Reports show it as a control ("held on every
    release run", or where it broke), never as "first fixed".
    """

    id: str
    run: Callable[[], Awaitable[Observation]]
    oracle: Callable[[Observation], Verdict]
    proofs: Mapping[str, Build]
    summary: str = ""
    control: bool = False
    # Observations at the oracle's lines, each altered from a real one (see Edge).
    edges: tuple[Edge, ...] = ()


@dataclass(frozen=True)
class Scenario:
    id: str
    framework: str
    links: tuple[str, ...]
    description: str  # the bug, in a sentence or two
    expected: str  # the behaviour the bug report expects
    cases: tuple[Case, ...]
    module: str = ""
    # Extra packages the scenario's environments need: a framework extra such as
    # "google-adk[db]", or a distribution such as "aiosqlite". Every environment of the
    # framework gets the union of its scenarios' requirements, resolved as of the release's
    # date like the framework itself (harness/environments.py).
    requires: tuple[str, ...] = ()

    def case(self, case_id: str) -> Case:
        for c in self.cases:
            if c.id == case_id:
                return c
        raise KeyError(
            f"unknown case {case_id!r} for scenario {self.id!r}; valid: " + ", ".join(c.id for c in self.cases)
        )


def validate(scenario: object, module: str) -> Scenario:
    """Check a module's SCENARIO against the contract; raise ScenarioError naming what is missing."""
    where = f"scenario module {module}"
    if not isinstance(scenario, Scenario):
        raise ScenarioError(f"{where}: SCENARIO must be a harness.scenario.Scenario, got {type(scenario).__name__}")
    problems = []
    if not scenario.id or not ID_RE.match(scenario.id):
        problems.append(f"id {scenario.id!r} is not lower-case and hyphenated")
    try:
        fw = frameworks.get(scenario.framework)
        if scenario.id and not scenario.id.startswith(fw.id_prefix):
            problems.append(f"id {scenario.id!r} must start with {fw.id_prefix!r} for {fw.name}")
    except frameworks.UnknownFramework as exc:
        problems.append(str(exc))
    if not scenario.links or not all(isinstance(u, str) and u.startswith("https://") for u in scenario.links):
        problems.append("links must list at least one https:// upstream URL")
    if not scenario.description.strip():
        problems.append("description is empty")
    if not scenario.expected.strip():
        problems.append("expected behaviour is empty")
    if not scenario.cases:
        problems.append("it has no cases")
    for req in scenario.requires:
        if not isinstance(req, str) or not REQUIREMENT_RE.match(req):
            problems.append(f"requires entry {req!r} is not a requirement (NAME, NAME[extra] or NAME>=1.0)")
    seen: set[str] = set()
    for case in scenario.cases:
        if not ID_RE.match(case.id):
            problems.append(f"case id {case.id!r} is not lower-case and hyphenated")
        if case.id in seen:
            problems.append(f"case id {case.id!r} appears twice")
        seen.add(case.id)
        if not callable(case.run):
            problems.append(f"case {case.id!r} has no run function")
        if not callable(case.oracle):
            problems.append(f"case {case.id!r} has no oracle")
        missing = {REPRODUCED, FIXED} - set(case.proofs)
        if missing:
            problems.append(
                f"case {case.id!r} does not say how to obtain a build that is {' or '.join(sorted(missing))}"
            )
        problems += _proof_problems(scenario, case)
    if problems:
        raise ScenarioError(f"{where}: " + "; ".join(problems))
    return scenario


def _proof_problems(scenario: Scenario, case: Case) -> list[str]:
    """What is wrong with a case's proofs and control flag (empty when nothing is)."""
    problems = []
    if not isinstance(case.control, bool):
        problems.append(f"case {case.id!r}: control must be True or False, got {case.control!r}")
    for outcome, build in case.proofs.items():
        where = f"case {case.id!r}'s {outcome!r} proof"
        if not isinstance(build, (InProcess, AsInstalled, Release)):
            problems.append(f"{where} is a {type(build).__name__}; valid: InProcess, AsInstalled, Release")
            continue
        if isinstance(build, Release):
            problems += _release_problems(scenario, where, build)
    problems += _edge_problems(scenario, case)
    if case.control and REPRODUCED in case.proofs and not isinstance(case.proofs[REPRODUCED], InProcess):
        problems.append(
            f"case {case.id!r} is a control (it holds on every release), so its 'reproduced' proof must "
            "break it in this process (InProcess), not name a build that has it broken"
        )
    return problems


def _release_problems(scenario: Scenario, where: str, build: Release) -> list[str]:
    if not PIN_RE.match(build.spec):
        return [f"{where} names {build.spec!r}; a Release names one release: NAME==VERSION"]
    try:
        named = frameworks.get(build.framework).name
    except frameworks.UnknownFramework as exc:
        return [f"{where}: {exc}"]
    if named != _framework_name(scenario.framework):
        return [f"{where} is a {named} release, but the scenario is about {scenario.framework}"]
    return []


def _edge_problems(scenario: Scenario, case: Case) -> list[str]:
    """What is wrong with a case's edges (empty when nothing is)."""
    # Written by people and checked at run time: the fields may hold anything, whatever they are annotated as.
    edges: object = case.edges
    if not isinstance(edges, tuple):
        return [f"case {case.id!r}: edges must be a tuple of Edge, got {type(edges).__name__}"]
    problems = []
    for n, edge in enumerate(edges, 1):
        where = f"case {case.id!r}'s edge {n}"
        if not isinstance(edge, Edge):
            problems.append(f"{where} is a {type(edge).__name__}, not an Edge")
            continue
        if edge.outcome not in (REPRODUCED, FIXED, UNEXPECTED):
            problems.append(f"{where} expects {edge.outcome!r}; valid: {REPRODUCED}, {FIXED}, {UNEXPECTED}")
        build: object = edge.build
        if not isinstance(build, (InProcess, AsInstalled, Release)):
            problems.append(f"{where} runs on a {type(build).__name__}; valid: InProcess, AsInstalled, Release")
        elif isinstance(build, Release):
            problems += _release_problems(scenario, where, build)
        alter: object = edge.alter
        if not callable(alter) or not str(edge.description).strip():
            problems.append(f"{where} needs a description and an alter function")
    return problems


def _framework_name(name: str) -> str:
    try:
        return frameworks.get(name).name
    except frameworks.UnknownFramework:
        return name
''',
    "harness/timeline.py": r'''"""Normalised timelines: ordered records of what a framework did, identical on every run.

Ids the framework invents (invocation ids, event ids, uuids, call ids) become stable
placeholders in first-seen order (``inv-1``, ``ev-1``, ...). Ids the scenario chose
itself are kept when registered with :meth:`Placeholders.keep`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


@dataclass
class Placeholders:
    """Maps volatile ids to ``<kind>-<n>`` in first-seen order, per kind."""

    _seen: dict[tuple[str, str], str] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict)
    _kept: set[str] = field(default_factory=set)

    def keep(self, *values: str) -> None:
        """Leave these ids (chosen by the scenario, hence stable) as they are."""
        self._kept.update(values)

    def __call__(self, kind: str, value: object) -> str:
        if value is None:
            return "-"
        text = str(value)
        if text in self._kept:
            return text
        key = (kind, text)
        if key not in self._seen:
            self._counts[kind] = self._counts.get(kind, 0) + 1
            self._seen[key] = f"{kind}-{self._counts[kind]}"
        return self._seen[key]

    def scrub(self, text: str, kind: str = "uuid") -> str:
        """Replace every uuid inside free text with a placeholder."""
        return UUID_RE.sub(lambda m: self(kind, m.group(0)), text)


def quote(text: object, limit: int = 80) -> str:
    """A short, single-line repr of a text, cut with a visible marker when long."""
    s = str(text)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return repr(s)


def render(lines: list[str]) -> str:
    """The timeline as text: one entry per line, newline-terminated."""
    for line in lines:
        if "\n" in line:
            raise ValueError(f"timeline entries are single lines, got {line!r}")
    return "".join(line + "\n" for line in lines)
''',
    "scenarios/__init__.py": r'''"""One module per documented bug; each defines ``SCENARIO`` (see harness/scenario.py)."""
'''
}


if __name__ == "__main__":
    sys.exit(main())
