"""Which functions are mutated: a case's oracle (a bug script's ``judge``; through ``partial``, a
lambda or a closure as well) and the helpers of its script that only oracles call.

Runs on both sides of the build seam (the coordinator and the worker inside a framework's
environment), so this is stdlib only.
"""

from __future__ import annotations

import ast
import functools
import os
import sys
import types
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.mutants.sites import Sites
from harness.project import PROJECT
from harness.runtime.scenario import Scenario, unwrap

PROJECT_ROOT = PROJECT.root


@dataclass(frozen=True)
class Target:
    """A function whose body is mutated: an oracle, or a helper only oracles call."""

    path: str  # source file, relative to the project root where it is under it
    file: str  # absolute source file (what compile() is given)
    qualname: str
    name: str  # the code object's name (``<lambda>`` for a lambda)
    firstlineno: int  # the code object's first line (a decorator's, when decorated)
    helper: bool


def _relative(file: str, root: Path) -> str:
    try:
        return Path(file).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(file).name


@functools.lru_cache(maxsize=256)
def _parse(file: str, mtime: float) -> ast.Module:
    source = Path(file).read_text()
    return ast.parse(source, filename=file)


def module_tree(file: str) -> ast.Module:
    return _parse(file, os.stat(file).st_mtime)


def first_line(node: Any) -> int:
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


def find_function(tree: ast.AST, name: str, firstlineno: int) -> list[tuple[ast.AST, str]]:
    want = "<lambda>" if name == "<lambda>" else name
    return [(n, q) for n, q in _functions(tree) if (q.rsplit(".", 1)[-1] == want) and first_line(n) == firstlineno]


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
        fn = unwrap(case.oracle)
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
        tree = module_tree(file)
        found = find_function(tree, code.co_name, code.co_firstlineno)
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
        # Helpers only oracles call: module-level functions of the bug's script every load of
        # whose name lies inside an oracle or another such helper (a fixpoint).
        module = sys.modules.get(fn.__module__)
        # A bug's script (scenarios/<id>/repro.py), not a module of the harness.
        if scenarios_dir in Path(file).resolve().parents:
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
        fn = unwrap(case.oracle)
        code = getattr(fn, "__code__", None)
        if code is not None and code.co_filename == file:
            inside.update(id(n) for n, _ in find_function(tree, code.co_name, code.co_firstlineno))
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
        for name in sorted(Sites(current, tree).live_loads()):
            if name in members and id(defs[name]) not in seen:
                seen.add(id(defs[name]))
                reached.append(name)
                queue.append(defs[name])
    result = []
    for name in sorted(reached, key=lambda n: defs[n].lineno):
        fn = unwrap(getattr(module, name, None)) if module is not None else None
        node = defs[name]
        if not isinstance(fn, types.FunctionType) or fn.__code__.co_firstlineno != first_line(node):
            continue
        target = Target(path, file, name, name, first_line(node), helper=True)
        live[target] = fn
        result.append(target)
    return result
