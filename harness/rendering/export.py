"""Standalone reproduction scripts: one self-contained Python file per case (issue 17).

``python -m harness export SCENARIO[:CASE] [--release SPEC] [-o FILE]`` writes a file that a
maintainer runs without this project: ``uv run FILE`` (its PEP 723 block pins the framework
release and the scenario's extra packages, with dependencies as of that release's upload,
as the matrix resolves them) or ``python FILE`` in any environment that has the framework,
such as a checkout installed in editable mode.

The file reads like the seed reports' ``repro_*.py``: a docstring with the bug, the links,
the expected behaviour and what the harness's record says, then a short ``main()``. The
case itself is the harness's own code, not a rewrite of it: the source of the scenario
module and of every ``harness`` module it needs (found by following its imports: the fakes,
timeline helpers, outcomes, and the runner that judges it) is bundled verbatim in a dict
at the end of the file, and a small importer makes them importable under their own names,
so the scenario runs unmodified and the printed timeline is byte for byte the harness's.

It prints the normalised timeline, then one verdict line
(``SCENARIO:CASE on FRAMEWORK VERSION: OUTCOME: DETAIL``), and exits as every reproduction
script does (git bisect run's protocol): 0 when fixed, 3 when reproduced, 125 for anything else,
its own failures (a framework that is missing or fails to import) included. No machine path is
written into it.

``reports/repro/<scenario>--<case>.py`` are the exports of the record, written with the
reports (harness/rendering/reports.py ``write_all``); each pins the newest release of the record on
which the case reproduces (else its newest release).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UsageError
from harness.planning import versions
from harness.project import PROJECT, Project
from harness.rendering import templates
from harness.runtime import frameworks
from harness.runtime.outcomes import REPRODUCED
from harness.runtime.scenario import Case, Scenario
from harness.store.rows import Row, of_document

PROJECT_ROOT = PROJECT.root
PACKAGES = ("harness", "scenarios")  # the project's import roots: what gets bundled
# What the script calls: the runner, which judges a case as the matrix's workers do.
ENTRY_MODULES = ("harness.runtime.runner",)
REPRO_DIR = "repro"


class ExportError(UsageError, ValueError):
    """The export cannot be written as asked (one line: what, and what is valid)."""


def script_name(scenario_id: str, case_id: str) -> str:
    return f"{scenario_id}--{case_id}.py"


# --- which sources the case needs ----------------------------------------------------------------


def _path_of(module: str, root: Path) -> Path | None:
    """The source file of a project module (``harness.runtime.fakes.adk`` -> harness/runtime/fakes/adk.py), or None."""
    parts = module.split(".")
    if parts[0] not in PACKAGES:
        return None
    base = root.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every module name an import statement anywhere in ``tree`` may load (inside functions too)."""
    names: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                names.update(".".join(parts[: i + 1]) for i in range(len(parts)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            parts = target.split(".")
            names.update(".".join(parts[: i + 1]) for i in range(len(parts)))
            # ``from harness import adk``: adk may be a submodule.
            names.update(f"{target}.{alias.name}" for alias in node.names)
    return names


# ``_imports_of_source`` results by a digest of (module, source): kept in memory, and on disk
# next to the other caches of a project (.nox/.harness-cache/export-imports.json) so that the
# exports rendered after every matrix run parse only the modules that changed since.
_IMPORTS: dict[str, list[str]] = {}
_IMPORTS_FILE: list[Path] = []  # the file _IMPORTS was loaded from, once per process


def _imports_cache(root: Path) -> dict[str, list[str]]:
    path = Project(root).cache / "export-imports.json"
    if not _IMPORTS_FILE or _IMPORTS_FILE[0] != path:
        _IMPORTS_FILE[:] = [path]
        _IMPORTS.clear()
        try:
            loaded = json.loads(path.read_text())
            _IMPORTS.update({k: v for k, v in loaded.items() if isinstance(v, list)})
        except (OSError, ValueError, AttributeError):
            pass
    return _IMPORTS


def _save_imports_cache(used: set[str]) -> None:
    """Write the import cache back, keeping only the entries of the sources seen this time."""
    if not _IMPORTS_FILE:
        return
    path = _IMPORTS_FILE[0]
    kept = {k: v for k, v in _IMPORTS.items() if k in used}
    try:
        if path.parent.is_dir() and (not path.exists() or json.loads(path.read_text()) != kept):
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(kept, sort_keys=True))
            tmp.replace(path)
    except (OSError, ValueError):
        pass  # only a shortcut for the next run


def _imports_of_source(source: str, filename: str, module: str, root: Path, used: set[str] | None = None) -> list[str]:
    """``_imported`` of a module's source, remembered (every scenario's bundle walks the same
    harness modules, and the record's exports are rendered after every run)."""
    key = hashlib.sha256(f"{module}\0{filename}\0{source}".encode()).hexdigest()[:24]
    cache = _imports_cache(root)
    if used is not None:
        used.add(key)
    if key not in cache:
        cache[key] = sorted(_imported(ast.parse(source, filename=filename), module, filename == "__init__.py"))
    return cache[key]


def bundle(scenario: Scenario, root: Path = PROJECT_ROOT, used: set[str] | None = None) -> dict[str, str]:
    """Relative path -> source of every project module the case needs, sorted by path.

    The scenario module, the entry modules, and everything they import from the project,
    followed transitively (imports inside functions included); the packages' ``__init__``.
    """
    module_name = _module_of(scenario)
    todo = [module_name, *ENTRY_MODULES, *PACKAGES]
    found: dict[str, str] = {}
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = _path_of(module, root)
        if path is None:
            continue
        source = path.read_text(encoding="utf-8")
        found[path.relative_to(root).as_posix()] = source
        todo.extend(_imports_of_source(source, path.name, module, root, used))
    if _path_of(module_name, root) is None:
        raise ExportError(f"scenario {scenario.id}: module {module_name} has no source file under {root.name}/")
    return dict(sorted(found.items()))


def _module_of(scenario: Scenario) -> str:
    """``scenarios.<module>`` of a scenario: its ``module`` (set by harness.runtime.registry), else the module
    that defines its SCENARIO."""
    import sys

    if scenario.module:
        return f"scenarios.{scenario.module}"
    for name, module in list(sys.modules.items()):
        if name.startswith("scenarios.") and getattr(getattr(module, "SCENARIO", None), "id", None) == scenario.id:
            return name
    raise ExportError(f"scenario {scenario.id!r}: no module defines it; load it with harness.registry.discover()")


# --- what the script pins ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pin:
    """The framework build the script's inline metadata names, and why."""

    framework: str
    version: str | None  # None: unpinned (no release known)
    exclude_newer: str | None  # uv's exclude-newer: dependencies as of the release's upload
    why: str  # one sentence for the docstring

    @property
    def spec(self) -> str:
        return f"{self.framework}=={self.version}" if self.version else self.framework


def case_results(document: dict | None, scenario_id: str, case_id: str) -> list[Row]:
    """The record's release results of a case, oldest first."""
    rows = [r for r in of_document(document) if r.scenario == scenario_id and r.case == case_id and r.release]
    return sorted(rows, key=lambda r: versions.key(str(r.version)))


def _env_date(document: dict | None, source: str) -> str | None:
    for env in (document or {}).get("environments", []):
        if env["source"] == source:
            return env.get("exclude_newer")
    return None


def record_pin(document: dict | None, scenario: Scenario, case: Case) -> Pin | None:
    """The newest release of the record where the case reproduces, else its newest release."""
    rows = case_results(document, scenario.id, case.id)
    if not rows:
        return None
    repro = [r for r in rows if r.outcome == REPRODUCED]
    chosen = repro[-1] if repro else rows[-1]
    why = (
        "the newest release of the harness's record on which this case reproduces"
        if repro
        else f"the newest release of the harness's record (the case says {chosen.outcome} there; it reproduces on none)"
    )
    return Pin(scenario.framework, chosen.version, _env_date(document, chosen.source), why)


def requirements(scenario: Scenario, pin: Pin) -> list[str]:
    """The inline metadata's dependencies: the framework (with the scenario's extras of it), pinned,
    then the scenario's other packages (``Scenario.requires``)."""
    import re

    norm = lambda name: re.sub(r"[-_.]+", "-", name).lower()  # noqa: E731 (PEP 503 names)
    extras: list[str] = []
    others: list[str] = []
    for req in getattr(scenario, "requires", ()):
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[([^\]]*)\])?\s*$", req)
        if m and norm(m.group(1)) == norm(scenario.framework):
            extras += [e.strip() for e in (m.group(2) or "").split(",") if e.strip() and e.strip() not in extras]
        elif req.strip() not in others:
            others.append(req.strip())
    framework = pin.framework + (f"[{','.join(sorted(extras))}]" if extras else "")
    return [framework + (f"=={pin.version}" if pin.version else ""), *others]


# --- the script -----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _literal(source: str) -> str:
    """A Python string literal equal to ``source``, as readable as possible (raw, triple-quoted);
    remembered, as every case's script of a run quotes the same modules."""
    candidates = []
    if "'''" not in source and not source.endswith(("\\", "'")):
        candidates.append("r'''" + source + "'''")
    escaped = source.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if escaped.endswith('"'):
        escaped = escaped[:-1] + '\\"'
    candidates.append('"""' + escaped + '"""')
    for literal in candidates:
        try:
            if ast.literal_eval(literal) == source:
                return literal
        except (SyntaxError, ValueError):
            continue
    return repr(source)


@functools.lru_cache(maxsize=8)
def _requires_python(root: Path) -> str:
    try:
        return tomllib.loads((root / "pyproject.toml").read_text())["project"]["requires-python"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return ">=3.11"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line.strip() else "" for line in text.strip("\n").splitlines())


def _wrap(text: str, width: int = 92, prefix: str = "") -> str:
    import textwrap

    return textwrap.fill(" ".join(text.split()), width=width, initial_indent=prefix, subsequent_indent=prefix)


def record_summary(rows: list[Row]) -> list[str]:
    """One line per run of consecutive releases (per release line) with the same outcome."""
    lines: list[str] = []
    group: list[Row] = []

    def flush():
        if group:
            span = group[0].version if len(group) == 1 else f"{group[0].version} – {group[-1].version}"
            n = f" ({len(group)} releases run)" if len(group) > 2 else ""
            lines.append(f"{group[0].framework} {span}{n}: {group[0].outcome}: {group[0].detail}")

    for r in rows:
        if group and (
            r.outcome != group[-1].outcome
            or r.detail != group[-1].detail
            or versions.line(str(r.version)) != versions.line(str(group[-1].version))
        ):
            flush()
            group = []
        group.append(r)
    flush()
    return lines


def _docstring(scenario: Scenario, case: Case, pin: Pin, filename: str, rows: list[Row], module_doc: str) -> str:
    fw = frameworks.get(scenario.framework)
    out = [f"{scenario.id}, case {case.id}: a standalone reproduction ({scenario.framework}).", ""]
    out += [_wrap(f"Bug: {scenario.description}"), "", _wrap(f"Expected: {scenario.expected}"), ""]
    this = f"This case ({case.id}): {case.summary}" if case.summary else f"This case: {case.id}"
    if case.control:
        this += (
            ". It is a control: behaviour beside the bug that must hold (fixed) on every release; "
            "reproduced means it broke"
        )
    out += [_wrap(this.rstrip(".") + "."), ""]
    out += ["Upstream:", *[f"    {u}" for u in scenario.links], ""]
    if pin.version:
        deps = (
            (
                f"; its dependencies are resolved as of that release's upload ({pin.exclude_newer}, uv's "
                "exclude-newer), as the harness's matrix installs it"
            )
            if pin.exclude_newer
            else ""
        )
        out += [
            _wrap(
                f"The inline metadata above pins {pin.spec}, {pin.why}{deps}. To try another release, change "
                "the pin" + (" and exclude-newer (or delete it)." if pin.exclude_newer else ".")
            )
        ]
    else:
        out += [_wrap(f"The inline metadata above does not pin {pin.framework} ({pin.why}); pin the release to try.")]
    out += [""]
    if rows:
        out += [
            "What the harness recorded (reports/matrix.json):",
            *[f"    {line}" for line in record_summary(rows)],
            "",
        ]
    out += [
        "Run it:",
        f"    uv run {filename}        # in a fresh environment with the pinned release",
        f"    python {filename}        # with the {fw.name} this Python has (e.g. your checkout, pip install -e .)",
        "",
        _wrap(
            "It prints the normalised timeline (ids the framework invents become placeholders such as inv-1, in "
            "first-seen order), then one verdict line, and exits 0 when the case is fixed, 3 when it reproduces, "
            "125 otherwise (unexpected, not-applicable, error, a framework that is missing or fails to import): "
            "git bisect run's good, bad and skip. No network is used: the model is a scripted fake."
        ),
        "",
        _wrap(
            "The code is agent-bug-harness's own, bundled verbatim at the end of this file (BUNDLE): the scenario "
            "module, the harness modules it imports (fakes, timeline helpers, outcomes) and the runner that judges "
            "the case as the matrix does. A small importer makes them importable under their own names, so the "
            "scenario runs unmodified."
        ),
        "",
        "The scenario's own notes (its module docstring):",
        "",
        _indent(module_doc),
    ]
    return "\n".join(out).rstrip() + "\n"


HEADER = """\
#!/usr/bin/env -S uv run --script
# /// script
# requires-python = "{requires_python}"
# dependencies = [
{dependencies}
# ]
{tool}# ///
"""


@functools.lru_cache(maxsize=64)
def _module_docstring(source: str) -> str:
    return ast.get_docstring(ast.parse(source)) or ""


def _docstring_literal(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    literal = '"""' + escaped + '"""'
    assert ast.literal_eval(literal) == text
    return literal


def script(
    scenario: Scenario,
    case: Case,
    pin: Pin,
    filename: str | None = None,
    rows: list[Row] | None = None,
    root: Path = PROJECT_ROOT,
    sources: dict[str, str] | None = None,
    check: bool = True,
) -> str:
    """The standalone script of ``case``, pinned to ``pin``. ``rows``: the record's release results
    of the case (quoted in the docstring); ``sources``: ``bundle(scenario, root)`` when known;
    ``check``: compile it first (the caller may compile only what it writes)."""
    filename = filename or script_name(scenario.id, case.id)
    sources = sources or bundle(scenario, root)
    module_name = _module_of(scenario)
    module_source = sources[module_name.replace(".", "/") + ".py"]
    module_doc = _module_docstring(module_source)
    tool = ""
    if pin.version and pin.exclude_newer:
        tool = f'# [tool.uv]\n# exclude-newer = "{pin.exclude_newer}"\n'
    header = HEADER.format(
        requires_python=_requires_python(root),
        dependencies="\n".join(f'#     "{d}",' for d in requirements(scenario, pin)),
        tool=tool,
    )
    # The scenario module first: it is what a reader came for; the harness modules after it.
    first = module_name.replace(".", "/") + ".py"
    ordered = sorted(sources.items(), key=lambda kv: (kv[0] != first, kv[0]))
    entries = ",\n".join(f'    "{path}": {_literal(source)}' for path, source in ordered)
    code = "\n" + templates.read("bundle.py").split("\n", 3)[3]  # without the template's own comment
    for word, value in (
        ("__SCENARIO__", scenario.id),
        ("__SCENARIO_MODULE__", module_name),
        ("__CASE__", case.id),
        ("__FRAMEWORK__", scenario.framework),
        ("__FRAMEWORK_MODULE__", frameworks.get(scenario.framework).entry_module),
    ):
        code = code.replace(f'"{word}"', json.dumps(value))
    code = code.replace("BUNDLE: dict[str, str] = {}  # __BUNDLE__", "BUNDLE = {\n" + entries + "\n}")
    doc = _docstring(scenario, case, pin, filename, rows or [], module_doc)
    text = header + _docstring_literal(doc) + "\n" + code
    if check:
        compile(text, filename, "exec")  # a broken export is a bug here, not in the maintainer's hands
    return text
