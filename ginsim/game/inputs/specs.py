"""The ``preset[:key=value,...]`` spec syntax that rules and strategies (gin's and
Rami's) share, read by one item parser (:func:`spec_fields`; a spec already checked is
read again by :func:`spec_values`), the one error for an unknown name
(:func:`unknown_name`), the one-line quoting of bad input their error messages use, and
what every rules dataclass with named presets shares (:class:`PresetFields`)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

#: How a spec writes a True or False field.
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


KNOWN_LIST_CHARS = 300  # longest list of names an unknown-key error quotes


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


@dataclass(frozen=True)
class SpecLanguage:
    """What one spec language calls things, for :func:`spec_fields`: ``kind`` names a spec
    ("strategy", "rules"), ``noun`` one of its keys ("parameter", "rules field"),
    ``write`` how an item is written ("key=value"); ``names`` maps each key (aliases too)
    to the name it sets; ``blank_ok`` names may be given empty; ``twice`` words a name
    given twice where the default words would mislead (gin's second chart); ``listing``
    the command that lists them all, named instead of the list when it is long."""

    kind: str
    noun: str
    write: str
    names: Mapping[str, str]
    blank_ok: tuple[str, ...] = ()
    twice: Mapping[str, str] = field(default_factory=dict)
    listing: str = ""  # the command that lists every name, for an unknown key


def spec_fields(language: SpecLanguage, items: str, text: str) -> dict[str, str]:
    """``{name: value text}`` of the ``key=value`` items of a spec (``items``, from
    ``text``), checked alike for every spec language: each item written key=value (empty
    only for ``blank_ok``), each key known, each name given once (under any alias).
    ValueError words the first bad item on one line; the values are the caller's to read."""
    found: dict[str, str] = {}
    written: dict[str, str] = {}  # name -> the key it was given as
    where = f"in {language.kind} {brief(text)}"
    for item, key, value in spec_items(items):
        name = language.names.get(key)
        if value is None or not (value or name in language.blank_ok):
            raise ValueError(f"bad item {brief(item)} {where}: write {language.write}")
        if name is None:
            raise unknown_name(language, key, text)
        if name in found:
            first = written[name]
            twice = language.twice.get(name) or f"{language.noun} {name} given twice" + (
                f" (as {first} and {key})" if first != key else "")
            raise ValueError(f"{twice} {where}")
        found[name], written[name] = value, key
    return found


def spec_values(spec: str, names: Mapping[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """``(preset, {key: value text})`` of a spec that was checked when it was parsed (an
    object's own spec, a preset's items after ``:``): keys resolved through ``names``
    (aliases; keys not in it left out) when given, items without a value left out, the
    last of a repeated key kept."""
    preset, _, items = str(spec).partition(":")
    values = {}
    for _, key, value in spec_items(items):
        name = key if names is None else names.get(key)
        if name is not None and value:
            values[name] = value
    return preset.strip(), values


def unknown_name(language: SpecLanguage, key: Any, text: str | None = None) -> ValueError:
    """The one error for a key no spec of ``language`` knows, whether it came in a spec
    (``text``) or as a keyword: what it could have been (:func:`known_names`)."""
    where = "" if text is None else f" in {language.kind} {brief(text)}"
    return ValueError(f"unknown {language.noun} {brief(key)}{where}: "
                      f"{known_names(language, str(key))}")


def known_names(language: SpecLanguage, key: str) -> str:
    """What an unknown ``key`` could have been: every name while the list stays short
    (an error stays one line of under 500 characters), else the closest ones and where
    the whole list is."""
    names = list(dict.fromkeys(language.names.values()))
    plural = f"{language.noun.split()[-1]}s"
    if len(", ".join(names)) <= KNOWN_LIST_CHARS or not language.listing:
        return f"{plural} are {', '.join(names)}"
    close = difflib.get_close_matches(key, names, n=3, cutoff=0.5)
    guess = f"did you mean {' or '.join(close)}? " if close else ""
    return f"{guess}the {len(names)} {plural} are listed by {language.listing}"


def field_value(name: str, text: str, spec: str, kind: str, bool_fields: tuple[str, ...],
                int_bounds: dict[str, tuple[int, int]]) -> Any:
    """A True/False or whole-number field's value from its spec text, for any rules
    dataclass; ValueError quotes the text and says what ``name`` takes. Range checks
    are the dataclass's own (it validates on construction)."""
    word = text.lower()
    if name in bool_fields:
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        expected = "true or false"
    else:
        try:
            return int(text)
        except ValueError:
            low, high = int_bounds[name]
            expected = f"a whole number in {low}..{high}"
    raise ValueError(f"bad value {brief(text)} for {name} in {kind} {brief(spec)}: "
                     f"expected {expected}")


class PresetFields:
    """What a frozen dataclass of named presets shares (gin's ``Rules``, Greek Rami's
    ``RamiRules``): a preset by name, coercion from an object, a name or a spec, a copy
    with fields changed, a plain dict, and the name of the preset it equals. A subclass
    names itself in :attr:`KIND` and :attr:`EXAMPLE` (for messages) and gives its
    presets (``name -> (description, field overrides)``) and its spec parser."""

    KIND = "rules"
    EXAMPLE = "modern:knock_limit=8"

    @classmethod
    def presets(cls) -> dict[str, tuple[str, dict[str, Any]]]:
        raise NotImplementedError

    @classmethod
    def parse(cls, spec: str) -> Any:
        raise NotImplementedError

    @classmethod
    def preset(cls, name: str) -> Any:
        """The named preset; ValueError lists the names if unknown."""
        table = cls.presets()
        if not isinstance(name, str) or name not in table:
            default = cls.EXAMPLE.partition(":")[0]
            what = (f"unknown {cls.KIND} preset {brief(name)}" if isinstance(name, str) else
                    f"a {cls.KIND} preset is a name such as '{default}', got {brief(name)}")
            raise ValueError(f"{what}: choose one of {', '.join(table)}")
        return cls(**table[name][1])

    @classmethod
    def coerce(cls, value: Any) -> Any:
        """An object of this class, a preset name or a spec (see :meth:`parse`), or None
        (the default)."""
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        raise ValueError(f"{cls.KIND} must be a {cls.__name__} object, a preset name or a "
                         f"spec like '{cls.EXAMPLE}', got {brief(value)}")

    @classmethod
    def from_spec(cls, spec: Any, max_chars: int, field_value: Any, example_item: str,
                  blank_ok: tuple[str, ...] = ()) -> Any:
        """An object from ``preset[:field=value,...]``: the preset, then each field given
        once, its text read by ``field_value(field, text, spec)``; ``blank_ok`` fields
        may be given empty. ValueError names the unknown preset or field, the repeated
        one, or the bad value (and the spec it stands in)."""
        name, items, text = split_spec(spec, cls.KIND, cls.EXAMPLE, max_chars)
        base = cls.preset(name)
        language = cls.language(example_item, blank_ok)
        changes = {key: field_value(key, value, text)
                   for key, value in spec_fields(language, items, text).items()}
        try:
            return base.with_(**changes)
        except ValueError as exc:
            raise ValueError(f"{exc} (in {cls.KIND} {brief(text)})") from None

    @classmethod
    def language(cls, example_item: str = "", blank_ok: tuple[str, ...] = ()) -> SpecLanguage:
        """What this class's specs call things: its fields, written ``field=value``."""
        write = f"field=value, e.g. {example_item}" if example_item else "field=value"
        return SpecLanguage(cls.KIND, f"{cls.KIND} field", write,
                            {f.name: f.name for f in fields(cls)}, blank_ok)

    def with_(self, **changes: Any) -> Any:
        """A copy with some fields changed (validated like a new object); an unknown
        field is refused as in a spec (:func:`unknown_name`)."""
        language = self.language()
        for key in changes:
            if key not in language.names:
                raise unknown_name(language, key)
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of all fields (for manifests and reports)."""
        return asdict(self)

    def name(self) -> str:
        """The preset name these fields equal, or ``custom``."""
        return next((p for p in self.presets() if type(self).preset(p) == self), "custom")
