"""Training on NovaMart: TRL environment classes, a dataset builder, OpenEnv harness sessions.

- ``novamart.training.trl_env``: ``ENVIRONMENTS`` for ``GRPOTrainer(environment_factory=...)``
- ``novamart.training.dataset``: ``make_dataset`` / ``dataset_rows`` over the task API's splits
- ``novamart.training.harness``: ``NovamartSessionFactory`` for ``openenv.core.harness``

Nothing here imports torch or TRL: the adapter needs only NovaMart.
"""
