"""Templates as real files, read by ruff like any module: a new bug's reproduction script per
framework and its declaration (``python -m harness new``), and the database helper of the google-adk
scripts on a database (database_google_adk.py). Their ``__UPPER__`` words are replaced when a file is
written from them."""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).parent


def read(name: str) -> str:
    """A template's text."""
    return (FOLDER / name).read_text(encoding="utf-8")
