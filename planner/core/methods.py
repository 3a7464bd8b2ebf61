"""The constant-rate answers side by side: exact Markov, the MTTDL approximation, no defects.

NS3574 computes P(loss) from the transient solution of the n+k chain
(:func:`planner.core.evaluate.p_loss_group`). Two shortcuts are common in the literature and
in vendor tools, and this module evaluates both so a report can show how far they drift:

* the **MTTDL approximation** ``P(loss by T) ~ 1 - exp(-T / MTTDL)``, which treats data loss
  as a Poisson process with rate 1 / MTTDL. It is evaluated with the exact MTTDL
  (:func:`planner.core.evaluate.mttdl_hours`) and with the leading-order closed form for
  lambda << mu (:func:`planner.core.derive.leading_order_mttdl`), the kind of formula
  printed in papers;
* the **classic formula without latent defects**: the same chain with
  ``latent_defects_per_hour = 0``, i.e. the textbook model that only counts whole-drive
  failures (NS3574 shows that latent defects dominate RAID 5's risk).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache

from planner.core.evaluate import mttdl_hours, p_loss_group
from planner.core.rates import Rates


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
    """

    p_markov: float
    mttdl_hours: float
    p_mttdl: float
    mttdl_approx_hours: float
    p_mttdl_approx: float
    p_no_latent: float


def p_loss_from_mttdl(mttdl: float, mission_hours: float) -> float:
    """``1 - exp(-T / MTTDL)``, the Poisson approximation, as ``-expm1`` (tiny p kept)."""
    if mttdl <= 0:
        raise ValueError(f"MTTDL must be positive, got {mttdl!r}")
    return -math.expm1(-mission_hours / mttdl)


@cache
def _approx_function(parity: int) -> Callable[..., float]:
    """The closed-form leading-order MTTDL of the n+k chain, lambdified once per k."""
    import sympy as sp

    from planner.core.derive import SYMBOL_NAMES, derive_leading_order

    derivation = derive_leading_order(parity)
    symbols = [derivation.symbols[name] for name in SYMBOL_NAMES]
    function: Callable[..., float] = sp.lambdify(
        symbols, derivation.mttdl_approx, modules="math", cse=True
    )
    return function


def mttdl_approx_hours(parity: int, drives: int, rates: Rates) -> float:
    """Leading-order MTTDL (h) for lambda << mu: the closed form of ``derive(k).mttdl_approx``.

    SymPy derives it once per parity count, in milliseconds for any k (the leading order
    needs no exact fraction: :func:`planner.core.derive.leading_order_mttdl`).
    """
    values = rates.by_symbol()
    approx = _approx_function(parity)(
        drives, values["lambda_op"], values["lambda_ld"], values["mu_op"], values["mu_scrub"]
    )
    return float(approx)


def analytic_methods(
    parity: int, drives: int, rates: Rates, mission_hours: float
) -> AnalyticMethods:
    """P(loss) of one group of ``drives`` drives (``parity`` of them parity) by each method.

    Args:
        parity: parity drives per group, k.
        drives: drives per group, N.
        rates: the constant rates (per hour) of the Markov model.
        mission_hours: mission length (h).
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
    )
