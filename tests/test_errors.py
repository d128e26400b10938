"""Error messages: one line, and bounded whatever the input echoed in them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.errors import MESSAGE_LIMIT, brief

MARKER = " [... 1,000,000 characters cut ...] "  # the longest cut notice these inputs get


@given(st.text(max_size=2 * MESSAGE_LIMIT), st.integers(0, MESSAGE_LIMIT))
def test_a_message_is_one_bounded_line_never_longer(message: str, limit: int) -> None:
    text = brief(message, limit)
    assert len(text.splitlines()) <= 1
    assert len(text) <= min(len(message), limit + len(MARKER))


@given(st.text(alphabet=st.characters(blacklist_categories=["Cc", "Zl", "Zp"]), max_size=300))
def test_a_short_line_is_kept_as_it_is(message: str) -> None:
    assert brief(message) == message


def test_a_long_echo_is_cut_in_the_middle_keeping_what_and_why() -> None:
    message = f"unknown rule set '{'x' * 100_000}'; presets: farkle, zilch"
    text = brief(message)
    assert text.startswith("unknown rule set 'xxx")
    assert text.endswith("xxx'; presets: farkle, zilch")
    notice = f" [... {len(message) - MESSAGE_LIMIT:,} characters cut ...] "
    assert notice in text and len(text) == MESSAGE_LIMIT + len(notice)
