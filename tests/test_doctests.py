"""The examples in the rules engine's docstrings run as written (a docstring that drifts
from the code misleads the next reader: the win probability's did when the final round
came in)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion

MODULES = sorted(m.name for m in pkgutil.iter_modules(companion.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"companion.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
