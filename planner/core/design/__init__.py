"""Answers over many layouts and inputs: comparison, sizing, sweeps, sensitivity, recommendation.

What belongs here: a scenario's layouts side by side (:mod:`.layout_comparison`), the risk
of many layouts in one batched evaluation (:mod:`.risks`), group-size and parameter sweeps
(:mod:`.sweep`), the tornado and elasticities (:mod:`.sensitivity`),
capacity-and-performance sizing (:mod:`.drive_counts` counts the drives, :mod:`.sizing` adds
the risk), and behind ``recommend`` the candidate layouts (:mod:`.candidates`) and the
choice among them (:mod:`.recommend`).

The top of the core: it may use every other core package; none of them uses it.
"""
