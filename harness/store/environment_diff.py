"""Where an audited environment's packages differ from the record's build of the same release
(issue 50: with openai-agents 0.6.9 and openai 2.54.0 every script errors, while the record measured
0.6.9 with openai 2.15.0 and the static audit called 22 bugs measured with no word of it).

Compared: the framework's direct dependencies (its own ``Requires-Dist``, read in the audited
environment) and the packages the bugs' scripts import beside the framework. A package the record's
build has and the environment lacks, or has at another version, is a difference; the answers are the
record's, measured with its versions, and ``audit --run`` checks them with the environment's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares it."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """The distribution a requirement string names (``sqlalchemy[asyncio]>=2`` -> ``sqlalchemy``)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return normalized(match.group(1)) if match else ""


@dataclass(frozen=True)
class Difference:
    package: str
    here: str | None  # None: not installed in the audited environment
    measured: str

    def words(self) -> str:
        here = f"{self.here} here" if self.here else "not installed here"
        return f"{self.package} {here}, {self.measured} measured"


def differences(recorded: Iterable[str], here: Mapping[str, str], compared: Iterable[str]) -> tuple[Difference, ...]:
    """The packages of ``compared`` (names) whose version in the environment (``here``: name ->
    version) is not the record's build's (``recorded``: ``name==version`` lines), by name."""
    built = {}
    for line in recorded:
        name, _, version = line.partition("==")
        built[normalized(name)] = version
    installed = {normalized(n): v for n, v in here.items()}
    out = []
    for name in sorted({normalized(n) for n in compared}):
        if name in built and installed.get(name) != built[name]:
            out.append(Difference(name, installed.get(name), built[name]))
    return tuple(out)
