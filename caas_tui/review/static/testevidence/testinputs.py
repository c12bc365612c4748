"""What a test's literal input says about a repeated key: JSON text that names a key twice in
one object (or a list with an element twice), and which of the repeated values an asserted
result kept."""

from __future__ import annotations

import json


def repeats_a_key(value: object) -> bool:
    """A literal whose content repeats a key: JSON text with a name twice in one object, or a
    list/tuple with an element twice."""
    if isinstance(value, (list, tuple)):
        try:
            return len(set(value)) < len(value)
        except TypeError:
            return False
    if not isinstance(value, str):
        return False
    found = False

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        nonlocal found
        keys = [k for k, _ in items]
        found = found or len(set(keys)) < len(keys)
        return dict(items)

    try:
        json.loads(value, object_pairs_hook=pairs)
    except ValueError:
        return False
    return found


def kept_duplicate(value: object, expected: object) -> str | None:
    """"first" or "last": which of a repeated JSON name's values the asserted result keeps."""
    if not isinstance(value, str) or not isinstance(expected, dict):
        return None
    seen: dict[str, list[object]] = {}

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        for k, v in items:
            seen.setdefault(k, []).append(v)
        return dict(items)

    try:
        json.loads(value, object_pairs_hook=pairs)
    except ValueError:
        return None
    for key, vals in seen.items():
        if len(vals) > 1 and key in expected and vals[0] != vals[-1]:
            if expected[key] == vals[-1]:
                return "last"
            if expected[key] == vals[0]:
                return "first"
    return None
