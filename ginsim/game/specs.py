"""The ``preset[:key=value,...]`` spec syntax that rules and strategies share, and the
one-line quoting of bad input their error messages use."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def brief(value: Any, limit: int = 60) -> str:
    """``repr(value)`` on one line and at most ``limit`` characters, for error messages
    that quote what the caller passed (a DataFrame's repr spans many lines)."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def split_spec(spec: Any, kind: str, example: str, max_chars: int) -> tuple[str, str, str]:
    """``(preset, items, text)`` of a spec ``preset[:items]``, after the checks every
    spec shares: a non-empty string of at most ``max_chars`` characters. ``kind`` and
    ``example`` ("rules", "modern:knock_limit=8") word the errors."""
    if not isinstance(spec, str) or not spec.strip():
        preset = example.partition(":")[0]
        raise ValueError(f"expected a {kind} preset name like '{preset}' or a spec like "
                         f"'{example}', got {brief(spec)}")
    text = spec.strip()
    if len(text) > max_chars:
        raise ValueError(f"a {kind} spec is at most {max_chars} characters, got "
                         f"{len(text):,}")
    name, _, items = text.partition(":")
    return name.strip(), items, text


def spec_items(items: str) -> Iterator[tuple[str, str, str | None]]:
    """``(item, key, value)`` for each non-empty comma-separated ``key=value`` item;
    ``value`` is None when the item has no ``=`` (stripped otherwise)."""
    for item in filter(None, (s.strip() for s in items.split(","))):
        key, eq, value = item.partition("=")
        yield item, key.strip(), value.strip() if eq else None
