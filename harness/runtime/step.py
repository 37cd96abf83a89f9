"""An upgrade step in a worker's process: ``python repro.py STEP CASE STATE`` as the script runs alone.

The upgrade axis (harness/execution/upgrades.py) runs each step of a pair as that command, cold, or,
where the release has a warm worker (harness/runtime/warm.py), in a fork of it that has the
framework imported already: ``python -m harness.runtime.worker --framework F --step SCRIPT STEP
CASE STATE``, whose process calls :func:`run`. What the script sees is what the cold command
gives it: its folder first on ``sys.path`` and not the project's, ``sys.argv``, the working folder
``STATE``, the steps' process environment (no ``PYTHONPATH``, no bytecode written, libpq's
variables for the harness's server), its output on fd 1 and 2, its exit code, and the exit
handlers a process runs when it ends. The fork saves the interpreter's start and the framework's
import: a second or more a step (issue 47: about 3.4 s a pair when each step was a cold process).
"""

from __future__ import annotations

import atexit
import os
import runpy
import sys
import traceback
from pathlib import Path

from harness.runtime.reproduction import libpq_environment

SOCKET_ENV = "HARNESS_POSTGRES_SOCKET"  # harness/execution/postgres.py's, sent with each run


def steps_environment() -> None:
    """This process's environment made the steps' (harness/execution/upgrades.py ``step_environment``)
    from a worker's: the project off the path, no bytecode written, libpq's variables for the server."""
    project = os.environ.pop("PYTHONPATH", None)
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    sys.dont_write_bytecode = True  # the builds are shared: a step leaves nothing in them
    socket_dir = os.environ.pop(SOCKET_ENV, None)
    if socket_dir:
        os.environ.update(libpq_environment(socket_dir))
    here = {os.getcwd(), ""} | ({project} if project else set())
    sys.path[:] = [p for p in sys.path if p not in here]


def run(script: str, step: str, case: str, state: str) -> int:
    """Run ``script`` as ``python script step case state`` would, in ``state``; its exit code."""
    steps_environment()
    os.chdir(state)
    sys.path.insert(0, str(Path(script).resolve().parent))
    sys.argv = [script, step, case, state]
    code: object = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code
    except BaseException:  # what the interpreter prints for an uncaught exception, and its exit code
        traceback.print_exc()
        code = 1
    atexit._run_exitfuncs()  # the process's end runs them; the fork ends with os._exit
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr, flush=True)  # sys.exit("message"): printed, exit 1
    return 1
