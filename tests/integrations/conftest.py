"""A local Ray for the integration tests that need one (started on first use, stopped at the end)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def local_ray():
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray
    ray.shutdown()
