"""The application layer: from a validated scenario to every result the tool shows.

``planner.cli`` and ``planner.tui`` call this package and render what it returns; neither
computes (``tests/test_front_end_purity.py`` checks it). Each function takes a validated
:class:`~planner.scenario.Scenario` and returns the report objects of :mod:`planner.report`,
with the scenario's inputs attached (:class:`planner.report.inputs.Inputs`), so that both
front ends always show the same numbers under the same rules:

* :mod:`planner.analysis.compare`: the comparison, ``evaluate --methods``, the sizing;
* :mod:`planner.analysis.sweep`: group-size and parameter sweeps;
* :mod:`planner.analysis.sensitivity`: the tornado of one layout;
* :mod:`planner.analysis.simulation`: Monte Carlo runs and the methods side by side;
* :mod:`planner.analysis.derivation`: the Markov chain of one layout (states, rates, formulas).

Modules are imported on use, so that ``planner --help`` stays fast.
"""
