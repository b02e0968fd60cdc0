"""The policy analyst's workbench: cases, explanations and the impact of a rule change.

It sits above the kernel, the scenario generator and the tools (it reads their
registries, so a new task or tool flows in without edits here) and below the CLI and the
server, which only present what it computes.
"""
