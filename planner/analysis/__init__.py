"""The application layer: from a validated scenario to every result the tool shows.

``planner.cli`` and ``planner.tui`` call this package and render what it returns through
:mod:`planner.report`; neither computes (``tests/analysis/test_front_end_purity.py`` checks
it). Each function takes a validated :class:`~planner.scenario.Scenario` and returns a
result type of this package (dataclasses of numbers and labels, no formatting), with the
scenario's inputs attached (:class:`planner.analysis.inputs.Inputs`), so that both front
ends always show the same numbers under the same rules:

* :mod:`planner.analysis.compare`: the comparison and ``evaluate --methods``;
  :mod:`planner.analysis.sizing_report`: the sizing for a workload;
* :mod:`planner.analysis.sweep`: group-size and parameter sweeps (the TUI's series:
  :mod:`planner.analysis.sweep_series`);
* :mod:`planner.analysis.sensitivity`: the tornado of one layout;
* :mod:`planner.analysis.simulation`: Monte Carlo runs;
* :mod:`planner.analysis.method_comparison`: every method side by side;
* :mod:`planner.analysis.recommend`: the search for the cheapest layout meeting a target;
* :mod:`planner.analysis.design`: everything ``planner report`` puts in a design review;
* :mod:`planner.analysis.derivation`: the Markov chain of one layout (states, rates,
  formulas), its exact MTTDL kept on disk by :mod:`planner.analysis.derivation_cache`.

It imports no user-interface library and nothing of :mod:`planner.report` (the contracts
of pyproject.toml, ``lint-imports``).

Modules are imported on use, so that ``planner --help`` stays fast.
"""
