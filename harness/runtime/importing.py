"""Import one Python file as a module, once per process: the one way the harness loads a bug's
``bug.py`` and ``repro.py`` and an upgrade's declaration (stdlib only: both sides of the build
use it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from harness.runtime.scenario import ScenarioError


def import_file(path: Path, name: str, what: str) -> ModuleType:
    """The Python file at ``path`` as module ``name`` (the one in ``sys.modules`` when there is
    one); a one-line ScenarioError naming ``what`` when it cannot be imported, with the
    exception's type and message, and nothing left in ``sys.modules``."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # not a loadable Python file (a .py with no loader)
        raise ScenarioError(f"{what} cannot be loaded from {path.name}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ScenarioError(f"{what} failed to import: {type(exc).__name__}: {exc}") from exc
    return module
