"""The mutants of a scenario: each site of each target function mutated in a copy of its AST,
compiled to the code object that replaces the function's while the mutant is judged.

Runs on both sides of the build seam: the worker inside a framework's environment enumerates
the mutants again and checks it got the coordinator's list, so this is stdlib only.
"""

from __future__ import annotations

import ast
import copy
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.mutants.sites import FLIPS, VERDICT_SWAP, Site, Sites
from harness.mutants.targets import PROJECT_ROOT, Target, find_function, first_line, module_tree, targets
from harness.runtime.scenario import Scenario


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


def _apply(site: Site, sites: Sites, parents: dict[int, tuple[Any, str, int | None]]) -> tuple[str, str]:
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
        tree = module_tree(target.file)
        node = find_function(tree, target.name, target.firstlineno)[0][0]
        count = len(Sites(node, tree).sites())
        functions[(target.path, target.qualname, target.firstlineno)] = live[target]
        # Compile only the module's top-level statement that holds the function (with the
        # module's __future__ imports): the same code object, at a fraction of the cost.
        top = next(stmt for stmt in tree.body if any(n is node for n in ast.walk(stmt)))
        future = [stmt for stmt in tree.body if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"]
        for index in range(count):
            stmt = copy.deepcopy(top)
            mutated = ast.Module(body=[*future, stmt], type_ignores=[])
            fn = find_function(ast.Module(body=[stmt], type_ignores=[]), target.name, target.firstlineno)[0][0]
            sites = Sites(fn, tree)
            site = sites.sites()[index]
            line = getattr(site.node, "lineno", first_line(fn))
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
