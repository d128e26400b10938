"""Running the hotdice command inside the test process, as the command tests of every
module do (`test_cli`, `test_strategy`)."""

from __future__ import annotations

import pytest

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``hotdice ARGV...``: its exit status, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
