# The body of a bundled reproduction (python -m harness export --bundle), after its PEP 723
# header and docstring. harness/rendering/export.py replaces every "__UPPER__" string and the
# BUNDLE line; the rest is copied as it stands.
from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.metadata
import importlib.util
import os
import sys
from importlib.machinery import ModuleSpec
from types import CodeType

SCENARIO = "__SCENARIO__"
SCENARIO_MODULE = "__SCENARIO_MODULE__"  # bundled below (first in BUNDLE), with what it imports
CASE = "__CASE__"
FRAMEWORK = "__FRAMEWORK__"
# Imported before the case starts, as the harness's workers do (harness/runtime/worker.py), so the
# framework's import time does not count against the case's timeout.
FRAMEWORK_MODULE = "__FRAMEWORK_MODULE__"
# The exit codes of every reproduction script (harness/runtime/short_repro.py): git bisect run's
# good (0) and skip (125, every failure of the script's own too), and 3 for the bug, a code neither
# Python nor uv uses for its own failures.
EXIT_STATUS = {"fixed": 0, "reproduced": 3}
CANNOT_JUDGE = 125
# The file name bundled modules are compiled under: a name, not a directory (tracebacks and
# warnings show /bundle/harness/runtime/fakes/adk.py; the lines come from BUNDLE).
BUNDLE_ROOT = "/bundle"


class BundleImporter(importlib.abc.MetaPathFinder, importlib.abc.InspectLoader):
    """Imports the modules in BUNDLE under their own names (harness.runtime.timeline, scenarios.x, ...)."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources
        self.paths = {path[:-3].replace("/", ".").removesuffix(".__init__"): path for path in sources}

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if name not in self.paths:
            return None
        spec = importlib.util.spec_from_loader(
            name, self, origin=f"{BUNDLE_ROOT}/{self.paths[name]}", is_package=self.is_package(name)
        )
        if spec is not None:
            spec.has_location = True  # __file__ is set, and tracebacks show the bundled lines
        return spec

    def is_package(self, name: str) -> bool:
        return self.paths[name].endswith("/__init__.py")

    def get_source(self, name: str) -> str:
        return self.sources[self.paths[name]]

    def get_code(self, name: str) -> CodeType:
        return compile(self.get_source(name), f"{BUNDLE_ROOT}/{self.paths[name]}", "exec", dont_inherit=True)


def main() -> int:
    # As the harness's workers run (harness/execution/environments.py): set before the framework is
    # imported, so openai-agents never tries to export a trace.
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    sys.meta_path.insert(0, BundleImporter(BUNDLE))
    try:
        version = importlib.metadata.version(FRAMEWORK)
    except importlib.metadata.PackageNotFoundError:
        print(
            f"{SCENARIO}:{CASE}: error: {FRAMEWORK} is not installed in this Python; `uv run` this file, "
            f"or install {FRAMEWORK} (or your checkout of it) first"
        )
        return CANNOT_JUDGE
    with contextlib.suppress(Exception):  # the case imports it again and reports the failure as an error
        importlib.import_module(FRAMEWORK_MODULE)

    from harness.runtime.runner import run_case  # bundled: harness/runtime/runner.py

    scenario = importlib.import_module(SCENARIO_MODULE).SCENARIO
    case = scenario.case(CASE)
    # stdout is the timeline and the verdict; whatever the framework prints goes to stderr.
    with contextlib.redirect_stdout(sys.stderr):
        result = run_case(scenario, case)
    sys.stdout.write(result.timeline)
    print(f"{scenario.id}:{case.id} on {FRAMEWORK} {version}: {result.outcome}: {result.detail}")
    return EXIT_STATUS.get(result.outcome, CANNOT_JUDGE)


# --- agent-bug-harness's code for this case, verbatim: relative path -> source ----------------
BUNDLE: dict[str, str] = {}  # __BUNDLE__


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as exc:  # a failure of the script's own (a framework that fails to import): cannot judge
        print(f"{SCENARIO}:{CASE}: error: {type(exc).__name__}: {exc}")
        sys.exit(CANNOT_JUDGE)
