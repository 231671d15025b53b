"""The bots' knowledge of Tower of Babel: what holdings are likely worth at the end
(`estimates.py`) and the evaluation and choices built on it (`evaluate.py`)."""
