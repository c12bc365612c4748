"""Read flag definitions from JSON documents and INI files.

JSON layout::

    {"flags": [
        {"key": "new-checkout",
         "enabled": true,
         "variants": {"on": true, "off": false},
         "weights": {"on": 1},
         "default": "off",
         "rules": [{"if": ["country in [FR, BE]"], "serve": "on", "rollout": 50}],
         "rollout": 10}
    ]}

INI layout: one section per flag, holding ``enabled``, ``rollout``,
``default`` and an optional ``when`` condition that serves ``on``.
"""

from __future__ import annotations

import configparser
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .errors import InvalidFlag, LoaderError
from .flags import Flag, Variant
from .rules import Rule, parse_condition, parse_rule
from .settings import VARIANT_OFF, VARIANT_ON


def flag_from_dict(data: Mapping[str, Any]) -> Flag:
    """Build a :class:`~toolbelt.flags.Flag` from one JSON flag object.

    Raises
    ------
    InvalidFlag
        If ``"key"`` is missing or the definition is inconsistent.
    """
    if "key" not in data:
        raise InvalidFlag("a flag definition needs a 'key'")
    weights: Mapping[str, int] = data.get("weights", {})
    raw_variants = data.get("variants")
    variants: tuple[Variant, ...]
    if raw_variants is None:
        variants = (Variant(VARIANT_ON, True, int(weights.get(VARIANT_ON, 1))),
                    Variant(VARIANT_OFF, False, int(weights.get(VARIANT_OFF, 0))))
    else:
        variants = tuple(Variant(str(n), v, int(weights.get(n, 0))) for n, v in raw_variants.items())
    rules = tuple(parse_rule(r) for r in data.get("rules", ()))
    return Flag(
        key=str(data["key"]),
        variants=variants,
        default_variant=str(data.get("default", VARIANT_OFF)),
        rules=rules,
        rollout=float(data.get("rollout", 0.0)),
        enabled=bool(data.get("enabled", True)),
        off_variant=str(data.get("off", VARIANT_OFF)),
        salt=data.get("salt"),
    )


def flag_to_dict(flag: Flag) -> dict[str, Any]:
    """Inverse of :func:`flag_from_dict` for flags whose rules came from strings."""
    out: dict[str, Any] = {
        "key": flag.key,
        "enabled": flag.enabled,
        "variants": {v.name: v.value for v in flag.variants},
        "weights": {v.name: v.weight for v in flag.variants if v.weight},
        "default": flag.default_variant,
        "rollout": flag.rollout,
    }
    if flag.off_variant != VARIANT_OFF:
        out["off"] = flag.off_variant
    if flag.salt is not None:
        out["salt"] = flag.salt
    if flag.rules:
        out["rules"] = [
            {"if": [f"{c.attribute} {c.op} {_operand(c.value)}" for c in r.conditions], "serve": r.variant,
             "rollout": r.rollout}
            for r in flag.rules
        ]
    return out


def _operand(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def loads_json(text: str, *, source: str = "<string>") -> list[Flag]:
    """Parse a JSON flag document.

    Raises
    ------
    LoaderError
        If the text is not JSON or has no ``"flags"`` list.
    """
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoaderError(source, f"not valid JSON ({exc.msg} at line {exc.lineno})") from exc
    if not isinstance(document, dict) or not isinstance(document.get("flags"), list):
        raise LoaderError(source, "expected an object with a 'flags' list")
    return [flag_from_dict(item) for item in document["flags"]]


def load_json(path: str | Path) -> list[Flag]:
    """Read the JSON flag file at ``path``; see :func:`loads_json`."""
    text = Path(path).read_text(encoding="utf-8")
    return loads_json(text, source=str(path))


def dump_json(flags: Iterable[Flag]) -> str:
    """Serialise ``flags`` to the JSON layout read by :func:`loads_json`."""
    return json.dumps({"flags": [flag_to_dict(f) for f in flags]}, indent=2, sort_keys=True)


def load_ini(path: str | Path) -> list[Flag]:
    """Read boolean flags from the INI file at ``path``.

    Each section is a flag. Options: ``enabled`` (boolean, default true),
    ``rollout`` (percentage, default 0), ``default`` (``on`` or ``off``) and
    ``when`` (conditions joined by ``and``; contexts meeting them get ``on``).
    """
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(path, encoding="utf-8")
    flags = []
    for name in parser.sections():
        section = parser[name]
        rules: tuple[Rule, ...] = ()
        when = section.get("when")
        if when:
            conditions = tuple(parse_condition(part) for part in when.split(" and "))
            rules = (Rule(conditions, VARIANT_ON),)
        flags.append(
            Flag(
                key=name,
                default_variant=section.get("default", VARIANT_OFF),
                rules=rules,
                rollout=section.getfloat("rollout", 0.0),
                enabled=section.getboolean("enabled", True),
            )
        )
    return flags
