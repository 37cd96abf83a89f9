"""``reports/repro/<scenario>--<case>.py``: each case's short reproduction, as its author wrote it in
``scenarios/repro/``, with a PEP 723 header stamped from the record.

The header pins the newest release of the record where the case reproduces, with uv's
``exclude-newer`` at that release's dependency date, and lists every release of the record with
its date and both verdicts (the case's and the script's), so a maintainer moves the pin to a
fixed release without guessing the date. Extras of the framework (``google-adk[db]``) are asked
only where the pinned release has them. Bundled, self-contained scripts are made on demand by
``python -m harness export --bundle`` and never committed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from harness.project import PROJECT
from harness.rendering import export
from harness.runtime import short_repro
from harness.runtime.scenario import Case, Scenario

if TYPE_CHECKING:
    from harness.store.rows import Row
    from harness.store.staging import Staging


def source_of(scenario: Scenario, case: Case, scenarios_dir: Path = PROJECT.scenarios) -> Path | None:
    """The author's script of a case, if it has one."""
    return short_repro.script_for(str(scenarios_dir / f"{scenario.module or 'x'}.py"), scenario.id, case.id)


def _extras_of(document: dict, source: str) -> list[str] | None:
    for env in document.get("environments", []):
        if env.get("source") == source:
            return env.get("extras")
    return None


def header(scenario: Scenario, case: Case, document: dict, pin: export.Pin | None = None) -> list[str]:
    """The PEP 723 block (``pin``, else the record's) and the release list, as comment lines."""
    rows = export.case_results(document, scenario.id, case.id)
    pin = pin or export.record_pin(document, scenario, case) or export.Pin(scenario.framework, None, None, "")
    deps = export.requirements(scenario, pin)
    offered = _extras_of(document, f"{pin.framework}=={pin.version}")
    if offered is not None and "[" in deps[0]:
        name, _, rest = deps[0].partition("[")
        wanted, _, version = rest.partition("]")
        kept = [e for e in wanted.split(",") if e in offered]
        deps[0] = name + (f"[{','.join(kept)}]" if kept else "") + version
    lines = ["# /// script", f'# requires-python = "{export._requires_python(PROJECT.root)}"', "# dependencies = ["]
    lines += [f'#   "{d}",' for d in deps] + ["# ]"]
    if pin.exclude_newer:
        lines += ["# [tool.uv]", f'# exclude-newer = "{pin.exclude_newer}"']
    lines += [
        "# ///",
        f"# {scenario.id}:{case.id}. Run: uv run THIS_FILE (exit 0 fixed, 3 reproduced, 125 cannot judge).",
        "# Checked beside the harness's case on every release below; to try one, set its version and its",
        "# exclude-newer date above. By the case's outcome / this script's verdict, release (date):",
    ]
    lines += release_lines([(r, _date_of(document, r.source) or "-") for r in rows])
    return lines


def release_lines(dated: list[tuple[Row, str]], width: int = 100) -> list[str]:
    """Consecutive releases with the same two verdicts on one group, each release with its date,
    wrapped at ``width``: ``#   fixed / fixed: 2.9.0 (2026-09-01T10:00:00Z), 2.10.0 (...)``."""
    groups: list[tuple[str, list[str]]] = []
    for r, date in dated:
        label = f"{r.outcome} / {r.repro or 'not run'}"
        entry = f"{r.version} ({date})"
        if groups and groups[-1][0] == label:
            groups[-1][1].append(entry)
        else:
            groups.append((label, [entry]))
    out = []
    for label, entries in groups:
        line = f"#   {label}:"
        for entry in entries:
            if len(line) + len(entry) + 2 > width and not line.endswith(":"):
                out.append(line + ",")
                line = "#     " + entry
            else:
                line += (" " if line.endswith(":") else ", ") + entry
        out.append(line)
    return out


def _date_of(document: dict, source: str) -> str | None:
    return export._env_date(document, source)


def stamped(scenario: Scenario, case: Case, document: dict, source: str, pin: export.Pin | None = None) -> str:
    """The script as published: header, then the author's file unchanged."""
    return "\n".join(header(scenario, case, document, pin)) + "\n" + source


def write_all(document: dict, scenarios: list[Scenario], reports_dir: Path, stage: Staging) -> list[Path]:
    """Every case's published script, staged; scripts of these scenarios' cases that have none are removed."""
    directory = reports_dir / export.REPRO_DIR
    written = []
    for s in scenarios:
        wanted = set()
        for case in s.cases:
            path = source_of(s, case)
            if path is None:
                continue
            target = directory / export.script_name(s.id, case.id)
            text = stamped(s, case, document, path.read_text(encoding="utf-8"))
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stage.write(target, text)
            written.append(target)
            wanted.add(target.name)
        for stale in directory.glob(f"{s.id}--*.py"):
            if stale.name not in wanted and stale.name.removeprefix(f"{s.id}--").count("--") == 0:
                stage.remove(stale)
    return written
