"""Monte Carlo simulation of RAID groups under any lifetime and repair-time laws.

What belongs here, from the bottom up: the time laws (:mod:`.time_laws`) and the set of them
the simulator takes (:mod:`.distributions`); the variance-reduction plans
(:mod:`.rare_events`) and their tuning (:mod:`.biasing`); a batch's state and hazard clocks,
vectorised across trials (:mod:`.kernel`), and what each event does to it (:mod:`.events`);
running batches to their end (:mod:`.runs`); pooling the trials into an estimate with its
interval (:mod:`.estimate`); and a run from its parameters to its result (:mod:`.simulate`).

It may use :mod:`planner.core.markov` (rates, the aggregate rule) but not the hardware or
design packages.
"""
