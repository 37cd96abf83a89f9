"""Mutation testing of the oracles: ``nox -s mutants`` (``python -m harness mutants [ID ...]``,
the command: harness/commands/mutants.py).

The proofs (harness/execution/proofs.py) show each oracle says ``reproduced`` on one build and ``fixed``
on another. That does not show a *wrong* oracle would be caught: an oracle whose ``n == 2``
became ``n != 2`` may still say both words on those two builds. This package mutates every
scenario's oracle functions, runs the proofs against each mutant, and reports each mutant
that no proof kills: a missing proof, or an equivalent mutant that ``mutants-equivalent.toml``
explains.

What is mutated: each case's ``Case.oracle``, its bug script's ``judge`` (through ``partial``, a
lambda or a closure as well), and the helper functions of the script that only
oracles call (``_figures``, ``_unjudgeable``: every reference to them lies inside an oracle
or another such helper, so mutating them cannot change what the case observed). Code that
only formats the detail is left alone, since the proofs check outcomes and a detail-only
mutant would survive without saying anything: f-strings; the arguments of ``fixed()``,
``reproduced()``, ``unexpected()`` and ``Verdict``'s detail; ``", ".join(x) or "none"``; calls
of helpers that format a value into text (``_label``, ``_n``, ``quote``); and the assignments of
*text variables*, locals read only in such places or in other text variables' assignments
(``where = ...``, ``how += [...]``, ``reached.append(...)``, an ``if`` that only does that).
Text that is compared with something is never left alone, nor is a helper that returns only
literals (``"refused" if ... else "failed"``: words an oracle compares).

Operators (each site gives one mutant, a numeric constant two):

- ``compare``: ``==``/``!=``, ``<``/``<=``, ``>``/``>=`` flipped, each operator of a chain apart;
- ``boolop``: ``and``/``or`` swapped;
- ``not``: ``not x`` becomes ``x``;
- ``constant``: an int or float constant ``c`` becomes ``c + 1`` and ``c - 1``;
- ``verdict``: ``fixed``/``reproduced`` (and ``FIXED``/``REPRODUCED``) swapped where an
  oracle names the helper from harness.runtime.outcomes;
- ``if``: the test of an ``if`` statement or conditional expression negated (not where it
  would repeat another operator: a test that is ``not x`` or a single ``==``/``!=``).

A mutant is *killed* when some proof of some case whose oracle it changes no longer gives
its expected outcome (its key in ``Case.proofs``), or some edge of such a case (``Case.edges``,
a real observation altered to sit just across one of the oracle's lines) no longer gives its
``outcome``: another outcome, an exception (``error``), a return value that is not a Verdict,
or no answer within ``MUTANT_TIMEOUT`` (a constant mutated in a loop). Otherwise it
*survived*, unless ``mutants-equivalent.toml`` lists it. A proof that does not give its
outcome unmutated judges no mutant and fails the run.

Why a small AST mutator, not mutmut or cosmic-ray: both mutate whole files and run a test
command per mutant. Here that would mean one pytest run, one framework import and one replay
per mutant and proof (about 20 scenarios x 50 mutants x 2 proofs, each seconds long), mutants
of replay code and fakes nobody asked about, and no way into the Release proofs, which run in
other environments (``.nox/builds/<framework>-<version>``) where neither tool is installed.
An oracle is a function of the Observation, so the mutator can do better: each proof build
replays its case *once*, and at the point the proof calls the oracle (inside the proof's
patch, the network guard and the case environment, as harness/runtime/proof_runs.py runs it) every
mutant of that oracle judges a copy of the same Observation, then the real oracle gives the
proof's own verdict. A mutant is applied by compiling the mutated top-level statement that
holds the function (with the module's ``__future__`` imports) and swapping the mutated
function's code object into the live function (``__code__``), so
partials, closures and helpers called by name all see it, and it is swapped back right
after. The in-process proofs of a scenario run in one process; each Release proof's
environment runs once per scenario, in a worker (``python -m harness.mutants.worker SPEC``,
stdlib only) that evaluates every mutant there. Both sides enumerate the mutants from the
same source with the same code; the worker checks it got the same list.

The modules, by the side of the build seam they run on. Inside a framework's environment
(the worker, so stdlib only, like harness/runtime/) and in the coordinator alike:

- ``targets``: which functions are mutated (oracles and the helpers only oracles call);
- ``sites``: where in them, with the detail formatting left out; the operators;
- ``mutations``: the mutants, each compiled to a code object (``plan``);
- ``apply``: a mutant swapped into the live function, an observation judged under it;
- ``worker``: ``python -m harness.mutants.worker SPEC``, a build's proofs with every mutant.

In the coordinator only:

- ``schedule``: the tasks (in process, one per Release), each run in a worker, several at a time;
- ``equivalents``: ``mutants-equivalent.toml``, the survivors that cannot change a verdict;
- ``judge``: which mutants each scenario's proofs killed, survived, or are equivalent;
- ``table``: the closing table.
"""
