"""The SVG grids (issue 17): valid XML, deterministic bytes, and a real renderer draws each
outcome's colour where the record says.

cairosvg (the test dependency group; it needs the cairo system library) renders each grid to
PNG; the test reads the pixel inside every cell, away from its letter, and compares it with
the colour of the outcome the record holds for that (case, build).
"""

from __future__ import annotations

import io
import random
import xml.etree.ElementTree as ET
from itertools import pairwise

import cairosvg
import pytest
from PIL import Image

from conftest import ROOT
from harness.planning import interpreters, versions
from harness.rendering import grid
from harness.rendering.metadata import ScenarioMetadata
from harness.runtime import registry
from harness.runtime.outcomes import OUTCOMES
from harness.store import record
from harness.store.rows import Row
from scratch import demo_metadata

SVG = "{http://www.w3.org/2000/svg}"
RECORD = record.load(ROOT / "reports") or record.Record()
SCENARIOS = registry.discover()

SCENARIO = demo_metadata()


def result(case, version, outcome, source=None):
    return {
        "scenario": "adk-demo",
        "case": case,
        "framework": "google-adk",
        "version": version,
        "source": source or f"google-adk=={version}",
        "outcome": outcome,
        "detail": f"{outcome} on {version}",
        "snapshot": "match",
        "snapshot_base": version,
        "timeline": "x\n",
    }


def every_outcome():
    """Both cases on two release lines and a candidate, every outcome at least once, releases out of order."""
    versions_ = ["2.10.0", "1.39.1", "2.9.0", "1.0.0", "2.0.0"]
    rows = [result("one", v, OUTCOMES[i % len(OUTCOMES)]) for i, v in enumerate(versions_)]
    rows += [result("two", v, OUTCOMES[(i + 2) % len(OUTCOMES)]) for i, v in enumerate(versions_)]
    rows.append(result("one", "2.10.0", "fixed", source="local:adk-python"))
    return record.Record.of([Row.from_json(r) for r in rows], [])


def render(svg: str) -> Image.Image:
    png = cairosvg.svg2png(bytestring=svg.encode())
    return Image.open(io.BytesIO(png)).convert("RGB")


def hex_of(pixel) -> str:
    return "#{:02X}{:02X}{:02X}".format(*pixel)


def cells(svg: str) -> dict[tuple[str, str], tuple[int, int]]:
    """(row, build) -> the cell's top-left corner, from the SVG's rects."""
    root = ET.fromstring(svg)
    return {
        (r.get("data-row"), r.get("data-build")): (int(r.get("x")), int(r.get("y")))
        for r in root.iter(f"{SVG}rect")
        if r.get("data-build")
    }


def check(svg: str, results: list[Row], row_of) -> Image.Image:
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == f"{SVG}svg"
    image = render(svg)
    assert image.size == (int(root.get("width")), int(root.get("height")))
    where = cells(svg)
    for r in results:
        x, y = where[(row_of(r), r.source)]
        fill = grid.STYLE[r.outcome][0]
        # Inside the cell, in a corner the centred letter does not reach.
        assert hex_of(image.getpixel((x + 2, y + 2))) == fill, (r.case, r.source, r.outcome)
    # One letter per outcome, so the grid reads without colour.
    letters = {t.text for t in root.iter(f"{SVG}text")}
    assert {grid.STYLE[r.outcome][1] for r in results} <= letters
    # The legend: every outcome named beside a swatch of the colour its cells have.
    elements = list(root)
    legend = {}
    for i, e in enumerate(elements):
        if e.tag == f"{SVG}text" and e.text in OUTCOMES:
            swatch = elements[i - 2]
            assert swatch.tag == f"{SVG}rect" and elements[i - 1].text == grid.STYLE[e.text][1]
            legend[e.text] = hex_of(image.getpixel((int(swatch.get("x")) + 2, int(swatch.get("y")) + 2)))
    assert legend == {o: grid.STYLE[o][0] for o in OUTCOMES}
    return image


def test_every_outcome_is_drawn_in_its_colour_where_the_results_say():
    doc = every_outcome()
    svg = grid.scenario_svg(SCENARIO, doc)
    check(svg, doc.results, lambda r: r.case)


def test_columns_are_in_version_order_release_lines_apart_candidates_last():
    doc = every_outcome()
    where = cells(grid.scenario_svg(SCENARIO, doc))
    xs = {build: x for (row, build), (x, _) in where.items() if row == "one"}
    releases = sorted((s for s in xs if not s.startswith("local:")), key=lambda s: versions.key(s.split("==")[1]))
    assert [s.split("==")[1] for s in releases] == ["1.0.0", "1.39.1", "2.0.0", "2.9.0", "2.10.0"]
    assert [xs[s] for s in releases] == sorted(xs[s] for s in releases)
    gaps = [xs[b] - xs[a] for a, b in pairwise(releases)]
    assert gaps[1] > gaps[0] == gaps[2] == gaps[3]  # 1.x | 2.x set apart
    assert xs["local:adk-python"] > xs[releases[-1]] + gaps[0]
    ys = {row: y for (row, _), (_, y) in where.items()}
    assert ys["one"] < ys["two"]  # cases in the scenario's order


def test_the_bytes_depend_only_on_the_results():
    doc = every_outcome()
    shuffled = doc.replace(results=random.Random(7).sample(doc.results, len(doc.results)))
    assert grid.scenario_svg(SCENARIO, doc) == grid.scenario_svg(SCENARIO, shuffled)
    # A framework's grid keeps the record's row order (its cases in the registry's order, which only
    # the record knows); the order of the builds' rows within it must not matter.
    cases = list(dict.fromkeys((r.scenario, r.case) for r in doc.results))
    builds_shuffled = sorted(shuffled.results, key=lambda r: cases.index((r.scenario, r.case)))
    assert [r.source for r in builds_shuffled] != [r.source for r in doc.results]
    assert grid.framework_svg(doc, "google-adk") == grid.framework_svg(
        doc.replace(results=builds_shuffled), "google-adk"
    )


def present():
    return [s for s in SCENARIOS.values() if any(r.scenario == s.id for r in RECORD.results)]


@pytest.mark.parametrize("scenario", present(), ids=[s.id for s in present()])
def test_the_record_grid_of_each_scenario_renders_with_the_record_colours(scenario, tmp_path):
    svg = grid.scenario_svg(ScenarioMetadata.of(scenario), RECORD)
    rows = [r for r in RECORD.results if r.scenario == scenario.id and r.python == interpreters.DEFAULT]
    image = check(svg, rows, lambda r: r.case)
    image.save(tmp_path / f"{scenario.id}.png")


@pytest.mark.parametrize("framework", sorted({r.framework for r in RECORD.results}))
def test_the_record_grid_of_each_framework_renders_with_the_record_colours(framework):
    svg = grid.framework_svg(RECORD, framework)
    rows = [r for r in RECORD.results if r.framework == framework and r.python == interpreters.DEFAULT]
    check(svg, rows, lambda r: f"{r.scenario}:{r.case}")
    where = cells(svg)
    assert len(set(where)) == len({(r.scenario, r.case) for r in rows}) * len({r.source for r in rows})
