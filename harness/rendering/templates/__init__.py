"""Templates as real files, read by ruff and mypy like any module: ``bundle.py`` (the body of
``python -m harness export --bundle``) and one new scenario per framework (``python -m harness
new``). Their ``__UPPER__`` words are replaced when a file is written from them."""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).parent


def read(name: str) -> str:
    """A template's text."""
    return (FOLDER / name).read_text(encoding="utf-8")
