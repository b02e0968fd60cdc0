"""Running agents on NovaMart and measuring them: the episode runner shared by inference.py
and ``novamart eval``, the log-line format, statistics, results files, charts and the LLM
agent."""
