"""The bots' knowledge of Akropolis: how good a city is before the end (`evaluate.py`)."""
