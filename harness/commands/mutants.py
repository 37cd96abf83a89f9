"""Mutation testing of the oracles: ``nox -s mutants`` (``python -m harness mutants [ID ...]``).

The proofs (harness/execution/proofs.py) show each oracle says ``reproduced`` on one build and ``fixed``
on another. That does not show a *wrong* oracle would be caught: an oracle whose ``n == 2``
became ``n != 2`` may still say both words on those two builds. This module mutates every
scenario's oracle functions, runs the proofs against each mutant, and reports each mutant
that no proof kills: a missing proof, or an equivalent mutant that ``mutants-equivalent.toml``
explains.

What is mutated: the functions scenarios pass as ``Case.oracle`` (through ``partial``, a
lambda or a closure as well), and the helper functions of the scenario module that only
oracles call (``_figures``, ``_unjudgeable``: every reference to them lies inside an oracle
or another such helper, so mutating them cannot change what the case observed). Code that
only formats the detail is left alone, since the proofs check outcomes and a detail-only
mutant would survive without saying anything: f-strings; the arguments of ``fixed()``,
``reproduced()``, ``unexpected()`` and ``Verdict``'s detail; ``", ".join(x) or "none"``; calls
of helpers that format a value into text (``_label``, ``_n``, ``quote``); and the assignments of
*text variables*, locals read only in such places or in other text variables' assignments
(``where = ...``, ``how += [...]``, ``reached.append(...)``, an ``if`` that only does that).
Text that is compared with something is never left alone, nor is a helper that returns only
literals (``"refused" if ... else "failed"``: words an oracle compares).

Operators (each site gives one mutant, a numeric constant two):

- ``compare``: ``==``/``!=``, ``<``/``<=``, ``>``/``>=`` flipped, each operator of a chain apart;
- ``boolop``: ``and``/``or`` swapped;
- ``not``: ``not x`` becomes ``x``;
- ``constant``: an int or float constant ``c`` becomes ``c + 1`` and ``c - 1``;
- ``verdict``: ``fixed``/``reproduced`` (and ``FIXED``/``REPRODUCED``) swapped where an
  oracle names the helper from harness.runtime.outcomes;
- ``if``: the test of an ``if`` statement or conditional expression negated (not where it
  would repeat another operator: a test that is ``not x`` or a single ``==``/``!=``).

A mutant is *killed* when some proof of some case whose oracle it changes no longer gives
its expected outcome (its key in ``Case.proofs``), or some edge of such a case (``Case.edges``,
a real observation altered to sit just across one of the oracle's lines) no longer gives its
``outcome``: another outcome, an exception (``error``), a return value that is not a Verdict,
or no answer within ``MUTANT_TIMEOUT`` (a constant mutated in a loop). Otherwise it
*survived*, unless ``mutants-equivalent.toml`` lists it. A proof that does not give its
outcome unmutated judges no mutant and fails the run.

Why a small AST mutator, not mutmut or cosmic-ray: both mutate whole files and run a test
command per mutant. Here that would mean one pytest run, one framework import and one replay
per mutant and proof (about 20 scenarios x 50 mutants x 2 proofs, each seconds long), mutants
of replay code and fakes nobody asked about, and no way into the Release proofs, which run in
other environments (``.nox/builds/<framework>-<version>``) where neither tool is installed.
An oracle is a function of the Observation, so the mutator can do better: each proof build
replays its case *once*, and at the point the proof calls the oracle (inside the proof's
patch, the network guard and the case environment, as harness/execution/proofs.py runs it) every
mutant of that oracle judges a copy of the same Observation, then the real oracle gives the
proof's own verdict. A mutant is applied by compiling the mutated top-level statement that
holds the function (with the module's ``__future__`` imports) and swapping the mutated
function's code object into the live function (``__code__``), so
partials, closures and helpers called by name all see it, and it is swapped back right
after. The in-process proofs of a scenario run in one process; each Release proof's
environment runs once per scenario, in a worker (``python -m harness.commands.mutants worker SPEC``,
stdlib only) that evaluates every mutant there. Both sides enumerate the mutants from the
same source with the same code; the worker checks it got the same list.

``mutants-equivalent.toml`` (at the project root) holds one ``[[mutant]]`` table per
surviving mutant that does not change any verdict an observation of the case can bring,
with the reason::

    [[mutant]]
    scenario = "adk-my-bug"
    function = "judge"                          # the qualified name
    mutation = "compare: total > 2 -> total >= 2"  # as the survivor line prints it
    occurrence = 1                              # only when the same text occurs twice in the function
    reason = "`if total == 2: return fixed(...)` comes first, so total is never 2 here"

An entry that matches no mutant, or a mutant that a proof kills, fails the run: the file
must stay true.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import dataclasses
import functools
import inspect
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from harness.errors import UsageError
from harness.project import PROJECT, Project
from harness.runtime import registry
from harness.runtime.outcomes import ERROR, OUTCOMES, Verdict
from harness.runtime.runner import DEFAULT_TIMEOUT, error_detail, run_case
from harness.runtime.scenario import Build, Case, Observation, Release, Scenario

if TYPE_CHECKING:
    from harness.execution.proofs import ProofRun

PROJECT_ROOT = PROJECT.root
EQUIVALENTS_FILE = "mutants-equivalent.toml"
MUTANT_TIMEOUT = 5.0  # seconds one mutant's oracle may take on one Observation
IMPORT_GRACE = 180.0  # a worker's framework import on a loaded machine
CASE_SLACK = 10.0

FLIPS: dict[type, type] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
}
VERDICT_SWAP = {"fixed": "reproduced", "reproduced": "fixed", "FIXED": "REPRODUCED", "REPRODUCED": "FIXED"}
DETAIL_HELPERS = {"fixed", "reproduced", "unexpected"}  # every argument is the detail
OUTCOMES_MODULE = "harness.runtime.outcomes"


class MutantsError(UsageError, ValueError):
    """Bad input to the mutants command: an unreadable or malformed equivalents file."""


# --- which functions are mutated ------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A function whose body is mutated: an oracle, or a helper only oracles call."""

    path: str  # source file, relative to the project root where it is under it
    file: str  # absolute source file (what compile() is given)
    qualname: str
    name: str  # the code object's name (``<lambda>`` for a lambda)
    firstlineno: int  # the code object's first line (a decorator's, when decorated)
    helper: bool


@dataclass(frozen=True)
class Mutant:
    scenario: str
    path: str
    function: str  # qualified name of the mutated function
    index: int  # the site's number in the function (enumeration order)
    line: int
    kind: str
    before: str
    after: str
    occurrence: int  # 1-based among this function's mutants with the same text
    cases: tuple[str, ...]  # cases whose oracle this mutant changes
    firstlineno: int = 0  # the function's (two lambdas share a name)

    @property
    def key(self) -> str:
        return f"{self.path}::{self.function}@{self.firstlineno}::{self.index}"

    @property
    def target(self) -> tuple[str, str, int]:
        return self.path, self.function, self.firstlineno

    @property
    def mutation(self) -> str:
        return f"{self.kind}: {self.before} -> {self.after}"

    def where(self) -> str:
        return f"{self.path}:{self.line} {self.function}"


@dataclass
class Plan:
    """A scenario's mutants, the live functions they go into, and what could not be mutated."""

    scenario: Scenario
    mutants: list[Mutant]
    codes: dict[str, types.CodeType]  # mutant key -> mutated code object of its function
    functions: dict[tuple[str, str, int], types.FunctionType]  # Mutant.target -> live function
    notes: list[str] = field(default_factory=list)


def _unwrap(oracle: Any) -> Any:
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


def _relative(file: str, root: Path) -> str:
    try:
        return Path(file).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(file).name


@functools.lru_cache(maxsize=256)
def _parse(file: str, mtime: float) -> ast.Module:
    source = Path(file).read_text()
    return ast.parse(source, filename=file)


def _tree(file: str) -> ast.Module:
    return _parse(file, os.stat(file).st_mtime)


def _first_line(node: Any) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([d.lineno for d in decorators] + [node.lineno])


def _functions(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """Every function and lambda in ``tree`` with its qualified name, in source order."""
    found: list[tuple[ast.AST, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                name = child.name if not isinstance(child, ast.Lambda) else "<lambda>"
                qual = prefix + name
                found.append((child, qual))
                visit(child, qual + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def _find(tree: ast.AST, name: str, firstlineno: int) -> list[tuple[ast.AST, str]]:
    want = "<lambda>" if name == "<lambda>" else name
    return [(n, q) for n, q in _functions(tree) if (q.rsplit(".", 1)[-1] == want) and _first_line(n) == firstlineno]


def _outcome_names(tree: ast.Module) -> tuple[dict[str, str], set[str]]:
    """Names bound at module level to harness.runtime.outcomes members (local -> original), and
    names bound to the harness.runtime.outcomes module itself."""
    members: dict[str, str] = {}
    modules: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == OUTCOMES_MODULE:
            for alias in node.names:
                members[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module == "harness":
            modules.update(a.asname or a.name for a in node.names if a.name == "outcomes")
        elif isinstance(node, ast.Import):
            modules.update(a.asname for a in node.names if a.name == OUTCOMES_MODULE and a.asname)
    return members, modules


def _references(tree: ast.Module) -> dict[str, list[tuple[ast.AST, ...]]]:
    """For each name loaded anywhere in the module: the chain of enclosing functions of each load."""
    refs: dict[str, list[tuple[ast.AST, ...]]] = {}

    def visit(node: ast.AST, chain: tuple[ast.AST, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                refs.setdefault(child.id, []).append(chain)
            inner = (*chain, child) if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else chain
            visit(child, inner)

    visit(tree, ())
    return refs


def targets(
    scenario: Scenario, root: Path = PROJECT_ROOT, scenarios_dir: Path | None = None
) -> tuple[dict[str, list[Target]], dict[Target, types.FunctionType], list[str]]:
    """(case id -> the targets its oracle runs, target -> live function, notes on what was left out)."""
    notes: list[str] = []
    per_case: dict[str, list[Target]] = {}
    live: dict[Target, types.FunctionType] = {}
    scenarios_dir = (scenarios_dir or root / "scenarios").resolve()
    for case in scenario.cases:
        fn = _unwrap(case.oracle)
        if not isinstance(fn, types.FunctionType):
            notes.append(f"{case.id}: its oracle is a {type(fn).__name__}, not a function; not mutated")
            per_case[case.id] = []
            continue
        code = fn.__code__
        file = code.co_filename
        if not os.path.exists(file):
            notes.append(f"{case.id}: the source of {fn.__qualname__} ({file}) is not on disk; not mutated")
            per_case[case.id] = []
            continue
        tree = _tree(file)
        found = _find(tree, code.co_name, code.co_firstlineno)
        if len(found) != 1:
            what = "no" if not found else f"{len(found)}"
            notes.append(
                f"{case.id}: {what} function named {code.co_name} starts on line {code.co_firstlineno} of "
                f"{_relative(file, root)}; not mutated"
            )
            per_case[case.id] = []
            continue
        node, qual = found[0]
        path = _relative(file, root)
        oracle_target = Target(path, file, qual, code.co_name, code.co_firstlineno, helper=False)
        live[oracle_target] = fn
        chosen = [oracle_target]
        # Helpers only oracles call: module-level functions of a scenario module every load of
        # whose name lies inside an oracle or another such helper (a fixpoint).
        module = sys.modules.get(fn.__module__)
        if Path(file).resolve().parent == scenarios_dir:
            chosen += _helpers(tree, node, file, path, module, live, scenario)
        per_case[case.id] = chosen
    return per_case, live, notes


def _helpers(
    tree: ast.Module,
    oracle: ast.AST,
    file: str,
    path: str,
    module: types.ModuleType | None,
    live: dict[Target, types.FunctionType],
    scenario: Scenario,
) -> list[Target]:
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    refs = _references(tree)
    # Every oracle node of this module, so a helper shared by two oracles of the scenario counts.
    inside: set[int] = {id(oracle)}
    for case in scenario.cases:
        fn = _unwrap(case.oracle)
        code = getattr(fn, "__code__", None)
        if code is not None and code.co_filename == file:
            inside.update(id(n) for n, _ in _find(tree, code.co_name, code.co_firstlineno))
    members: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, node in defs.items():
            if name in members or id(node) in inside:
                continue
            chains = refs.get(name, [])
            if chains and all(any(id(f) in inside or f is node for f in chain) for chain in chains):
                members.add(name)
                inside.add(id(node))
                changed = True
    # Only the helpers this oracle reaches outside detail formatting: a helper called only
    # inside f-strings or a verdict's detail (``_label``, ``_n``) makes text, not outcomes.
    reached: list[str] = []
    queue = deque([oracle])
    seen = {id(oracle)}
    while queue:
        current = queue.popleft()
        for name in sorted(_Sites(current, tree).live_loads()):
            if name in members and id(defs[name]) not in seen:
                seen.add(id(defs[name]))
                reached.append(name)
                queue.append(defs[name])
    result = []
    for name in sorted(reached, key=lambda n: defs[n].lineno):
        fn = _unwrap(getattr(module, name, None)) if module is not None else None
        node = defs[name]
        if not isinstance(fn, types.FunctionType) or fn.__code__.co_firstlineno != _first_line(node):
            continue
        target = Target(path, file, name, name, _first_line(node), helper=True)
        live[target] = fn
        result.append(target)
    return result


# --- mutation sites --------------------------------------------------------------------------


@dataclass
class _Site:
    kind: str
    node: Any  # the ast node the operator changes
    extra: Any = None


class _Sites:
    """The mutation sites of one function body, in a fixed order (breadth first)."""

    def __init__(self, fn: Any, tree: ast.Module):
        self.members, self.modules = _outcome_names(tree)
        self.makers = _text_makers(tree)
        self.fn = fn
        self.shadowed = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        # Text variables: locals every load of which is in detail formatting, or in the
        # assignment of another text variable (``how``, ``where``, ``figures``). Their
        # assignments only make the detail, so they hold no mutation site. The largest such
        # set: start from every assigned local and drop those loaded where an outcome is decided.
        self.text_vars = {
            t.id
            for n in ast.walk(fn)
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
            for t in _assigned(n)
            if isinstance(t, ast.Name)
        }
        while True:
            live = self.live_loads()
            if not (self.text_vars & live):
                break
            self.text_vars -= live

    def _helper_name(self, func: ast.AST) -> str | None:
        """The harness.runtime.outcomes member a call's function names, if it does."""
        if isinstance(func, ast.Name) and func.id in self.members and func.id not in self.shadowed:
            return self.members[func.id]
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self.modules:
            return func.attr
        return None

    def _text_statement(self, node: ast.AST) -> bool:
        """An assignment to text variables only, or a method call on one (``reached.append(...)``)."""
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = _assigned(node)
            return bool(targets) and all(isinstance(t, ast.Name) and t.id in self.text_vars for t in targets)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            return (
                isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self.text_vars
            )
        if isinstance(node, ast.If):  # if any(...): how += " and re-executed the children"
            return all(self._text_statement(n) for n in [*node.body, *node.orelse])
        return False

    def _detail(self, node: ast.AST) -> bool:
        """A node that only makes detail text: it and everything in it hold no site."""
        # An f-string, _label(key), "a" + "b"; not "refused" if ... else "failed" on its own: which
        # word is chosen may decide an outcome (where it only makes a detail, the text-variable
        # rule or the f-string around it leaves it out).
        if (_is_text(node, self.makers) and not isinstance(node, ast.IfExp)) or self._text_statement(node):
            return True
        # ", ".join(outputs) or "none"
        return isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and _is_text(node.values[-1], self.makers)

    def _inner(self, node: ast.AST) -> list[ast.AST]:
        """Child nodes that can change an outcome (a verdict's detail argument left out)."""
        if isinstance(node, ast.Call):
            helper = self._helper_name(node.func)
            if helper in DETAIL_HELPERS:
                return [node.func]
            if helper == "Verdict":
                kept: list[ast.AST] = [node.func, *node.args[:1]]
                return kept + [k.value for k in node.keywords if k.arg == "outcome"]
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr in ("format", "join")
                and isinstance(node.func.value, ast.Constant)
                and isinstance(node.func.value.value, str)
            ):
                return []  # "...".format(...) and ", ".join(...): text only
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
        ):
            return []  # "%d items" % n
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return [*node.decorator_list, *node.args.defaults, *[d for d in node.args.kw_defaults if d], *node.body]
        if isinstance(node, ast.Lambda):
            return [*node.args.defaults, *[d for d in node.args.kw_defaults if d], node.body]
        if isinstance(node, ast.arguments):
            return []
        if isinstance(node, ast.AnnAssign):
            return [node.value] if node.value is not None else []
        return list(ast.iter_child_nodes(node))

    def _walk(self) -> Iterator[ast.AST]:
        """The body's nodes, breadth first, detail formatting left out (but never an operand of a
        comparison: text compared with something decides an outcome)."""
        body = self.fn.body if isinstance(self.fn.body, list) else [self.fn.body]
        queue: deque[tuple[ast.AST, bool]] = deque((node, False) for node in body)
        while queue:
            node, compared = queue.popleft()
            if not compared and self._detail(node):
                continue
            yield node
            queue.extend((child, isinstance(node, ast.Compare)) for child in self._inner(node))

    def sites(self) -> list[_Site]:
        return [site for node in self._walk() for site in self._at(node)]

    def live_loads(self) -> set[str]:
        """Names the body loads where they can change an outcome."""
        return {n.id for n in self._walk() if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}

    def _at(self, node: ast.AST) -> list[_Site]:
        if isinstance(node, ast.Compare):
            return [_Site("compare", node, j) for j, op in enumerate(node.ops) if type(op) in FLIPS]
        if isinstance(node, ast.BoolOp):
            return [_Site("boolop", node)]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return [_Site("not", node)]
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return [_Site("constant", node, +1), _Site("constant", node, -1)]
        if (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and node.id not in self.shadowed
            and self.members.get(node.id) in VERDICT_SWAP
            and VERDICT_SWAP[self.members[node.id]] in self.members.values()
        ):
            return [_Site("verdict", node)]  # only when the other helper is imported too
        if (
            isinstance(node, ast.Attribute)
            and node.attr in VERDICT_SWAP
            and isinstance(node.value, ast.Name)
            and node.value.id in self.modules
        ):
            return [_Site("verdict", node)]
        if isinstance(node, (ast.If, ast.IfExp)):
            test = node.test
            repeats = (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)) or (
                isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
            )
            return [] if repeats else [_Site("if", node)]
        return []


TEXT_BUILTINS = {"str", "repr", "ascii", "format"}


def _is_text(node: ast.AST, makers: frozenset[str] = frozenset()) -> bool:
    """Text: a string literal that is not an outcome word, an f-string, a concatenation or
    ``%``-format of them, ``"...".join(...)``/``.format(...)``, or a call of a function in
    ``makers`` (str, repr, harness.timeline.quote, a helper of the module that returns only text)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value not in OUTCOMES
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_text(node.left, makers) and _is_text(node.right, makers)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _is_text(node.left, makers)
    if isinstance(node, ast.IfExp):
        return _is_text(node.body, makers) and _is_text(node.orelse, makers)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in makers
        return (
            isinstance(func, ast.Attribute)
            and func.attr in ("join", "format")
            and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)
        )
    return False


def _text_makers(tree: ast.Module) -> frozenset[str]:
    """Names whose call gives text: the builtins, harness.runtime.timeline's quote, and the module's
    functions every ``return`` of which gives text (``_label``, ``_n``), found to a fixpoint."""
    makers = set(TEXT_BUILTINS)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "harness.runtime.timeline":
            makers.update(a.asname or a.name for a in node.names if a.name == "quote")
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]

    def returns(fn: Any) -> list[ast.Return]:
        found: list[ast.Return] = []
        queue = deque(fn.body)
        while queue:
            node = queue.popleft()
            if isinstance(node, ast.Return):
                found.append(node)
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                queue.extend(ast.iter_child_nodes(node))
        return found

    changed = True
    while changed:
        changed = False
        frozen = frozenset(makers)
        for fn in defs:
            if fn.name in makers:
                continue
            found = returns(fn)
            # Formatting, not categories: a helper that returns only literals ("accepted",
            # "refused") gives words an oracle compares, so it is not text.
            if (
                found
                and all(r.value is not None and _is_text(r.value, frozen) for r in found)
                and any(_formats(r.value, frozen) for r in found if r.value is not None)
            ):
                makers.add(fn.name)
                changed = True
    return frozenset(makers)


def _formats(node: ast.AST, makers: frozenset[str]) -> bool:
    """Text that formats a value (an f-string, quote(x), "...".join(...), "%d" % n), not only literals."""
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Call) and _is_text(node, makers)):
        return True
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Mod) or _formats(node.left, makers) or _formats(node.right, makers)
    if isinstance(node, ast.IfExp):  # what is chosen, not the test that chooses it
        return _formats(node.body, makers) or _formats(node.orelse, makers)
    return False


def _assigned(node: Any) -> list[ast.AST]:
    """The names an assignment statement binds (tuple targets unpacked)."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    out: list[ast.AST] = []
    for t in targets:
        out += t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]
    return out


def _parents(root: ast.AST) -> dict[int, tuple[Any, str, int | None]]:
    out: dict[int, tuple[Any, str, int | None]] = {}
    for parent in ast.walk(root):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        out[id(item)] = (parent, name, i)
            elif isinstance(value, ast.AST):
                out[id(value)] = (parent, name, None)
    return out


def _unparse(node: ast.AST) -> str:
    return " ".join(ast.unparse(node).split())


def _apply(site: _Site, sites: _Sites, parents: dict[int, tuple[Any, str, int | None]]) -> tuple[str, str]:
    """Mutate the (copied) tree at ``site``; return the text before and after."""
    node = site.node
    if site.kind == "compare":
        before = _unparse(node)
        node.ops[site.extra] = FLIPS[type(node.ops[site.extra])]()
        return before, _unparse(node)
    if site.kind == "boolop":
        before = _unparse(node)
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return before, _unparse(node)
    if site.kind == "not":
        parent, name, index = parents[id(node)]
        before = _unparse(node)
        operand = node.operand
        if index is None:
            setattr(parent, name, operand)
        else:
            getattr(parent, name)[index] = operand
        return before, _unparse(operand)
    if site.kind == "constant":
        parent = parents[id(node)][0]
        if isinstance(parent, ast.keyword):  # enumerate(x, start=1): show the call
            parent = parents[id(parent)][0]
        simple = (ast.expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)
        context = parent if isinstance(parent, simple) else node
        before = _unparse(context)
        node.value = node.value + site.extra
        return before, _unparse(context)
    if site.kind == "verdict":
        parent = parents[id(node)][0]
        context = parent if isinstance(parent, ast.Call) and parent.func is node else node
        before = _unparse(context)
        if isinstance(node, ast.Name):
            swapped = VERDICT_SWAP[sites.members[node.id]]
            node.id = next(k for k, v in sites.members.items() if v == swapped)
        else:
            node.attr = VERDICT_SWAP[node.attr]
        return before, _unparse(context)
    if site.kind == "if":
        before = "if " + _unparse(node.test)
        node.test = ast.copy_location(ast.UnaryOp(ast.Not(), node.test), node.test)
        return before, "if " + _unparse(node.test)
    raise ValueError(site.kind)


def _code_in(code: types.CodeType, name: str, firstlineno: int) -> types.CodeType | None:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name and const.co_firstlineno == firstlineno:
                return const
            found = _code_in(const, name, firstlineno)
            if found is not None:
                return found
    return None


def plan(scenario: Scenario, root: Path = PROJECT_ROOT, scenarios_dir: Path | None = None) -> Plan:
    """Every mutant of ``scenario``'s oracle functions, with its compiled code."""
    per_case, live, notes = targets(scenario, root, scenarios_dir)
    cases_of: dict[Target, list[str]] = {}
    for case_id, chosen in per_case.items():
        for target in chosen:
            cases_of.setdefault(target, []).append(case_id)
    mutants: list[Mutant] = []
    codes: dict[str, types.CodeType] = {}
    functions: dict[tuple[str, str, int], types.FunctionType] = {}
    seen: dict[tuple[str, str], int] = {}
    for target in sorted(cases_of, key=lambda t: (t.path, t.firstlineno, t.qualname)):
        tree = _tree(target.file)
        node = _find(tree, target.name, target.firstlineno)[0][0]
        count = len(_Sites(node, tree).sites())
        functions[(target.path, target.qualname, target.firstlineno)] = live[target]
        # Compile only the module's top-level statement that holds the function (with the
        # module's __future__ imports): the same code object, at a fraction of the cost.
        top = next(stmt for stmt in tree.body if any(n is node for n in ast.walk(stmt)))
        future = [stmt for stmt in tree.body if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"]
        for index in range(count):
            stmt = copy.deepcopy(top)
            mutated = ast.Module(body=[*future, stmt], type_ignores=[])
            fn = _find(ast.Module(body=[stmt], type_ignores=[]), target.name, target.firstlineno)[0][0]
            sites = _Sites(fn, tree)
            site = sites.sites()[index]
            line = getattr(site.node, "lineno", _first_line(fn))
            before, after = _apply(site, sites, _parents(fn))
            try:
                module_code = compile(ast.fix_missing_locations(mutated), target.file, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as exc:
                notes.append(f"{target.qualname} site {index} ({site.kind} on line {line}) does not compile: {exc}")
                continue
            code = _code_in(module_code, target.name, target.firstlineno)
            if code is None or len(code.co_freevars) != len(live[target].__code__.co_freevars):
                notes.append(f"{target.qualname} site {index} ({site.kind} on line {line}): no usable code object")
                continue
            text = (target.qualname, f"{site.kind}: {before} -> {after}")
            seen[text] = seen.get(text, 0) + 1
            mutant = Mutant(
                scenario.id,
                target.path,
                target.qualname,
                index,
                line,
                site.kind,
                before,
                after,
                seen[text],
                tuple(cases_of[target]),
                target.firstlineno,
            )
            mutants.append(mutant)
            codes[mutant.key] = code
    return Plan(scenario, mutants, codes, functions, notes)


# --- judging an observation under each mutant (runs wherever the proof runs) ----------------


class _Overran(BaseException):
    """A mutant's oracle ran past its deadline (a BaseException, so ``except Exception`` in it cannot swallow it)."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def overrun(signum, frame):
        raise _Overran()

    previous = signal.signal(signal.SIGALRM, overrun)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _copy(obs):
    try:
        return copy.deepcopy(obs)
    except Exception:  # an Observation holding something that cannot be copied: judge it as is
        return obs


def judge_with(
    oracle: Callable[[Observation], Any], obs: Observation, timeout: float = MUTANT_TIMEOUT
) -> tuple[str, str]:
    """What ``oracle`` says of a copy of ``obs``: (outcome, detail); failures are ``error``."""
    try:
        with _deadline(timeout):
            verdict = oracle(_copy(obs))
    except _Overran:
        return ERROR, f"the oracle did not return within {timeout:g}s"
    except Exception as exc:
        return ERROR, "oracle failed: " + error_detail(exc)
    if not isinstance(verdict, Verdict):
        return ERROR, f"oracle returned {type(verdict).__name__}, expected Verdict"
    return verdict.outcome, verdict.detail


@contextlib.contextmanager
def applied(function: types.FunctionType, code: types.CodeType) -> Iterator[None]:
    """``function`` runs ``code`` inside the block."""
    saved = function.__code__
    function.__code__ = code
    try:
        yield
    finally:
        function.__code__ = saved


def judging_case(case: Case, the_plan: Plan, sink: dict[str, tuple[str, str]], timeout: float = MUTANT_TIMEOUT) -> Case:
    """``case`` whose oracle first has every mutant that changes it judge the observation (into ``sink``)."""
    mine = [m for m in the_plan.mutants if case.id in m.cases]

    def oracle(obs):
        for m in mine:
            with applied(the_plan.functions[m.target], the_plan.codes[m.key]):
                sink[m.key] = judge_with(case.oracle, obs, timeout)
        return case.oracle(obs)

    return dataclasses.replace(case, oracle=oracle)


# --- the worker: runs a scenario's proofs of one build with every mutant ----------------------


def _worker(spec_file: str) -> int:
    spec = json.loads(Path(spec_file).read_text())
    out = sys.stdout
    sys.stdout = sys.stderr  # what a framework prints must not corrupt the protocol

    def emit(record: dict) -> None:
        out.write(json.dumps(record, sort_keys=True) + "\n")
        out.flush()

    root = Path(spec["root"])
    try:
        scenarios = registry.discover(Path(spec["scenarios_dir"]))
        scenario = scenarios[spec["scenario"]]
        # No mutants: a proof (an edge on a Release) run for the proof test, unmutated.
        the_plan = (
            Plan(scenario, [], {}, {}) if spec["mutants"] is None else plan(scenario, root, Path(spec["scenarios_dir"]))
        )
    except Exception as exc:
        emit({"error": "could not load the scenario: " + error_detail(exc)})
        return 0
    mine = {m.key: m.mutation for m in the_plan.mutants}
    if spec["mutants"] is not None and mine != dict(spec["mutants"]):
        emit(
            {
                "error": f"this environment enumerates other mutants ({len(mine)}) than the coordinator "
                f"({len(spec['mutants'])}): is it the same source and Python?"
            }
        )
        return 0
    from harness.execution import proofs

    for case_id, proof in spec["proofs"]:
        case = scenario.case(case_id)
        sink: dict[str, tuple[str, str]] = {}
        build: Build
        if proof.startswith("edge-"):
            edge = case.edges[int(proof.removeprefix("edge-")) - 1]
            outcome, build, judged = edge.outcome, edge.build, proofs.edge_case(case, edge)
        else:
            outcome, build, judged = proof, case.proofs[proof], case
        judging = judging_case(judged, the_plan, sink, spec["mutant_timeout"])
        if spec["release"]:  # this environment is the build
            result = run_case(scenario, judging, timeout=spec["timeout"])
        else:
            result = proofs.run_build(scenario, judging, build, outcome, root=root, timeout=spec["timeout"]).result
        emit(
            {
                "case": case_id,
                "proof": proof,
                "outcome": outcome,
                "got": result.outcome,
                "detail": result.detail,
                "mutants": {k: list(v) for k, v in sorted(sink.items())},
            }
        )
    return 0


# --- the coordinator -------------------------------------------------------------------------


@dataclass
class ProofResult:
    """One proof (or edge) of one case, run once, with what each mutant said there."""

    case: str
    proof: str  # the proof's key in Case.proofs, or edge-N for the case's N-th edge
    outcome: str  # what it must say
    build: str  # in process / the release spec
    got: str
    detail: str
    mutants: dict[str, tuple[str, str]]

    @property
    def name(self) -> str:
        """``basic's fixed proof``, ``basic's edge 2 (unexpected)``."""
        if self.proof.startswith("edge-"):
            return f"{self.case}'s edge {self.proof.removeprefix('edge-')} ({self.outcome})"
        return f"{self.case}'s {self.proof} proof"


@dataclass
class _Task:
    scenario: Scenario
    release: str | None  # the Release spec; None: in-process proofs
    proofs: list[tuple[str, str]]


@dataclass
class Equivalent:
    scenario: str
    function: str
    mutation: str
    occurrence: int
    reason: str
    matched: bool = False


def load_equivalents(path: Path) -> list[Equivalent]:
    """The entries of ``mutants-equivalent.toml``; MutantsError (one line) when malformed."""
    import tomllib

    if not path.exists():
        return []
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise MutantsError(f"{path.name}: not valid TOML: {exc}") from None
    entries = data.get("mutant", [])
    unknown = set(data) - {"mutant"}
    if unknown or not isinstance(entries, list):
        raise MutantsError(
            f"{path.name}: only [[mutant]] tables are allowed, found {', '.join(sorted(unknown)) or 'mutant'}"
        )
    out = []
    for n, entry in enumerate(entries, 1):
        need = {"scenario": str, "function": str, "mutation": str, "reason": str}
        bad = [k for k, t in need.items() if not isinstance(entry.get(k), t) or not entry.get(k).strip()]
        extra = set(entry) - set(need) - {"occurrence"}
        occurrence = entry.get("occurrence", 1)
        if bad or extra or not isinstance(occurrence, int) or occurrence < 1:
            what = (
                f"missing or empty {', '.join(bad)}"
                if bad
                else f"unknown keys {', '.join(sorted(extra))}"
                if extra
                else "occurrence must be a whole number >= 1"
            )
            raise MutantsError(
                f"{path.name}: [[mutant]] number {n}: {what}; valid keys: scenario, function, "
                "mutation, reason (and occurrence)"
            )
        out.append(Equivalent(entry["scenario"], entry["function"], entry["mutation"], occurrence, entry["reason"]))
    return out


@dataclass
class ScenarioOutcome:
    plan: Plan
    proofs: list[ProofResult]
    killed: dict[str, ProofResult]  # mutant key -> the first proof that killed it
    survived: list[Mutant]
    equivalent: list[tuple[Mutant, Equivalent]]
    problems: list[str]  # proofs that failed unmutated, workers that failed, false equivalents


def _tasks(scenario: Scenario) -> list[_Task]:
    """The runs a scenario's proofs and edges need: one in process, one per Release named."""
    inproc = _Task(scenario, None, [])
    releases: dict[str, _Task] = {}
    for case in scenario.cases:
        builds: list[tuple[str, Build]] = list(case.proofs.items())
        builds += [(f"edge-{n}", edge.build) for n, edge in enumerate(case.edges, 1)]
        for proof, build in builds:
            if isinstance(build, Release):
                releases.setdefault(build.spec, _Task(scenario, build.spec, [])).proofs.append((case.id, proof))
            else:
                inproc.proofs.append((case.id, proof))
    return ([inproc] if inproc.proofs else []) + [releases[k] for k in sorted(releases)]


def run_in_release(
    scenario: Scenario,
    case: Case,
    proof: str,
    release: Release,
    *,
    root: Path = PROJECT_ROOT,
    timeout: float = DEFAULT_TIMEOUT,
) -> ProofRun:
    """One proof or edge (``edge-N``) of ``case`` in ``release``'s matrix environment, unmutated
    (for the proof test: harness/execution/proofs.py)."""
    from harness.execution.proofs import ProofRun
    from harness.runtime.runner import CaseResult

    task = _Task(scenario, release.spec, [(case.id, proof)])
    # The folder the scenario was loaded from (scenarios/, or another in the harness's tests).
    code = getattr(_unwrap(case.run), "__code__", None)
    folder = Path(code.co_filename).parent if code is not None else registry.SCENARIOS_DIR
    results, problems = _run_task(task, None, root, folder, timeout, MUTANT_TIMEOUT)
    where = f"{release.framework} {release.version} (its matrix environment)"
    if results:
        r = results[0]
        return ProofRun(CaseResult(scenario.id, case.id, r.got, r.detail, ""), release, where)
    return ProofRun(CaseResult(scenario.id, case.id, ERROR, "; ".join(problems), ""), release, where)


def _run_task(
    task: _Task, the_plan: Plan | None, root: Path, scenarios_dir: Path, timeout: float, mutant_timeout: float
) -> tuple[list[ProofResult], list[str]]:
    where = task.release or "in process"
    problems: list[str] = []
    if task.release:
        from harness.execution import environments
        from harness.planning import builds

        cache_dir = Project(root).cache
        try:
            build = builds.parse(task.release, cache_dir)
            python = environments.ensure(build, Project(root).builds, cache_dir).python
        except Exception as exc:  # an install failure is this task's answer, not a crash
            return [], [f"{task.scenario.id}: {task.release}: environment failed: {error_detail(exc, 1)}"]
    else:
        python = Path(sys.executable)
    from harness.execution import environments, isolation

    spec = {
        "root": str(root),
        "scenarios_dir": str(scenarios_dir),
        "scenario": task.scenario.id,
        "proofs": task.proofs,
        "release": bool(task.release),
        "timeout": timeout,
        "mutant_timeout": mutant_timeout,
        "mutants": None if the_plan is None else [[m.key, m.mutation] for m in the_plan.mutants],
    }
    count = 0 if the_plan is None else len(the_plan.mutants)
    budget = IMPORT_GRACE + len(task.proofs) * (timeout + CASE_SLACK + count * mutant_timeout)
    with tempfile.TemporaryDirectory() as tmp:
        spec_file = Path(tmp) / "spec.json"
        spec_file.write_text(json.dumps(spec))
        cmd = isolation.wrap([str(python), "-m", "harness.commands.mutants", "worker", str(spec_file)])
        try:
            proc = subprocess.run(
                cmd, capture_output=True, text=True, cwd=root, env=environments.worker_environment(root), timeout=budget
            )
            stdout, rc, stderr = proc.stdout, proc.returncode, proc.stderr
        except subprocess.TimeoutExpired as exc:
            partial: Any = exc.stdout  # str, or bytes on some Pythons despite text=True
            stdout = partial.decode() if isinstance(partial, bytes) else (partial or "")
            rc, stderr = None, f"worker killed after {budget:g}s"
    results: list[ProofResult] = []
    for line in stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if "error" in record:
            problems.append(f"{task.scenario.id}: {where}: {record['error']}")
            continue
        results.append(
            ProofResult(
                record["case"],
                record["proof"],
                record["outcome"],
                where,
                record["got"],
                record["detail"],
                {k: tuple(v) for k, v in record["mutants"].items()},
            )
        )
    done = {(r.case, r.proof) for r in results}
    missing = [f"{c}:{o}" for c, o in task.proofs if (c, o) not in done]
    if missing and not problems:
        tail = " | ".join(line.strip() for line in (stderr or "").strip().splitlines()[-3:] if line.strip())
        problems.append(
            f"{task.scenario.id}: {where}: no result for {', '.join(missing)} (worker exit {rc}): {tail or 'no output'}"
        )
    return results, problems


def judge_scenario(
    the_plan: Plan, proofs: list[ProofResult], problems: list[str], equivalents: list[Equivalent]
) -> ScenarioOutcome:
    scenario = the_plan.scenario
    problems = list(problems)
    valid: list[ProofResult] = []
    for p in proofs:
        if p.got == p.outcome:
            valid.append(p)
        else:
            problems.append(
                f"{scenario.id}: {p.name} ({p.build}) does not say {p.outcome} unmutated: "
                f"{p.got}: {p.detail}; mutants are not judged there"
            )
    killed: dict[str, ProofResult] = {}
    for m in the_plan.mutants:
        for p in valid:
            said = p.mutants.get(m.key)
            if p.case in m.cases and said is not None and said[0] != p.outcome:
                killed[m.key] = p
                break
    survived, equivalent = [], []
    for m in the_plan.mutants:
        entry = next(
            (
                e
                for e in equivalents
                if e.scenario == scenario.id
                and e.function == m.function
                and e.mutation == m.mutation
                and e.occurrence == m.occurrence
            ),
            None,
        )
        if entry is not None:
            entry.matched = True
            if m.key in killed:
                p = killed[m.key]
                problems.append(
                    f"{EQUIVALENTS_FILE} says {scenario.id} {m.function} '{m.mutation}' is equivalent, "
                    f"but {p.name} ({p.build}) kills it: "
                    f"{p.mutants[m.key][0]}: {p.mutants[m.key][1]}"
                )
            else:
                equivalent.append((m, entry))
        elif m.key not in killed:
            survived.append(m)
    return ScenarioOutcome(the_plan, proofs, killed, survived, equivalent, problems)


def _changed_detail(m: Mutant, outcome: ScenarioOutcome) -> str:
    for p in outcome.proofs:
        said = p.mutants.get(m.key)
        if said is not None and p.got == p.outcome and said[1] != p.detail:
            return f" (only the detail changes, on {p.name})"
    return ""


def run(
    ids: list[str],
    *,
    jobs: int = 2,
    timeout: float = DEFAULT_TIMEOUT,
    root: Path = PROJECT_ROOT,
    scenarios_dir: Path | None = None,
    equivalents_file: Path | None = None,
    list_only: bool = False,
    mutant_timeout: float = MUTANT_TIMEOUT,
    out: TextIO | None = None,
) -> int:
    """Mutate the oracles of the scenarios named (all when none), judge each mutant by the proofs.

    Exit status: 0 when every mutant is killed or listed as equivalent, 1 otherwise (or when a
    proof fails unmutated), 2 for bad input (raised: registry.UnknownId, MutantsError).
    """
    out = out or sys.stdout
    scenarios_dir = scenarios_dir or root / "scenarios"
    equivalents_file = equivalents_file or root / EQUIVALENTS_FILE
    scenarios = registry.discover(scenarios_dir)
    chosen_ids: list[str] = []
    for selector in ids:
        for sid in (s for s in selector.split(",") if s):
            if sid not in scenarios:
                raise registry.UnknownId(f"unknown scenario {sid!r}; valid: {', '.join(sorted(scenarios))}")
            if sid not in chosen_ids:
                chosen_ids.append(sid)
    chosen = [scenarios[s] for s in (chosen_ids or sorted(scenarios))]
    equivalents = load_equivalents(equivalents_file)

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    plans = {s.id: plan(s, root, scenarios_dir) for s in chosen}
    if list_only:
        for s in chosen:
            for m in plans[s.id].mutants:
                say(
                    f"{s.id}  {m.where()}  {m.mutation}"
                    + (f"  (occurrence {m.occurrence})" if m.occurrence > 1 else "")
                )
            for note in plans[s.id].notes:
                say(f"{s.id}  note: {note}")
        return 0

    tasks = [t for s in chosen for t in _tasks(s)]
    say(
        f"mutants: {sum(len(p.mutants) for p in plans.values())} mutants of the oracles of {len(chosen)} scenarios; "
        f"{len(tasks)} proof runs ({sum(len(t.proofs) for t in tasks)} proofs), {jobs} at a time"
    )
    results: dict[str, list[ProofResult]] = {s.id: [] for s in chosen}
    problems: dict[str, list[str]] = {s.id: [] for s in chosen}
    lock = threading.Lock()
    counter = [0]

    def one(task: _Task) -> None:
        start = time.monotonic()
        got, trouble = _run_task(task, plans[task.scenario.id], root, scenarios_dir, timeout, mutant_timeout)
        with lock:
            counter[0] += 1
            results[task.scenario.id] += got
            problems[task.scenario.id] += trouble
            held = sum(r.got == r.outcome for r in got)
            cases = {c for c, _ in task.proofs}
            judged = sum(1 for m in plans[task.scenario.id].mutants if cases & set(m.cases))
            say(
                f"[{counter[0]}/{len(tasks)}] {task.scenario.id}: {task.release or 'in-process proofs'}: "
                f"{held}/{len(task.proofs)} proofs held unmutated, {judged} mutants judged "
                f"({time.monotonic() - start:.1f}s)" + ("; " + "; ".join(trouble) if trouble else "")
            )

    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            one(task)
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            list(pool.map(one, tasks))

    outcomes = [judge_scenario(plans[s.id], results[s.id], problems[s.id], equivalents) for s in chosen]
    status = 0
    for o in outcomes:
        for m in o.survived:
            say(
                f"SURVIVED {o.plan.scenario.id}  {m.where()}  {m.mutation}"
                + (f"  (occurrence {m.occurrence})" if m.occurrence > 1 else "")
                + _changed_detail(m, o)
            )
        for note in o.plan.notes:
            say(f"note {o.plan.scenario.id}: {note}")
        for problem in o.problems:
            say(f"PROBLEM {problem}")
        status |= bool(o.survived or o.problems)
    ran = {s.id for s in chosen}
    for e in equivalents:
        if e.scenario in ran and not e.matched:
            say(
                f"PROBLEM {EQUIVALENTS_FILE}: no mutant of {e.scenario} {e.function} is '{e.mutation}'"
                + (f" (occurrence {e.occurrence})" if e.occurrence > 1 else "")
                + ": remove or update the entry"
            )
            status = 1
    say("")
    say(_table(outcomes))
    if status:
        say(
            "a survivor is a missing proof: add a proof that kills it, or list it in "
            f"{EQUIVALENTS_FILE} with the reason it cannot change a verdict"
        )
    return status


def _table(outcomes: list[ScenarioOutcome]) -> str:
    header = ["scenario", "mutants", "killed", "survived", "equivalent"]
    rows = [
        [o.plan.scenario.id, *map(str, (len(o.plan.mutants), len(o.killed), len(o.survived), len(o.equivalent)))]
        for o in outcomes
    ]
    rows.append(["total", *(str(sum(int(r[i]) for r in rows)) for i in range(1, 5))])
    width = max(len(r[0]) for r in [header, *rows])
    return "\n".join(f"{r[0]:<{width}}  " + "  ".join(f"{v:>10}" for v in r[1:]) for r in [header, *rows])


def main(argv: list[str] | None = None) -> int:
    """``python -m harness.commands.mutants worker SPEC``: the worker side (users run ``python -m harness mutants``)."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 2 and argv[0] == "worker":
        return _worker(argv[1])
    print(
        "usage: python -m harness.commands.mutants worker SPEC_JSON (run mutants with `python -m harness mutants`)",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())


# --- the command ---------------------------------------------------------------------------

HELP = "mutate the oracles and run the proofs against each mutant (nox -s mutants)"


def setup(parser: argparse.ArgumentParser) -> None:
    from harness.commands import flags

    parser.add_argument("ids", nargs="*", metavar="ID", help="only these scenarios (default: all); commas allowed")
    parser.add_argument("--jobs", type=flags.proof_jobs, default=2, help="proof runs in parallel, >= 1 (default 2)")
    flags.add_timeout(parser)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")


def run_command(args: argparse.Namespace) -> int:
    return run(args.ids, jobs=args.jobs, timeout=args.timeout, list_only=args.list)
