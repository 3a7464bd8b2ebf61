"""Monte Carlo simulation of RAID groups under any lifetime and repair-time laws.

What belongs here: the time distributions (:mod:`.distributions`), the event-driven kernel
vectorised across trials (:mod:`.kernel`), running batches of it to a stopping rule
(:mod:`.runs`), variance reduction (:mod:`.rare_events`), pooling the trials into an estimate
with its interval (:mod:`.estimate`) and the run from parameters to result (:mod:`.simulate`).

It may use :mod:`planner.core.markov` (rates, the aggregate rule) but not the hardware or
design packages.
"""
