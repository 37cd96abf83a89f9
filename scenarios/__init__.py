"""One module per documented bug; each defines ``SCENARIO`` (see harness/runtime/scenario.py)."""
