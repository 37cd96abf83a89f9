"""One folder per documented bug: ``<id>/repro.py``, the standalone script, and ``<id>/bug.py``, its
declaration (see harness/runtime/declaration.py)."""
