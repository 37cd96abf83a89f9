"""Coroutines a case created and never awaited, caught as a fact.

Python warns ``RuntimeWarning: coroutine 'X' was never awaited`` when such a coroutine is
collected, which may be long after the case returned, and prints it to stderr rather than
raising. ``unawaited_coroutines()`` records those warnings while its block runs and collects
garbage before it ends, so the warning of every coroutine the block dropped is in the list::

    with unawaited_coroutines() as unawaited:
        await conversation.send("hi")
    facts["unawaited"] = unawaited  # ["coroutine 'X' was never awaited", ...], in order
"""

from __future__ import annotations

import gc
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

NEVER_AWAITED = "was never awaited"


@contextmanager
def unawaited_coroutines() -> Iterator[list[str]]:
    """The "coroutine ... was never awaited" warnings of the block, as messages (other warnings
    are shown as usual)."""
    found: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        try:
            yield found
        finally:
            gc.collect()
    for w in caught:
        message = str(w.message)
        if NEVER_AWAITED in message:
            found.append(message)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
