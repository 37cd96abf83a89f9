"""Nested handoff history (``RunConfig(nest_handoff_history=True)``), read back from what the
model was sent: the records of the ``<CONVERSATION HISTORY>`` block, decoded to input-item dicts
so timelines of different openai-agents releases compare line by line. Runs inside an
openai-agents environment (harness/runtime/fakes/openai_agents.py has the fakes)."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from harness.runtime.fakes.openai_agents import as_input_list, content_text, describe_item, to_dict
from harness.runtime.timeline import Placeholders, quote

# --- nested handoff history (RunConfig.nest_handoff_history) --------------------------------
# With nest_handoff_history, a handoff folds the transcript into one assistant message that
# holds a <CONVERSATION HISTORY> block of numbered records (agents/handoffs/history.py). The
# records were written as ``role: content`` / ``type: {json}`` lines in 0.6-0.16 and as one
# JSON item per record from 0.17; the readers below decode both into input-item dicts, so
# timelines of different releases compare line by line.

# A release that exposes get_conversation_history_wrappers() is asked for its own markers.
DEFAULT_HISTORY_MARKERS = ("<CONVERSATION HISTORY>", "</CONVERSATION HISTORY>")
_ROLES = {"user", "assistant", "system", "developer"}
_NUMBERED_RE = re.compile(r"^(\d+)\.\s?(.*)$", re.DOTALL)
_ROLE_LINE_RE = re.compile(r"^([A-Za-z_][\w-]*)(?: \(([^()]*)\))?:(?: (.*))?$", re.DOTALL)
_BARE_ROLE_RE = re.compile(r"^([A-Za-z_]+)(?: \(([^()]*)\))?$")


def require_nest_handoff_history() -> None:
    """Raise NotApplicable where ``RunConfig`` has no ``nest_handoff_history`` (before 0.6)."""
    from agents import RunConfig

    from harness.runtime.scenario import NotApplicable

    if dataclasses.is_dataclass(RunConfig):
        names = {f.name for f in dataclasses.fields(RunConfig)}
    else:
        import inspect

        names = set(inspect.signature(RunConfig).parameters)
    if "nest_handoff_history" not in names:
        raise NotApplicable("agents.RunConfig has no nest_handoff_history field")


def history_markers() -> tuple[str, str]:
    """The summary message's start and end markers, as the installed release writes them."""
    try:
        from agents.handoffs.history import get_conversation_history_wrappers
    except ImportError:
        return DEFAULT_HISTORY_MARKERS
    return tuple(get_conversation_history_wrappers())


def history_item_key(item: dict) -> tuple:
    """What identifies an item whatever the format it was written in (message ids aside)."""
    kind, role = item.get("type"), item.get("role")
    if kind == "function_call":
        return ("function_call", item.get("call_id"), item.get("name"), item.get("arguments"))
    if kind == "function_call_output":
        return ("function_call_output", item.get("call_id"), content_text(item.get("output")))
    if role is not None and kind in (None, "message"):
        return ("message", role, content_text(item.get("content")))
    rest = {k: v for k, v in item.items() if k not in ("id", "status", "provider_data")}
    return ("item", json.dumps(rest, sort_keys=True, default=str))


def parse_history_record(body: str) -> tuple[dict, str] | None:
    """One summary record (number stripped) as (item, format), or None if unreadable."""
    if body.startswith("{"):  # 0.17 on: the item as JSON
        try:
            item = json.loads(body)
        except json.JSONDecodeError:
            return None
        return (item, "json") if isinstance(item, dict) else None
    m = _ROLE_LINE_RE.match(body)
    if m:
        head, name, rest = m.group(1), m.group(2), m.group(3) or ""
        if head in _ROLES:  # "role: content", content a string or a JSON list of parts
            content: Any = rest
            if rest.startswith("["):
                try:
                    parts = json.loads(rest)
                except json.JSONDecodeError:
                    parts = None
                if isinstance(parts, list) and all(isinstance(p, dict) for p in parts):
                    content = parts
            item = {"role": head, "content": content}
            if name:
                item["name"] = name
            return item, "role-text"
        try:  # "function_call: {...}": an item type and the rest of the item as JSON (0.6-0.16)
            rest_item = json.loads(rest)
        except json.JSONDecodeError:
            return None
        if not isinstance(rest_item, dict):
            return None
        return {"type": head, **rest_item}, "typed"
    m = _BARE_ROLE_RE.match(body)
    if m and m.group(1) in _ROLES:  # a role whose content was empty (0.6-0.16)
        return {"role": m.group(1), "content": ""}, "role-text"
    return None


def history_summary_block(item: Any, markers: tuple[str, str]) -> dict | None:
    """A summary message's records, or None if ``item`` is not a summary message.

    ``{"records": [(number, item or None, raw text or None)], "formats": {...}, "unreadable": [...]}``
    """
    if not isinstance(item, dict):
        return None
    content = item.get("content")
    if item.get("role") != "assistant" or not isinstance(content, str) or markers[0] not in content:
        return None
    block: dict[str, Any] = {"records": [], "formats": set(), "unreadable": []}
    start = content.index(markers[0]) + len(markers[0])
    end = content.find(markers[1], start)
    if end == -1:
        block["unreadable"].append(f"no {markers[1]} after {markers[0]}")
        return block
    bodies: list[str] = []
    for line in content[start:end].splitlines():
        if not line.strip():
            continue
        m = _NUMBERED_RE.match(line.strip())
        if m and int(m.group(1)) == len(bodies) + 1:
            bodies.append(m.group(2))
        elif bodies:  # a record spread over several lines
            bodies[-1] += "\n" + line.rstrip()
        elif line.strip() != "(no previous turns recorded)":
            block["unreadable"].append(line.strip())
    for number, body in enumerate(bodies, 1):
        parsed = parse_history_record(body.strip())
        if parsed is None:
            block["unreadable"].append(f"{number}. {body.strip()}")
            block["records"].append((number, None, body.strip()))
            continue
        record, fmt = parsed
        block["formats"].add(fmt)
        block["records"].append((number, record, None))
    return block


def read_nested_history(items: Any, ids: Placeholders) -> tuple[list[str], dict[str, Any]]:
    """A list of input items that may hold history summaries, as timeline lines and facts.

    Lines: ``summary N (formats): K records`` followed by its numbered records, and
    ``verbatim: <item>`` for every other item, in order. Facts: ``blocks`` (per summary, the
    :func:`history_item_key` of each readable record), ``verbatim`` (the keys of the other
    items) and ``unreadable`` (what could not be decoded, which an oracle must not pass over).
    """
    markers = history_markers()
    lines: list[str] = []
    blocks: list[list[tuple]] = []
    verbatim: list[tuple] = []
    unreadable: list[str] = []
    for item in as_input_list(items):
        item = to_dict(item)  # an SDK object rather than an input dict
        block = history_summary_block(item, markers)
        if block is None:
            verbatim.append(history_item_key(item) if isinstance(item, dict) else ("item", repr(item)))
            lines.append(f"verbatim: {describe_item(item, ids)}")
            continue
        n = len(blocks) + 1
        formats = ", ".join(sorted(block["formats"])) or "empty"
        lines.append(f"summary {n} ({formats}): {len(block['records'])} records")
        keys = []
        for number, record, raw in block["records"]:
            if record is None:
                lines.append(f"  {number}. <unreadable> {quote(raw)}")
                continue
            keys.append(history_item_key(record))
            lines.append(f"  {number}. {describe_item(record, ids)}")
        unreadable += [f"summary {n}: {quote(u, 60)}" for u in block["unreadable"]]
        blocks.append(keys)
    return lines, {"blocks": blocks, "verbatim": verbatim, "unreadable": unreadable}
