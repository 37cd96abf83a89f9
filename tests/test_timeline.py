"""Timeline normalisation: stable placeholders in first-seen order."""

from harness.runtime.timeline import Placeholders, quote, render


def test_placeholders_are_per_kind_and_first_seen():
    ids = Placeholders()
    ids.keep("inv-task-retry")
    assert [ids("inv", "e-9"), ids("inv", "e-1"), ids("inv", "e-9"), ids("ev", "x")] == [
        "inv-1",
        "inv-2",
        "inv-1",
        "ev-1",
    ]
    assert ids("inv", "inv-task-retry") == "inv-task-retry"
    assert ids("call", None) == "-"


def test_uuids_in_text_are_scrubbed():
    ids = Placeholders()
    text = "a 123e4567-e89b-12d3-a456-426614174000 b 123e4567-e89b-12d3-a456-426614174000"
    assert ids.scrub(text) == "a uuid-1 b uuid-1"


def test_render_is_one_line_per_entry():
    assert render(["a", "b"]) == "a\nb\n"
    assert quote("x" * 100).endswith("…'")
