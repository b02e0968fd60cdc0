"""The retail task family: a customer with several orders of several items, compound requests,
authentication and confirmation, graded on the world's final state (issue 20)."""
