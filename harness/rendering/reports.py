"""reports/matrix.json (the record) and reports/matrix.md (a view of it), written atomically."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from harness.errors import UsageError
from harness.planning import versions
from harness.project import PROJECT
from harness.store import result_cache
from harness.store.rows import written

if TYPE_CHECKING:
    from harness.runtime.scenario import Scenario

# 2: each result also holds ``repro``, the verdict of the case's short reproduction run in the
# same build (fixed, reproduced, cannot-judge, error (...), or null where the case has none), and
# ``backend``, the database the case ran on (sqlite, or postgresql for a ``<case>-postgresql`` case).
SCHEMA_VERSION = 2
READABLE_SCHEMAS = (1, 2)  # a version-1 record reads as one whose results have no repro verdict nor backend


class ReportsNotWritable(UsageError, OSError):
    pass


def check_writable(reports_dir: Path) -> None:
    """Fail before any work when reports/ cannot be written (bad input leaves it untouched)."""
    try:
        reports_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=reports_dir, prefix=".tmp-probe-"):
            pass
    except OSError as exc:
        raise ReportsNotWritable(f"reports directory {reports_dir.name}/ is not writable: {exc.strerror}") from None


def write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def sort_key(order: dict[tuple[str, str], int]) -> Callable[[dict], tuple]:
    def key(r: dict) -> tuple:
        return (
            order.get((r["scenario"], r["case"]), 1 << 30),
            r["scenario"],
            r["case"],
            r["framework"],
            versions.key(r["version"] or "0"),
            r["source"],
        )

    return key


def matrix_document(results: list[dict], environments: list[dict], harness: dict | None = None) -> dict:
    return {
        "schema_version": SCHEMA_VERSION,
        "harness": harness or {},
        "results": [written(r) for r in results],
        "environments": environments,
    }


def dumps(document: dict) -> str:
    return json.dumps(document, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def _cell(r: dict) -> str:
    mark = "" if r["snapshot"] in ("match", "updated") else f" ({r['snapshot']})"
    return f"{r['outcome']}{mark}"


def matrix_markdown(document: dict, scenario_titles: dict[str, str] | None = None) -> str:
    """One table per framework: scenario and case by build, outcome in each cell."""
    results = document["results"]
    lines = ["# Matrix", ""]
    lines.append(
        "Outcome per (scenario, case) and build. `(changed)`/`(new)`: differs from, or has no, stored snapshot."
    )
    lines.append("")
    for framework in sorted({r["framework"] for r in results}):
        rows = [r for r in results if r["framework"] == framework]
        builds: list[str] = []
        for r in rows:
            if r["source"] not in builds:
                builds.append(r["source"])
        builds.sort(
            key=lambda s: next(
                (versions.key(r["version"] or "0"), s.startswith("local:"), s) for r in rows if r["source"] == s
            )
        )
        lines.append(f"## {framework}")
        lines.append("")
        lines += _grid_lines(framework)
        lines.append("| scenario | case | " + " | ".join(b.replace(f"{framework}==", "") for b in builds) + " |")
        lines.append("|---|---|" + "---|" * len(builds))
        pairs: list[tuple[str, str]] = []
        for r in rows:
            if (r["scenario"], r["case"]) not in pairs:
                pairs.append((r["scenario"], r["case"]))
        for scenario, case in pairs:
            by_build = {r["source"]: r for r in rows if (r["scenario"], r["case"]) == (scenario, case)}
            cells = [_cell(by_build[b]) if b in by_build else "" for b in builds]
            link = f"[{scenario}]({scenario}.md)" if scenario_titles is not None else scenario
            lines.append(f"| {link} | {case} | " + " | ".join(cells) + " |")
        lines.append("")
    problems = [r for r in results if r["outcome"] in ("error", "unexpected")]
    if problems:
        lines.append("## Needs a look")
        lines.append("")
        for r in problems:
            lines.append(f"- `{r['scenario']}:{r['case']}` on `{r['source']}`: **{r['outcome']}**: {r['detail']}")
        lines.append("")
    return "\n".join(lines)


def harness_info(root: Path) -> dict:
    """Python, platform and harness version for the record; the code tree hash when in git.

    The tree hashes of harness/ and scenarios/ (not the commit) identify the code, so
    committing a regenerated report does not make it stale.
    """
    import platform
    import subprocess

    from harness import __version__

    info = {
        "python": platform.python_version(),
        "platform": f"{platform.system().lower()}-{platform.machine()}",
        "version": __version__,
    }
    try:
        trees = [
            subprocess.run(
                ["git", "rev-parse", "--short=12", f"HEAD:{d}"], cwd=root, capture_output=True, text=True, check=True
            ).stdout.strip()
            for d in ("harness", "scenarios")
        ]
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "harness", "scenarios"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        info["code"] = f"harness@{trees[0]} scenarios@{trees[1]}" + (" (uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError, IndexError):
        pass
    return info


def scenario_metadata(scenario: Scenario, root: Path | None = None) -> dict:
    return {
        "id": scenario.id,
        "framework": scenario.framework,
        "links": list(scenario.links),
        "description": scenario.description,
        "expected": scenario.expected,
        "boundary_notes": list(getattr(scenario, "range_notes", ())),
        # Its code's digest: the boundaries quoted ignore probes and results of older code.
        "inputs": result_cache.scenario_inputs(root or PROJECT.root, scenario.module, scenario.id),
        "cases": [
            {
                "id": c.id,
                "summary": c.summary,
                "control": bool(getattr(c, "control", False)),
                "non_regression": bool(getattr(c, "non_regression", False)),
            }
            for c in scenario.cases
        ],
    }


def write_all(
    document: dict, scenarios: dict, reports_dir: Path, bisects: dict | None = None, root: Path | None = None
) -> list[Path]:
    """matrix.json, matrix.md and one report per scenario in the results, each atomically.

    ``bisects``: the bisect record (harness/store/boundaries.py), whose boundaries the scenario reports quote.
    """
    from harness.rendering import evidence

    write_atomic(reports_dir / "matrix.json", dumps(document))
    present = [s for s in scenarios.values() if any(r["scenario"] == s.id for r in document["results"])]
    write_atomic(reports_dir / "matrix.md", matrix_markdown(document, {s.id: s.id for s in present}))
    written = [reports_dir / "matrix.json", reports_dir / "matrix.md"]
    for s in present:
        path = reports_dir / f"{s.id}.md"
        write_atomic(path, evidence.render(scenario_metadata(s, root), document, bisects))
        written.append(path)
    written += write_grids_and_scripts(document, present, reports_dir)
    return written


def _grid_lines(framework: str) -> list[str]:
    """matrix.md: the framework's SVG grid (harness/rendering/grid.py), above its table."""
    from harness.rendering import grid

    return [f"![{framework}: outcome per scenario, case and build]({grid.svg_name(framework)})", ""]


def write_grids_and_scripts(document: dict, present: list, reports_dir: Path) -> list[Path]:
    """The SVG grids (one per framework, one per scenario: harness/rendering/grid.py) and the standalone
    reproductions of every case (reports/repro/, harness/rendering/short_scripts.py)."""
    from harness.rendering import grid, short_scripts

    written = []
    for framework in sorted({r["framework"] for r in document["results"]}):
        path = reports_dir / grid.svg_name(framework)
        write_atomic(path, grid.framework_svg(document, framework))
        written.append(path)
    for s in present:
        path = reports_dir / f"{s.id}.svg"
        write_atomic(path, grid.scenario_svg(scenario_metadata(s), document))
        written.append(path)
    written += short_scripts.write_all(document, present, reports_dir, write_atomic)
    return written
