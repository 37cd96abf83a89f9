"""Issue 34, fault "the bisect protocol is broken for 39 of 88 published scripts", kept on the
reproductions of issue 35 (``scenarios/<id>/repro.py``, the one script per bug a maintainer runs and
the harness imports): every failure of a script's own exits 125 (git bisect run's "skip") with a
verdict line naming the outcome, never 1 (which `git bisect run` reads as "bad").

Before the fix 56 of the 88 short scripts of the time imported the framework (or defined their fakes
on it) outside their catch-all: with the framework missing 42 exited 1, with it broken 56 did.

Two ways the framework fails, as a maintainer meets them:
- missing: ``python -I -S`` (no site-packages at all), the interpreter of an environment that
  lacks the framework and its dependencies;
- broken: ``python -S`` with a folder on PYTHONPATH holding, for every package the scripts
  import outside the standard library (google, agents, openai, ...), a stub whose import
  raises RuntimeError (a half-installed or incompatible release), and the frameworks' metadata.

And the script's own code failing: ``observe`` or ``judge`` raising, ``NotApplicable``, a judge
that says ``unexpected``: each exits 125 with its verdict line (the shared runner block, run in
process with ``observe`` and ``judge`` replaced). The scripts are found by globbing, so each bug is
guarded as it is converted. Every script runs in a process of its own, many at once.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import ROOT
from harness.runtime import frameworks, registry, reproduction

SCRIPTS = sorted(ROOT.glob(f"scenarios/*/{reproduction.SCRIPT}"))
EXIT_CANNOT_JUDGE = 125
FIXED = "fixed"
VERDICT = re.compile(r"^verdict: error: (\w+): ")
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


def run_all(
    paths: list[Path], flags: tuple[str, ...], env: dict[str, str], cwd: Path, cases: dict[Path, str] | None = None
) -> dict[Path, tuple]:
    """(exit status, stdout, stderr) of each script, run as ``python FLAGS SCRIPT [CASE]``, many at once."""

    def one(path: Path) -> tuple:
        argv = [sys.executable, *flags, str(path), *([cases[path]] if cases else [])]
        proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        return proc.returncode, proc.stdout, proc.stderr

    with ThreadPoolExecutor(max_workers=max(4, 2 * (os.cpu_count() or 1))) as pool:
        return dict(zip(paths, pool.map(one, paths), strict=True))


def plain_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    return {**env, **extra}


def failures(results: dict[Path, tuple], expected_error: str | None) -> list[str]:
    """One line per script that did not exit 125 with a ``verdict: error: ...`` line for each of its
    cases (naming ``expected_error`` when given), its last line one of them."""
    bad = []
    for path, (code, stdout, stderr) in results.items():
        module = load(path)
        lines = stdout.strip().splitlines()
        verdicts = [line for line in lines if line.startswith("verdict: ")]
        errors = [m.group(1) for line in verdicts if (m := VERDICT.match(line))]
        ok = (
            code == EXIT_CANNOT_JUDGE
            and len(errors) == len(verdicts) == len(module.CASES)
            and lines[-1] in verdicts
            and all(expected_error in (None, e) for e in errors)
        )
        if not ok:
            said = (lines or stderr.strip().splitlines() or ["(nothing)"])[-1]
            bad.append(f"{path.relative_to(ROOT)}: exit {code}: {said[:160]}")
    return bad


def load(path: Path):
    """The script as a module of its own (not the harness's copy: these tests replace its functions)."""
    spec = importlib.util.spec_from_file_location(f"faults_{path.parent.name.replace('-', '_')}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_scripts_are_found():
    """The glob finds every bug folder's script (a moved folder must not leave this test guarding nothing)."""
    folders = {s.id for s in registry.discover().values() if (ROOT / "scenarios" / s.id / reproduction.SCRIPT).exists()}
    assert SCRIPTS and {p.parent.name for p in SCRIPTS} == folders


@pytest.mark.parametrize(("how", "flags", "error"), [("missing", MISSING, None), ("broken", BROKEN, "RuntimeError")])
def test_every_script_exits_125_when_its_framework_is_missing_or_broken(how, flags, error, tmp_path):
    """Every case (no case named: each in turn), and one case named."""
    site = broken_site(tmp_path / "site", third_party_packages(SCRIPTS))
    env = plain_env(PYTHONPATH=str(site)) if how == "broken" else plain_env()
    work = tmp_path / "work"  # the scripts write their SQLite files and folders here, if anywhere
    work.mkdir()
    bad = failures(run_all(SCRIPTS, flags, env, work), error)
    assert not bad, f"{len(bad)} of {len(SCRIPTS)} scripts, framework {how}:\n" + "\n".join(bad)
    first = {p: next(iter(load(p).CASES)) for p in SCRIPTS}
    for path, (code, stdout, _) in run_all(SCRIPTS, flags, env, work, first).items():
        last = stdout.strip().splitlines()[-1] if stdout.strip() else ""
        assert code == EXIT_CANNOT_JUDGE and VERDICT.match(last), (
            f"{path.parent.name} {first[path]}: exit {code}: {last}"
        )


def faked(path: Path, observe, judge):
    """The script with ``observe`` and ``judge`` replaced: its runner block is what runs."""
    module = load(path)

    async def fake_observe(say, **params):
        say("a line")
        return observe(module)

    module.observe = fake_observe
    module.judge = judge
    return module


def run_main(module, argv: list[str]) -> tuple[int, list[str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = module.main(argv)
    return code, out.getvalue().splitlines()


def not_applicable(module):
    raise module.NotApplicable("the release lacks the API")


def crashed(module):
    raise KeyError("missing")


OWN_FAILURES = [
    ("fixed", lambda m: {}, lambda facts: ("fixed", "all good"), 0, "verdict: fixed: all good"),
    (
        "reproduced",
        lambda m: {},
        lambda facts: ("reproduced", "the bug\n  seen"),
        3,
        "verdict: reproduced: the bug seen",
    ),
    ("unexpected", lambda m: {}, lambda facts: ("unexpected", "a third way"), 125, "verdict: unexpected: a third way"),
    ("not-applicable", not_applicable, lambda facts: ("fixed", ""), 125, "verdict: not-applicable: the release lacks"),
    ("observe-raises", crashed, lambda facts: ("fixed", ""), 125, "verdict: error: KeyError: 'missing'"),
    ("judge-raises", lambda m: {}, lambda facts: facts["absent"], 125, "verdict: error: KeyError: 'absent'"),
]


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.parent.name for p in SCRIPTS])
def test_each_outcome_and_each_failure_of_the_scripts_own_code_has_its_exit_code(path):
    """The runner block of each script: 0 fixed, 3 reproduced, 125 for unexpected, not-applicable and
    any exception of ``observe`` or ``judge``, with a one-line verdict that names the outcome."""
    for name, observe, judge, code, verdict in OWN_FAILURES:
        module = faked(path, observe, judge)
        case = next(iter(module.CASES))
        got, lines = run_main(module, [case])
        assert (got, lines[0], lines[1]) == (code, f"== {case}", "a line"), f"{path.parent.name}, {name}: {lines}"
        assert lines[-1].startswith(verdict), f"{path.parent.name}, {name}: {lines[-1]}"
    # With no case named, each runs: 3 if any reproduced, 0 if every one is fixed, else 125.
    for said, code in (([FIXED], 0), (["unexpected", FIXED], 125), ([FIXED, "reproduced", "error"], 3)):
        verdicts = iter(said * len(module.CASES))  # the cases in turn (a script of one case: the first)
        module = faked(path, lambda m: {}, lambda facts, v=verdicts: (next(v), "why"))
        if len(module.CASES) < len(set(said)) and code != 0:
            continue
        got, lines = run_main(module, [])
        assert got == code, f"{path.parent.name}, every case saying {said}: exit {got}: {lines}"


def _first_agents_import(function) -> int:
    for node in ast.walk(function):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "agents" for a in node.names):
            return node.lineno
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "agents":
            return node.lineno
    raise AssertionError("observe() imports nothing of agents")


AGENTS_SCRIPTS = [
    *sorted(f"scenarios/{p.parent.name}/repro.py" for p in (ROOT / "scenarios").glob("agents-*/repro.py")),
    "harness/rendering/templates/repro_openai_agents.py",  # what a new scenario starts from
]


@pytest.mark.parametrize("script", AGENTS_SCRIPTS, ids=str)
def test_an_openai_agents_script_sets_for_itself_what_the_harness_sets_and_a_placeholder_key(script):
    """Issue 45: the worker set OPENAI_API_KEY="" and a standalone run had no key: on openai-agents
    0.0.3 (which builds a client on import) the record said reproduced where the published command
    said error. Now the case environment holds only what each script sets before it imports agents."""
    from harness.runtime.runner import CASE_ENVIRONMENT

    tree = ast.parse((ROOT / script).read_text())
    [observe] = [n for n in tree.body if isinstance(n, ast.AsyncFunctionDef | ast.FunctionDef) and n.name == "observe"]
    before = _first_agents_import(observe)
    assigned = {}
    for node in ast.walk(observe):
        if isinstance(node, ast.Assign) and node.lineno < before:
            [target] = node.targets
            if isinstance(target, ast.Subscript) and ast.unparse(target.value) == "os.environ":
                assigned[ast.literal_eval(target.slice)] = ast.literal_eval(node.value)
    assert {k: assigned.get(k) for k in CASE_ENVIRONMENT} == CASE_ENVIRONMENT
    assert assigned.get("OPENAI_API_KEY", "").startswith("sk-placeholder")
    assert not any("KEY" in name for name in CASE_ENVIRONMENT)
