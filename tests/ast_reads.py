"""What the source-reading checks look for: a value read by a constant key, ``x["key"]`` or
``x.get("key", ...)`` (tests/test_row_reads.py, tests/test_store_readers.py)."""

from __future__ import annotations

import ast


def key_read(node: ast.AST) -> tuple[ast.expr, object] | None:
    """(what is read, the constant key) when ``node`` reads a value by a constant key, else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.value, node.slice.value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ):
        return node.func.value, node.args[0].value
    return None
