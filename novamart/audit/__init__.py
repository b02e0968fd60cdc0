"""``novamart audit``: an optimiser attacks the reward (issue 18, item 7).

A seeded black-box search over tool plans and closing messages assembled from a pool of
fragments (novamart.audit.fragments) maximises the final score on training seeds
(novamart.audit.search), plays the winners on held-out seeds, and judges every sentence
they wrote against the ground truth (novamart.audit.judge), independently of the reader
under test. A reward that fails closed leaves no dishonest strategy at the pass mark.
"""

from novamart.audit.search import AuditReport, Settings, run_audit

__all__ = ["AuditReport", "Settings", "run_audit"]
