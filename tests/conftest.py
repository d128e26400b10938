"""Fixtures for every test folder."""

from __future__ import annotations

import faulthandler
from collections.abc import Iterator

import pytest


@pytest.fixture
def ends_or_fails() -> Iterator[None]:
    """For a test that would hang, not fail, if what it checks came back (a named pipe
    opened for reading waits for a writer): past a minute the run stops with every
    thread's traceback, instead of waiting for ever."""
    faulthandler.dump_traceback_later(60, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()
