"""The scenario API: a documented bug, its cases, and how each case's oracle is proven.

A bug folder ``scenarios/<id>/`` is read as a Scenario (harness/runtime/reproduction.py): its
script's cases with its declaration's roles (harness/runtime/declaration.py). The declaration's
top level imports only the standard library and the harness core; framework imports live inside
the script's ``observe`` and the declaration's patches, so the harness can list and validate every
scenario in any environment.
"""

from __future__ import annotations

import contextvars
import fnmatch
import functools
import inspect
import re
import types
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from typing import Any

from harness.errors import UsageError
from harness.runtime import frameworks
from harness.runtime.outcomes import FIXED, REPRODUCED, UNEXPECTED, Verdict

ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# A plain requirement: name, optional extras, optional version specifiers (no URLs, no markers).
# A PEP 440 specifier set over releases, as an Explanation names them (checked fully where packaging is).
SPECIFIER_RE = re.compile(
    r"^\s*(?:===?|!=|<=|>=|<|>|~=)\s*[0-9][0-9A-Za-z.*+!-]*(?:\s*,\s*(?:===?|!=|<=|>=|<|>|~=)\s*[0-9][0-9A-Za-z.*+!-]*)*\s*$"
)
REQUIREMENT_RE = re.compile(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?\s*([<>=!~]=?\s*[0-9][0-9A-Za-z.*+!-]*\s*,?\s*)*$"
)


# The databases a scenario's cases can run on (Scenario.backends). Every case runs on SQLite
# unless its scenario declares more; a case on another backend is the same case with the id
# ``<case>-<backend>`` (``expand_backends``), and finds its backend through ``current_backend``.
SQLITE, POSTGRESQL = "sqlite", "postgresql"
BACKENDS = (SQLITE, POSTGRESQL)
_BACKEND: contextvars.ContextVar[str] = contextvars.ContextVar("harness_backend", default=SQLITE)


def backend_case_id(case_id: str, backend: str) -> str:
    """The id of case ``case_id`` on ``backend``: its own on SQLite, else ``<case>-<backend>``
    (the key of the script's ``CASES``, of a result and of a snapshot)."""
    return case_id if backend == SQLITE else f"{case_id}-{backend}"


def split_backend(case_id: str) -> tuple[str, str]:
    """(the case's own id, its backend) of a backend's case id: the inverse of ``backend_case_id``."""
    backend = next((b for b in BACKENDS if b != SQLITE and case_id.endswith(f"-{b}")), SQLITE)
    return (case_id if backend == SQLITE else case_id[: -len(backend) - 1]), backend


def current_backend() -> str:
    """The backend of the case being run (``sqlite`` outside a case and for single-backend scenarios)."""
    return _BACKEND.get()


class ScenarioError(UsageError, ValueError):
    """A bug folder (its script or its declaration) breaks the scenario contract."""


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
    # A non-regression case: the failure it guards against is a fix that goes too far, so
    # ``reproduced`` means behaviour that must stay was dropped (reports and comments say so).
    non_regression: bool = False
    # Observations at the oracle's lines, each altered from a real one (see Edge).
    edges: tuple[Edge, ...] = ()
    # Fields that differ on one backend, by backend: ``{"sqlite": {"control": True, "proofs": {...}}}``
    # for a bug that lives in PostgreSQL only (on SQLite the same steps hold on every release).
    # Applied by ``expand_backends``; any field but id, run and backend.
    per_backend: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # The database this case runs on: set by ``expand_backends``, never by a declaration.
    backend: str = SQLITE


# A claimed PR's state as its thread shows it; "" when the repository has not recorded it.
PR_STATES = ("", "merged", "closed unmerged", "closed", "open")


@dataclass(frozen=True)
class Claim:
    """What the upstream thread says about the bug's releases, as the scenario's docstring or
    seed quotes it: a claim to set beside what the harness measured, never a measurement.

    ``fixed_in``: the release the thread says fixes it; ``pr``: the pull request it names as the
    fix ("#1234" or its URL); ``introduced_in``: the release it says brought the bug;
    ``still_open``: the thread says no release fixes it; ``source``: where the repository states
    the claim, in a few words ("module docstring: 'fixed in #871, released as 0.0.17'");
    ``pr_state``: the PR's state as the thread shows it (PR_STATES; "" when not recorded): only a
    merged PR is ever printed as "fixed by" (issue 45: #5711, closed unmerged, was); ``quote``: the
    thread's own words, short."""

    fixed_in: str | None = None
    pr: str | None = None
    introduced_in: str | None = None
    still_open: bool = False
    source: str = ""
    pr_state: str = ""
    quote: str = ""

    def empty(self) -> bool:
        return not (self.fixed_in or self.pr or self.introduced_in or self.still_open)


@dataclass(frozen=True)
class Explanation:
    """Why some cases give neither ``reproduced`` nor ``fixed`` on some releases, in words a
    maintainer understands (another known bug reached first, an API the release lacks, a
    dependency published later that the release cannot use): the comment and the report print it
    beside every ``unexpected`` or ``error`` result it covers.

    ``cases``: a shell pattern over case ids (``"*-postgresql"``, ``"streamed"``);
    ``versions``: a PEP 440 specifier over the framework's releases (``"==1.24.0"``,
    ``">=2.2.0,<2.6"``); ``why``: one or two sentences, naming the upstream issue or the
    scenario id where it is another bug."""

    cases: str
    versions: str
    why: str


@dataclass(frozen=True)
class Scenario:
    id: str
    framework: str
    links: tuple[str, ...]
    description: str  # the bug, in a sentence or two
    expected: str  # the behaviour the bug report expects
    cases: tuple[Case, ...]
    module: str = ""  # "<id>/bug": its declaration, relative to scenarios/ (reproduction.scenario_from_folder)
    # One sentence per boundary of the outcome table that the description does not explain
    # (another mechanism on an older range, a release that behaves a third way): the comment
    # and the report print them under the headline.
    range_notes: tuple[str, ...] = ()
    # Extra packages the scenario's environments need: a framework extra such as
    # "google-adk[db]", or a distribution such as "aiosqlite". Every environment of the
    # framework gets the union of its scenarios' requirements, resolved as of the release's
    # date like the framework itself (harness/execution/environments.py).
    requires: tuple[str, ...] = ()
    # The databases its cases run on, SQLite first: ("sqlite", "postgresql") runs each case
    # twice, the second time as ``<case>-postgresql`` on the run's PostgreSQL server
    # (harness/execution/postgres.py; a bug's script finds it through libpq's variables:
    # harness/runtime/reproduction.py).
    backends: tuple[str, ...] = (SQLITE,)
    # What the upstream thread claims (fixed in, by which PR, introduced in, still open), only
    # where the docstring or seed already states it: the reports set it beside the measurement.
    claims: Claim = Claim()
    # Why the results that are neither reproduced nor fixed are so (Explanation): shown beside them.
    explanations: tuple[Explanation, ...] = ()

    def case(self, case_id: str) -> Case:
        for c in self.cases:
            if c.id == case_id:
                return c
        raise KeyError(
            f"unknown case {case_id!r} for scenario {self.id!r}; valid: " + ", ".join(c.id for c in self.cases)
        )


def validate(scenario: Scenario, name: str) -> Scenario:
    """Check ``scenario`` (of the bug folder ``name``) against the contract; raise ScenarioError
    naming what is missing."""
    where = f"scenario module {name}"
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
    backends: object = scenario.backends
    if (
        not isinstance(backends, tuple)
        or not backends
        or backends[0] != SQLITE
        or len(set(backends)) != len(backends)
        or not set(backends) <= set(BACKENDS)
    ):
        problems.append(f"backends {backends!r} must be a tuple of {', '.join(BACKENDS)}, sqlite first, each once")
    claims: object = scenario.claims
    if not isinstance(claims, Claim):
        problems.append(f"claims must be a Claim, got {type(claims).__name__}")
    elif not claims.empty() and not claims.source.strip():
        problems.append("claims: say where the repository states the thread's claim (source)")
    elif claims.pr_state not in PR_STATES:
        problems.append(f"claims: pr_state {claims.pr_state!r} is not one of {', '.join(map(repr, PR_STATES))}")
    for explanation in scenario.explanations:
        if not isinstance(explanation, Explanation):
            problems.append(f"explanations must be Explanation(cases, versions, why), got {type(explanation).__name__}")
            continue
        if not explanation.why.strip():
            problems.append(f"explanation for {explanation.cases!r} on {explanation.versions!r}: say why (why)")
        if not SPECIFIER_RE.match(explanation.versions):
            problems.append(
                f"explanation versions {explanation.versions!r} is not a version specifier (==1.24.0, >=2.2.0,<2.6)"
            )
        # Before or after expand_backends: a pattern may name a case's "<case>-postgresql" variant.
        variants = [
            *(c.id for c in scenario.cases),
            *(f"{c.id}-{b}" for c in scenario.cases for b in scenario.backends if b != SQLITE),
        ]
        if not any(fnmatch.fnmatchcase(case_id, explanation.cases) for case_id in variants):
            problems.append(f"explanation cases {explanation.cases!r} matches no case")
    for req in scenario.requires:
        if not isinstance(req, str) or not REQUIREMENT_RE.match(req):
            problems.append(f"requires entry {req!r} is not a requirement (NAME, NAME[extra] or NAME>=1.0)")
    seen: set[str] = set()
    for case in scenario.cases:
        unknown = set(case.per_backend) - set(scenario.backends if isinstance(scenario.backends, tuple) else ())
        if unknown:
            problems.append(f"case {case.id!r}: per_backend names {', '.join(sorted(unknown))}, not in backends")
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


async def _on_backend(run: Callable[[], Awaitable[Observation]], backend: str) -> Observation:
    token = _BACKEND.set(backend)
    try:
        return await run()
    finally:
        _BACKEND.reset(token)


def on_backend(case: Case, backend: str) -> Case:
    """``case`` on ``backend``: the id ``<case>-<backend>`` (the SQLite case keeps its own), its
    run seeing ``backend`` through ``current_backend``; proofs, oracle and edges unchanged."""
    changes = {k: v for k, v in case.per_backend.get(backend, {}).items() if k not in ("id", "run", "backend")}
    if backend == SQLITE:
        return replace(case, **changes) if changes else case
    run = functools.partial(_on_backend, case.run, backend)
    return replace(case, **changes, id=backend_case_id(case.id, backend), run=run, backend=backend)


def expand_backends(scenario: Scenario) -> Scenario:
    """The scenario with one case per declared backend, each backend's case beside the SQLite one."""
    if tuple(scenario.backends) == (SQLITE,):
        return scenario
    cases = tuple(on_backend(c, b) for c in scenario.cases for b in scenario.backends)
    return replace(scenario, cases=cases)


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


def unwrap(oracle: Any) -> Any:
    """The function an oracle is, under partials, bound methods and decorators (a case's judge)."""
    seen = 0
    while seen < 20:
        seen += 1
        if isinstance(oracle, functools.partial):
            oracle = oracle.func
        elif isinstance(oracle, types.MethodType):
            oracle = oracle.__func__
        elif hasattr(oracle, "__wrapped__"):
            oracle = inspect.unwrap(oracle)
        else:
            break
    return oracle
