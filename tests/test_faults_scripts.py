"""Issue 34, fault "the bisect protocol is broken for 39 of 88 published scripts": every
reproduction script and exported bundle exits 125 (git bisect run's "skip") with a verdict line
when its framework is not installed or is broken, never 1 (which `git bisect run` reads as "bad").

Before the fix 56 of the 88 scripts imported the framework (or defined their fakes on it) outside
their catch-all: with the framework missing 42 exited 1, with it broken 56 did, and a bundle of
a scenario that imports its framework at the top exited 1 when the framework was broken.

Two ways the framework fails, as a maintainer meets them:
- missing: ``python -I -S`` (no site-packages at all), the interpreter of an environment that
  lacks the framework and its dependencies;
- broken: ``python -S`` with a folder on PYTHONPATH holding, for every package the scripts
  import outside the standard library (google, agents, openai, httpx, ...), a stub whose import
  raises RuntimeError (a half-installed or incompatible release), and the frameworks' metadata
  (so a bundle finds the framework "installed" and goes on to import it).

The scripts are found by globbing, so the test keeps guarding them when they are rewritten or
moved to a scenario's folder (``scenarios/**/repro/*.py``); each published copy in
``reports/repro/`` must be its script under a header. Every script runs in a process of its own,
many at once (about a second on an idle machine with two cores).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import ROOT
from harness.rendering import export
from harness.runtime import frameworks, registry, short_repro

SCRIPTS = sorted(ROOT.glob("scenarios/**/repro/*.py"))
PUBLISHED = ROOT / "reports" / "repro"
VERDICT = re.compile(r"^verdict: cannot judge \(error: (\w+): ")
MISSING = ("-I", "-S")  # no site-packages: neither the framework nor its dependencies
BROKEN = ("-S",)  # only PYTHONPATH: the stubs below


def third_party_packages(paths: list[Path]) -> set[str]:
    """The top-level packages the scripts import that are not part of the standard library."""
    names: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return {n for n in names if n not in sys.stdlib_module_names and n != "__future__"}


def broken_site(folder: Path, packages: set[str]) -> Path:
    """A folder for PYTHONPATH: each package a stub whose import raises RuntimeError, and every
    framework's distribution metadata, as an installed release would have it."""
    for name in packages:
        (folder / name).mkdir(parents=True)
        (folder / name / "__init__.py").write_text(f"raise RuntimeError('{name} is broken (a stub of the test)')\n")
    for framework in frameworks.FRAMEWORKS:
        info = folder / f"{framework.replace('-', '_')}-99.0.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {framework}\nVersion: 99.0.0\n")
    return folder


def run_all(paths: list[Path], flags: tuple[str, ...], env: dict[str, str], cwd: Path) -> dict[Path, tuple]:
    """(exit status, stdout, stderr) of each script, run as ``python FLAGS SCRIPT``, many at once."""

    def one(path: Path) -> tuple:
        proc = subprocess.run(
            [sys.executable, *flags, str(path)], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
        )
        return proc.returncode, proc.stdout, proc.stderr

    with ThreadPoolExecutor(max_workers=max(4, 2 * (os.cpu_count() or 1))) as pool:
        return dict(zip(paths, pool.map(one, paths), strict=True))


def plain_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    return {**env, **extra}


def failures(results: dict[Path, tuple], expected_error: str | None) -> list[str]:
    """One line per script that did not exit 125 with a ``verdict: cannot judge (error: ...)`` line
    (naming ``expected_error`` when given) as its last line."""
    bad = []
    for path, (code, stdout, stderr) in results.items():
        last = stdout.strip().splitlines()[-1] if stdout.strip() else ""
        match = VERDICT.match(last)
        if code != short_repro.EXIT_CANNOT_JUDGE or not match or expected_error not in (None, match.group(1)):
            said = last or (stderr.strip().splitlines() or ["(nothing)"])[-1]
            bad.append(f"{path.relative_to(ROOT)}: exit {code}: {said[:160]}")
    return bad


def test_the_scripts_are_found():
    """The glob finds every case's script (a moved folder must not leave this test guarding nothing)."""
    cases = registry.select(registry.discover(), [])
    assert len(SCRIPTS) == len(cases)


def test_every_published_copy_is_its_script_under_a_header():
    """reports/repro/ is what a maintainer downloads: the same code as the script these tests run."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in SCRIPTS}
    for path in sorted(PUBLISHED.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert path.name in sources and text.startswith("# /// script\n"), path.name
        assert text.endswith(sources[path.name]), f"{path.name}: regenerate reports/repro (python -m harness report)"


@pytest.mark.parametrize(("how", "flags", "error"), [("missing", MISSING, None), ("broken", BROKEN, "RuntimeError")])
def test_every_script_exits_125_when_its_framework_is_missing_or_broken(how, flags, error, tmp_path):
    site = broken_site(tmp_path / "site", third_party_packages(SCRIPTS))
    env = plain_env(PYTHONPATH=str(site)) if how == "broken" else plain_env()
    work = tmp_path / "work"  # the scripts write their SQLite files and folders here, if anywhere
    work.mkdir()
    bad = failures(run_all(SCRIPTS, flags, env, work), error)
    assert not bad, f"{len(bad)} of {len(SCRIPTS)} scripts, framework {how}:\n" + "\n".join(bad)


def one_case_per_framework():
    seen: dict[str, tuple] = {}
    for scenario, case in registry.select(registry.discover(), []):
        seen.setdefault(scenario.framework, (scenario, case))
    return list(seen.values())


@pytest.mark.parametrize(("how", "flags"), [("missing", MISSING), ("broken", BROKEN)])
def test_an_exported_bundle_exits_125_when_its_framework_is_missing_or_broken(how, flags, tmp_path):
    bundles = []
    for scenario, case in one_case_per_framework():
        path = tmp_path / export.script_name(scenario.id, case.id)
        path.write_text(export.script(scenario, case, export.Pin(scenario.framework, "99.0.0", None, "a test pin")))
        bundles.append(path)
    site = broken_site(tmp_path / "site", third_party_packages(SCRIPTS))
    env = plain_env(PYTHONPATH=str(site)) if how == "broken" else plain_env()
    results = run_all(bundles, flags, env, tmp_path)
    for path, (code, stdout, stderr) in results.items():
        verdict = stdout.strip().splitlines()[-1] if stdout.strip() else stderr
        assert code == short_repro.EXIT_CANNOT_JUDGE, f"{path.name}, framework {how}: exit {code}: {verdict[-300:]}"
        assert re.match(r"^[a-z0-9-]+:[a-z0-9-]+(?: on \S+ \S+)?: error: ", verdict), verdict


def test_a_bundle_states_the_exit_codes_it_uses():
    """The docstring of a bundle names the codes its main() returns (0, 3, 125), not 1 and 2."""
    scenario, case = one_case_per_framework()[0]
    text = export.script(scenario, case, export.Pin(scenario.framework, "99.0.0", None, "a test pin"))
    doc = " ".join((ast.get_docstring(ast.parse(text)) or "").split())
    assert "exits 0 when the case is fixed, 3 when it reproduces, 125 otherwise" in doc
    assert "1 when it reproduces" not in doc and "2 otherwise" not in doc
