"""An upgrade's declaration (``upgrades/<id>/upgrade.py``): a bug that appears only when state written
by one release is read by another, beside its two-step reproduction script (``upgrades/<id>/repro.py``).

The script is standalone and runs in two environments on one folder (``STATE``)::

    python repro.py write CASE STATE    # in release A's environment: writes what A stores
    python repro.py read CASE STATE     # in release B's environment: reads it, prints the verdict

Its last line on each step is ``verdict: OUTCOME: DETAIL``; ``write`` exits 0 when it wrote, 125
when it could not (its verdict says ``not-applicable`` or ``error``); ``read`` exits as every
reproduction does (0 fixed, 3 reproduced, 125 otherwise). A ``-postgresql`` case keeps its
database on the server libpq's variables name, its name in ``STATE``. The harness runs exactly
these two commands (harness/execution/upgrades.py): what a maintainer runs is what judged.

Stdlib only: the orchestrator reads it to plan the pairs; nothing of it runs in a build.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from harness.runtime.scenario import SQLITE, Claim

__all__ = ["Claim", "Pair", "Step", "Upgrade", "UpgradeCase"]


@dataclass(frozen=True)
class Pair:
    """A writer release and a reader release (versions of the scenario's framework), and why the
    pair is in the grid beyond the adjacent ones: the thread that names it, or a check."""

    writer: str
    reader: str
    why: str = ""
    # For a downgrade: where the framework documents that the older reader refuses the newer state
    # (a thread's words). Its refusal is then shown as what it is, never as an upgrade that breaks.
    documented_refusal: str = ""


@dataclass(frozen=True)
class UpgradeCase:
    """One case of the script (a key of its ``CASES`` on SQLite): a summary for the report and the
    readers it runs on (a PEP 440 specifier; empty: every pair): a case that needs a migration
    command runs only where the reader ships it."""

    summary: str
    readers: str = ""


@dataclass(frozen=True)
class Step:
    """A pair that must give ``outcome`` for ``case``: the proofs both ways, real releases on each side."""

    case: str
    writer: str
    reader: str
    outcome: str


@dataclass(frozen=True)
class Upgrade:
    """The declaration of one upgrade bug; its id is its folder's name, its framework the id's prefix.

    ``releases``: the scenario's matrix (oldest first): each release is paired with the next of its
    major line, the last of a line with the first of the next, and the ``pairs`` the threads name
    are added (their releases must be among ``releases``). ``schema_files``: the framework files
    (paths inside its package's site-packages folder) that define what is stored: a reproduced
    pair's explanation is their change between the two releases. ``proofs``: pairs that must give
    each outcome (both ways). ``downgrades``: reverse pairs run as a control (a newer writer).
    """

    links: tuple[str, ...]
    description: str
    expected: str
    cases: Mapping[str, UpgradeCase]
    releases: tuple[str, ...]
    pairs: tuple[Pair, ...] = ()
    downgrades: tuple[Pair, ...] = ()
    proofs: tuple[Step, ...] = ()
    schema_files: tuple[str, ...] = ()
    # Regular expressions of the lines in ``schema_files`` that declare what is stored (a column, the
    # snapshot's schema version): a reproduced pair is explained by the hunks that change such a line
    # and name a word of its detail; with none declared, any changed line counts.
    schema_markers: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    backends: tuple[str, ...] = (SQLITE,)
    claims: Claim = field(default_factory=Claim)
    range_notes: tuple[str, ...] = ()
