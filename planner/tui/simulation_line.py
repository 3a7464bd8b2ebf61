"""A Monte Carlo check of the selected layout, next to the exact Markov value (model view).

F6 runs :func:`planner.core.simulation.simulate.simulate_group` (the rare-event ``auto``
method, as ``planner simulate`` does by default) for one group of the selected layout with
the scenario's distributions, until +/-10% at 95% confidence or a few seconds, in a worker.
A parameter edit or another layout makes the shown estimate stale: it is cleared and a
running simulation stops after its current batch.
"""

from __future__ import annotations

import math
import secrets

from textual import work
from textual.message import Message
from textual.widgets import Static
from textual.worker import get_current_worker

from planner.analysis.simulation import RunSettings, SimulationRequest
from planner.core.simulation.result import SimulationResult
from planner.report.percentages import format_percent

REL_ERROR = 0.1
"""Stop at +/-10% relative error (95% confidence)..."""

TIME_BUDGET_SECONDS = 4.0
"""...or after about this long, whichever comes first."""


class _CancelledError(Exception):
    """Raised from the progress callback to end a cancelled simulation early."""


class SimulationLine(Static):
    """One or two lines: how to start a simulation, its progress, or its estimate."""

    class Finished(Message):
        """A simulation of ``request`` finished."""

        def __init__(self, request: SimulationRequest, result: SimulationResult) -> None:
            super().__init__()
            self.request = request
            self.result = result

    class Progress(Message):
        """A simulation of ``request`` has run ``trials`` trials so far."""

        def __init__(self, request: SimulationRequest, trials: int, estimate: float) -> None:
            super().__init__()
            self.request = request
            self.trials = trials
            self.estimate = estimate

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.request: SimulationRequest | None = None
        """The simulation running or shown; None when there is none."""
        self.result: SimulationResult | None = None
        """The finished estimate of :attr:`request`, if any."""
        self._text = ""

    def _show(self, text: str) -> None:
        if text != self._text:  # an unchanged line needs no new layout (typing speed)
            self._text = text
            self.update(text)

    def idle(self, label: str, *, pool: bool = False) -> None:
        """Forget any estimate (the inputs changed) and say how to start one.

        ``pool``: the layout is a declustered pool, simulated whole (not "one group" of it).
        """
        self.request = None
        self.result = None
        self.workers.cancel_group(self, "simulate")
        what = f"the pool {label}" if pool else f"one group of {label}"
        self._show(
            f"F6: simulate {what} (Monte Carlo, ±{REL_ERROR:.0%} or "
            f"{TIME_BUDGET_SECONDS:g} s) next to the exact Markov value."
        )

    def start(self, request: SimulationRequest) -> None:
        """Simulate ``request`` in a worker (a running simulation is stopped)."""
        self.request = request
        self.result = None
        self._show(f"Simulating {request.label} ({request.distributions_name})…")
        self._simulate(request)

    @work(thread=True, exclusive=True, group="simulate")
    def _simulate(self, request: SimulationRequest) -> None:
        worker = get_current_worker()

        def on_progress(trials: int, estimate: float) -> None:
            if worker.is_cancelled:
                raise _CancelledError
            self.post_message(self.Progress(request, trials, estimate))

        settings = RunSettings(
            trials=None,
            rel_error=REL_ERROR,
            time_budget_seconds=TIME_BUDGET_SECONDS,
            seed=secrets.randbelow(2**32),
            method="auto",
        )
        try:
            result = request.run(settings, on_progress)
        except _CancelledError:
            return
        except (ValueError, ArithmeticError) as err:
            self.app.call_from_thread(self._show, f"Simulation failed: {err}")
            return
        if not worker.is_cancelled:
            self.post_message(self.Finished(request, result))

    def on_simulation_line_progress(self, message: Progress) -> None:
        """Show the running estimate."""
        if message.request is self.request and self.result is None:
            self._show(
                f"Simulating {message.request.label} ({message.request.distributions_name}): "
                f"{message.trials:,} trials, P(loss) of a group ≈ "
                f"{format_percent(message.estimate)}…"
            )

    def on_simulation_line_finished(self, message: Finished) -> None:
        """Show the estimate with its interval beside the Markov value."""
        if message.request is not self.request:
            return
        self.result = message.result
        self._show(simulation_text(message.request, message.result))


def simulation_text(request: SimulationRequest, result: SimulationResult) -> str:
    """``Monte Carlo 0.0131% [0.0119%, 0.0143%] (±9.2%, 40,000 trials) vs Markov ...``."""
    markov = request.markov
    ratio = markov.ratio(result)
    inside = markov.inside(result)
    where = "no interval to hold" if inside is None else "inside" if inside else "outside"
    comparison = (
        f"simulation / Markov = {ratio:.3g}, Markov {where} the interval."
        if ratio is not None
        else "the distributions' means are not the scenario's rates: another scenario, no ratio."
    )
    given = not math.isnan(result.ci95_high)  # none: a weighted run without a hit
    interval = (
        f"[{format_percent(result.ci95_low)}, {format_percent(result.ci95_high)}]"
        if given
        else "none"
    )
    what = "the pool" if request.layout.declustered is not None else "one group"
    return (
        f"Monte Carlo, {what}: P(loss) {format_percent(result.p_loss_group)}, 95% CI "
        f"{interval} "
        f"(±{result.rel_error * 100:.2g}% relative; {result.trials:,} trials, "
        f"{result.method} method, docs/simulation.md; "
        f"distributions: {request.distributions_name}).\n"
        f"Exact Markov, constant rates: {format_percent(markov.p_loss_group)}; {comparison}"
        + ("" if result.reliable else f"\n⚠ {result.warning}.")
    )
