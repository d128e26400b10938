"""The examples in the docstrings of the rules engine and of vision run as written (a
docstring that drifts from the code misleads the next reader: the win probability's did
when the final round came in)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion
import vision

MODULES = [
    name
    for package in (companion, vision)
    for name in [
        package.__name__,
        *sorted(
            f"{package.__name__}.{m.name}"
            for m in pkgutil.iter_modules(package.__path__)
            if m.name != "__main__"  # (importing it runs the command: test_cli runs it)
        ),
    ]
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
