"""A result of the record (reports/matrix.json): its keys, in the order the file writes them, and
what tells a release's result from a candidate's. The one place both are defined."""

from __future__ import annotations

from collections.abc import Mapping

# The contract's keys (../shared/CONTRACT.md; schema_version 2 adds ``repro`` and ``backend``),
# then the keys the reports read; a result is written with exactly these, in this order.
RESULT_KEYS = (
    "scenario",
    "case",
    "framework",
    "version",
    "source",
    "outcome",
    "detail",
    "snapshot",
    "repro",
    "backend",
)
EXTRA_KEYS = ("snapshot_base", "timeline")


def is_release(result: Mapping) -> bool:
    """A result of a release from the index (``source`` is ``NAME==VERSION``), not of a local build
    (``local:<name>``) or a direct reference."""
    return result["source"] == f"{result['framework']}=={result['version']}"


# The digest of the scenario code that answered it (harness/store/result_cache.py
# ``scenario_inputs``): written only when known, so results recorded before it keep their bytes.
INPUTS_KEY = "inputs"


def written(result: Mapping) -> dict:
    """The result as the record holds it: the keys above, in order, missing ones as null."""
    out = {k: result.get(k) for k in RESULT_KEYS + EXTRA_KEYS}
    if result.get(INPUTS_KEY):
        out[INPUTS_KEY] = result[INPUTS_KEY]
    return out


def disagreements(results: list[dict]) -> list[dict]:
    """Results where the case says reproduced or fixed and its short reproduction, run in the same
    build, says otherwise (cases without a script are not counted)."""
    judged = [r for r in results if r["outcome"] in ("reproduced", "fixed") and r.get("repro")]
    return [r for r in judged if r["repro"] != r["outcome"]]
