"""Issue 34, the record's part: every fault that lost a result, wrote a report half, or took in
damaged input, reproduced on a copy of the project (no framework build: ``matrix.run_build`` is
a table of outcomes, as in tests/test_record.py) and shown held.

Each test's docstring names the fault of the issue it guards and what the unchanged code did.
"""

from __future__ import annotations

import ast
import builtins
import errno
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from harness import owners
from harness.errors import UsageError
from harness.execution import matrix, publication
from harness.store import bisect_record, record, staging
from harness.store.harness_info import HarnessInfo
from harness.store.rows import Row
from test_record import RETRY, TOOL, Table, every_adk, files, make_project, run

HARNESS = Path(__file__).resolve().parents[1] / "harness"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """tests/test_record.py's project: an empty root, the index and default sets faked."""
    return make_project(tmp_path, monkeypatch)


def seeded(project, monkeypatch) -> dict[str, bytes]:
    """A record of two scenarios on three releases; returns reports/ as it is then."""
    run(project, monkeypatch, Table(every_adk), "--only", RETRY, "--only", TOOL, "--update-snapshots")
    return files(project / "reports")


def leftovers(directory: Path) -> list[str]:
    return sorted(p.relative_to(directory).as_posix() for p in directory.rglob(".tmp*"))


# --- runs that share a checkout -----------------------------------------------------------------


def test_a_run_that_finishes_meanwhile_keeps_its_rows(project, monkeypatch):
    """Fault: two matrix runs at once both exit 0 and the first run's rows are reverted by the
    second (the record was read at the start and merged at the end, with no lock). Here run B
    finishes while run A is building; A must merge onto B's rows. Before: B's 2.10.0 rows of
    RETRY were reverted to what A read at its start."""
    seeded(project, monkeypatch)
    b_table = Table(lambda s, c, v: REPRO)

    class RunsBMeanwhile(Table):
        def __call__(self, build, cases, options, cache_dir, recorded=None, store=None, keep_warm=frozenset()):
            run(project, monkeypatch, b_table, "google-adk==2.10.0", "--only", RETRY)
            monkeypatch.setattr(matrix, "run_build", self)
            return super().__call__(build, cases, options, cache_dir, recorded, store)

    run(project, monkeypatch, RunsBMeanwhile(every_adk), "google-adk==2.8.0", "--only", TOOL)
    rows = json.loads((project / "reports" / "matrix.json").read_text())["results"]
    b_rows = [r for r in rows if r["scenario"] == RETRY and r["version"] == "2.10.0"]
    assert b_rows and {r["outcome"] for r in b_rows} == {REPRO}


REPRO = "reproduced"


def test_a_second_run_waits_for_the_lock_and_names_its_holder(project, monkeypatch, capsys):
    """Fault: no lock at all. Another process holding reports/.record.lock makes a run wait for it
    and say, in one line, which process holds it; the run then writes its rows."""
    seeded(project, monkeypatch)
    lock = project / "reports" / record.LOCK_NAME
    go = project / "go"  # the holder lets go once the run has said it waits (never on a timer)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time\n"
            f"f = open({str(lock)!r}, 'a+')\n"
            "fcntl.flock(f, fcntl.LOCK_EX)\n"
            "f.seek(0); f.truncate(); f.write(str(os.getpid())); f.flush()\n"
            "print('held', flush=True)\n"
            "deadline = time.monotonic() + 60\n"
            f"while not os.path.exists({str(go)!r}) and time.monotonic() < deadline:\n"
            "    time.sleep(0.05)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    real_log = publication.log

    def log(message: str) -> None:
        real_log(message)
        if message.startswith("waiting:"):
            go.touch()

    monkeypatch.setattr(publication, "log", log)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        status = run(project, monkeypatch, Table(lambda s, c, v: REPRO), "google-adk==2.10.0", "--only", RETRY)
    finally:
        go.touch()
        holder.wait(10)
    assert status in (0, 1)
    err = capsys.readouterr().err
    assert f"waiting: process {holder.pid} holds reports/{record.LOCK_NAME}" in err
    rows = json.loads((project / "reports" / "matrix.json").read_text())["results"]
    assert {r["outcome"] for r in rows if r["scenario"] == RETRY and r["version"] == "2.10.0"} == {REPRO}


@pytest.mark.parametrize("given", ["reports", "reports/", "./reports", "reports/../reports"])
def test_out_cannot_name_the_records_folder(project, monkeypatch, given):
    """Fault: ``--out reports`` replaced the record with the run's own rows (1,764 -> 4), exit 0,
    and printed "the record ... is unchanged". Now: one-line refusal (exit 2), nothing touched,
    nothing run."""
    before = seeded(project, monkeypatch)
    table = Table(every_adk)
    monkeypatch.setattr(matrix, "run_build", table)
    monkeypatch.chdir(project)
    options = matrix.Options(root=project, jobs=1, specs=["google-adk==2.10.0"], only=[RETRY], out=Path(given))
    with pytest.raises(UsageError, match=r"--out .* is the record's own folder") as raised:
        matrix.run(options)
    assert "\n" not in str(raised.value)
    assert table.ran == []
    assert files(project / "reports") == before


def test_candidate_out_cannot_name_the_records_folder(project):
    """Fault: ``python -m harness candidate PATH --out reports`` wrote its own matrix.json over the
    record. Now refused in one line before any build."""
    from harness.execution import candidate

    with pytest.raises(UsageError, match=r"--out .* is the record's own folder"):
        candidate.run("/nonexistent-checkout", project / "reports", project)


# --- all-or-nothing writes ------------------------------------------------------------------------


def _failing_nth_write(monkeypatch, n: int, error: OSError, where: str = "") -> list[str]:
    """From the n-th file opened for writing (whose path contains ``where``) on, opening raises
    ``error``: a disk that fills up mid-way. Both ``open`` and ``os.fdopen`` are covered."""
    seen: list[str] = []
    real_open, real_fdopen = builtins.open, os.fdopen

    def check(name: str) -> None:
        if where in name:
            seen.append(name)
            if len(seen) >= n:
                raise error

    def fake_open(file, mode="r", *args, **kwargs):
        if any(m in mode for m in "wax") and isinstance(file, str | os.PathLike):
            check(os.fspath(file))
        return real_open(file, mode, *args, **kwargs)

    def fake_fdopen(fd, mode="r", *args, **kwargs):
        if any(m in mode for m in "wax"):
            check(os.readlink(f"/proc/self/fd/{fd}"))
        return real_fdopen(fd, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(os, "fdopen", fake_fdopen)
    return seen


def test_a_full_disk_leaves_every_report_as_it_was(project, monkeypatch):
    """Fault: a full disk gave a traceback, left ``.tmp-*`` files and a half-rendered report set
    (matrix.json rewritten, the reports after it not). Now: one line, nothing changed, no temp."""
    before = seeded(project, monkeypatch)
    _failing_nth_write(monkeypatch, 4, OSError(errno.ENOSPC, "No space left on device"), str(project / "reports"))
    with pytest.raises(UsageError, match="No space left on device") as raised:
        run(project, monkeypatch, Table(lambda s, c, v: REPRO), "google-adk==2.10.0", "--only", RETRY)
    monkeypatch.undo()
    assert "\n" not in str(raised.value)
    assert files(project / "reports") == before
    assert leftovers(project / "reports") == []


@pytest.mark.parametrize("refused", [f"{RETRY}.md", f"{RETRY}.svg", "matrix.md"])
def test_a_report_that_cannot_be_replaced_leaves_every_report_as_it_was(project, monkeypatch, refused):
    """Fault: a read-only reports/repro/ (the published short scripts of the time, gone with issue 35)
    gave a traceback after matrix.json, matrix.md and the scenario reports were rewritten. Now any
    report the run cannot replace gives one line, and nothing changed. (The tests run as root, who
    writes through a 0555 folder, so the refusal the kernel would give is raised here.)"""
    before = seeded(project, monkeypatch)
    target = os.fspath(project / "reports" / refused)
    real_replace = os.replace
    tried = []

    def replace(src, dst, *args, **kwargs):
        if os.fspath(dst) == target:
            tried.append(target)
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(dst))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    # The run changes RETRY's outcome, so its report, its grid and matrix.md are rewritten.
    with pytest.raises(UsageError, match="Permission denied") as raised:
        run(project, monkeypatch, Table(lambda s, c, v: REPRO), "--only", RETRY)
    monkeypatch.undo()
    assert tried == [target], "the run never tried to replace the refused report"
    assert "\n" not in str(raised.value)
    assert files(project / "reports") == before
    assert leftovers(project / "reports") == []


def test_rewritten_reports_keep_ordinary_modes(project, monkeypatch):
    """Fault: every rewritten report became mode 0600 (tempfile.mkstemp's); now 0644 under the
    usual umask 022, as a file written with ``open``."""
    old = os.umask(0o022)
    try:
        seeded(project, monkeypatch)
        run(project, monkeypatch, Table(lambda s, c, v: REPRO), "google-adk==2.10.0", "--only", RETRY)
    finally:
        os.umask(old)
    reports = project / "reports"
    modes = {p.relative_to(reports).as_posix(): p.stat().st_mode & 0o777 for p in reports.rglob("*") if p.is_file()}
    assert modes and set(modes.values()) == {0o644}, modes


# --- a run killed while it commits (issue 49) ---------------------------------------------------

# A second run's commit of the record and its reports, killed (os._exit: no finally, no rollback)
# when it has moved ``kill_after`` files into place; a move of ``refuse`` is refused (EACCES),
# so the old files go back, and the kill then comes after ``kill_after`` of those put back.
KILLED_COMMIT = """
import errno, os, sys
from pathlib import Path
from harness.store import record
from harness.store.harness_info import HarnessInfo

reports, kill_after, refuse = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
real_replace, moves, refused = os.replace, [], []

def replace(src, dst):
    if ".tmp-stage-" in os.fspath(src) and ".tmp-stage-" not in os.fspath(dst):  # a move into place
        if refuse and os.fspath(dst).endswith(refuse) and not refused:
            refused.append(dst)
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(dst))
        if len(moves) == kill_after and (refused or not refuse):
            os._exit(9)
        if refused or not refuse:
            moves.append(dst)
    return real_replace(src, dst)

os.replace = replace
with record.transaction(reports) as tx:
    for path in sorted(reports.rglob("*.md")) + sorted(reports.rglob("*.svg")):
        tx.stage.write(path, path.read_text() + "<!-- run 2 -->\\n")
    tx.stage.write(reports / "boundaries" / "new.json", "{}\\n")
    tx.write_record(tx.existing.replace(harness=HarnessInfo.from_json({"run": 2})))
"""


def _killed_commit(reports: Path, kill_after: int, refuse: str = "") -> int:
    env = {**os.environ, "PYTHONPATH": str(HARNESS.parent)}
    script = [sys.executable, "-c", KILLED_COMMIT, str(reports), str(kill_after), refuse]
    done = subprocess.run(script, env=env, capture_output=True, text=True)
    assert done.returncode in (0, 9), done.stderr
    return done.returncode


def _second_run(before: dict[str, bytes], reports: Path) -> dict[str, bytes]:
    """reports/ as the second run of KILLED_COMMIT leaves it when nothing kills it."""
    after = {
        name: text + b"<!-- run 2 -->\n" if name.endswith((".md", ".svg")) else text for name, text in before.items()
    }
    document = record.load(reports)
    assert document is not None
    after["matrix.json"] = record.dumps(
        document.replace(harness=HarnessInfo.from_json({"run": 2})), stored=True
    ).encode()
    after["boundaries/new.json"] = b"{}\n"
    return dict(sorted(after.items()))


def _visible(reports: Path) -> dict[str, bytes]:
    return {k: v for k, v in files(reports).items() if not k.startswith(".")}


@pytest.mark.parametrize("finish", ["read", "write"])
def test_a_run_killed_while_it_moves_its_reports_in_is_finished_by_the_next(project, monkeypatch, tmp_path, finish):
    """Fault (issue 49): kill -9 while the staged reports were moved into place one by one left a
    half-updated set (some scenario reports new, matrix.json and the grids old) for good. Now
    the moves follow a journal: the next read of the record (or the next write of the folder)
    makes the moves the killed run had not made, so every report is of the second run, after
    a kill at any point of the moves."""
    seeded(project, monkeypatch)
    monkeypatch.undo()
    moved = 0
    while True:
        copy = tmp_path / f"copy-{moved}"
        shutil.copytree(project, copy, ignore=shutil.ignore_patterns(".tmp*"))
        reports = copy / "reports"
        before = _visible(reports)
        expected = _second_run(before, reports)
        status = _killed_commit(reports, moved)
        if status == 0:  # every move made: nothing was killed
            assert _visible(reports) == expected and leftovers(reports) == []
            break
        assert status == 9
        half = _visible(reports)
        changed = {name for name in expected if half.get(name) != before.get(name)}
        assert len(changed) == moved, "the kill came after that many moves"
        if finish == "read":
            assert record.load(reports).harness.to_json() == {"run": 2}
        else:
            with staging.Staging(reports):
                pass
        assert _visible(reports) == expected, f"killed after {moved} moves: a half set"
        assert leftovers(reports) == []
        moved += 1
    assert moved > 5


def test_a_run_killed_while_it_puts_the_old_reports_back_is_finished_by_the_next(project, monkeypatch):
    """Fault (issue 49): a run whose move of a report was refused puts back the files it had
    moved; killed meanwhile, it left a half set. The journal says the run was putting back, so
    the next read of the record puts back the rest: every report is as before the run."""
    before = seeded(project, monkeypatch)
    monkeypatch.undo()
    reports = project / "reports"
    assert _killed_commit(reports, 2, refuse="new.json") == 9  # after every report was moved in
    assert len({k for k, v in _visible(reports).items() if before.get(k) != v}) > 2, "half put back"
    assert record.load(reports).harness.to_json() != {"run": 2}
    assert _visible(reports) == {k: v for k, v in before.items() if not k.startswith(".")}
    assert leftovers(reports) == []


def test_a_live_runs_commit_is_never_finished_by_another(project, monkeypatch):
    """The journal of a staging whose owner still runs (this process) is left alone: a reader
    never moves a live run's files."""
    seeded(project, monkeypatch)
    reports = project / "reports"
    with staging.Staging(reports) as stage:
        stage.write(reports / "matrix.md", "new\n")
        assert stage._dir is not None
        (stage._dir / staging.COMMIT).write_text(
            json.dumps({"writes": [["0-matrix.md", "matrix.md"]], "removals": [], "kept": {}})
        )
        assert staging.recover(reports) == []
        assert (reports / "matrix.md").read_text() != "new\n"
        (stage._dir / staging.COMMIT).unlink()
    assert (reports / "matrix.md").read_text() == "new\n"


KILLED_STAGING = """
import os, sys
from pathlib import Path
from harness.store.staging import Staging

reports = Path(sys.argv[1])
with Staging(reports) as stage:
    stage.write(reports / "matrix.md", "x" * 100_000)
    os._exit(9)
"""


def test_staging_folders_that_killed_runs_left_are_removed_by_the_next_run(project, monkeypatch, tmp_path):
    """Fault (issue 49): a run killed while it staged its reports left its ``reports/.tmp-stage-*``
    folder (up to 6.8 MB, hidden by .gitignore) and no later run removed it. Now the next run
    removes every staging folder whose owner is gone: a killed one, one whose pid a later process
    got, and one named before the fix (no owner in its name) once it is an hour old; a live
    process's folder and a fresh unnamed one are kept."""
    before = seeded(project, monkeypatch)
    reports = project / "reports"
    env = {**os.environ, "PYTHONPATH": str(HARNESS.parent)}
    killed = subprocess.run([sys.executable, "-c", KILLED_STAGING, str(reports)], env=env, capture_output=True)
    assert killed.returncode == 9, killed.stderr
    live = subprocess.Popen(["sleep", "60"])
    try:
        started = owners.started_at(live.pid)
        assert started is not None
        alive = reports / f"{staging.STAGE_PREFIX}{live.pid}.{started}-alive"
        reused = reports / f"{staging.STAGE_PREFIX}{live.pid}.{int(started) - 1}-reused"  # its pid, not it
        old, fresh = reports / f"{staging.STAGE_PREFIX}old1", reports / f"{staging.STAGE_PREFIX}fresh1"
        for folder in (alive, reused, old, fresh):
            folder.mkdir()
            (folder / "0-matrix.md").write_text("staged\n")
        hours_ago = time.time() - 2 * 3600  # older than any staging lives
        os.utime(old, (hours_ago, hours_ago))
        assert len(leftovers(reports)) == 5
        run(project, monkeypatch, Table(every_adk), "--only", RETRY, "--only", TOOL)
        assert leftovers(reports) == sorted([alive.name, fresh.name])
    finally:
        live.kill()
        live.wait()
    assert files(reports).keys() == before.keys() | {f"{p.name}/0-matrix.md" for p in (alive, fresh)}
    assert [p.name for p in staging.recover(reports)] == [alive.name]  # its owner is gone now


# --- damaged input ---------------------------------------------------------------------------------


def _damage(project: Path, change) -> None:
    path = project / "reports" / "matrix.json"
    document = json.loads(path.read_text())
    change(document["results"])
    path.write_text(json.dumps(document, indent=2) + "\n")


def _no_source(rows):
    del rows[1]["source"]


def _bad_outcome(rows):
    rows[1]["outcome"] = "maybe"


def _duplicate(rows):
    rows.insert(2, dict(rows[1]))


def _null_version(rows):
    rows[1]["version"] = None


def _garbled_version(rows):
    rows[1]["version"] = "two.nine"
    rows[1]["source"] = "google-adk==two.nine"


def _no_detail(rows):
    del rows[1]["detail"]


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (_no_source, r"has no 'source'"),
        (_bad_outcome, r"outcome 'maybe'; valid: reproduced, fixed, unexpected, not-applicable, error"),
        (_duplicate, r"repeats result 1"),
        (_null_version, r"version None"),
        (_garbled_version, r"version 'two.nine'"),
        (_no_detail, r"has no 'detail'"),
    ],
)
def test_a_damaged_row_is_refused_before_any_work(project, monkeypatch, damage, said):
    """Faults: a row without ``source`` ran every case, then a KeyError traceback; an unknown
    outcome rewrote matrix.json, matrix.md and two reports, then crashed in grid.py; a duplicated
    row or a null version was accepted and rendered ("4 run" where 3 ran). Now each is refused in
    one line naming the row (index and scenario:case@source) and what is valid, before any case
    runs, with nothing touched."""
    seeded(project, monkeypatch)
    _damage(project, damage)
    before = files(project / "reports")
    table = Table(every_adk)
    with pytest.raises(record.RecordError, match=said) as raised:
        run(project, monkeypatch, table, "google-adk==2.10.0", "--only", RETRY)
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("reports/matrix.json: result ")
    assert "@google-adk==" in message or "source" in message
    assert table.ran == []
    assert files(project / "reports") == before


def test_a_damaged_bisect_probe_is_refused_in_one_line(tmp_path):
    """Fault: a probe of reports/bisect.json with an unknown outcome or no version was taken in
    (or crashed with a KeyError in the sort). Now refused in one line naming the probe."""
    path = tmp_path / "bisect.json"
    empty = bisect_record.BisectRecord().to_json()
    good = {"scenario": "s", "case": "c", "framework": "google-adk", "version": "2.9.0", "outcome": "fixed"}
    for bad, said in [
        ({**good, "outcome": "maybe"}, "outcome 'maybe'"),
        ({k: v for k, v in good.items() if k != "version"}, "has no 'version'"),
        ({**good, "version": None}, "version None"),
    ]:
        path.write_text(json.dumps({**empty, "probes": [good, bad]}))
        with pytest.raises(record.RecordError, match=said) as raised:
            bisect_record.load(path)
        assert "probe 1 (s:c@google-adk" in str(raised.value)
        assert "\n" not in str(raised.value)


def test_a_damaged_bisect_range_commit_or_release_list_is_refused_in_one_line(tmp_path):
    """Each part of reports/bisect.json the typed record reads (harness/store/bisect_record.py) is
    refused in one line naming what was wrong and what is valid, never a KeyError or TypeError."""
    path = tmp_path / "bisect.json"
    empty = bisect_record.BisectRecord().to_json()
    good_range = {"scenario": "s", "case": "c", "framework": "google-adk", "from": "2.8.0", "to": "2.9.0"}
    commit = dict.fromkeys(bisect_record.COMMIT_KEYS, "x")
    for damage, said in [
        ({"bisects": [good_range, {**good_range, "to": None}]}, "bisect 1 is not an object with scenario, case"),
        ({"bisects": {"not": "a list"}}, "bisect 0 is not an object"),
        ({"commits": [{**commit, "short": 7}]}, r"commit 0 is not an object with .* \(strings\)"),
        ({"releases": {"google-adk": "2.9.0"}}, "its releases are not framework -> list of versions"),
        ({"commits": [{**commit, "files": [{"path": "a.py"}]}]}, "an entry's optional field cannot be read"),
        ({"schema_version": 4}, "cannot be read .schema_version 4, expected 3"),
    ]:
        path.write_text(json.dumps({**empty, **damage}))
        with pytest.raises(record.RecordError, match=said) as raised:
            bisect_record.load(path)
        assert "\n" not in str(raised.value) and str(raised.value).startswith("reports/bisect.json")


# --- one owner -----------------------------------------------------------------------------------


def rendering_imports(directory: Path) -> list[str]:
    """``file:line`` of every import of harness.rendering in the modules of ``directory``."""
    found = []
    for path in sorted(directory.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            if any(n == "harness.rendering" or n.startswith("harness.rendering.") for n in names):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_the_store_imports_nothing_of_rendering(tmp_path):
    """Fault: store/record.py imported rendering/reports.py (and rendering imported store): the
    record had no owner. The store owns the record and imports nothing of rendering; the check
    is shown to catch a seeded module."""
    assert rendering_imports(HARNESS / "store") == []
    (tmp_path / "seeded.py").write_text("from harness.rendering import reports\n")
    (tmp_path / "seeded_too.py").write_text("def f():\n    import harness.rendering.grid\n")
    assert rendering_imports(tmp_path) == ["seeded.py:1", "seeded_too.py:2"]


def test_the_schema_version_lives_with_the_record():
    """Fault: the record's schema version was a constant of rendering/reports.py."""
    from harness.rendering import reports

    assert record.SCHEMA_VERSION == 5
    assert not hasattr(reports, "SCHEMA_VERSION")


def test_concurrent_threads_serialise_on_the_lock(project):
    """The lock is an flock on its own open file, so two holders in one process exclude each
    other too (a matrix run's threads never take it twice)."""
    (project / "reports").mkdir()
    order: list[str] = []

    def hold(name: str) -> None:
        with record.locked(project / "reports"):
            order.append(f"{name} in")
            time.sleep(0.2)
            order.append(f"{name} out")

    threads = [threading.Thread(target=hold, args=(n,)) for n in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert order[0][0] == order[1][0] and order[2][0] == order[3][0]


# --- a run that could not judge says so --------------------------------------------------------


def test_a_matrix_run_whose_build_errors_everywhere_fails_and_says_so_first(project, monkeypatch, capsys):
    """Fault: a build whose every case ended in ``error`` (an install failure, a server that did
    not start) could end a run with exit 0 (here its results are stored with --update-snapshots,
    so none differs from its snapshot). Now exit 1, and the summary's first line says which
    build could not be judged."""
    seeded(project, monkeypatch)
    capsys.readouterr()
    broken = Table(lambda s, c, v: "error" if v == "2.10.0" else every_adk(s, c, v))
    status = run(project, monkeypatch, broken, "google-adk==2.10.0", "--only", RETRY, "--update-snapshots")
    assert status == 1
    err = capsys.readouterr().err
    lines = err.splitlines()
    summary = lines[next(i for i, line in enumerate(lines) if line.startswith("time: ")) + 1 :]
    assert summary[0].startswith("could not judge google-adk==2.10.0: all ")
    assert "cases ended in error: error" in summary[0]


def _candidate_rows(scenarios, source: str, version: str | None, outcome) -> list[Row]:
    return [
        Row.from_json(
            {
                "scenario": s.id,
                "case": c.id,
                "framework": s.framework,
                "version": version,
                "source": source,
                "outcome": outcome(s, c),
                "detail": "uv pip install failed: no matching distribution for google-adk" * 3,
                "snapshot": "new",
                "backend": c.backend,
                "snapshot_base": None,
                "timeline": "",
            }
        )
        for s in scenarios
        for c in s.cases
    ]


def test_a_candidate_that_cannot_install_fails_and_says_so_first(tmp_path, monkeypatch, capsys):
    """Fault: ``nox -s candidate`` on a checkout that cannot install gave every case ``error``,
    exit 0 and a 115 KB summary. Now exit 1; summary.md says first that the candidate could not
    be judged, and is at most 60,000 characters, saying what was cut."""
    from conftest import ROOT
    from harness.execution import candidate
    from harness.planning import index
    from harness.rendering import summary as summary_mod
    from harness.runtime import registry

    checkout = tmp_path / "adk-python"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text('[project]\nname = "google-adk"\nversion = "2.13.0"\n')
    monkeypatch.setattr(
        index, "final_releases", lambda name, cache_dir: [index.Release("2.13.0", "2026-01-01T00:00:00Z", False)]
    )
    adk = [s for s in registry.discover().values() if s.framework == "google-adk"]

    def fake_matrix(specs, only, out, root, timeout, jobs, *step_and_history):
        if specs[0].startswith("google-adk=="):
            rows = _candidate_rows(adk, specs[0], specs[0].split("==")[1], lambda s, c: "reproduced")
        else:
            rows = _candidate_rows(adk, "local:adk-python", None, lambda s, c: "error")
        return record.Record.of(rows, [], {})

    monkeypatch.setattr(candidate, "_matrix", fake_matrix)
    out = tmp_path / "evidence"
    status = candidate.run(str(checkout), out, ROOT)
    text = (out / "summary.md").read_text()
    assert status == 1
    first = text.split("**Fixed by the candidate")[0]
    assert "could not judge local:adk-python: all " in first
    assert len(text) <= summary_mod.MAX_SUMMARY_CHARS
    assert "This summary was cut at 60,000 characters" in text
    assert "could not judge local:adk-python" in capsys.readouterr().err


def test_the_matrix_job_summary_is_capped_and_names_what_could_not_be_judged(tmp_path):
    """Fault: the PR/job summary had no bound (only diffs were capped: a run where every case
    errored with long details gave hundreds of KB); and a build whose every case errored was
    not named. Now the build comes first and the text is at most 60,000 characters."""
    from harness.rendering import summary as summary_mod
    from harness.store.snapshots import SnapshotStore

    rows = [
        {
            "scenario": f"adk-s{i}",
            "case": "c",
            "framework": "google-adk",
            "version": "2.13.0",
            "source": "google-adk==2.13.0",
            "outcome": "error",
            "detail": "Traceback " * 100,
            "snapshot": "match",
        }
        for i in range(400)
    ]
    text = summary_mod.markdown([Row.from_json(r) for r in rows], ["matrix.json"], SnapshotStore(tmp_path))
    assert len(text) <= summary_mod.MAX_SUMMARY_CHARS
    head = text.split("### Needs a look")[0]
    assert "could not judge google-adk==2.13.0: all 400 cases ended in error" in head
    assert text.rstrip().endswith("reports/matrix.json).")
    path = tmp_path / "matrix.json"
    path.write_text(json.dumps({"schema_version": record.SCHEMA_VERSION, "results": rows}))
    assert summary_mod.main([str(path)]) == 1


def test_a_database_server_that_did_not_start_is_named_as_not_judged():
    """A build whose SQLite cases ran but whose every PostgreSQL case is an error (the server did
    not start) is named by build and backend; a build with one error among answers is not."""
    from harness.runtime.result import CaseResult
    from harness.store.rows import unjudged

    def row(case, backend, outcome, source="google-adk==2.13.0"):
        return Row(CaseResult("s", case, outcome, "d"), "google-adk", source.split("==")[1], source, backend=backend)

    rows = [
        row("a", "sqlite", "fixed"),
        row("a-postgresql", "postgresql", "error"),
        row("b-postgresql", "postgresql", "error"),
        row("a", "sqlite", "error", "google-adk==2.12.0"),
        row("b", "sqlite", "fixed", "google-adk==2.12.0"),
    ]
    assert list(unjudged(rows)) == ["google-adk==2.13.0 on postgresql"]


# --- one result type ---------------------------------------------------------------------------------


def test_rows_round_trip_the_committed_record_byte_for_byte():
    """The record row type serialises exactly as the record is written: every row of the committed
    reports/matrix.json read into a Record (its timelines read from the snapshot store) and written
    back gives the same bytes; so does its JSON read into one as it stands."""
    path = HARNESS.parent / "reports" / "matrix.json"
    loaded = record.load(path.parent)
    assert loaded is not None
    assert record.dumps(loaded, stored=True) == path.read_text()
    assert record.dumps(record.Record.from_json(json.loads(path.read_text())), stored=True) == path.read_text()


def test_the_lock_file_is_empty_between_runs(project, monkeypatch):
    """Holding the lock writes the holder's process id; releasing it empties the file, so reports/
    is the same bytes after two identical runs (tests/test_matrix_e2e.py compares them)."""
    seeded(project, monkeypatch)
    lock = project / "reports" / record.LOCK_NAME
    with record.locked(project / "reports"):
        assert lock.read_text() == str(os.getpid())
    assert lock.read_text() == ""
