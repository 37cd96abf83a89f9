"""__ID__: what the harness needs beside repro.py (the bug itself is there)."""

import contextlib
from collections.abc import Iterator

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, InProcess


@contextlib.contextmanager
def break_control() -> Iterator[None]:
    """TODO: break the control's behaviour in this process (patch the framework), so its judge is shown able to fail."""
    raise NotImplementedError("scenario __ID__: break_control() is still the template's")
    yield


BUG = Bug(
    links=("https://github.com/TODO/issues/0",),
    description="TODO the bug, in a sentence or two.",
    expected="TODO the behaviour the bug report expects.",
    # What the thread claims (fixed_in, pr with pr_state as the thread shows it: "merged", "closed unmerged",
    # "closed", "open"; introduced_in, still_open, quote), set beside what the matrix measures; only a merged PR
    # is ever printed as "fixed by".
    claims=Claim(source="TODO where the thread says it, or delete this line"),
    cases={
        "__CASE__": CaseRole(
            "TODO what this case does",
            # TODO a real release that shows each verdict, e.g. Release("__FRAMEWORK__==X.Y.Z", "the last release
            # with the bug"); `python -m harness releases __FRAMEWORK__ --at DATE` names the release of a date.
            reproduced=AsInstalled("TODO"),
            fixed=AsInstalled("TODO the pinned release has the fix"),
        ),
        "control": CaseRole(
            "TODO the behaviour beside the bug that must hold on every release (or delete this case)",
            reproduced=InProcess("TODO how the control is broken", break_control),
            fixed=AsInstalled("TODO"),
            control=True,
        ),
    },
)
