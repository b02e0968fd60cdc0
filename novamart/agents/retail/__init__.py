"""The reference agents' plays of a retail case: the oracle (and the honest writer's voices),
the heuristic reading check_action, and the fixed-choice scripts."""
