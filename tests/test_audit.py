"""``python -m harness audit`` (issue 38): which known bugs of the record affect a release.

The fast tests audit SPECs, lock and requirements files (nothing installed) against the committed
record, with the package index replaced by a fixed list; the slow ones audit fresh environments made
with uv and run the bugs' reproductions there (``--run``: ``scenarios/<id>/repro.py CASE``).
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from harness.commands.cli import main
from harness.planning import audit_targets, index
from harness.planning.builds import NOTHING_TO_RUN
from harness.project import PROJECT
from harness.store import audit
from harness.store.audit import Bug, Knowledge

RETRY = "adk-retry-same-invocation-id"
HANDOFF = "agents-nested-handoff-4hop"
USAGE = "agents-usage-requests-without-usage"  # a bug folder: its script runs under --run
# Releases the fake index has: every release the record and the bisects know, and one newer.
NEWER_ADK = "2.99.0"


@pytest.fixture(autouse=True)
def fixed_index(monkeypatch):
    """The package index as the record knows it, plus google-adk 2.99.0 (a release never measured)."""

    def releases(name, cache_dir):
        known = audit.known_releases(PROJECT.root, name) | ({NEWER_ADK} if name == "google-adk" else set())
        return {v: index.Release(v, "2026-01-01T00:00:00Z", False) for v in known}

    monkeypatch.setattr(index, "releases", releases)


def audit_json(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["audit", *argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def answers(document: dict, framework: str) -> dict[str, dict]:
    (release,) = [r for r in document["releases"] if r["framework"] == framework]
    return {b["id"]: b for b in release["bugs"]}


def test_adk_2_8_0_has_the_duplicate_user_turn_and_not_the_over_correction(capsys):
    """Done when: with google-adk 2.8.0 audit lists the duplicate user turn (first fixed 2.9.0, measured),
    not the over-correction (retry-different-message, the non-regression case); exit 1."""
    code, document = audit_json(capsys, "google-adk==2.8.0")
    assert code == 1
    bugs = answers(document, "google-adk")
    for case in ("resumable-resume", "non-resumable-retry"):
        bug = bugs[f"{RETRY}:{case}"]
        assert (bug["outcome"], bug["basis"], bug["first_fixed"], bug["kind"]) == (
            "reproduced",
            "measured",
            "2.9.0",
            "bug",
        )
        assert bug["reproduces"] and bug["links"] and bug["check"].endswith(f"scenarios/{RETRY}/repro.py {case}")
    over = bugs[f"{RETRY}:retry-different-message"]
    assert (over["outcome"], over["kind"], over["reproduces"]) == ("fixed", "non-regression", False)


def test_adk_2_13_0_is_the_reverse(capsys):
    """Done when: with 2.13.0 the over-correction reproduces (no fix measured on 2.x) and the duplicate does not."""
    code, document = audit_json(capsys, "google-adk==2.13.0")
    bugs = answers(document, "google-adk")
    assert code == 1
    assert bugs[f"{RETRY}:retry-different-message"]["reproduces"]
    assert bugs[f"{RETRY}:retry-different-message"]["first_fixed"] is None
    assert not bugs[f"{RETRY}:non-resumable-retry"]["reproduces"]
    assert not bugs[f"{RETRY}:resumable-resume"]["reproduces"]


def test_openai_agents_0_18_3_has_the_nested_handoff_duplication(capsys):
    """Done when: openai-agents 0.18.3 lists the nested handoff duplication, first fixed 0.19.0, measured."""
    code, document = audit_json(capsys, "openai-agents==0.18.3")
    bug = answers(document, "openai-agents")[f"{HANDOFF}:nested-4hop"]
    assert code == 1
    assert (bug["outcome"], bug["basis"], bug["first_fixed"]) == ("reproduced", "measured", "0.19.0")


def test_a_release_between_measured_ones_is_inferred_inside_a_bisected_range(capsys):
    """openai-agents 0.18.0 was never run: 0.17.8 and 0.18.3 both reproduce inside a bisected range."""
    _, document = audit_json(capsys, "openai-agents==0.18.0")
    bug = answers(document, "openai-agents")[f"{HANDOFF}:nested-4hop"]
    assert (bug["outcome"], bug["basis"], bug["inferred_from"]) == ("reproduced", "inferred", ["0.17.8", "0.18.3"])
    assert bug["first_fixed"] == "0.19.0"


def test_a_release_no_bisect_covers_is_unknown_never_clean(capsys):
    """A release the record never measured and no bisected range covers: unknown, and the text says it is not clean."""
    code, document = audit_json(capsys, f"google-adk=={NEWER_ADK}")
    bugs = answers(document, "google-adk")
    assert code == 0
    assert {b["basis"] for b in bugs.values()} == {"unknown"}
    assert not any(b["reproduces"] for b in bugs.values())
    main(["audit", f"google-adk=={NEWER_ADK}"])
    assert "not a clean bill" in capsys.readouterr().out


def _knowledge(points: dict[str, str], ranges=(("1.0.0", "2.5.0"),), errors=None) -> Knowledge:
    bug = Bug("adk-x", "c", "google-adk", "bug", "a bug.", "", "", ())
    releases = ("1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0", "2.2.0", "2.3.0", "2.4.0", "2.5.0", "2.6.0")
    return Knowledge(bug, points, dict.fromkeys(points, "matrix"), dict(errors or {}), tuple(ranges), releases)


def test_a_release_that_installs_no_framework_is_not_applicable_for_every_bug_never_unknown():
    """google-adk 0.0.1 is a name placeholder: one install showed it has no google.adk package, which
    holds for every case, run or not (issue 51: 13 bugs never probed on it were 'unknown' there)."""
    k = _knowledge({"1.0.0": "reproduced"})
    assert k.answer("0.0.1").basis == "unknown"
    why = f"installs no google.adk package {NOTHING_TO_RUN}"
    empty = Knowledge(**{**k.__dict__, "empty": {"0.0.1": why}})
    answer = empty.answer("0.0.1")
    assert (answer.outcome, answer.basis, answer.reason) == ("not-applicable", "measured", f"0.0.1 {why}")
    assert empty.answer("1.0.0").outcome == "reproduced"


def test_the_record_s_placeholder_release_is_not_applicable(capsys):
    main(["audit", "google-adk==0.0.1", "--format", "json"])
    (release,) = json.loads(capsys.readouterr().out)["releases"]
    assert {b["outcome"] for b in release["bugs"]} == {"not-applicable"}
    assert all(NOTHING_TO_RUN in b["reason"] for b in release["bugs"])


def test_inference_stays_inside_a_bisected_range_and_one_release_line():
    """Never guess outside a bisected range, across a boundary, across release lines, or over an error."""
    k = _knowledge({"1.0.0": "reproduced", "1.2.0": "reproduced", "2.0.0": "reproduced", "2.2.0": "fixed"})
    assert k.answer("1.1.0").basis == "inferred"
    assert k.answer("2.1.0").basis == "unknown"  # neighbours disagree: a boundary lies between
    assert k.answer("1.9.0").basis == "unknown"  # above it on 1.x nothing was answered (2.0.0 is another line)
    ranged = k.answer("2.0.0")  # 2.1.0 between was never answered: the fix is a range, not 2.2.0
    assert (ranged.fixed_since, ranged.first_fixed, ranged.first_fixed_note) == ("2.0.0", "2.2.0", "untested: 2.1.0")
    outside = _knowledge({"1.0.0": "reproduced", "1.2.0": "reproduced"}, ranges=())
    assert outside.answer("1.1.0").basis == "unknown"
    errored = _knowledge({"1.0.0": "reproduced", "1.2.0": "reproduced"}, errors={"1.1.0": "install failed: no wheel"})
    assert errored.answer("1.1.0").basis == "unknown"
    # An unknown that was run says why it gave no answer (issue 50: each remaining unknown named with why).
    assert errored.answer("1.1.0").reason == "1.1.0 was run but gave no answer (error: install failed: no wheel)"


LOCK = """version = 1
requires-python = ">=3.11"

[[package]]
name = "google-adk"
version = "2.8.0"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "openai-agents"
version = "0.18.3"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "httpx"
version = "0.28.1"
source = { registry = "https://pypi.org/simple" }
"""
REQUIREMENTS = """# pinned by hand
-r base.txt
google-adk[db]==2.8.0 \\
    --hash=sha256:0000000000000000000000000000000000000000000000000000000000000000
httpx>=0.27  # not a framework: any specifier is fine
"""
PYLOCK = """lock-version = "1.0"
created-by = "uv"

[[packages]]
name = "google-adk"
version = "2.8.0"

[[packages]]
name = "openai_agents"
version = "0.18.3"
"""


def test_lock_and_requirements_files_give_the_same_answers_as_the_specs(tmp_path, capsys):
    """Done when: a uv.lock, a pylock.toml and a requirements file pinning the releases give the same
    answers as the SPECs, without installing anything."""
    (tmp_path / "uv.lock").write_text(LOCK)
    (tmp_path / "pylock.toml").write_text(PYLOCK)
    (tmp_path / "base.txt").write_text("openai-agents==0.18.3\n")
    (tmp_path / "requirements.txt").write_text(REQUIREMENTS)
    # Issue 50: a project's pyproject.toml was refused ("'[project]' is not a requirement").
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "app"\ndependencies = ["google-adk==2.8.0", "httpx", "openai-agents==0.18.3"]\n'
    )
    expected = {}
    for spec in ("google-adk==2.8.0", "openai-agents==0.18.3"):
        _, document = audit_json(capsys, spec)
        expected[spec.partition("==")[0]] = document["releases"][0]["bugs"]
    for name in ("uv.lock", "pylock.toml", "requirements.txt", "pyproject.toml"):
        code, document = audit_json(capsys, str(tmp_path / name))
        assert code == 1, name
        assert {r["framework"]: r["bugs"] for r in document["releases"]} == expected, name


def _fake_python(tmp_path: Path, found: dict) -> Path:
    """An executable that answers the installed-versions query as an interpreter with ``found`` would."""
    path = tmp_path / "bin" / "python"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho '{json.dumps(found)}'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda p: "google-adk>=2.0", "pins no single release"),
        (lambda p: "google-adk==2.8.*", "pins no single release"),
        (lambda p: "google-adk @ file:///src/adk-python", "pins no single release"),
        (lambda p: "google-adk==2.8.7", "is not a release on the package index"),
        (lambda p: "requests==2.0", "names neither framework"),
        (lambda p: _write(p / "data.json", '{"a": [1, 2]}'), "is not a requirements file, uv.lock or pylock.toml"),
        (lambda p: _write(p / "requirements.txt", "httpx==0.28.1\n"), "pins neither"),
        (lambda p: _write(p / "uv.lock", "version = 1\n[[package]\n"), "is not a uv.lock"),
        (lambda p: _write(p / "r.txt", "google-adk~=2.8\n"), "pins no single release"),
        # Issue 49: an editable framework line was skipped without a word; two pins were both audited.
        (lambda p: _write(p / "r.txt", "-e ./adk-python\nhttpx==0.28.1\n"), "is an editable install"),
        (lambda p: _write(p / "r.txt", "google-adk==2.8.0\ngoogle-adk==2.9.0\n"), "pins google-adk twice"),
        (lambda p: _write(p / "pyproject.toml", '[project]\ndependencies = ["google-adk>=2"]\n'), "pins no single"),
        (lambda p: str(_fake_python(p, {"google-adk": None, "openai-agents": None})), "neither google-adk nor"),
        (lambda p: str(p), "a folder with no bin/python (nor .venv/bin/python)"),
        (lambda p: str(p / "missing" / "uv.lock"), "no such file or folder"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, make, words):
    """Bad input (a range that pins nothing, a file that is no lock or requirements file, an environment
    without either framework, a release the index does not have): one line on stderr, exit 2."""
    assert main(["audit", make(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err


def _write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def test_run_needs_an_environment(capsys):
    assert main(["audit", "google-adk==2.8.0", "--run"]) == 2
    assert "--run needs an interpreter or environment" in capsys.readouterr().err


def test_an_interpreter_is_read_and_the_default_skips_the_harness_own(tmp_path, monkeypatch, capsys):
    """The default target is the `python` first on PATH that is not the harness's own environment."""
    fake = _fake_python(tmp_path, {"google-adk": "2.8.0", "openai-agents": None})
    own_bin = Path(sys.prefix) / "bin"
    monkeypatch.setenv("PATH", os.pathsep.join([str(own_bin), str(fake.parent)]))
    for name in audit_targets.ACTIVE_ENV_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert audit_targets.default_python() == str(fake)
    code, document = audit_json(capsys)
    assert code == 1
    # A fake interpreter that cannot say its version is audited for the default one (3.11).
    assert document["target"] == {"kind": "interpreter", "label": str(fake), "python": str(fake), "interpreter": "3.11"}
    assert [r["version"] for r in document["releases"]] == ["2.8.0"]


def test_run_shows_where_the_script_differs_from_the_record(tmp_path, capsys):
    """--run: each script's verdict in the audited environment beside the record's, and where they differ.
    The interpreter is a stand-in whose every script says reproduced (exit 3): on openai-agents 0.20.0 the
    record says the Responses case reproduces (agrees) and the Chat Completions one is fixed (differs), and
    exit is 1. It runs the bug's script with the case as its argument (scenarios/<id>/repro.py CASE)."""
    fake = _fake_python(tmp_path, {"google-adk": None, "openai-agents": "0.20.0"})
    calls = tmp_path / "calls"
    fake.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-I" ]; then echo \'{"google-adk": null, "openai-agents": "0.20.0"}\'; exit 0; fi\n'
        f'echo "$@" >> {calls}\n'
        'echo "verdict: reproduced: stand-in"; exit 3\n'
    )
    only = f"{USAGE}:responses,{USAGE}:chat-completions"
    code, document = audit_json(capsys, str(fake), "--run", "--only", only)
    bugs = answers(document, "openai-agents")
    assert code == 1
    assert bugs[f"{USAGE}:responses"]["run"]["agreement"] == "agrees"
    over = bugs[f"{USAGE}:chat-completions"]
    assert over["run"] == {"verdict": "reproduced", "agreement": "differs", "line": "verdict: reproduced: stand-in"}
    assert over["reproduces"]  # measured here: the bug is in this environment whatever the record says
    script = PROJECT.root / "scenarios" / USAGE / "repro.py"
    # Besides the scripts, the audit asks the interpreter its version once (``-c ...``).
    ran = [c for c in calls.read_text().splitlines() if not c.startswith("-c ")]
    assert sorted(ran) == [f"{script} chat-completions", f"{script} responses"]
    main(["audit", str(fake), "--run", "--only", only])
    text = capsys.readouterr().out
    assert "DIFFERS from the record's fixed" in text and "1 agree with the record, 1 differ" in text


def test_a_project_folder_is_read_through_its_venv(tmp_path, capsys):
    """A project folder whose environment is .venv (uv's default) is audited through .venv/bin/python."""
    fake = _fake_python(tmp_path / ".venv", {"google-adk": None, "openai-agents": "0.18.3"})
    code, document = audit_json(capsys, str(tmp_path), "--only", HANDOFF)
    assert code == 1
    assert (document["target"]["kind"], document["target"]["python"]) == ("environment", str(fake))


def test_only_narrows_and_exit_0_when_nothing_reproduces(capsys):
    code, document = audit_json(capsys, "google-adk==2.13.0", "--only", f"{RETRY}:non-resumable-retry")
    assert code == 0
    assert [b["id"] for b in document["releases"][0]["bugs"]] == [f"{RETRY}:non-resumable-retry"]


def test_controls_are_not_bugs(capsys):
    """A control case (behaviour that must hold everywhere) is never listed as a bug."""
    _, document = audit_json(capsys, "google-adk==2.8.0")
    ids = {b["id"] for b in document["releases"][0]["bugs"]}
    assert "adk-repeated-tool-call:different-args" not in ids
    assert "adk-repeated-tool-call:across-steps" in ids


# --- fresh environments (slow: uv installs the release) ----------------------------------------


def _record_date(source: str) -> str:
    document = json.loads((PROJECT.reports / "matrix.json").read_text())
    return next(e["exclude_newer"] for e in document["environments"] if e["source"] == source)


def _fresh_environment(folder: Path, spec: str) -> Path:
    """``uv venv`` + ``uv pip install SPEC --exclude-newer <its date in the record>``."""
    subprocess.run(["uv", "venv", "-q", "-p", "3.11", str(folder)], check=True)
    python = folder / "bin" / "python"
    install = ["uv", "pip", "install", "-q", "-p", str(python), spec, "--exclude-newer", _record_date(spec)]
    subprocess.run(install, check=True)
    return python


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "reproduces", "does_not"),
    [
        ("google-adk==2.8.0", [f"{RETRY}:non-resumable-retry"], [f"{RETRY}:retry-different-message"]),
        ("google-adk==2.13.0", [f"{RETRY}:retry-different-message"], [f"{RETRY}:non-resumable-retry"]),
        ("openai-agents==0.18.3", [f"{HANDOFF}:nested-4hop"], []),
        ("openai-agents==0.20.0", [f"{USAGE}:responses"], [f"{USAGE}:chat-completions"]),
    ],
)
def test_fresh_environment_audit_and_run_agree(tmp_path, capsys, spec, reproduces, does_not):
    """Done when: in a fresh environment of each release, audit lists the bug (measured) and not the other,
    and --run's verdict, measured there with the environment's interpreter, agrees with the record."""
    folder = tmp_path / "env"
    _fresh_environment(folder, spec)
    only = ",".join(reproduces + does_not)
    code, document = audit_json(capsys, str(folder), "--run", "--only", only)
    assert code == 1
    assert document["target"]["kind"] == "environment"
    bugs = answers(document, spec.partition("==")[0])
    for bug_id in reproduces:
        assert bugs[bug_id]["reproduces"] and bugs[bug_id]["basis"] == "measured"
        assert bugs[bug_id]["run"]["verdict"] == "reproduced" and bugs[bug_id]["run"]["agreement"] == "agrees"
        assert bugs[bug_id]["run"]["line"].startswith("verdict: reproduced")
    for bug_id in does_not:
        assert not bugs[bug_id]["reproduces"]
        assert bugs[bug_id]["run"]["verdict"] == "fixed" and bugs[bug_id]["run"]["agreement"] == "agrees"


def test_strict_fails_on_an_unknown_answer_and_the_text_leads_with_the_unknowns(capsys):
    """Issue 50: a gate that passed on nothing known (0 reproduce, every answer unknown, exit 0)
    now fails with --strict, and the count line says the unknowns first."""
    assert main(["audit", f"google-adk=={NEWER_ADK}"]) == 0
    counts = [line for line in capsys.readouterr().out.splitlines() if "of the record's" in line]
    assert counts and re.fullmatch(
        r"  [1-9][0-9]* unknown, 0 reproduces, .* \(of the record's \d+ google-adk bugs\)", counts[0]
    )
    assert main(["audit", f"google-adk=={NEWER_ADK}", "--strict"]) == 1
    assert "--strict:" in capsys.readouterr().err
    # A release with a bug that reproduces exits 1 with or without --strict.
    code, _ = audit_json(capsys, "google-adk==2.13.0", "--strict")
    assert code == 1


@pytest.mark.parametrize(
    ("version", "yanked", "status", "words"),
    [
        ("2.0.0b1", False, "pre-release", "google-adk 2.0.0b1 is a pre-release: the record measures final releases"),
        ("2.98.0", True, "yanked", "google-adk 2.98.0 is yanked from the package index: the record measures final"),
        ("2.13.0", False, "final", None),
    ],
)
def test_a_pre_release_or_a_yanked_release_is_said_apart(monkeypatch, capsys, version, yanked, status, words):
    """Issue 50: pre-releases and yanked releases are said apart: the record measures final ones only, so
    their unknowns are by design, said in a note (text, Markdown) and a status field (JSON)."""
    known = audit.known_releases(PROJECT.root, "google-adk") | {version}
    monkeypatch.setattr(
        index,
        "releases",
        lambda name, cache_dir: {v: index.Release(v, "2026-01-01T00:00:00Z", yanked and v == version) for v in known},
    )
    _, document = audit_json(capsys, f"google-adk=={version}")
    assert document["releases"][0]["status"] == status
    for form in ("text", "markdown"):
        main(["audit", f"google-adk=={version}", "--format", form])
        out = " ".join(capsys.readouterr().out.split())
        assert (words in out) if words else ("the record measures final releases only" not in out)


@pytest.mark.parametrize(
    "spec", ["google-adk==2.8.0", "google-adk==2.13.0", "openai-agents==0.18.0", f"google-adk=={NEWER_ADK}"]
)
def test_every_answer_is_in_exactly_one_bucket(capsys, spec):
    """Issue 50: 1.20.0's counts (30 + 11 + 12 of 54) left its one unexpected result in no bucket."""
    _, document = audit_json(capsys, spec)
    for release in document["releases"]:
        counts = release["counts"]
        assert sum(n for k, n in counts.items() if k != "bugs") == counts["bugs"] == len(release["bugs"])
        assert counts["reproduces"] == sum(b["reproduces"] for b in release["bugs"])


def test_the_default_target_is_the_active_virtual_environment(tmp_path, monkeypatch, capsys):
    """Issue 50: with a venv active, the audit read the first `python` on PATH (a pyenv shim), not the
    venv. nox sets VIRTUAL_ENV to its own session: its audit session passes the user's on."""
    venv = tmp_path / "venv"
    _fake_python(venv, {"google-adk": "2.8.0", "openai-agents": None})
    other = _fake_python(tmp_path / "shim", {"google-adk": "2.13.0", "openai-agents": None})
    monkeypatch.setenv("PATH", str(other.parent))
    monkeypatch.setenv("VIRTUAL_ENV", str(Path(sys.prefix)))  # nox's own: never the target
    monkeypatch.setenv("HARNESS_USER_VIRTUAL_ENV", str(venv))
    _code, document = audit_json(capsys)
    assert document["target"] == {
        "kind": "environment",
        "label": str(venv),
        "python": str(venv / "bin" / "python"),
        "interpreter": "3.11",
    }
    monkeypatch.delenv("HARNESS_USER_VIRTUAL_ENV")
    _code, document = audit_json(capsys)
    assert document["target"]["python"] == str(other)


def test_a_relative_path_is_the_callers_under_nox(tmp_path, monkeypatch, capsys):
    """Issue 50: `nox -f PROJECT/noxfile.py -s audit -- requirements.txt` from another folder read the
    path from the project's folder (nox runs there) and failed; nox now names the caller's folder."""
    (tmp_path / "requirements.txt").write_text("google-adk==2.8.0\n")
    monkeypatch.setenv("HARNESS_CALLER_DIR", str(tmp_path))
    _code, document = audit_json(capsys, "requirements.txt")
    assert document["target"]["kind"] == "requirements" and document["target"]["label"] == "requirements.txt"


def test_to_answers_can_i_upgrade_from_the_record(capsys):
    """`audit google-adk==1.16.0 --to 1.17.0 --no-measure` (issue 50): the record's grid measured the pair
    breaking (events.usage_metadata), the migration command is named with its first reader, a bug whose
    case is not applicable on 1.16.0 is not said to be brought by the move, and the exit is 1."""
    code = main(["audit", "google-adk==1.16.0", "--to", "1.17.0", "--no-measure"])
    out = capsys.readouterr().out
    assert code == 1
    moved = out[out.index("moving google-adk 1.16.0 -> 1.17.0") :]
    assert "adk-database-session-upgrade:carry-over: reproduced (the record's grid)" in moved
    assert "no such column: events.usage_metadata" in moved
    assert "'adk migrate session'" in moved and "needs a reader >=1.22.1" in moved
    # The one bug the record measures brought by this move (google-genai 1.45+ under 1.17.0, issue 51's
    # adk-openapi-nullable-anyof); the case not applicable on 1.16.0 is not among them.
    brought = moved[moved.index("BROUGHT BY THE MOVE") :]
    assert (
        "adk-openapi-nullable-anyof:nullable-field: 1.16.0: fixed (measured); 1.17.0: reproduced (measured)" in brought
    )
    assert "adk-database-list-sessions-order" not in brought.split("\n\n")[0]
    assert "adk-database-list-sessions-order:app-wide: 1.16.0: not-applicable (measured)" in moved
    code = main(["audit", "google-adk==1.16.0", "--to", "1.17.0", "--no-measure", "--format", "json"])
    move = json.loads(capsys.readouterr().out)["move"]
    assert move["breaks"] and {u["outcome"] for u in move["upgrades"]} == {"reproduced"}


def test_to_lists_a_pair_the_grid_lacks_and_crosses_each_break_on_the_way(capsys):
    """1.16.0 -> 1.19.0 is not in the grid: with --no-measure it is named not measured, never clean, and the
    breaks of the grid inside the move are shown (1.19.0's input_transcription among them)."""
    main(["audit", "google-adk==1.16.0", "--to", "1.19.0", "--no-measure"])
    out = capsys.readouterr().out
    assert "adk-database-session-upgrade:carry-over: not measured" in out
    assert "carry-over 1.18.0 -> 1.19.0" in out and "events.input_transcription" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["google-adk==1.16.0", "--to", "1.16.0"], "is the audited release"),
        (["google-adk==1.16.0", "--to", "9.9.9"], "9.9.9 is not a release"),
        (["google-adk==1.16.0", "--to", "openai-agents==0.2.0"], "name one release of one audited framework"),
    ],
)
def test_to_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    assert main(["audit", *argv, "--no-measure"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err


@pytest.mark.slow
def test_to_measures_a_pair_the_grid_lacks(capsys):
    """The Done-when of issue 50: 1.16.0 -> 1.19.0 on SQLite is measured now, in the two releases' builds,
    and breaks; the answer names input_transcription (on the way) and 'adk migrate session'."""
    assert main(["audit", "google-adk==1.16.0", "--to", "1.19.0", "--only", "adk-database-list-sessions-order"]) == 1
    captured = capsys.readouterr()
    assert "adk-database-session-upgrade:carry-over: reproduced (measured now)" in captured.out
    assert "events.input_transcription" in captured.out and "'adk migrate session'" in captured.out
    assert "--to: measuring" in captured.err


def _venv_with(tmp_path: Path, dists: dict[str, tuple[str, list[str]]]) -> Path:
    """A real virtual environment whose site-packages holds only these distributions' metadata."""
    import subprocess

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python3*/site-packages")
    for name, (version, requires) in dists.items():
        info = site / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
        lines += [f"Requires-Dist: {r}" for r in requires]
        (info / "METADATA").write_text("\n".join(lines) + "\n")
    return venv


def test_the_audit_names_a_dependency_that_differs_from_the_record(tmp_path, capsys):
    """Issue 50's Done-when: openai-agents 0.6.9 with today's openai (2.54.0; the record's build of 0.6.9
    has 2.15.0): the audit says so, in text and JSON; with the record's version it says nothing."""
    requires = ["openai<3,>=2.9", "pydantic<3,>=2.10"]
    venv = _venv_with(tmp_path, {"openai-agents": ("0.6.9", requires), "openai": ("2.54.0", [])})
    main(["audit", str(venv)])
    out = capsys.readouterr().out
    assert "your environment differs from the record's build of openai-agents 0.6.9: openai 2.54.0 here" in out
    assert "2.15.0 measured" in out and "pydantic not installed here" in out
    _, document = audit_json(capsys, str(venv))
    differs = {d["package"]: d for d in document["releases"][0]["environment_differs"]}
    assert differs["openai"] == {"package": "openai", "here": "2.54.0", "measured": "2.15.0"}
    same = _venv_with(tmp_path / "same", {"openai-agents": ("0.6.9", ["openai<3,>=2.9"]), "openai": ("2.15.0", [])})
    main(["audit", str(same)])
    assert "differs from the record" not in capsys.readouterr().out


def test_run_prints_a_line_per_script_and_a_status_between(tmp_path, monkeypatch, capsys):
    """--run is never silent (issue 50: 502 s without a word): a line per script done and, while scripts
    run, the status line (scripts done of all, what runs, the estimate) after each quiet spell."""
    from harness.execution import audit_run, progress

    monkeypatch.setattr(progress, "QUIET_SECONDS", 0.3)
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\nsleep 1\necho 'verdict: fixed: the fake'\nexit 0\n")
    fake.chmod(0o755)
    script = tmp_path / "repro.py"
    script.write_text("")
    runs = audit_run.run_all(str(fake), {"a:one": (script, "one"), "b:two": (script, "two")}, timeout=30, jobs=1)
    assert {r.verdict for r in runs.values()} == {"fixed"}
    err = capsys.readouterr().err
    assert "[--run 1/2] a:one: fixed" in err and "[--run 2/2] b:two: fixed" in err
    assert "audit --run: 0/2 scripts done" in err and "a:one running" in err
    assert "audit --run: 1/2 scripts done" in err


def test_a_not_applicable_or_unexpected_verdict_of_run_is_an_answer():
    """Issue 50: --run's not-applicable counted as 'no answer'. Only a script that could not judge (an
    error) gives no answer; not-applicable and unexpected agree or differ like the two judged words."""
    from harness.rendering.audit_report import AGREES, DIFFERS, NEW, NO_ANSWER, Finding

    bug = Bug("s", "c", "google-adk", "bug", "d.", "e", "c", ())
    measured = {o: audit.Answer(o, audit.MEASURED, "matrix") for o in ("reproduced", "fixed", "not-applicable")}
    unknown = audit.Answer(audit.UNKNOWN, audit.UNKNOWN)
    assert Finding(bug, measured["reproduced"], "not-applicable").agreement == DIFFERS
    assert Finding(bug, measured["not-applicable"], "not-applicable").agreement == AGREES
    assert Finding(bug, measured["fixed"], "unexpected").agreement == DIFFERS
    assert Finding(bug, unknown, "not-applicable").agreement == NEW
    assert Finding(bug, measured["fixed"], "error (exit 1)").agreement == NO_ANSWER


def test_markdown_to_a_file_with_an_ignore_list(tmp_path, capsys):
    """Issue 50's gate for a CI job: `--format markdown -o FILE` writes the summary (a table row per bug
    that reproduces), and `--ignore FILE` keeps an ignored bug shown with its reason, counted, but not
    failing: with every reproducing bug ignored the exit is 0."""
    ids = [f"{HANDOFF}:nested-4hop", f"{HANDOFF}:nested-4hop-streamed", f"{HANDOFF}:identical-messages-kept"]
    ignore = tmp_path / "ignore.txt"
    ignore.write_text(f"# why each is fine here\n{ids[0]}  we never nest handoffs\n")
    out = tmp_path / "summary.md"
    argv = ["audit", "openai-agents==0.18.3", "--only", HANDOFF, "--format", "markdown", "-o", str(out)]
    assert main([*argv, "--ignore", str(ignore)]) == 1
    assert capsys.readouterr().out == ""
    summary = out.read_text()
    assert summary.startswith("### openai-agents 0.18.3") and "**0 unknown**, 3 reproduces" in summary
    assert f"| reproduces (ignored: we never nest handoffs) | `{ids[0]}` |" in summary
    assert "[#2171](https://github.com/openai/openai-agents-python/issues/2171)" in summary
    ignore.write_text("".join(f"{i} nested handoffs are not used\n" for i in ids))
    assert main([*argv, "--ignore", str(ignore)]) == 0


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("no-such:bug reason\n", "line 1: 'no-such:bug' is not a bug id"),
        (f"{HANDOFF}:nested-4hop\n", "has no reason after it"),
    ],
)
def test_a_bad_ignore_file_or_output_is_one_line_and_exit_2(tmp_path, capsys, content, words):
    ignore = tmp_path / "ignore.txt"
    ignore.write_text(content)
    assert main(["audit", "openai-agents==0.18.3", "--ignore", str(ignore)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err
    assert main(["audit", "openai-agents==0.18.3", "-o", str(tmp_path / "no" / "such" / "x.md")]) == 2
    assert "not a file in an existing folder" in capsys.readouterr().err
