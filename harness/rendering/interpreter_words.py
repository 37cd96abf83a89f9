"""A scenario report's words on interpreters (issue 46): which were measured, and where a verdict differs
by interpreter, each interpreter's outcomes over the releases measured on it. Only what the record
measured: a release not measured on an interpreter is not said to behave there as anywhere else, and a
release whose Requires-Python excludes an interpreter is named as such, not as a verdict."""

from __future__ import annotations

from collections.abc import Sequence

from harness.planning import interpreters, versions
from harness.runtime.outcomes import ERROR
from harness.store.rows import Row

UNSUPPORTED = interpreters.UNSUPPORTED


def _unsupported(r: Row) -> bool:
    return interpreters.is_unsupported(r.outcome, r.detail)


def _ranges(rows: Sequence[Row]) -> str:
    """``fixed 0.0.3-0.0.11, reproduced 0.0.12-0.17.0`` over ``rows`` in release order (consecutive
    releases measured with one outcome form a range)."""
    parts: list[tuple[str, str, str]] = []
    for r in sorted(rows, key=lambda r: versions.key(r.version or "0")):
        v = r.version or "?"
        if parts and parts[-1][0] == r.outcome:
            parts[-1] = (r.outcome, parts[-1][1], v)
        else:
            parts.append((r.outcome, v, v))
    return ", ".join(f"{o} {a}" if a == b else f"{o} {a}-{b}" for o, a, b in parts)


def _releases(n: int) -> str:
    return f"{n} release" + ("" if n == 1 else "s")


def lines(scenario_id: str, every: Sequence[Row]) -> list[str]:
    """The report's "Interpreters" lines for ``scenario_id`` from ``every`` result of the record (each
    interpreter's release axis); the default interpreter alone gives one line saying so."""
    # An error is no verdict: it is the matrix's to show, not a difference between interpreters.
    mine = [r for r in every if r.scenario == scenario_id and r.release and r.outcome != ERROR]
    measured = sorted({r.python for r in mine} | {interpreters.DEFAULT}, key=interpreters.key)
    others = [r for r in mine if r.python != interpreters.DEFAULT]
    if not others:
        return [f"Interpreters: measured on {interpreters.label(interpreters.DEFAULT)} only.", ""]
    default = {(r.case, r.version): r.outcome for r in mine if r.python == interpreters.DEFAULT}
    differing = sorted(
        {r.case for r in others if not _unsupported(r) and default.get((r.case, r.version)) not in (None, r.outcome)}
    )
    counts = ", ".join(
        f"{py} ({_releases(len({r.version for r in mine if r.python == py and not _unsupported(r)}))})"
        for py in measured
    )
    out = [f"Interpreters measured (CPython): {counts}."]
    if not differing:
        out[0] += " Every release measured on more than one of them has the same verdicts on each."
    else:
        out[0] += " **Verdicts differ by interpreter** (measured):"
        out.append("")
        for case in differing:
            out.append(f"- `{case}`:")
            for py in measured:
                rs = [r for r in mine if r.case == case and r.python == py and not _unsupported(r)]
                if rs:
                    out.append(f"  - on {py}: {_ranges(rs)}")
        differs_on = sorted(
            {r.python for r in others if r.case in differing and not _unsupported(r)}, key=interpreters.key
        )
        out += [
            "",
            "Measure it on those interpreters: "
            f"`nox -s matrix -- --python {','.join(differs_on)} --only {scenario_id}`",
        ]
    excluded = sorted({(r.python, r.version or "?") for r in others if _unsupported(r)})
    if excluded:
        by_py: dict[str, list[str]] = {}
        for py, v in excluded:
            by_py.setdefault(py, []).append(v)
        out.append("")
        out.append(
            "Not installable there (Requires-Python, or dependencies that do not resolve), so not measured: "
            + "; ".join(f"on {py}: {', '.join(sorted(vs, key=versions.key))}" for py, vs in sorted(by_py.items()))
            + "."
        )
    return out + [""]
