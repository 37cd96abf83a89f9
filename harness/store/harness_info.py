"""The record's ``harness`` object (reports/matrix.json, docs/CONTRACT.md): what measured it. ``HarnessInfo``
is what its readers get; its JSON object is read and written here alone, byte for byte."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Its keys in the order the record writes them; ``code`` only where the code's trees were known.
KEYS = ("python", "platform", "version", "default_interpreter", "code")


@dataclass(frozen=True)
class HarnessInfo:
    """The Python that ran the harness (``python``, full version), its ``platform``, the harness's
    ``version``, the interpreter every release is measured on (``default_interpreter``) and the tree
    hashes of harness/ and scenarios/ (``code``); None where the record does not say."""

    python: str | None = None
    platform: str | None = None
    version: str | None = None
    default_interpreter: str | None = None
    code: str | None = None
    # The keys its JSON object held, in order, and any this code does not know: written back byte for
    # byte. Empty for one made here (``KEYS``, each that is not None).
    keys: tuple[str, ...] = field(default=(), compare=False, repr=False)
    others: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_json(cls, info: Mapping[str, Any] | None) -> HarnessInfo:
        """From a document's ``harness`` object (None or absent: one that says nothing)."""
        info = info or {}
        return cls(
            info.get("python"),
            info.get("platform"),
            info.get("version"),
            info.get("default_interpreter"),
            info.get("code"),
            keys=tuple(info),
            others=tuple((k, v) for k, v in info.items() if k not in KEYS),
        )

    def to_json(self) -> dict[str, Any]:
        """Its JSON object as the record holds it: the keys it was read with, in their order."""
        others = dict(self.others)
        keys = self.keys or tuple(k for k in KEYS if getattr(self, k) is not None)
        return {k: others[k] if k in others else getattr(self, k) for k in keys}


def of(info: HarnessInfo | Mapping[str, Any] | None) -> HarnessInfo:
    """``info`` as a ``HarnessInfo``: one kept as it is, a JSON object (a document's) read into one."""
    return info if isinstance(info, HarnessInfo) else HarnessInfo.from_json(info)
