"""The tests, a package so that each test module is named by its path (tests.vision.conftest
and tests.web.conftest, not two modules "conftest") and the shared hypothesis strategies are
`tests.strategies`. pytest puts the checkout's root on the path (`pythonpath` in
pyproject.toml), so plain `pytest` imports the checkout's vision and web packages.
"""
