"""The constant-rate answers side by side: exact Markov, the MTTDL approximation, no defects.

NS3574 computes P(loss) from the transient solution of the n+k chain
(:func:`planner.core.markov.transient.p_loss_group`). Two shortcuts are common in the literature and
in vendor tools, and this module evaluates both so a report can show how far they drift:

* the **MTTDL approximation** ``P(loss by T) ~ 1 - exp(-T / MTTDL)``, which treats data loss
  as a Poisson process with rate 1 / MTTDL. It is evaluated with the exact MTTDL
  (:func:`planner.core.markov.transient.mttdl_hours`) and with the leading-order closed form for
  lambda << mu (:func:`planner.core.markov.symbolic.leading_order_mttdl`), the kind of formula
  printed in papers;
* the **classic formula without latent defects**: the same chain with
  ``latent_defects_per_hour = 0``, i.e. the textbook model that only counts whole-drive
  failures (NS3574 shows that latent defects dominate RAID 5's risk);
* the **spec-sheet method** of web calculators: no latent defects, but every critical
  rebuild (k drives down, no redundancy left) reads the N - k surviving drives whole (a
  declustered pool only its stripes left without redundancy,
  :func:`planner.core.arrays.declustered.critical_rebuild_drives`) and hits an unrecoverable
  read error with probability ``1 - exp(-bits read x errors per bit)``; folded into the
  chain, that rebuild ends in loss (sectors lost) with that probability
  (:func:`spec_sheet_generator`). It needs the capacity and the spec sheet's error rate;
  the paper's model needs a latent-defect rate and a scrub time instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

import numpy as np
import numpy.typing as npt

from planner.core.markov.chain import State, build_chain
from planner.core.markov.expm import expm_metzler
from planner.core.markov.generator import generator_matrix
from planner.core.markov.rates import Rates
from planner.core.markov.transient import mttdl_hours, p_loss_group

BITS_PER_TB = 8e12
"""Bits in a decimal terabyte."""


@dataclass(frozen=True)
class AnalyticMethods:
    """Constant-rate P(loss) of one group over the mission by each method.

    Attributes:
        p_markov: exact transient probability of the chain (the reference).
        mttdl_hours: exact mean time to data loss from the pristine state (h).
        p_mttdl: ``1 - exp(-T / mttdl_hours)``.
        mttdl_approx_hours: leading-order closed-form MTTDL (h).
        p_mttdl_approx: ``1 - exp(-T / mttdl_approx_hours)``.
        p_no_latent: exact transient probability with no latent defects.
        p_spec_sheet: the spec-sheet method's probability (no latent defects, an
            unreadable sector at a critical rebuild), or None without a capacity and an
            error rate per bit.
    """

    p_markov: float
    mttdl_hours: float
    p_mttdl: float
    mttdl_approx_hours: float
    p_mttdl_approx: float
    p_no_latent: float
    p_spec_sheet: float | None = None


def p_unreadable_in_rebuild(bits_read: float, errors_per_bit: float) -> float:
    """P(at least one unrecoverable read error while reading ``bits_read`` bits).

    ``1 - exp(-bits_read x errors_per_bit)``, as ``-expm1`` so that 1e-12 keeps its
    digits; the same as the calculators' ``1 - (1 - rate)^bits`` to 1e-15 relative.
    """
    if not (np.isfinite(bits_read) and bits_read >= 0):
        raise ValueError(f"bits_read must be >= 0, got {bits_read!r}")
    if not (np.isfinite(errors_per_bit) and errors_per_bit >= 0):
        raise ValueError(f"errors_per_bit must be >= 0, got {errors_per_bit!r}")
    return -math.expm1(-bits_read * errors_per_bit)


def critical_rebuild_bits(
    parity: int, drives: int, capacity_tb: float, read_drives: float | None = None
) -> float:
    """Bits a critical rebuild reads: ``read_drives`` drives' worth, by default N - k whole.

    A declustered pool reads only the stripes left without redundancy
    (:attr:`planner.core.arrays.layouts.Layout.critical_rebuild_drives`).
    """
    read = drives - parity if read_drives is None else read_drives
    return read * capacity_tb * BITS_PER_TB


def spec_sheet_generator(
    parity: int, drives: int, rates: Rates, p_unreadable: float
) -> npt.NDArray[np.float64]:
    """Q of the spec-sheet method: no latent defects; a critical rebuild may lose sectors.

    The chain of :func:`planner.core.markov.generator.generator_matrix` with
    ``latent_defects_per_hour = 0``, whose rebuild out of the critical state (k, 0) goes
    back to (k - 1, 0) at ``(1 - p) mu`` and into the loss state at ``p mu``.
    """
    if not 0.0 <= p_unreadable <= 1.0:
        raise ValueError(f"p_unreadable must be in [0, 1], got {p_unreadable!r}")
    q = generator_matrix(parity, drives, replace(rates, latent_defects_per_hour=0.0))
    chain = build_chain(parity)
    critical = chain.states.index(State(parity, 0))
    back = chain.states.index(State(parity - 1, 0))
    mu = q[critical, back]
    q[critical, back] = (1.0 - p_unreadable) * mu
    q[critical, chain.loss_index] += p_unreadable * mu
    return q


def p_loss_spec_sheet(
    parity: int, drives: int, rates: Rates, mission_hours: float, p_unreadable: float
) -> float:
    """P(loss) of one group by the spec-sheet method (:func:`spec_sheet_generator`)."""
    q = spec_sheet_generator(parity, drives, rates, p_unreadable)
    p = float(
        expm_metzler(
            q * mission_hours, entry=(0, q.shape[0] - 1), lead_power=parity + 1, generator=True
        )
    )
    return min(max(p, 0.0), 1.0)


def p_loss_from_mttdl(mttdl: float, mission_hours: float) -> float:
    """``1 - exp(-T / MTTDL)``, the Poisson approximation, as ``-expm1`` (tiny p kept)."""
    if mttdl <= 0:
        raise ValueError(f"MTTDL must be positive, got {mttdl!r}")
    return -math.expm1(-mission_hours / mttdl)


@cache
def _approx_function(parity: int, rebuild_streams: int | None = 1) -> Callable[..., float]:
    """The closed-form leading-order MTTDL of the n+k chain, lambdified once per k."""
    import sympy as sp

    from planner.core.markov.symbolic import SYMBOL_NAMES, derive_leading_order

    derivation = derive_leading_order(parity, rebuild_streams)
    symbols = [derivation.symbols[name] for name in SYMBOL_NAMES]
    function: Callable[..., float] = sp.lambdify(
        symbols, derivation.mttdl_approx, modules="math", cse=True
    )
    return function


@cache
def _pool_approx_function(parity: int) -> Callable[..., float]:
    """The leading-order MTTDL of a declustered pool's chain, with sigma as the last argument.

    The pool's chain (one rebuild at a time) thins the sector-loss move by the stripe share
    sigma (:mod:`planner.core.markov.chain`); the same failure-level formula, on its transitions
    with the factors sigma and 1 - sigma, lambdified once per k.
    """
    import sympy as sp

    from planner.core.markov.chain import StripeShare
    from planner.core.markov.symbolic import (
        SYMBOL_NAMES,
        _symbols,
        leading_order_mttdl,
        transition_rate_expressions,
    )

    chain = build_chain(parity, 1, stripe_share=True)
    symbols = _symbols()
    sigma = sp.Symbol("sigma", positive=True)
    factors = {StripeShare.ALL: 1, StripeShare.SHARE: sigma, StripeShare.REST: 1 - sigma}
    rates = tuple(
        factors[t.share] * rate
        for t, rate in zip(
            chain.transitions, transition_rate_expressions(chain, symbols), strict=True
        )
    )
    arguments = [*(symbols[name] for name in SYMBOL_NAMES), sigma]
    function: Callable[..., float] = sp.lambdify(
        arguments, leading_order_mttdl(chain, rates), modules="math", cse=True
    )
    return function


def mttdl_approx_hours(parity: int, drives: int, rates: Rates) -> float:
    """Leading-order MTTDL (h) for lambda << mu: the closed form of ``derive(k).mttdl_approx``.

    SymPy derives it once per parity count, in milliseconds for any k (the leading order
    needs no exact fraction: :func:`planner.core.markov.symbolic.leading_order_mttdl`). A
    declustered
    pool's rates (``defect_stripe_share`` below 1) take the pool's own form, its sector-loss
    move thinned by sigma; the traditional form would count every defect as meeting the
    failed drives (48 times the exact P(loss) on a 48-drive draid2 of 20 TB drives).
    """
    values = rates.by_symbol()
    arguments = (
        drives,
        values["lambda_op"],
        values["lambda_ld"],
        values["mu_op"],
        values["mu_scrub"],
    )
    if rates.defect_stripe_share < 1.0:
        return float(_pool_approx_function(parity)(*arguments, rates.defect_stripe_share))
    return float(_approx_function(parity, rates.rebuild_streams)(*arguments))


def analytic_methods(
    parity: int,
    drives: int,
    rates: Rates,
    mission_hours: float,
    spec_sheet: tuple[float, float] | None = None,
    critical_read_drives: float | None = None,
) -> AnalyticMethods:
    """P(loss) of one group of ``drives`` drives (``parity`` of them parity) by each method.

    Args:
        parity: parity drives per group, k.
        drives: drives per group, N.
        rates: the constant rates (per hour) of the Markov model.
        mission_hours: mission length (h).
        spec_sheet: ``(capacity_tb, errors_per_bit)`` for the spec-sheet method, or None.
        critical_read_drives: drives' worth a critical rebuild reads (default N - k; a
            declustered pool's critical stripes, :func:`critical_rebuild_bits`).
    """
    exact_mttdl = mttdl_hours(parity, drives, rates)
    approx_mttdl = mttdl_approx_hours(parity, drives, rates)
    no_latent = replace(rates, latent_defects_per_hour=0.0)
    return AnalyticMethods(
        p_markov=p_loss_group(parity, drives, rates, mission_hours),
        mttdl_hours=exact_mttdl,
        p_mttdl=p_loss_from_mttdl(exact_mttdl, mission_hours),
        mttdl_approx_hours=approx_mttdl,
        p_mttdl_approx=p_loss_from_mttdl(approx_mttdl, mission_hours),
        p_no_latent=p_loss_group(parity, drives, no_latent, mission_hours),
        p_spec_sheet=(
            None
            if spec_sheet is None
            else p_loss_spec_sheet(
                parity,
                drives,
                rates,
                mission_hours,
                p_unreadable_in_rebuild(
                    critical_rebuild_bits(parity, drives, spec_sheet[0], critical_read_drives),
                    spec_sheet[1],
                ),
            )
        ),
    )


def critical_defects_generator(
    parity: int, drives: int, rates: Rates, *, reads_on_survivors: bool = False
) -> npt.NDArray[np.float64]:
    """Q of the chain with every latent defect of a critical rebuild counted as a loss.

    NS3574's chain lets a defect appear only while ``f < k`` (docs/models.md): one that
    arises on a surviving drive while ``k`` drives are down (a critical rebuild, no
    redundancy left) is never counted. This chain counts each one as a loss: the critical
    state (k, 0) goes to loss at ``(N - k) lambda_ld`` more, thinned by a declustered pool's
    stripe share sigma (a defect loses sectors only where its stripe spans every failed
    drive). It overcounts (a defect behind the rebuild's read is never met), so its P(loss)
    bounds from above what the chain leaves out, and the chain's own bounds it from below.

    ``reads_on_survivors``: ``lambda_ld`` is the group's mean share of a workload's reads
    (``Rates.defects_per_data_drive``, spread by ``Layout.chain_rates``), and with ``k``
    drives down the survivors read all of them: ``N lambda_ld`` in all, not ``N - k`` of it
    (a mirror's survivor meets defects at twice the mean), but no survivor more than the
    drive can read (``workload_reads.most_per_drive_hour``): ``min(N lambda_ld, (N - k)
    most)``. Uncapped, a saturated three-way mirror's survivor was counted reading three
    drives' worth, and the bound rose past what any drive meets.
    """
    q = generator_matrix(parity, drives, rates)
    chain = build_chain(parity)
    critical = chain.states.index(State(parity, 0))
    survivors = drives - parity
    met = survivors * rates.latent_defects_per_hour
    if reads_on_survivors:
        met = drives * rates.latent_defects_per_hour
        if rates.workload_reads is not None:
            met = min(met, survivors * rates.workload_reads.most_per_drive_hour)
    extra = met * rates.defect_stripe_share
    q[critical, chain.loss_index] += extra
    q[critical, critical] -= extra
    return q


def p_loss_critical_defects(
    parity: int,
    drives: int,
    rates: Rates,
    mission_hours: float,
    *,
    reads_on_survivors: bool = False,
) -> float:
    """P(loss) of one group by :func:`critical_defects_generator` (an upper bound)."""
    q = critical_defects_generator(parity, drives, rates, reads_on_survivors=reads_on_survivors)
    p = float(
        expm_metzler(
            q * mission_hours, entry=(0, q.shape[0] - 1), lead_power=parity + 1, generator=True
        )
    )
    return min(max(p, 0.0), 1.0)
