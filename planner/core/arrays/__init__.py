"""The hardware a layout is built from, in the units the Markov model takes.

What belongs here: drives and their spec sheets (:mod:`.drives`, :mod:`.drive_models`),
rebuild times (:mod:`.rebuild`), latent defects from the reads that meet them
(:mod:`.defects`), workloads (:mod:`.workloads`), RAID presets (:mod:`.presets`),
declustered pools (:mod:`.declustered`), a layout and its aggregate shape
(:mod:`.layouts`) and what a layout costs (:mod:`.cost`).

It turns hardware into model inputs and may use :mod:`planner.core.markov` and
:mod:`planner.core.simulation`; comparing and searching over layouts is
:mod:`planner.core.design`.
"""
