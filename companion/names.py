"""Names as a scoresheet shows them: which are usable, and which two are the same.

Player names and a table's own name for its rules are typed by people at a table and
printed on every phone and terminal: one that breaks a line, turns the rest of it
backwards or shows as a blank garbles every sheet, and two names that look alike are one
player to the eye.
"""

from __future__ import annotations

import unicodedata

_TURNING = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
"""Bidirectional classes of the invisible embeddings, overrides and isolates, which would
turn the rest of every line that prints a rule set's name backwards."""


def is_plain_line(text: str) -> bool:
    """Whether a rule set's name prints as one line, left to right: no control character,
    line or paragraph separator or lone surrogate, no invisible embedding, override or
    isolate."""
    return not any(
        unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp")
        or unicodedata.bidirectional(c) in _TURNING
        for c in text
    )


def has_visible(text: str) -> bool:
    """Whether ``text`` shows anything: a letter, digit, mark of punctuation or symbol. A
    name of only spaces, invisible format characters (a zero-width space) or a lone accent
    prints as a blank; player and rule-set names alike must have one."""
    return any(unicodedata.category(c)[0] in "LNPS" for c in text)


def plain_text(name: str) -> bool:
    """No control characters (a NUL or a newline would garble every scoresheet), nor the
    line and paragraph separators U+2028/U+2029 (a line break by another name), no lone
    surrogates, and something to see: a letter, digit, mark of punctuation or symbol
    (a name of only invisible format characters or a lone accent shows as a blank). The
    invisible joiners of emoji and of Persian names are fine beside what they join. Nor
    U+FFFE, U+FFFF and their like in every plane: no XML may hold them (the chart's SVG)."""
    if any(ord(ch) & 0xFFFE == 0xFFFE for ch in name):
        return False
    controls = any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in name)
    return not controls and has_visible(name)


BIDI_CONTROLS = dict.fromkeys(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]
)
"""The invisible embeddings, overrides, isolates and marks of right-to-left text: in a
name, an override would turn the rest of its line backwards on every sheet ("058 ← 058+
:boB"), a mark would make a second "Bob" look like the first."""


def folded_name(name: str) -> str:
    """A name as a sheet shows it: white space folded, direction controls dropped."""
    return " ".join(name.translate(BIDI_CONTROLS).split())


ZERO_WIDTH = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors
    (0xFE00, 0xFE0F),  # variation selectors
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
"""Marks drawn as nothing that are no format characters (Unicode's default-ignorable ones):
"Ann" with a variation selector looks like "Ann" on every sheet."""

BLANK_CELLS = frozenset({0x2800, 0x3164, 0xFFA0})
"""Characters drawn as an empty cell a letter wide (the blank Braille pattern, the Hangul
fillers): a space to the eye, though a letter or a symbol to Unicode."""


def _drawn(name: str) -> str:
    """`name` as a sheet draws it: format characters and `ZERO_WIDTH` marks dropped,
    `BLANK_CELLS` as spaces, white space as one space between words."""
    shown = (
        " " if ord(c) in BLANK_CELLS else c
        for c in name
        if unicodedata.category(c) != "Cf" and not any(lo <= ord(c) <= hi for lo, hi in ZERO_WIDTH)
    )
    return " ".join("".join(shown).split())


def looks_blank(name: str) -> bool:
    """Whether a name draws as nothing but blanks (a Hangul filler alone)."""
    return not has_visible(_drawn(name))


def name_key(name: str) -> str:
    """A name as it looks (`_drawn`: no zero-width space, soft hyphen or variation
    selector; a blank Braille cell a space), case folded and in one Unicode form (an é
    typed as one letter or as e and an accent, full-width ＪＯＳＥ), so that two names that
    look alike count as the same."""
    key = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", _drawn(name)).casefold())
    return _drawn(key)  # (NFKC makes U+FFA0 U+1160)
