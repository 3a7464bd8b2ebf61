"""The state of a batch of RAID groups and its hazard clocks, vectorised across trials.

A batch holds ``trials`` independent groups, rows trials and columns drives; what each event
does to it is :mod:`planner.core.simulation.events`', and running a batch to its end is
:mod:`planner.core.simulation.runs`'.

Each drive carries an exponential budget ``E ~ Exp(1)`` and fails when its weighted cumulative
hazard ``sum w * (H(a1) - H(a0))`` reaches it; with weight 1 that is inverse-CDF sampling of
its lifetime. Weights other than 1 come from the :class:`SamplingPlan` (see
:mod:`planner.core.simulation.rare_events`): 0 holds the failure (conditioning), ``beta``
speeds it up (importance sampling), and in ``(k - 1, 1)`` a conditional plan's ``1 - sigma`` is the
natural rate of the failures that clear the defect (the killing share sigma being
integrated); the likelihood ratio counts a weight against that natural one. Weights are
per trial and change only at events, one for the holder and one for every other working
drive, so a drive's next failure time is recomputed only when its trial's weights or its own
status (failed, holder) change.

Correlated failures: the degraded multiplier m is a factor on every working drive's natural
hazard while a drive of its group is down (``d_row``: m where ``f >= 1``, else 1), so the
hazard charged and the clocks armed are ``w m dH``; the weights and the likelihood ratio stay
relative to that natural hazard. Shocks are events of :mod:`planner.core.simulation.runs`.

A batch either runs whole missions from the pristine state (recording, if asked, the state at
the start of every rebuild period), or runs *copies* from recorded states until their rebuild
period ends (:func:`planner.core.simulation.runs.run_split`, the splitting of
:mod:`planner.core.simulation.rare_events`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from planner.core.simulation.distributions import DistributionSet
from planner.core.simulation.rare_events import SamplingPlan, conditional_plan

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class PeriodStarts:
    """The state at the start of each rebuild period of the main paths (one row each).

    Attributes:
        trial: the trial the period belongs to.
        t: start time (h).
        survival: ``exp(-Lambda)`` of the main path at ``t``.
        birth: entry into service of each drive (h), shape (periods, N).
        failed: the failed drive.
        holder: the drive holding the latent defect, or -1.
        slot_start: start time of each rebuild stream's rebuild (h; inf when idle), shape
            (periods, streams).
    """

    trial: IntArray
    t: FloatArray
    survival: FloatArray
    birth: FloatArray
    failed: IntArray
    holder: IntArray
    slot_start: FloatArray


def _weight_tables(
    plan: SamplingPlan,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """The plan's weights as arrays: failure, latent defect, rebuild, holder and killing share.

    Indexed by ``[phase, f, l]`` (``[phase, f]`` for the latent defect and holder weights):
    phase 1 once a critical state was reached, where a conditional plan returns to the
    natural rates (biasing until the rare set is hit). The killing share is the part of the
    drives-but-the-holder's hazard integrated as loss.
    """
    natural = (
        conditional_plan(plan.parity, plan.drives, plan.defect_stripe_share)
        if plan.conditional
        else plan
    )
    kill = [
        [[p.kill_weight(f, la) for la in (0, 1)] for f in range(plan.parity + 1)]
        for p in (plan, natural)
    ]
    return (
        np.array([plan.op_weight, natural.op_weight], dtype=float),
        np.array([plan.ld_weight, natural.ld_weight], dtype=float),
        np.array([plan.rebuild_weight, natural.rebuild_weight], dtype=float),
        np.array([plan.holder_weight, natural.holder_weight], dtype=float),
        np.array(kill, dtype=float),
    )


class _Batch:
    """State of ``trials`` independent groups; rows are trials, columns drives."""

    def __init__(
        self,
        plan: SamplingPlan,
        laws: DistributionSet,
        streams: int,
        trials: int,
        rng: np.random.Generator,
        starts: PeriodStarts | None = None,
    ) -> None:
        if plan.defect_stripe_share != laws.defect_stripe_share:
            raise ValueError(
                f"the plan's defect_stripe_share {plan.defect_stripe_share!r} is not the "
                f"laws' {laws.defect_stripe_share!r}"
            )
        n = plan.drives
        self.plan, self.laws, self.rng = plan, laws, rng
        # Read on every event; the plan computes them.
        self.biased, self.conditional = plan.biased, plan.conditional
        # A pool's stripe share below 1 thins the killing failures (rare_events).
        self.thinned = plan.defect_stripe_share < 1.0
        self.life = laws.operational_failure
        self.repair = laws.restoration
        self.op_w, self.ld_w, self.rb_w, self.hold_w, self.kill_w = _weight_tables(plan)
        self.quiet_defects = self._defects_move_no_weight_while_up()
        self.cols = np.arange(n)
        self.index = np.arange(trials)
        self.f = np.zeros(trials, dtype=np.int64)
        self.l = np.zeros(trials, dtype=np.int64)
        self.phase = np.zeros(trials, dtype=np.int64)
        self.scrub_left = np.zeros(trials)
        self.scrub_since = np.zeros(trials)
        self.log_lr = np.zeros(trials)
        self.lam = np.zeros(trials)
        self.est = np.zeros(trials)
        self.failed = np.zeros((trials, n), dtype=bool)
        self.budget = rng.standard_exponential((trials, n))
        self.fail_at = np.full((trials, n), np.inf)
        self.next_fail = np.full(trials, np.inf)
        self.who = np.zeros(trials, dtype=np.int64)
        self.done = np.zeros(trials, dtype=bool)
        self.copies = starts is not None
        self.recorded: list[PeriodStarts] = []
        self._place(starts, streams)
        # Each drive's cumulative hazard H(age) at its last settle: computed once, not again
        # at the next settle and at every arm.
        self.h_sync = self.life.cumulative_hazard(self.t[:, None] - self.birth)
        self.slot_sync = np.repeat(self.t[:, None], streams, axis=1)
        self.slot_budget = rng.standard_exponential((trials, streams))
        self.slots = np.full((trials, streams), np.inf)
        self.w_row = self.op_w[self.phase, self.f, self.l]
        self.g_row = self.rb_w[self.phase, self.f, self.l]
        self.h_row = self.hold_w[self.phase, self.f]
        self.k_row = self.kill_w[self.phase, self.f, self.l]
        self.degraded = laws.degraded_multiplier
        self.d_row = self.degraded_factor(self.f)
        self.state_class = self._state_classes()
        self.cls = self.state_class[self.phase, self.f, self.l]
        self.arm(self.index, None)
        self.arm_slots(self.index)

    def _place(self, starts: PeriodStarts | None, streams: int) -> None:
        """Start every row pristine at time 0, or (a copy) in the state ``starts`` recorded."""
        trials, n = self.failed.shape
        if starts is None:
            self.t = np.zeros(trials)
            self.holder = np.full(trials, -1, dtype=np.int64)
            self.slot_start = np.full((trials, streams), np.inf)
            # every drive of the batch entered service this long before the mission starts
            self.birth = np.full((trials, n), -self.laws.drive_age_hours_at_start)
            return
        self.t = starts.t.copy()
        self.holder = starts.holder.copy()
        self.slot_start = starts.slot_start.copy()
        self.birth = starts.birth.copy()
        self.failed[self.index, starts.failed] = True
        self.f += 1
        self.l = (self.holder >= 0).astype(np.int64)

    def _defects_move_no_weight_while_up(self) -> bool:
        """Whether latent defects change no rate while no drive is down (``f = 0``).

        True when, in every phase, ``(0, 0)`` and ``(0, 1)`` give every drive (the holder
        too) the same failure weight, integrate no killing share, leave the latent defect
        rate unbiased, and a defect cannot change the phase (``k >= 2``, or a plain plan
        whose phases are alike): then the defects' episodes at ``f = 0`` can be run apart
        from the failure clocks (:func:`planner.core.simulation.events.on_defects_while_up`).
        """
        op, hold, kill = self.op_w[:, 0], self.hold_w[:, 0], self.kill_w[:, 0]
        return bool(
            (self.plan.parity >= 2 or not self.plan.conditional)
            and np.all(op[:, 0] == op[:, 1])
            and np.all(op[:, 0] == hold)
            and np.all(kill == 0.0)
            and np.all(self.ld_w[:, 0] == 1.0)
        )

    def _state_classes(self) -> IntArray:
        """Per ``[phase, f, l]``, the same number where every weight and factor is the same.

        The failure, rebuild, holder and killing weights and the degraded factor: a row whose
        class stays the same has no hazard to re-weigh (:meth:`retune`).
        """
        classes: dict[tuple[float, ...], int] = {}
        table = np.zeros(self.op_w.shape, dtype=np.int64)
        for ph, f, la in np.ndindex(*self.op_w.shape):
            key = (
                float(self.op_w[ph, f, la]),
                float(self.rb_w[ph, f, la]),
                float(self.hold_w[ph, f]),
                float(self.kill_w[ph, f, la]),
                self.degraded if f >= 1 else 1.0,
            )
            table[ph, f, la] = classes.setdefault(key, len(classes))
        return table

    # --- accounting -----------------------------------------------------------------------

    def degraded_factor(self, failed: IntArray) -> FloatArray:
        """The natural hazard's factor with ``failed`` drives down: m if any, else 1."""
        return np.where(failed >= 1, self.degraded, 1.0)

    def weight(self, rows: IntArray, cols: IntArray | None) -> FloatArray:
        """Failure-hazard weight of each drive: the holder's, or the other drives' (0 if failed).

        ``cols=None`` gives whole rows (shape (rows, N)), else drive ``cols[i]`` of
        ``rows[i]``.
        """
        if cols is None:
            w: FloatArray = np.where(self.failed[rows], 0.0, self.w_row[rows, None])
            # The holder is never failed: its failure ends its defect.
            has = np.flatnonzero(self.holder[rows] >= 0)
            w[has, self.holder[rows[has]]] = self.h_row[rows[has]]
            return w
        w = np.where(cols == self.holder[rows], self.h_row[rows], self.w_row[rows])
        return np.where(self.failed[rows, cols], 0.0, w)

    def kill_share(self, rows: IntArray, cols: IntArray | None) -> FloatArray:
        """Killing share of each drive's hazard: the row's for a working drive but the holder.

        Shaped as :meth:`weight`. The drive's natural weight is ``1 - kill``: a conditional
        plan lets a drive fail at that weight without bias.
        """
        if cols is None:
            kill: FloatArray = np.where(self.failed[rows], 0.0, self.k_row[rows, None])
            has = np.flatnonzero(self.holder[rows] >= 0)
            kill[has, self.holder[rows[has]]] = 0.0
            return kill
        kill = np.where(cols == self.holder[rows], 0.0, self.k_row[rows])
        return np.where(self.failed[rows, cols], 0.0, kill)

    def settle(self, rows: IntArray, cols: IntArray | None) -> None:
        """Charge the hazard since each drive's last sync to its budget, L and Lambda.

        ``cols=None`` settles whole rows, else drive ``cols[i]`` of row ``rows[i]``.
        """
        if rows.size == 0:
            return
        if cols is None:
            self.settle_slots(rows)
        sel: tuple[IntArray, ...] | IntArray = rows if cols is None else (rows, cols)
        now = self.t[rows]
        now_b = now[:, None] if cols is None else now
        h_now = self.life.cumulative_hazard(now_b - self.birth[sel])
        d_h = np.where(self.failed[sel], 0.0, h_now - self.h_sync[sel])
        d_h = d_h * (self.d_row[rows, None] if cols is None else self.d_row[rows])
        w = self.weight(rows, cols)
        self.budget[sel] -= w * d_h
        self.h_sync[sel] = h_now

        def row_sum(x: FloatArray) -> FloatArray:
            return x.sum(axis=1) if cols is None else x

        # With sigma = 1 the killing share is 1 exactly where a working drive is held
        # (weight 0) and 0 wherever one may fail (natural weight 1): the short forms below.
        if self.biased:
            # Against the natural weight 1 - kill: the clearing failures of (k - 1, 1) at
            # 1 - sigma are the conditioned process's own, no bias.
            natural = 1.0 - self.kill_share(rows, cols) if self.thinned else 1.0
            self.log_lr[rows] += row_sum(np.where(w > 0, (w - natural) * d_h, 0.0))
        if self.conditional:
            # The killing share of the drives but the holder in critical states: all of it
            # in (k, 0), sigma of it in (k - 1, 1).
            killing = (
                self.kill_share(rows, cols) * d_h if self.thinned else np.where(w == 0, d_h, 0.0)
            )
            d_lam = row_sum(killing)
            gain = np.exp(self.log_lr[rows] - self.lam[rows]) * -np.expm1(-d_lam)
            self.est[rows] += gain
            self.lam[rows] += d_lam

    def settle_slots(self, rows: IntArray) -> None:
        """Charge the rebuild hazard since the last sync to each busy stream's budget and L."""
        start = self.slot_start[rows]
        busy = np.isfinite(start)
        now = self.t[rows][:, None]
        with np.errstate(invalid="ignore"):
            d_h = self.repair.cumulative_hazard(now - start) - self.repair.cumulative_hazard(
                self.slot_sync[rows] - start
            )
        d_h = np.where(busy, d_h, 0.0)
        g = self.g_row[rows]
        self.slot_budget[rows] -= g[:, None] * d_h
        self.slot_sync[rows] = now
        if self.biased:
            self.log_lr[rows] += (g - 1.0) * d_h.sum(axis=1)

    def arm_slots(self, rows: IntArray) -> None:
        """Recompute each busy stream's completion time (h) at the current rebuild weight."""
        if rows.size == 0:
            return
        start = self.slot_start[rows]
        busy = np.isfinite(start)
        g = self.g_row[rows][:, None]
        with np.errstate(invalid="ignore"):
            target = self.repair.cumulative_hazard(self.slot_sync[rows] - start)
            end = start + self.repair.inverse_cumulative_hazard(
                target + np.maximum(self.slot_budget[rows], 0.0) / g
            )
        self.slots[rows] = np.where(busy, end, np.inf)

    def arm(self, rows: IntArray, cols: IntArray | None) -> None:
        """Recompute next failure times (h) from the budgets at the current weight."""
        if rows.size == 0:
            return
        sel: tuple[IntArray, ...] | IntArray = rows if cols is None else (rows, cols)
        w = self.weight(rows, cols)
        w = w * (self.d_row[rows, None] if cols is None else self.d_row[rows])
        birth = self.birth[sel]
        with np.errstate(divide="ignore", invalid="ignore"):
            target = self.h_sync[sel] + self.budget[sel] / w
        age = self.life.inverse_cumulative_hazard(np.maximum(target, 0.0))
        armed = np.where(w > 0, birth + age, np.inf)
        self.fail_at[sel] = armed
        if cols is None:
            self.refresh(rows)
        else:
            sooner = armed < self.next_fail[rows]
            self.next_fail[rows[sooner]] = armed[sooner]
            self.who[rows[sooner]] = cols[sooner]
            # A drive that was the row's earliest and now fails later (a defect moving its
            # weight) may leave another drive the earliest.
            self.refresh(rows[~sooner & (self.who[rows] == cols)])

    def refresh(self, rows: IntArray) -> None:
        """Recompute the earliest failure time and drive of ``rows``."""
        if rows.size == 0:
            return
        who = self.fail_at[rows].argmin(axis=1)
        self.who[rows] = who
        self.next_fail[rows] = self.fail_at[rows, who]

    def retune(self, rows: IntArray) -> None:
        """Switch rows whose state changed a weight: settle at the old one, re-arm."""
        if rows.size == 0:
            return
        f, la = self.f[rows], self.l[rows]
        ph = self.phase[rows] | (f + la == self.plan.parity)
        self.phase[rows] = ph
        new = self.state_class[ph, f, la]
        moved_mask = new != self.cls[rows]
        moved = rows[moved_mask]
        if moved.size:
            self.settle(moved, None)
            self.cls[moved] = new[moved_mask]
            ph, f, la = ph[moved_mask], f[moved_mask], la[moved_mask]
            self.w_row[moved] = self.op_w[ph, f, la]
            self.g_row[moved] = self.rb_w[ph, f, la]
            self.h_row[moved] = self.hold_w[ph, f]
            self.k_row[moved] = self.kill_w[ph, f, la]
            self.d_row[moved] = self.degraded_factor(f)
            self.arm(moved, None)
            self.arm_slots(moved)

    def keep(self, live: npt.NDArray[np.bool_]) -> None:
        """Drop finished trials from every per-trial array."""
        for name in _PER_TRIAL:
            setattr(self, name, getattr(self, name)[live])


_PER_TRIAL = (
    *("index", "t", "f", "l", "phase", "holder", "scrub_left", "scrub_since"),
    *("slots", "slot_start", "slot_sync", "slot_budget", "g_row", "h_row", "k_row"),
    *("log_lr", "lam", "est", "w_row", "birth", "h_sync", "budget", "failed", "fail_at"),
    *("next_fail", "who", "done", "d_row", "cls"),
)
