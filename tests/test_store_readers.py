"""Issue 47, "no module outside store/ opens a record, bisect or boundaries file": reports/matrix.json
(and a run folder's or shard's results of its shape), reports/bisect.json and reports/boundaries/*.json
are each read and written by their owner in harness/store/ (record.py, bisect_record.py,
boundary_files.py), which every other module calls. Before: explain.py read and wrote the boundaries
file itself (outside the staging and the lock), boundary_evidence.py read it again, and summary.py,
candidate.py and the shard merge parsed the record's JSON each on their own."""

from __future__ import annotations

import ast
from pathlib import Path

from ast_reads import key_read

HARNESS = Path(__file__).resolve().parents[1] / "harness"

# What names the files in a path: their names, and the store's constants for them.
FILE_NAMES = ("matrix.json", "bisect.json", "boundaries")
FILE_CONSTANTS = ("RECORD_NAME", "BISECT_NAME")
# The top-level keys of those documents: a module that parses a file and reads one of these reads the record.
DOCUMENT_KEYS = {"results", "upgrades", "environments", "boundaries", "probes", "commits"}


def _read_of(call: ast.Call) -> ast.expr | None:
    """The path (or text) a call reads: ``X.read_text()``, ``X.read_bytes()``, ``X.open()``,
    ``open(X)``, ``json.load(X)`` or ``json.loads(X)``; None for any other call."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in ("read_text", "read_bytes", "open"):
        return func.value
    if isinstance(func, ast.Name) and func.id == "open" and call.args:
        return call.args[0]
    if _is_json_parse(call):
        return call.args[0]
    return None


def _is_json_parse(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("load", "loads")
        and isinstance(func.value, ast.Name)
        and func.value.id == "json"
        and bool(call.args)
    )


def _expanded(expr: ast.expr, names: dict[str, list[ast.expr]], depth: int = 4) -> str:
    """``expr``'s source with what its names stand for (a local assignment, a module constant, a
    function's return values) appended, ``depth`` levels down."""
    text = ast.unparse(expr)
    if depth == 0:
        return text
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id in names:
            text += " " + " ".join(_expanded(e, names, depth - 1) for e in names[node.id])
    return text


def _own(scope: ast.AST) -> list[ast.AST]:
    """The nodes of ``scope`` (a module or a function), not those of a function inside it."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _assigned(scope: ast.AST) -> dict[str, list[ast.expr]]:
    """Name -> the expressions assigned to it in ``scope`` itself."""
    out: dict[str, list[ast.expr]] = {}
    for node in _own(scope):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, []).append(node.value)
    return out


def opened_files(path: Path, root: Path) -> list[str]:
    """``module:line what`` of every read in ``path`` of a record, bisect or boundaries file: a read
    whose path is built from their names (through local assignments, module constants and the
    module's own functions), or a parse of a file whose document is then read by one of their keys."""
    tree = ast.parse(path.read_text(), str(path))
    module_names = _assigned(tree)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            returns = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
            module_names.setdefault(node.name, []).extend(returns)
    name = path.relative_to(root).as_posix()
    found = []
    scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]
    for scope in scopes:
        names = {**module_names, **_assigned(scope)}
        body = _own(scope)
        calls = [n for n in body if isinstance(n, ast.Call)]
        parses_a_file = False
        for call in calls:
            read = _read_of(call)
            if read is None:
                continue
            if _is_json_parse(call) and any(
                isinstance(n, ast.Call) and _read_of(n) is not None for n in ast.walk(read)
            ):
                parses_a_file = True
            if _is_json_parse(call) and isinstance(read, ast.Name):  # json.load(f): f is an open file
                parses_a_file = True
            text = _expanded(read, names)
            hit = next((f for f in (*FILE_NAMES, *FILE_CONSTANTS) if f in text), None)
            if hit is not None:
                found.append(f"{name}:{call.lineno} opens {hit}")
        if not parses_a_file:
            continue
        for node in body:
            found_read = key_read(node)
            if found_read is not None and found_read[1] in DOCUMENT_KEYS:
                key = found_read[1]
                found.append(f"{name}:{node.lineno} reads a parsed file's {key!r}")
    return sorted(set(found), key=lambda f: int(f.split(":")[1].split()[0]))


def outside_store(root: Path) -> list[Path]:
    return [p for p in sorted(root.rglob("*.py")) if p.relative_to(root).parts[0] != "store"]


def test_no_module_outside_the_store_opens_a_record_bisect_or_boundaries_file(tmp_path):
    """Every module outside harness/store/ reads those files through their owner; the check is shown
    to catch each way the modules of before read them."""
    assert {"execution/explain.py", "rendering/summary.py"} <= {
        p.relative_to(HARNESS).as_posix() for p in outside_store(HARNESS)
    }
    assert [f for p in outside_store(HARNESS) for f in opened_files(p, HARNESS)] == []
    # The owners themselves open them (the check sees a read where there is one).
    assert opened_files(HARNESS / "store" / "boundary_files.py", HARNESS)
    seeded = tmp_path / "seeded.py"
    seeded.write_text(
        "import json\n"
        'FOLDER = "boundaries"\n'
        "def path_of(root, i):\n"
        "    return root / FOLDER / f'{i}.json'\n"
        "def explained(root, i):\n"
        "    return json.loads(path_of(root, i).read_text())\n"
        "def step(out):\n"
        '    return json.loads((out / "matrix.json").read_text())\n'
        "def summary(paths):\n"
        "    for path in paths:\n"
        "        document = json.loads(path.read_text())\n"
        '        yield document.get("results")\n'
        "def bisects(reports, record):\n"
        "    with open(reports / record.BISECT_NAME) as f:\n"
        "        return json.load(f)\n"
        "def other(path):\n"
        '    return json.loads(path.read_text())["packages"]\n'
    )
    # As explain.py (through its path_of), candidate.py, summary.py and a reader of bisect.json did;
    # a parse of another file read by its own keys is not one.
    assert opened_files(seeded, tmp_path) == [
        "seeded.py:6 opens boundaries",
        "seeded.py:8 opens matrix.json",
        "seeded.py:12 reads a parsed file's 'results'",
        "seeded.py:14 opens BISECT_NAME",
    ]
