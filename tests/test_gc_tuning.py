"""The server's garbage-collector thresholds (``CARAVANSERAI_GC_YOUNG_THRESHOLD``)."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings


def test_a_running_server_collects_its_young_garbage_every_50000_allocations_and_puts_it_back(sqlite_database):
    before = gc.get_threshold()
    with TestClient(create_app(make_settings(sqlite_database))):
        assert gc.get_threshold() == (50_000, 20, 100)
    assert gc.get_threshold() == before


def test_zero_keeps_pythons_own_thresholds(sqlite_database):
    before = gc.get_threshold()
    with TestClient(create_app(make_settings(sqlite_database, gc_young_threshold=0))):
        assert gc.get_threshold() == before
