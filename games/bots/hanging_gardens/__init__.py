"""The bots' knowledge of The Hanging Gardens: how good a garden is before the end
(`evaluate.py`)."""
