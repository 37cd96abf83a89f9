"""``python -m harness export SCENARIO[:CASE]`` (issue 35): a bug's reproduction for a maintainer who
will not clone the harness. The script is written as it is (byte for byte scenarios/<id>/repro.py,
what the harness ran: nothing generated or stamped) and stderr gives, per case, the command that runs
it on a release (``uv run --with FW==V --exclude-newer DATE repro.py CASE``): by default the record's
newest release where the case reproduces and the first after it where it is fixed, with the dependency
date the record's environment of that release had; ``--release NAME==VERSION`` for another. Bad input
is refused in one line, exit 2. The reports show the same commands. ``--pytest``: tests/test_pytest_export.py.
"""

from __future__ import annotations

import shlex

import pytest

from conftest import ROOT
from harness.commands import cli
from harness.planning import versions
from harness.rendering import reports, reproduce
from harness.runtime import registry, reproduction
from harness.runtime.outcomes import FIXED, REPRODUCED
from harness.store import record
from harness.store.environment import Environment
from harness.store.staging import Staging

SCENARIOS = registry.discover()
RECORD = record.load(ROOT / "reports") or record.Record()
CONVERTED = [s for s in SCENARIOS.values() if reproduce.script_file(s.id).is_file()]
USAGE = "agents-usage-requests-without-usage"
CASE = "chat-completions"


def environment(source: str) -> Environment | None:
    return RECORD.environment(source)


def commands(err: str) -> list[str]:
    """The commands of export's stderr: the text between backticks of each ``- `` item, or the item."""
    out = []
    for line in err.splitlines():
        if line.startswith("- "):
            out.append(line.split("`")[1] if "`" in line else line[2:])
    return out


def argv_of(command: str) -> dict:
    """A command's --with requirements, --exclude-newer date, --python interpreter, script and case."""
    argv = shlex.split(command)
    assert argv[:2] == ["uv", "run"], command
    withs = [argv[i + 1] for i, a in enumerate(argv) if a == "--with"]
    date = argv[argv.index("--exclude-newer") + 1] if "--exclude-newer" in argv else None
    python = argv[argv.index("--python") + 1] if "--python" in argv else None
    rest = [
        a
        for i, a in enumerate(argv[2:], 2)
        if not a.startswith("--") and argv[i - 1] not in ("--with", "--exclude-newer", "--python")
    ]
    return {
        "with": withs,
        "date": date,
        "python": python,
        "script": rest[0],
        "case": rest[1] if len(rest) > 1 else None,
    }


@pytest.fixture
def usage_recorded():
    runs = reproduce.runs(reproduce.Bug.of(SCENARIOS[USAGE]), CASE, RECORD)
    if [r.outcome for r in runs] != [REPRODUCED, FIXED]:
        pytest.skip(f"the record has no reproduced and fixed release of {USAGE}:{CASE}")
    return runs


@pytest.mark.parametrize("scenario", CONVERTED, ids=[s.id for s in CONVERTED])
def test_the_script_is_written_byte_for_byte_as_the_harness_runs_it(scenario, tmp_path, capsys):
    out = tmp_path / "any-name.py"
    assert cli.main(["export", scenario.id, "-o", str(out)]) == 0
    assert out.read_bytes() == reproduce.script_file(scenario.id).read_bytes()
    err = capsys.readouterr().err
    assert f"wrote {out} ({reproduce.script_path(scenario.id)}, as the harness runs it)" in err
    # Every case's commands name the case and the file as written, each with its dependency date.
    for command in commands(err):
        parsed = argv_of(command)
        assert parsed["script"] == str(out) and parsed["case"] in {c.id for c in scenario.cases}, command
        assert parsed["date"], f"no --exclude-newer: {command}"


def test_the_commands_are_the_records_reproduced_and_fixed_releases_with_their_dates(
    tmp_path, monkeypatch, capsys, usage_recorded
):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["export", f"{USAGE}:{CASE}"]) == 0
    script = tmp_path / reproduction.SCRIPT  # the default file: repro.py in the current folder
    assert script.read_bytes() == reproduce.script_file(USAGE).read_bytes()
    err = capsys.readouterr().err
    assert "run it with uv (exit 3 reproduced, 0 fixed, 125 otherwise):" in err
    items = [line for line in err.splitlines() if line.startswith("- ")]
    assert len(items) == 2, err
    rows = {str(r.version): r.outcome for r in reproduce.case_rows(RECORD, USAGE, CASE)}
    for item, run, outcome in zip(items, usage_recorded, (REPRODUCED, FIXED), strict=True):
        assert item.startswith(f"- {outcome} on {run.version}: `"), item
        assert rows[run.version] == outcome
        parsed = argv_of(commands(item)[0])
        assert parsed["with"][0] == f"openai-agents=={run.version}"
        assert parsed["date"] == getattr(environment(f"openai-agents=={run.version}"), "exclude_newer", None)
        assert (parsed["script"], parsed["case"]) == (reproduction.SCRIPT, CASE)
    # The reproduced release is the newest one; the fixed release the first after it.
    reproduced, fixed = (v for v in (r.version for r in usage_recorded))
    assert all(versions.key(v) <= versions.key(reproduced) for v, o in rows.items() if o == REPRODUCED)
    assert not any(versions.key(reproduced) < versions.key(v) < versions.key(fixed) for v in rows)


def test_a_whole_scenario_gives_the_commands_of_every_case(tmp_path, capsys, usage_recorded):
    assert cli.main(["export", USAGE, "-o", str(tmp_path / "r.py")]) == 0
    cases = [argv_of(c)["case"] for c in commands(capsys.readouterr().err)]
    assert sorted(set(cases)) == sorted(c.id for c in SCENARIOS[USAGE].cases)


def test_dash_writes_the_script_to_stdout_and_the_commands_to_stderr(tmp_path, monkeypatch, capsys, usage_recorded):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["export", f"{USAGE}:{CASE}", "-o", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out == reproduce.script_file(USAGE).read_text(encoding="utf-8")
    assert not list(tmp_path.iterdir()), "nothing written"
    assert [argv_of(c)["script"] for c in commands(captured.err)] == [reproduction.SCRIPT] * 2


def test_release_names_the_release_the_commands_run_it_on(tmp_path, monkeypatch, capsys):
    from harness.execution import environments

    # A release of the record: the date of its environment there.
    recorded = "openai-agents==0.19.4"
    if not environment(recorded):
        pytest.skip(f"the record has no {recorded}")
    assert cli.main(["export", f"{USAGE}:{CASE}", "--release", recorded, "-o", str(tmp_path / "r.py")]) == 0
    (only,) = commands(capsys.readouterr().err)
    parsed = argv_of(only)
    assert parsed["with"] == [recorded] and parsed["date"] == getattr(environment(recorded), "exclude_newer", None)
    # A release outside the record: the date of its upload (asked of the index, here faked).
    asked = []

    def dependency_date(build, cache):
        asked.append(build.source)
        return "2026-01-02T03:04:05Z"

    monkeypatch.setattr(environments, "dependency_date", dependency_date)
    from harness.planning import index, versions
    from harness.project import PROJECT

    known = [v for v in index.releases("openai-agents", PROJECT.cache) if versions.is_final(v)]
    outside = next(f"openai-agents=={v}" for v in reversed(known) if not environment(f"openai-agents=={v}"))
    assert cli.main(["export", USAGE, "--release", outside, "-o", str(tmp_path / "r.py")]) == 0
    listed = commands(capsys.readouterr().err)
    assert asked == [outside]
    assert len(listed) == len(SCENARIOS[USAGE].cases)
    assert all(argv_of(c)["with"] == [outside] for c in listed)
    assert all(argv_of(c)["date"] == "2026-01-02T03:04:05Z" for c in listed)


GENERIC, GENERIC_CASE = "agents-output-schema-generic-dict", "dict-str-int"


def _generic_runs(python: str) -> dict[str, str]:
    """The record's outcome per release of generic-dict:dict-str-int on ``python`` (issue 46)."""
    return {str(r.version): r.outcome for r in reproduce.case_rows(RECORD, GENERIC, GENERIC_CASE, python)}


def test_a_case_whose_verdicts_differ_by_interpreter_names_it_in_every_command(tmp_path, capsys):
    """On 3.10 dict-str-int is fixed where 3.11 reproduces it (issue 46): a command without --python
    would give whatever the reader's interpreter gives, so each names 3.11, the interpreter the
    outcome beside it was measured on; a case that agrees everywhere names none."""
    if REPRODUCED not in _generic_runs("3.11").values() or REPRODUCED in _generic_runs("3.10").values():
        pytest.skip(f"the record does not hold {GENERIC}:{GENERIC_CASE} differing on 3.10")
    assert cli.main(["export", f"{GENERIC}:{GENERIC_CASE}", "-o", str(tmp_path / "r.py")]) == 0
    listed = commands(capsys.readouterr().err)
    assert listed and all(argv_of(c)["python"] == "3.11" for c in listed), listed
    assert cli.main(["export", f"{USAGE}:{CASE}", "-o", str(tmp_path / "r.py")]) == 0
    assert all(argv_of(c)["python"] is None for c in commands(capsys.readouterr().err))


def test_python_chooses_the_releases_from_that_interpreters_results(tmp_path, capsys):
    on_310 = _generic_runs("3.10")
    if not on_310 or REPRODUCED in on_310.values():
        pytest.skip(f"the record has no 3.10 results of {GENERIC}:{GENERIC_CASE} without the bug")
    assert cli.main(["export", f"{GENERIC}:{GENERIC_CASE}", "--python", "3.10", "-o", str(tmp_path / "r.py")]) == 0
    err = capsys.readouterr().err
    items = [line for line in err.splitlines() if line.startswith("- ")]
    # No release reproduces on 3.10: one command, the newest fixed release, run on 3.10.
    newest = max(on_310, key=versions.key)
    assert len(items) == 1 and items[0].startswith(f"- fixed on {newest}: `"), items
    assert argv_of(commands(items[0])[0])["python"] == "3.10"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["no-such-bug"], "unknown scenario 'no-such-bug'"),
        ([f"{USAGE}:no-such-case"], "no-such-case"),
        ([f"{USAGE}:{CASE}", "--release", "./some/checkout"], "name one release, NAME==VERSION"),
        ([f"{USAGE}:{CASE}", "--release", "openai-agents>=0.2"], "name one release, NAME==VERSION"),
        ([f"{USAGE}:{CASE}", "--release", "google-adk==2.13.0"], "is a google-adk release; "),
        ([f"{USAGE}:{CASE}", "--release", "openai-agents==0.99.0"], "0.99.0 is not on the package index"),
        ([f"{USAGE}:{CASE}", "--pytest", "--release", "openai-agents==0.24.0"], "--release does not apply"),
        ([f"{USAGE}:{CASE}", "--python", "3.99"], "no CPython 3.99 on this machine"),
        ([f"{USAGE}:{CASE}", "--python", "3.10,3.12"], "export writes commands for one interpreter"),
    ],
)
def test_bad_input_is_refused_in_one_line_with_exit_2(args, says, tmp_path, capsys):
    out = tmp_path / "r.py"
    assert cli.main(["export", *args, "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and says in err[0], err
    assert not out.exists(), "nothing written"


def test_a_scenario_without_a_bug_folder_is_refused(tmp_path, capsys):
    """An old-form scenario (a module, no scenarios/<id>/repro.py) has no script to export."""
    old = next((s for s in SCENARIOS.values() if s not in CONVERTED), None)
    if old is None:
        pytest.skip("every scenario is a bug folder")
    assert cli.main(["export", old.id, "-o", str(tmp_path / "r.py")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {old.id} has no {reproduce.script_path(old.id)}"]


def test_the_reports_give_the_same_commands_and_a_rerender_is_byte_identical(tmp_path, usage_recorded):
    with Staging(tmp_path) as stage:
        reports.write_all(RECORD, SCENARIOS, tmp_path, stage)
    first = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    text = (tmp_path / f"{USAGE}.md").read_text()
    path = reproduce.script_path(USAGE)
    assert f"[`{path}`](../{path})" in text
    # The commands name the script as repro.py beside them: they run from any folder (issue 45).
    for run in reproduce.runs(reproduce.Bug.of(SCENARIOS[USAGE]), CASE, RECORD):
        assert f"- {run.outcome} on {run.version}: `{run.command}`" in text
        assert run.command.split()[-2] == "repro.py" and path not in run.command
    assert not (tmp_path / "repro").exists(), "no copy of a script is rendered"
    with Staging(tmp_path) as stage:
        reports.write_all(RECORD, SCENARIOS, tmp_path, stage)
    again = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert again == first
