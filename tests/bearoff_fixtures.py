"""Shared fixture of the bear-off and race tests: a private table cache per test module."""

from __future__ import annotations

import os

import pytest

from bgengine.evaluation import bearoff


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory):
    """Every test module that imports this builds into and reads from its own cache folder."""
    previous = os.environ.get(bearoff.CACHE_DIR_ENV)
    os.environ[bearoff.CACHE_DIR_ENV] = str(tmp_path_factory.mktemp("bgengine-cache"))
    bearoff.forget_loaded_tables()
    yield
    bearoff.forget_loaded_tables()
    if previous is None:
        del os.environ[bearoff.CACHE_DIR_ENV]
    else:
        os.environ[bearoff.CACHE_DIR_ENV] = previous
