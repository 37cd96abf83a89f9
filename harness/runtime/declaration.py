"""A bug's declaration (``scenarios/<id>/bug.py``): what only the harness needs beside the
reproduction script (``scenarios/<id>/repro.py``), which holds the bug itself.

The script is standalone (a maintainer runs it with ``uv run repro.py CASE``); the declaration
says where the bug is reported, what each case is for (a control, a non-regression check), on
which databases it runs, how a build that shows each verdict is obtained (its proofs), the
oracle's edges, and what the upstream thread claims. Release numbers live here only as proofs
and claims; what each release does is the record's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.runtime.scenario import SQLITE, AsInstalled, Build, Claim, Edge, Explanation, InProcess, Release

__all__ = ["AsInstalled", "Bug", "CaseRole", "Claim", "Edge", "Explanation", "InProcess", "Release"]


@dataclass(frozen=True)
class CaseRole:
    """One case of the script (a key of its ``CASES``): a summary for the reports, the builds
    that show it ``reproduced`` and ``fixed`` (its proofs), and its role.

    ``control``: behaviour that must hold on every release (its ``reproduced`` proof is an
    ``InProcess`` patch that breaks it). ``non_regression``: ``reproduced`` means a fix that went
    too far. ``edges`` alter the facts the script's ``observe`` returned (``obs.facts``) one step
    across a line of its ``judge``. ``per_backend`` overrides fields on one database.
    """

    summary: str
    reproduced: Build
    fixed: Build
    control: bool = False
    non_regression: bool = False
    edges: tuple[Edge, ...] = ()
    per_backend: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Bug:
    """The declaration of one bug; its id is its folder's name, its framework the id's prefix."""

    links: tuple[str, ...]
    description: str  # the bug, in a sentence or two
    expected: str  # the behaviour the bug report expects
    cases: Mapping[str, CaseRole]
    requires: tuple[str, ...] = ()
    # ("sqlite", "postgresql"): each case runs on both; the script's CASES then holds the
    # PostgreSQL variant as "<case>-postgresql", which finds its server through libpq's variables.
    backends: tuple[str, ...] = (SQLITE,)
    claims: Claim = field(default_factory=Claim)
    range_notes: tuple[str, ...] = ()
    # Why each result that is neither reproduced nor fixed is so: ``Explanation(cases, versions, why)``.
    explanations: tuple[Explanation, ...] = ()


# Re-exported so a declaration imports from one module.
_ = (AsInstalled, InProcess, Release)
