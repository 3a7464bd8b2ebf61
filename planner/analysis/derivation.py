"""The Markov chain of one layout as ``planner derive`` and the TUI's model view (F4) show it.

States and transitions with their symbolic multipliers and numeric rates per hour, the
closed-form MTTDL (SymPy, seconds for k = 3; kept by :mod:`planner.analysis.derivation_cache`)
and the share of losses that lose sectors, as plain data: :mod:`planner.report.derivation`
renders them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from planner.analysis import derivation_cache
from planner.analysis.mttdl_forms import Forms, fraction_forms
from planner.core.markov.chain import (
    AnyEvent,
    Chain,
    CommonCause,
    Event,
    ShockHolder,
    StripeShare,
    Transition,
    build_chain,
)
from planner.core.markov.rates import Rates
from planner.core.markov.transient import transition_rates

if TYPE_CHECKING:
    from planner.core.markov.correlated_algebra import CorrelatedMttdl
    from planner.core.markov.symbolic import Derivation

EVENT_NAMES: dict[AnyEvent, str] = {
    Event.OPERATIONAL_FAILURE: "drive fails",
    Event.LATENT_DEFECT: "latent defect appears",
    Event.REBUILD: "rebuild completes",
    Event.SCRUB: "scrub repairs the defect",
    CommonCause.SHOCK: "shock fails drives",
}
"""Short names of the events, to fit the table beside the states."""

RATE_SYMBOLS: dict[AnyEvent, str] = {
    Event.OPERATIONAL_FAILURE: "λ_Op",
    Event.LATENT_DEFECT: "λ_Ld",
    Event.REBUILD: "μ_Op",
    Event.SCRUB: "μ_Scrub",
    CommonCause.SHOCK: "λ_Sh",
}


SHARE_SYMBOLS = {StripeShare.SHARE: "σ", StripeShare.REST: "(1−σ)"}
HOLDER_SYMBOLS = {ShockHolder.HIT: "q·", ShockHolder.SPARED: "(1−q)·"}
"""The latent defect's holder on a shock: hit (q) or spared (1 − q) beside the others."""
"""A declustered pool's stripe share on the two sector-loss moves (docs/loss.md)."""


def stripe_share_note(rates: Rates) -> str:
    """What the closed form leaves out for a declustered pool ('' for a traditional group)."""
    sigma = rates.defect_stripe_share
    if sigma == 1.0:
        return ""
    return (
        f"σ = {sigma:.4g}: the pool's sector-loss move is thinned to σ of its rate (a defect's "
        "stripe holds every failed drive), the rest goes to k drives down (docs/loss.md). "
        "The closed form below is a traditional group's (σ = 1); the probabilities and the "
        "MTTDL above use σ."
    )


def closed_form_note(rates: Rates) -> str:
    """What the closed form leaves out: a pool's sigma, correlated failures, enclosures, or ''."""
    notes = [stripe_share_note(rates)]
    if rates.correlated:
        notes.append(
            "Correlated failures (m, shocks) are in the transitions and every probability "
            "above; the closed form below is independent drives' (m = 1, no shocks). "
            "`planner derive --correlated` gives the correlated chain's (docs/correlated.md)."
        )
    if rates.enclosures is not None and rates.enclosures.active:
        notes.append(
            "Enclosures are not in the chain shown: the MTTDL above and the compare table's "
            "figures are the enclosure chain's, whose states add the enclosures down and the "
            "drives offline; the closed form below is the drives' alone (docs/domains.md)."
        )
    return "\n\n".join(note for note in notes if note)


@dataclass(frozen=True)
class StateRow:
    """One state of the chain: its number (from 1), ``(f, l)`` and what it means."""

    number: int
    short: str
    meaning: str


@dataclass(frozen=True)
class TransitionRow:
    """One transition: from, to (``3 (1,0)``), event, rate formula and rate per hour."""

    source: str
    target: str
    event: str
    formula: str
    rate_per_hour: float


def chain_states(parity: int) -> tuple[StateRow, ...]:
    """The states of the n+``parity`` chain, loss state last."""
    chain = build_chain(parity)
    return tuple(
        StateRow(i, state.short(), state.describe()) for i, state in enumerate(chain.states, 1)
    )


def chain_transitions(parity: int, group_size: int, rates: Rates) -> tuple[TransitionRow, ...]:
    """Every transition of a group of ``group_size`` drives with its rate under ``rates``.

    With parallel rebuilds (``rates.rebuild_streams``) a rebuild out of a state with f
    failed drives reads ``min(f, streams)·μ_Op``. A declustered pool's chain
    (``rates.defect_stripe_share`` below 1) splits the sector-loss move into ``σ`` and
    ``(1−σ)`` parts. A correlated chain (``rates.correlated``) shows the degraded multiplier
    ``m`` on the failures out of states with a drive down, and each shock with the binomial
    probability of its drives: ``λ_Sh·P(2 of 10)``, ``λ_Sh·P(≥3 of 10)``; out of a state
    with a latent defect, times its holder's q (hit) or (1−q) (spared): ``q·λ_Sh·P(0 of 9)``.
    """
    correlated = rates.correlated
    chain = build_chain(parity, rates.rebuild_streams, rates.defect_stripe_share != 1.0, correlated)
    names = [s.short() for s in chain.states]
    rows = []
    for (source, target, event, rate), t in zip(
        transition_rates(parity, group_size, rates), chain.transitions, strict=True
    ):
        formula = _formula(t, group_size, correlated)
        rows.append(
            TransitionRow(
                f"{source + 1} {names[source]}",
                f"{target + 1} {names[target]}",
                EVENT_NAMES[event],
                formula,
                rate,
            )
        )
    return tuple(rows)


def _formula(t: Transition, group_size: int, correlated: bool) -> str:
    """The rate of ``t`` in symbols: ``10·λ_Op``, ``9·m·λ_Op``, ``λ_Sh·P(≥2 of 10)``."""
    symbol = RATE_SYMBOLS[t.event]
    if t.is_shock:
        working = group_size - (t.drives_excluded or 0)
        share = "" if t.share is StripeShare.ALL else f"{SHARE_SYMBOLS[t.share]}·"
        share += HOLDER_SYMBOLS.get(t.holder, "")
        return f"{share}{symbol}·P({'≥' if t.shock_tail else ''}{t.shock} of {working})"
    if correlated and t.degraded:
        symbol = f"m·{symbol}"
    count = t.multiplier(group_size)
    if t.share is not StripeShare.ALL:
        return f"{count}·{SHARE_SYMBOLS[t.share]}·{symbol}"
    return symbol if t.drives_excluded is None and count == 1 else f"{count}·{symbol}"


def chain_streams(parity: int, rebuild_streams: int | None) -> int | None:
    """The rebuild streams that name the n+``parity`` chain, one name per chain.

    ``min(f, streams)`` with streams >= k rebuilds every failed drive at once (None), and
    with k = 1 that is one at a time (1): so ``planner derive`` and the TUI's model view
    ask the derivation cache for the same chain, and both find the one-at-a-time entry.
    """
    if rebuild_streams is None or rebuild_streams >= parity:
        return 1 if parity == 1 else None
    return rebuild_streams


def closed_form(parity: int, rebuild_streams: int | None = 1) -> derivation_cache.Model:
    """The closed-form MTTDL of the n+``parity`` model: leading order, and exact when known.

    The exact form comes from the disk cache ``planner derive`` shares (seconds once per
    k up to 6; one rebuild at a time is cached, other stream counts derived each time);
    for k = 7 and 8 it takes longer, so only the leading order is computed unless
    ``planner derive --parity k --force`` has cached it.
    :func:`planner.report.derivation.closed_form_text` renders it.
    """
    exact = parity <= derivation_cache.EXACT_WITHOUT_ASKING
    streams = chain_streams(parity, rebuild_streams)
    return derivation_cache.model(parity, exact=exact, rebuild_streams=streams)


def derivation(parity: int, rebuild_streams: int | None = 1) -> Derivation:
    """The symbolic derivation of the n+``parity`` model that ``planner derive`` renders.

    ``rebuild_streams``: concurrent rebuilds (1: one at a time; None: every failed drive).
    """
    from planner.core.markov.symbolic import derive

    return derive(parity, rebuild_streams)


@dataclass(frozen=True)
class SectorShare:
    """What ``planner derive`` shows of the loss split: exact and leading-order forms.

    Attributes:
        parity: k.
        exact: the exact share of losses that lose sectors (a SymPy expression), or None
            when k is above :data:`planner.core.markov.symbolic.SPLIT_SYMBOLIC_MAX_PARITY`.
        leading: its leading order for lambda << mu, or None likewise.
        exact_forms: ``exact`` as collected numerator and denominator, or None likewise.
        leading_forms: ``leading`` the same way.
    """

    parity: int
    exact: object | None
    leading: object | None
    exact_forms: Forms | None = None
    leading_forms: Forms | None = None


def sector_share(parity: int, rebuild_streams: int | None = 1) -> SectorShare:
    """The symbolic share of data losses that lose sectors, for k up to 2 (about a second)."""
    from planner.core.markov.symbolic import SPLIT_SYMBOLIC_MAX_PARITY, sector_loss_share

    if parity > SPLIT_SYMBOLIC_MAX_PARITY:
        return SectorShare(parity, None, None)
    exact, leading = sector_loss_share(parity, rebuild_streams)
    return SectorShare(
        parity, exact, leading, fraction_forms(exact, parity), fraction_forms(leading, parity)
    )


@dataclass(frozen=True)
class CorrelatedDerivation:
    """The correlated n+k chain as ``planner derive --correlated`` shows it.

    Attributes:
        parity: k.
        drives: N when given, else None (N symbolic).
        chain: the correlated chain (traditional group, one rebuild stream count).
        rates: the symbolic rate of each transition (SymPy), in chain order.
        mttdl: the exact MTTDL fraction, or None where SymPy takes minutes
            (:func:`~planner.core.markov.correlated_algebra.correlated_exact_feasible`).
        from_cache: the fraction was read from the disk cache.
    """

    parity: int
    drives: int | None
    chain: Chain
    rates: tuple[object, ...]
    mttdl: CorrelatedMttdl | None
    from_cache: bool = False


def correlated_derivation(
    parity: int, drives: int | None = None, rebuild_streams: int | None = 1
) -> CorrelatedDerivation:
    """The correlated chain's symbolic rates and, where SymPy manages, its exact MTTDL.

    k = 1 with N symbolic or given, k = 2 with N given (seconds, then cached on disk by
    :func:`planner.analysis.derivation_cache.correlated_mttdl_cached`); otherwise the chain
    and its rates only.
    """
    from planner.core.markov.correlated_algebra import (
        correlated_exact_feasible,
        correlated_rate_expressions,
    )

    streams = chain_streams(parity, rebuild_streams)
    chain = build_chain(parity, streams, False, True)
    rates = correlated_rate_expressions(chain, drives)
    if not correlated_exact_feasible(parity, drives):
        return CorrelatedDerivation(parity, drives, chain, rates, None)
    fraction, cached = derivation_cache.correlated_mttdl_cached(parity, drives, streams)
    return CorrelatedDerivation(parity, drives, chain, rates, fraction, cached)
