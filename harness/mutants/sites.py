"""Where a function body is mutated: its sites in a fixed order (breadth first), the detail
formatting left out, and the operators (see harness/mutants/__init__.py for what is left alone).

Runs on both sides of the build seam: the coordinator and the worker inside a framework's
environment enumerate the same sites from the same source, so this is stdlib only.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from harness.runtime.outcomes import OUTCOMES

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


@dataclass
class Site:
    kind: str
    node: Any  # the ast node the operator changes
    extra: Any = None


class Sites:
    """The mutation sites of one function body, in a fixed order (breadth first)."""

    def __init__(self, fn: Any, tree: ast.Module):
        self.members, self.modules = _outcome_names(tree)
        self.makers = text_makers(tree)
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

    def sites(self) -> list[Site]:
        return [site for node in self._walk() for site in self._at(node)]

    def live_loads(self) -> set[str]:
        """Names the body loads where they can change an outcome."""
        return {n.id for n in self._walk() if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}

    def _at(self, node: ast.AST) -> list[Site]:
        if isinstance(node, ast.Compare):
            return [Site("compare", node, j) for j, op in enumerate(node.ops) if type(op) in FLIPS]
        if isinstance(node, ast.BoolOp):
            return [Site("boolop", node)]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return [Site("not", node)]
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return [Site("constant", node, +1), Site("constant", node, -1)]
        if (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)
            and node.id not in self.shadowed
            and self.members.get(node.id) in VERDICT_SWAP
            and VERDICT_SWAP[self.members[node.id]] in self.members.values()
        ):
            return [Site("verdict", node)]  # only when the other helper is imported too
        if (
            isinstance(node, ast.Attribute)
            and node.attr in VERDICT_SWAP
            and isinstance(node.value, ast.Name)
            and node.value.id in self.modules
        ):
            return [Site("verdict", node)]
        if isinstance(node, (ast.If, ast.IfExp)):
            test = node.test
            repeats = (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)) or (
                isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
            )
            return [] if repeats else [Site("if", node)]
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


def text_makers(tree: ast.Module) -> frozenset[str]:
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
