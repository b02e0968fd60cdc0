"""NovaMart on Ray (the optional extra ``novamart[ray]``): an actor pool of environments, and
thin adapters for the Ray-based trainers.

- ``novamart.scale.ray_pool``: ``EnvPool`` (actors each holding many in-process episodes;
  whole-episode and batch-of-steps calls; a dead actor fails its sessions with ``ActorDied``
  and is replaced)
- ``novamart.scale.skyrl``: ``NovamartTextEnv``, SkyRL-gym's ``BaseTextEnv`` shape
- ``novamart.scale.verl``: ``NovamartTool``, verl's agent-loop ``BaseTool`` shape

Client side: the actors run the environment in process; nothing here imports the server app.
"""
