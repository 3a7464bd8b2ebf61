"""planner runs NumPy's BLAS on one thread unless the user asked for more (planner/__init__.py).

OpenBLAS starts its threads when NumPy is imported; on a 2-core machine their start-up cost
a command ~130 ms of CPU beside its own work. The setting must therefore be in place before
NumPy is imported, and a value the user set is theirs.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_SHOW = (
    "import os, planner; print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['MKL_NUM_THREADS'])"
)


def _shown(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _SHOW], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.fixture
def clean_env() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.pop(name, None)
    return env


def test_one_blas_thread_by_default(clean_env: dict[str, str]) -> None:
    assert _shown(clean_env) == "1 1"


def test_a_users_setting_is_kept(clean_env: dict[str, str]) -> None:
    assert _shown({**clean_env, "OPENBLAS_NUM_THREADS": "3"}) == "3 1"
