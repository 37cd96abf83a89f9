"""Mutation testing of the oracles (harness/mutants/, harness/commands/mutants.py, ``nox -s mutants``).

A tiny synthetic bug folder (no framework code: its script says a number of events the proof
builds set in process) whose judge has mutants the proofs kill, mutants they do not, and one listed
as equivalent. The Release path builds an environment, so that test is marked ``slow``.
"""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.commands import mutants
from harness.mutants import apply, mutations, sites
from harness.mutants.equivalents import EQUIVALENTS_FILE, MutantsError, load_equivalents
from harness.runtime import registry
from harness.runtime.outcomes import ERROR, FIXED, REPRODUCED
from harness.runtime.runner import run_case
from scratch import write_bug

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_ID = "adk-mutants-fixture"

FIXTURE = '''
"""A synthetic bug: the script says ``n`` events; the proof builds (bug.py) set n in process."""

from __future__ import annotations

from harness.runtime.outcomes import FIXED, REPRODUCED, UNEXPECTED

CASES = {"basic": {}}
STATE = {"n": 2}  # unpatched: the bug (two events)


class NotApplicable(Exception):
    pass


async def observe(say):
    say(f"{STATE['n']} events")
    return {"n": STATE["n"], "labels": ["a", "b"]}


def _count(facts):
    """A helper only the oracles call: mutated with them."""
    return sum(1 for _ in range(facts["n"]))


def _label(facts):
    """A helper called only inside the detail: text, not mutated."""
    return facts["labels"][0] if facts["labels"] else "none"


def judge(facts):
    n = _count(facts)
    where = "at the start" if n == 0 else f"after {n - 1} others"
    if n > 9:
        return UNEXPECTED, f"{n} events ({_label(facts)}), more than the fake can make"
    if n >= 2:
        return REPRODUCED, f"{n} events {where}"
    if n == 1:
        return FIXED, "1 event"
    return UNEXPECTED, f"{n} events"
'''

DECLARATION = '''
import contextlib
from pathlib import Path

from harness.runtime import reproduction
from harness.runtime.declaration import Bug, CaseRole, Edge, InProcess, Release


@contextlib.contextmanager
def events(n):
    """The script's fake makes ``n`` events while this holds."""
    state = reproduction.load_script(Path(__file__).with_name(reproduction.SCRIPT)).STATE
    saved = state["n"]
    state["n"] = n
    try:
        yield
    finally:
        state["n"] = saved


PROOFS = {"reproduced": InProcess("two events", lambda: events(2)), "fixed": InProcess("one event", lambda: events(1))}

BUG = Bug(
    links=("https://example.org/bug",),
    description="a synthetic bug",
    expected="one event",
    cases={"basic": CaseRole("the fake's events", **PROOFS)},
)
'''

# The same script with another judge, one that loops, as the bug adk-mutants-loop (case "loop").
LOOP_JUDGE = """def judge(facts):
    i = 0
    while i < facts["n"]:
        i += 1
    return (REPRODUCED, "looped twice") if i == 2 else (FIXED, f"looped {i} times")
"""
LOOP = FIXTURE.split("def judge(facts):")[0].replace('CASES = {"basic": {}}', 'CASES = {"loop": {}}') + LOOP_JUDGE

# judge's mutants: the proofs make n = 1 and 2, so the three mutants of the `if n > 9` line
# survive (2 and 1 are far from it); everything else is killed. Two edges kill those three.
GUARD_SURVIVORS = {"compare: n > 9 -> n >= 9", "constant: n > 9 -> n > 10", "constant: n > 9 -> n > 8"}
EQUIVALENT = """
[[mutant]]
scenario = "adk-mutants-fixture"
function = "judge"
mutation = "compare: n > 9 -> n >= 9"
reason = "the fixture's fake never makes 9 events"
"""


@pytest.fixture
def fixture_dir(tmp_path):
    directory = tmp_path / "scenarios"
    write_bug(directory, FIXTURE_ID, FIXTURE, DECLARATION)
    return directory


def load(directory):
    return registry.discover(directory)[FIXTURE_ID]


def test_every_operator_and_what_is_left_alone(fixture_dir):
    plan = mutations.plan(load(fixture_dir), ROOT, fixture_dir)
    texts = [(m.function, m.mutation) for m in plan.mutants]
    # the oracle and the helper only oracles call; _label is only called inside a detail
    assert {f for f, _ in texts} == {"judge", "_count"}
    judge = {t for f, t in texts if f == "judge"}
    assert judge == GUARD_SURVIVORS | {
        "if: if n > 9 -> if not n > 9",
        "if: if n >= 2 -> if not n >= 2",
        "compare: n >= 2 -> n > 2",
        "constant: n >= 2 -> n >= 3",
        "constant: n >= 2 -> n >= 1",
        "compare: n == 1 -> n != 1",
        "constant: n == 1 -> n == 2",
        "constant: n == 1 -> n == 0",
        "verdict: REPRODUCED -> FIXED",
        "verdict: FIXED -> REPRODUCED",
    }  # nothing in `where = ...` (a text variable), in f-strings, or in a detail beside UNEXPECTED
    assert {t for f, t in texts if f == "_count"} == {
        "constant: (1 for _ in range(facts['n'])) -> (2 for _ in range(facts['n']))",
        "constant: (1 for _ in range(facts['n'])) -> (0 for _ in range(facts['n']))",
    }
    assert {m.cases for m in plan.mutants} == {("basic",)}
    assert len({m.key for m in plan.mutants}) == len(plan.mutants) == len(plan.codes)


def test_boolean_and_not_operators(tmp_path):
    directory = tmp_path / "scenarios"
    text = FIXTURE.replace("    if n > 9:\n", "    if n > 9 and not facts.get('quiet') or n < 0:\n")
    write_bug(directory, FIXTURE_ID, text, DECLARATION)
    judge = {m.mutation for m in mutations.plan(load(directory), ROOT, directory).mutants if m.function == "judge"}
    assert {
        "boolop: n > 9 and (not facts.get('quiet')) or n < 0 -> (n > 9 and (not facts.get('quiet'))) and n < 0",
        "boolop: n > 9 and (not facts.get('quiet')) -> n > 9 or not facts.get('quiet')",
        "not: not facts.get('quiet') -> facts.get('quiet')",
    } <= judge, judge


def test_each_mutant_judges_the_proofs_observation(fixture_dir):
    """In process: the case replays once; each mutant of its oracle judges a copy of what it saw,
    and one that loops forever is stopped and counted as an error."""
    write_bug(fixture_dir, "adk-mutants-loop", LOOP, DECLARATION.replace('{"basic": ', '{"loop": '))
    scenario = registry.discover(fixture_dir)["adk-mutants-loop"]
    plan = mutations.plan(scenario, ROOT, fixture_dir)
    sink: dict = {}
    case = scenario.case("loop")
    with case.proofs["fixed"].patch():
        result = run_case(scenario, apply.judging_case(case, plan, sink, timeout=0.5))
    assert result.outcome == FIXED  # the real oracle still gives the proof its verdict
    said = {m.mutation: sink[m.key] for m in plan.mutants}
    assert said["constant: i += 1 -> i += 0"] == (ERROR, "the oracle did not return within 0.5s")
    assert said["constant: i += 1 -> i += 2"] == (REPRODUCED, "looped twice")  # one step overshoots to 2
    assert said["compare: i < facts['n'] -> i <= facts['n']"] == (REPRODUCED, "looped twice")
    assert said["constant: i = 0 -> i = 1"] == (FIXED, "looped 1 times")  # starts where it ends: survives here


def test_killed_survived_and_equivalent(fixture_dir, tmp_path):
    equivalents = tmp_path / "eq.toml"
    equivalents.write_text(EQUIVALENT)
    out = io.StringIO()
    status = mutants.run(
        [], root=ROOT, scenarios_dir=fixture_dir, equivalents_file=equivalents, out=out, mutant_timeout=0.5, jobs=1
    )
    text = out.getvalue()
    assert status == 1, text
    survived = {line.split("  ")[-1] for line in text.splitlines() if line.startswith("SURVIVED")}
    assert survived == GUARD_SURVIVORS - {"compare: n > 9 -> n >= 9"}, text
    assert "SURVIVED adk-mutants-fixture  scenarios/adk-mutants-fixture/repro.py:" not in text  # outside the root
    row = next(line for line in text.splitlines() if line.startswith("adk-mutants-fixture")).split()
    made, killed, surv, eq = map(int, row[1:])
    assert (surv, eq) == (2, 1) and made == killed + surv + eq, text
    assert "[1/1] adk-mutants-fixture: in-process proofs: 2/2 proofs held unmutated, 15 mutants judged" in text


def test_a_clean_run_exits_0_and_a_false_or_stale_equivalent_fails(fixture_dir, tmp_path):
    equivalents = tmp_path / "eq.toml"
    reasons = "".join(
        f'[[mutant]]\nscenario = "adk-mutants-fixture"\nfunction = "judge"\nmutation = "{m}"\nreason = "fixture"\n'
        for m in sorted(GUARD_SURVIVORS)
    )
    equivalents.write_text(reasons)
    out = io.StringIO()
    assert (
        mutants.run(
            ["adk-mutants-fixture"],
            root=ROOT,
            scenarios_dir=fixture_dir,
            equivalents_file=equivalents,
            out=out,
            mutant_timeout=0.5,
        )
        == 0
    ), out.getvalue()
    assert "SURVIVED" not in out.getvalue() and "PROBLEM" not in out.getvalue()

    equivalents.write_text(
        reasons
        + textwrap.dedent("""
        [[mutant]]
        scenario = "adk-mutants-fixture"
        function = "judge"
        mutation = "compare: n >= 2 -> n > 2"
        reason = "wrong: a proof kills it"

        [[mutant]]
        scenario = "adk-mutants-fixture"
        function = "judge"
        mutation = "compare: n == 7 -> n != 7"
        reason = "stale: no such mutant"
    """)
    )
    out = io.StringIO()
    assert (
        mutants.run([], root=ROOT, scenarios_dir=fixture_dir, equivalents_file=equivalents, out=out, mutant_timeout=0.5)
        == 1
    )
    problems = [line for line in out.getvalue().splitlines() if line.startswith("PROBLEM")]
    assert len(problems) == 2, out.getvalue()
    said = "says adk-mutants-fixture judge 'compare: n >= 2 -> n > 2' is equivalent, but basic's reproduced proof"
    assert f"{said} (in process) kills it" in problems[0]
    assert "no mutant of adk-mutants-fixture judge is 'compare: n == 7 -> n != 7'" in problems[1]


def test_edges_kill_the_mutants_that_move_a_line_no_build_reaches(fixture_dir, tmp_path):
    declaration = DECLARATION.replace(
        'CaseRole("the fake\'s events", **PROOFS)',
        'CaseRole("the fake\'s events", **PROOFS, edges=('
        'Edge("reproduced", "nine events: still the bug", lambda obs: obs.facts.update(n=9)), '
        'Edge("unexpected", "ten events: more than the fake makes", lambda obs: obs.facts.update(n=10))))',
    )
    write_bug(fixture_dir, FIXTURE_ID, FIXTURE, declaration)
    out = io.StringIO()
    assert (
        mutants.run(
            [],
            root=ROOT,
            scenarios_dir=fixture_dir,
            equivalents_file=tmp_path / "none.toml",
            out=out,
            mutant_timeout=0.5,
        )
        == 0
    ), out.getvalue()
    assert "in-process proofs: 4/4 proofs held unmutated" in out.getvalue()
    row = next(line for line in out.getvalue().splitlines() if line.startswith("adk-mutants-fixture")).split()
    assert row[1:] == ["15", "15", "0", "0"]


def test_a_proof_that_fails_unmutated_is_a_problem_not_a_kill(fixture_dir, tmp_path):
    declaration = DECLARATION.replace(
        '"fixed": InProcess("one event", lambda: events(1))', '"fixed": InProcess("no event", lambda: events(0))'
    )
    write_bug(fixture_dir, FIXTURE_ID, FIXTURE, declaration)
    out = io.StringIO()
    assert (
        mutants.run(
            [],
            root=ROOT,
            scenarios_dir=fixture_dir,
            equivalents_file=tmp_path / "none.toml",
            out=out,
            mutant_timeout=0.5,
        )
        == 1
    )
    assert (
        "PROBLEM adk-mutants-fixture: basic's fixed proof (in process) does not say fixed unmutated: "
        "unexpected: 0 events"
    ) in out.getvalue()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[[mutant]]\nscenario = 'x'\n", "[[mutant]] number 1: missing or empty function, mutation, reason"),
        ("[[mutant]]\nscenario='x'\nfunction='f'\nmutation='m'\nreason=' '\n", "missing or empty reason"),
        ("[[mutant]]\nscenario='x'\nfunction='f'\nmutation='m'\nreason='r'\nwhy='?'\n", "unknown keys why"),
        ("[[mutant]]\nscenario='x'\nfunction='f'\nmutation='m'\nreason='r'\noccurrence=0\n", "occurrence must be"),
        ("mutant = 3\n", "only [[mutant]] tables"),
        ("[[mutant]\n", "not valid TOML"),
    ],
)
def test_a_malformed_equivalents_file_is_refused(tmp_path, content, message):
    path = tmp_path / "mutants-equivalent.toml"
    path.write_text(content)
    with pytest.raises(MutantsError, match=message.replace("[", r"\[").replace("?", r"\?")):
        load_equivalents(path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["mutants", "nope"], "error: unknown scenario 'nope'; valid: adk-"),
        (["mutants", "--jobs", "0"], "error: argument --jobs: 0 is out of range; valid: a whole number of proof runs"),
        (["mutants", "--timeout", "-1"], "error: argument --timeout: -1 is out of range"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    out = subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], out.stderr


def test_the_shipped_equivalents_file_is_well_formed():
    entries = load_equivalents(ROOT / EQUIVALENTS_FILE)
    known = registry.discover()
    assert all(e.scenario in known for e in entries), [e.scenario for e in entries if e.scenario not in known]


@pytest.mark.slow
def test_a_release_proof_runs_in_its_environment_once_with_every_mutant(fixture_dir, tmp_path):
    declaration = DECLARATION.replace(
        'PROOFS = {"reproduced": InProcess("two events", lambda: events(2)),',
        'PROOFS = {"reproduced": Release("google-adk==2.13.0", "unpatched, the fake makes two events"),',
    )
    write_bug(fixture_dir, FIXTURE_ID, FIXTURE, declaration)
    out = io.StringIO()
    status = mutants.run(
        [], root=ROOT, scenarios_dir=fixture_dir, equivalents_file=tmp_path / "none.toml", out=out, mutant_timeout=0.5
    )
    text = out.getvalue()
    assert "adk-mutants-fixture: google-adk==2.13.0: 1/1 proofs held unmutated, 15 mutants judged" in text, text
    assert "adk-mutants-fixture: in-process proofs: 1/1 proofs held unmutated, 15 mutants judged" in text, text
    survived = {line.split("  ")[-1] for line in text.splitlines() if line.startswith("SURVIVED")}
    assert status == 1 and survived == GUARD_SURVIVORS, text
    # the same figures as with both proofs in process: e.g. REPRODUCED -> FIXED is only
    # killed by the reproduced proof, which ran in the release's environment
    row = next(line for line in text.splitlines() if line.startswith("adk-mutants-fixture")).split()
    assert row[1:] == ["15", "12", "3", "0"], text


def test_helpers_that_only_make_text_are_not_mutated():
    import ast

    tree = ast.parse(
        textwrap.dedent("""
        from harness.runtime.timeline import quote as q

        def _label(key):
            if key[0] == "message":
                return f"{key[1]} {q(key[2], 40)}"
            return q(key[1], 40)

        def _plural(n):
            return _label(("x", str(n))) + ("s" if n != 1 else "")

        def _count(obs):
            return len(obs.facts["items"]) if obs.facts else "none"

        def _outcome(ok):
            return "fixed" if ok else "unexpected"

        def _category(exc):
            if exc is None:
                return "accepted"
            return "refused" if "stale" in str(exc) else "failed"
    """)
    )
    makers = sites.text_makers(tree)
    assert {"_label", "_plural", "q", "str", "repr"} <= makers
    # a number on one branch; outcome words; words an oracle compares (literals only) are not text
    assert not {"_count", "_outcome", "_category"} & makers


def test_a_category_an_oracle_compares_is_mutated(tmp_path):
    """A helper returning words the oracle compares ("refused" if ... else "failed") is mutated,
    and so is text compared with something, unlike text that only goes into a detail."""
    directory = tmp_path / "scenarios"
    text = FIXTURE.replace(
        "def judge(facts):\n    n = _count(facts)\n",
        'def _kind(n):\n    return "many" if n > 9 else "few"\n\n\n'
        'def judge(facts):\n    n = _count(facts)\n    if _kind(n) == "many" or f"{n}" == "0":\n'
        '        return UNEXPECTED, f"{n} events"\n',
    )
    write_bug(directory, FIXTURE_ID, text, DECLARATION)
    got = {(m.function, m.mutation) for m in mutations.plan(load(directory), ROOT, directory).mutants}
    assert ("_kind", "compare: n > 9 -> n >= 9") in got
    assert ("_kind", "if: if n > 9 -> if not n > 9") in got


@pytest.mark.slow
def test_an_edge_on_a_release_is_altered_in_its_environment(fixture_dir, tmp_path):
    """A case that only applies to old releases can still have edges: the worker alters the
    observation where the case ran (proofs.run_edge for the proof test, and nox -s mutants)."""
    from harness.execution import proofs

    declaration = DECLARATION.replace(
        'CaseRole("the fake\'s events", **PROOFS)',
        'CaseRole("the fake\'s events", **PROOFS, edges=('
        'Edge("reproduced", "nine", lambda obs: obs.facts.update(n=9), Release("google-adk==2.13.0")), '
        'Edge("unexpected", "ten", lambda obs: obs.facts.update(n=10), Release("google-adk==2.13.0"))))',
    )
    write_bug(fixture_dir, FIXTURE_ID, FIXTURE, declaration)
    scenario = load(fixture_dir)
    case = scenario.case("basic")
    run = proofs.run_edge(scenario, case, case.edges[1])
    assert (run.result.outcome, run.result.detail) == ("unexpected", "10 events (a), more than the fake can make")
    assert run.where == "google-adk 2.13.0 (its matrix environment)"
    out = io.StringIO()
    assert (
        mutants.run([], root=ROOT, scenarios_dir=fixture_dir, equivalents_file=tmp_path / "none.toml", out=out) == 0
    ), out.getvalue()
    assert "adk-mutants-fixture: google-adk==2.13.0: 2/2 proofs held unmutated, 15 mutants judged" in out.getvalue()
