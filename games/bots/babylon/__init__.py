"""The bots' knowledge of Babylon: position heuristics, placement estimates, the turn planner
and its cache, and their entry point `evaluate.py`."""
