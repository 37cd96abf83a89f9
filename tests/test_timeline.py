"""Timelines as text: one line per entry, short quotes."""

from harness.runtime.timeline import quote, render


def test_render_is_one_line_per_entry():
    assert render(["a", "b"]) == "a\nb\n"
    assert quote("x" * 100).endswith("…'")
