"""Messages the app's workers post back to the UI thread with their results."""

from __future__ import annotations

from textual.message import Message

from planner.analysis.compare import CompareData
from planner.analysis.recommend import Recommendation
from planner.analysis.sensitivity import SensitivityReport
from planner.analysis.sweep_series import SweepSeries
from planner.scenario import Scenario
from planner.tui.plot import DrawnChart


class ResultsReady(Message):
    """A worker finished comparing (and, with a workload, sizing) the layouts of ``scenario``."""

    def __init__(self, scenario: Scenario, data: CompareData) -> None:
        super().__init__()
        self.scenario = scenario
        self.data = data


class SweepReady(Message):
    """A worker finished the group-size sweep of ``scenario``."""

    def __init__(
        self, scenario: Scenario, series: tuple[SweepSeries, ...], built: DrawnChart | None
    ) -> None:
        super().__init__()
        self.scenario = scenario
        self.series = series
        self.built = built
        """The risk plot, built by the worker (None: the view builds it)."""


class TornadoReady(Message):
    """A worker finished the tornado of one layout of ``scenario``."""

    def __init__(
        self, scenario: Scenario, label: str | None, fixed: bool, tornado: SensitivityReport
    ) -> None:
        super().__init__()
        self.scenario = scenario
        self.label = label
        self.fixed = fixed
        """Of the aggregate of ``aggregate.data_disks`` though the scenario has a workload."""
        self.tornado = tornado


class ChooseReady(Message):
    """A worker finished the recommendation search of ``scenario`` (the choose view)."""

    def __init__(
        self, scenario: Scenario, report: Recommendation, built: DrawnChart | None
    ) -> None:
        super().__init__()
        self.scenario = scenario
        self.report = report
        self.built = built
        """The plot at the starting point, built by the worker (None: the view builds it)."""


class WorkerFailed(Message):
    """A worker's computation raised; ``text`` says what could not be computed and why."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
