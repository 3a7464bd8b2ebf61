"""The batch building blocks: the Metzler exponential, chunking, purity."""

import subprocess
import sys

import numpy as np
import pytest
from scipy.linalg import expm

from planner.core.markov.batch import p_loss_group_batch
from planner.core.markov.expm import expm_metzler
from planner.core.markov.generator import generator_stack

YEAR = 8760.0


def test_expm_metzler_full_matrices_match_scipy() -> None:
    rng = np.random.default_rng(3)
    g = rng.uniform(0.0, 3.0, (50, 5, 5)) * (rng.uniform(size=(50, 5, 5)) < 0.6)
    g[:, np.arange(5), np.arange(5)] = -rng.uniform(0.0, 20.0, (50, 5))  # not a generator
    ours = expm_metzler(g)
    for a, b in zip(ours, g, strict=True):
        np.testing.assert_allclose(a, expm(b), rtol=1e-11, atol=1e-14 * np.abs(expm(b)).max())
    assert np.all(ours >= 0)


def test_expm_metzler_one_entry_equals_full_matrix() -> None:
    q = generator_stack(2, np.arange(3, 30), 2e-6, 1e-4, 12.0, 168.0) * 5 * YEAR
    full = expm_metzler(q, generator=True)
    entry = expm_metzler(q, entry=(0, 5), lead_power=3, generator=True)
    np.testing.assert_allclose(entry, full[:, 0, 5], rtol=1e-14)
    np.testing.assert_allclose(full.sum(axis=-1), 1.0, rtol=1e-14)  # stochastic rows


def test_expm_metzler_rejects_negative_off_diagonal() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        expm_metzler(np.array([[-1.0, -0.5], [0.0, 0.0]]))


def test_many_cases_evaluate_in_chunks_and_keep_their_order() -> None:
    rng = np.random.default_rng(5)
    drives = rng.integers(4, 40, 1500)
    hours = rng.uniform(1.0, 10 * YEAR, 1500)  # many different numbers of squarings
    p = p_loss_group_batch(2, drives, 2e-6, 1e-4, 12.0, 168.0, hours)
    for i in rng.choice(1500, 20, replace=False):
        single = p_loss_group_batch(2, drives[i], 2e-6, 1e-4, 12.0, 168.0, hours[i])
        assert p[i] == pytest.approx(float(single), rel=1e-15)


def test_batch_sweep_sensitivity_import_no_ui_or_sympy() -> None:
    code = (
        "import sys, planner.core.markov.batch, planner.core.design.sweep, "
        "planner.core.design.sensitivity; "
        "bad = {'textual', 'typer', 'rich', 'pydantic', 'ruamel', 'sympy'} & "
        "{m.split('.')[0] for m in sys.modules}; print(sorted(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
