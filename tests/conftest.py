"""Shared test settings: hypothesis profiles and shared helpers."""

import os

import pytest
from hypothesis import HealthCheck, settings

# Helpers that assert, shared by several test files: pytest explains their failures too.
pytest.register_assert_rewrite("chart_replay")

settings.register_profile("ci", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")
