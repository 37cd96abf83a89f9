"""The one error type for bad input. Every refusal (an unknown id, a malformed spec or flag, a
release that does not exist, a corrupt record, an unwritable reports folder) derives from
``UsageError``; the command line catches this one type and prints it as one line, exit 2
(as pytest's ``UsageError``). Stdlib only: the runtime's refusals derive from it too."""


class UsageError(Exception):
    """Bad input, said in one line that names what was wrong and what is valid."""


class RecordError(UsageError, ValueError):
    """A file of the record (reports/matrix.json, reports/bisect.json) this code cannot read or extend,
    said in one line: which file, what is wrong, and how to restore it."""
