"""Event-driven simulation of a batch of RAID groups, vectorised across trials with NumPy.

The events and the data-loss rule are those of the Markov model (:mod:`planner.core.model`),
with any time distributions (:mod:`planner.core.distributions`). A group of ``N`` drives with
``k`` parity starts pristine with all drives new (age 0) and runs for the mission:

* every drive not failed and not holding the latent defect fails at its own hazard
  ``h(age)``, age counted from the drive's entry into service. The holder is excluded, as in
  the chain (``(N - f - l) lambda_op``: a second event on the same drive loses nothing new):
  its failure clock is held (it ages, but accumulates no hazard) until the scrub clears the
  defect. A failure with ``f + l = k`` is data loss.
* latent defects appear on the ``N - f`` working drives at the constant rate per drive-hour,
  only while no defect is present and ``f < k``; the holder is drawn uniformly.
* one rebuild at a time; each rebuild draws its duration from the restoration law when it
  starts, and the rebuilt drive enters service new (its age renews: a replaced drive is a new
  drive, the renewal assumption of Elerath and Pecht 2009).
* the scrub time of a latent defect is drawn from the scrub law when the defect appears and
  is consumed only while no drive is failed: the chain scrubs only from state (0, 1), i.e.
  the background scrub is suspended while a rebuild runs, and resumes where it stopped.

With exponential laws every one of these rules has the chain's rate, so the simulator and
:func:`planner.core.evaluate.p_loss_group` describe the same process.

Each drive carries an exponential budget ``E ~ Exp(1)`` and fails when its weighted cumulative
hazard ``sum w * (H(a1) - H(a0))`` reaches it; with weight 1 that is inverse-CDF sampling of
its lifetime. Weights other than 1 come from the :class:`SamplingPlan` (see
:mod:`planner.core.rare_events`): 0 holds the failure (conditioning), ``beta`` speeds it up
(importance sampling). Weights are per trial and change only at events, so a drive's next
failure time is recomputed only when its trial's weight or its own status changes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from planner.core.distributions import DistributionSet
from planner.core.rare_events import SamplingPlan

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_FAIL, _LATENT, _REBUILD, _SCRUB, _END, _IDLE = range(6)


class _Batch:
    """State of ``trials`` independent groups; rows are trials, columns drives."""

    def __init__(
        self,
        plan: SamplingPlan,
        laws: DistributionSet,
        mission_hours: float,
        trials: int,
        rng: np.random.Generator,
    ) -> None:
        n = plan.drives
        self.plan, self.laws, self.mission, self.rng = plan, laws, mission_hours, rng
        self.life = laws.operational_failure
        self.op_w = np.array(plan.op_weight, dtype=float)
        self.ld_w = np.array(plan.ld_weight, dtype=float)
        self.cols = np.arange(n)
        self.index = np.arange(trials)
        self.t = np.zeros(trials)
        self.f = np.zeros(trials, dtype=np.int64)
        self.l = np.zeros(trials, dtype=np.int64)
        self.holder = np.full(trials, -1, dtype=np.int64)
        self.rebuild_end = np.full(trials, np.inf)
        self.scrub_left = np.zeros(trials)
        self.scrub_since = np.zeros(trials)
        self.log_lr = np.zeros(trials)
        self.lam = np.zeros(trials)
        self.est = np.zeros(trials)
        self.w_row = np.full(trials, self.op_w[0, 0])
        self.birth = np.zeros((trials, n))
        self.sync = np.zeros((trials, n))
        self.budget = rng.standard_exponential((trials, n))
        self.failed = np.zeros((trials, n), dtype=bool)
        self.fail_at = np.full((trials, n), np.inf)
        self.next_fail = np.full(trials, np.inf)
        self.who = np.zeros(trials, dtype=np.int64)
        self.done = np.zeros(trials, dtype=bool)
        self.arm(self.index, None)

    # --- accounting -----------------------------------------------------------------------

    def _at_risk(self, rows: IntArray, cols: IntArray | None) -> npt.NDArray[np.bool_]:
        risk: npt.NDArray[np.bool_]
        if cols is None:
            risk = ~self.failed[rows] & (self.cols[None, :] != self.holder[rows, None])
        else:
            risk = ~self.failed[rows, cols] & (cols != self.holder[rows])
        return risk

    def settle(self, rows: IntArray, cols: IntArray | None) -> None:
        """Charge the hazard since each drive's last sync to its budget, L and Lambda.

        ``cols=None`` settles whole rows, else drive ``cols[i]`` of row ``rows[i]``.
        """
        if rows.size == 0:
            return
        sel: tuple[IntArray, ...] | IntArray = rows if cols is None else (rows, cols)
        now = self.t[rows]
        now_b = now[:, None] if cols is None else now
        birth = self.birth[sel]
        d_h = self.life.cumulative_hazard(now_b - birth) - self.life.cumulative_hazard(
            self.sync[sel] - birth
        )
        d_h = np.where(self._at_risk(rows, cols), d_h, 0.0)
        w = self.w_row[rows]
        w_b = w[:, None] if cols is None else w
        self.budget[sel] -= w_b * d_h
        self.sync[sel] = now_b
        total = d_h.sum(axis=1) if cols is None else d_h
        if self.plan.biased:
            self.log_lr[rows] += np.where(w > 0, (w - 1.0) * total, 0.0)
        if self.plan.conditional:
            d_lam = np.where(w == 0, total, 0.0)
            gain = np.exp(self.log_lr[rows] - self.lam[rows]) * -np.expm1(-d_lam)
            self.est[rows] += gain
            self.lam[rows] += d_lam

    def arm(self, rows: IntArray, cols: IntArray | None) -> None:
        """Recompute next failure times (h) from the budgets at the current weight."""
        if rows.size == 0:
            return
        sel: tuple[IntArray, ...] | IntArray = rows if cols is None else (rows, cols)
        w = self.w_row[rows]
        w_b = w[:, None] if cols is None else w
        birth = self.birth[sel]
        with np.errstate(divide="ignore", invalid="ignore"):
            target = self.life.cumulative_hazard(self.sync[sel] - birth) + self.budget[sel] / w_b
        age = self.life.inverse_cumulative_hazard(np.maximum(target, 0.0))
        ok = self._at_risk(rows, cols) & (w_b > 0)
        armed = np.where(ok, birth + age, np.inf)
        self.fail_at[sel] = armed
        if cols is None:
            self.refresh(rows)
        else:
            # A single drive only ever comes back from inf (rebirth, end of a defect), so the
            # row's earliest failure can only move earlier.
            sooner = armed < self.next_fail[rows]
            self.next_fail[rows[sooner]] = armed[sooner]
            self.who[rows[sooner]] = cols[sooner]

    def refresh(self, rows: IntArray) -> None:
        """Recompute the earliest failure time and drive of ``rows``."""
        who = self.fail_at[rows].argmin(axis=1)
        self.who[rows] = who
        self.next_fail[rows] = self.fail_at[rows, who]

    def retune(self, rows: IntArray) -> None:
        """Switch rows whose state changed the weight: settle at the old one, re-arm."""
        new_w = self.op_w[self.f[rows], self.l[rows]]
        moved = rows[new_w != self.w_row[rows]]
        if moved.size:
            self.settle(moved, None)
            self.w_row[moved] = self.op_w[self.f[moved], self.l[moved]]
            self.arm(moved, None)

    # --- events ---------------------------------------------------------------------------

    def on_failure(self, rows: IntArray, cols: IntArray) -> None:
        """Operational failure of drive ``cols`` in ``rows`` (never critical here)."""
        self.settle(rows, cols)
        if self.plan.biased:
            self.log_lr[rows] -= np.log(self.w_row[rows])
        self.failed[rows, cols] = True
        self.fail_at[rows, cols] = np.inf
        self.refresh(rows)
        starting = rows[self.f[rows] == 0]
        self.rebuild_end[starting] = self.t[starting] + self.laws.restoration.sample(
            self.rng, starting.size
        )
        paused = starting[self.l[starting] == 1]
        self.scrub_left[paused] -= self.t[paused] - self.scrub_since[paused]
        self.f[rows] += 1
        self.retune(rows)

    def on_rebuild(self, rows: IntArray) -> None:
        """A rebuild completes: a failed drive returns new; the next rebuild starts."""
        cols = self.failed[rows].argmax(axis=1)
        self.failed[rows, cols] = False
        self.birth[rows, cols] = self.t[rows]
        self.sync[rows, cols] = self.t[rows]
        self.budget[rows, cols] = self.rng.standard_exponential(rows.size)
        self.f[rows] -= 1
        more = self.f[rows] > 0
        durations = self.laws.restoration.sample(self.rng, rows.size)
        self.rebuild_end[rows] = np.where(more, self.t[rows] + durations, np.inf)
        resumed = rows[~more & (self.l[rows] == 1)]
        self.scrub_since[resumed] = self.t[resumed]
        self.retune(rows)
        self.arm(rows, cols)

    def on_latent(self, rows: IntArray) -> None:
        """A latent defect appears on a working drive drawn uniformly."""
        if self.plan.biased:
            self.log_lr[rows] -= np.log(self.ld_w[self.f[rows]])
        u = self.rng.random(rows.size)
        cols = np.minimum((u * self.plan.drives).astype(np.int64), self.plan.drives - 1)
        degraded = np.flatnonzero(self.f[rows] > 0)
        if degraded.size:
            working = np.cumsum(~self.failed[rows[degraded]], axis=1)
            pick = np.floor(u[degraded] * working[:, -1])
            cols[degraded] = (working <= pick[:, None]).sum(axis=1)
        self.settle(rows, cols)
        self.holder[rows] = cols
        self.fail_at[rows, cols] = np.inf
        stale = rows[self.who[rows] == cols]
        self.refresh(stale)
        self.l[rows] = 1
        self.scrub_left[rows] = self.laws.scrub.sample(self.rng, rows.size)
        self.scrub_since[rows] = self.t[rows]
        self.retune(rows)

    def on_scrub(self, rows: IntArray) -> None:
        """The scrub repairs the latent defect; its drive is at risk again."""
        cols = self.holder[rows]
        self.holder[rows] = -1
        self.l[rows] = 0
        self.sync[rows, cols] = self.t[rows]
        self.retune(rows)
        self.arm(rows, cols)

    def keep(self, live: npt.NDArray[np.bool_]) -> None:
        """Drop finished trials from every per-trial array."""
        for name in _PER_TRIAL:
            setattr(self, name, getattr(self, name)[live])


_PER_TRIAL = (
    *("index", "t", "f", "l", "holder", "rebuild_end", "scrub_left", "scrub_since"),
    *("log_lr", "lam", "est", "w_row", "birth", "sync", "budget", "failed", "fail_at"),
    *("next_fail", "who", "done"),
)


def run_batch(
    plan: SamplingPlan,
    laws: DistributionSet,
    mission_hours: float,
    trials: int,
    rng: np.random.Generator,
) -> tuple[FloatArray, int]:
    """Simulate ``trials`` groups over ``mission_hours`` (h).

    Returns:
        The per-trial estimates (0/1 loss indicators for a plain plan, likelihood-weighted
        ``1 - exp(-Lambda)`` for a conditional one) and the number of event steps taken.
    """
    out = np.zeros(trials)
    batch = _Batch(plan, laws, mission_hours, trials, rng)
    k, n = plan.parity, plan.drives
    ld_rate = laws.latent_defects_per_hour
    steps = 0
    while batch.index.size:
        steps += 1
        b = batch
        rate_ld = np.where((b.l == 0) & (b.f < k), (n - b.f) * ld_rate, 0.0)
        beta_ld = b.ld_w[b.f]
        with np.errstate(divide="ignore"):
            t_ld = b.t + b.rng.standard_exponential(b.t.size) / (beta_ld * rate_ld)
        t_scrub = np.where((b.l == 1) & (b.f == 0), b.scrub_since + b.scrub_left, np.inf)
        times = np.stack(
            [b.next_fail, t_ld, b.rebuild_end, t_scrub, np.full(b.t.size, mission_hours)]
        )
        kind = np.where(b.done, _IDLE, times.argmin(axis=0))
        t_next = np.where(b.done, b.t, times.min(axis=0))
        if plan.biased:
            b.log_lr += (beta_ld - 1.0) * rate_ld * (t_next - b.t)
        b.t = t_next

        rows = np.flatnonzero(kind == _FAIL)
        if not plan.conditional:
            lost = rows[b.f[rows] + b.l[rows] == plan.parity]
            b.est[lost] = 1.0
            b.done[lost] = True
            rows = rows[b.f[rows] + b.l[rows] < plan.parity]
        b.on_failure(rows, b.who[rows])
        b.on_latent(np.flatnonzero(kind == _LATENT))
        b.on_rebuild(np.flatnonzero(kind == _REBUILD))
        b.on_scrub(np.flatnonzero(kind == _SCRUB))
        ended = np.flatnonzero(kind == _END)
        b.settle(ended, None)
        b.done[ended] = True

        # Compacting copies every array: do it once a third of the rows are idle.
        if b.done.sum() * 3 >= b.done.size:
            out[b.index[b.done]] = b.est[b.done]
            b.keep(~b.done)
    return out, steps
