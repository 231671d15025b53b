"""What every rules engine shares: the error type, the protocol and the random generator.

Engines are pure: no Django, no I/O, no clock and no global random state. Everything
random is drawn from `Rng`, whose whole state is one integer, so a game is fully
determined by its seed and its moves, across Python versions.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

_MASK64 = 0xFFFFFFFFFFFFFFFF
_GAMMA = 0x9E3779B97F4A7C15


class CodedError(Exception):
    """An error a member may be told about: `code` is stable and machine-readable (the
    website translates it); the message is plain English for logs and tests; `params`
    carry the numbers a translation needs."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt whole when it crosses a process (the arena's workers): the default would
        # call the class with the message alone.
        return (type(self), (self.code, self.message), {"params": self.params})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class IllegalMove(CodedError):
    """A move the rules forbid, or input that is not a move at all."""


def move_type(move: Any, keys: Mapping[str, Collection[str]]) -> str:
    """The type of `move`, a JSON object with exactly the keys its type takes (`keys`
    maps each move type to its other keys); anything else raises `bad_move`. Checking
    the values is left to the engine."""
    if not isinstance(move, dict):
        raise IllegalMove("bad_move", "A move must be a JSON object.")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in keys:
        raise IllegalMove("bad_move", f"Unknown move type {kind!r}; expected one of {list(keys)}.")
    expected = {"type", *keys[kind]}
    if set(move) != expected:
        raise IllegalMove(
            "bad_move",
            f"A {kind} move has exactly the keys {sorted(expected)}.",
            keys=sorted(str(k) for k in move),
        )
    return kind


def require_integers(move: dict[str, Any], names: Collection[str]) -> None:
    """Raise `bad_move` unless each of `names` holds an integer (not a bool)."""
    for name in names:
        if type(move[name]) is not int:
            raise IllegalMove("bad_move", f"{name!r} must be an integer.", key=name)


@dataclass(frozen=True, slots=True)
class Rng:
    """A splitmix64 generator. The whole state is one int, so dumps and replays are exact.

    We never use the `random` module: its `shuffle` and `choice` are not guaranteed to
    give the same results across Python versions, and move logs must replay for years.
    """

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK64)

    def next(self, bound: int) -> tuple[int, Rng]:
        """Return a number in range(bound) and the generator to use next."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        s = (self.state + _GAMMA) & _MASK64
        return _mix(s) % bound, Rng(s)

    def shuffle(self, items: tuple[T, ...] | list[T]) -> tuple[tuple[T, ...], Rng]:
        """Fisher-Yates shuffle; returns the shuffled tuple and the generator to use next.

        The same draws as calling `next(i + 1)` for i from the end down, without making a
        generator per draw (the bots' searches shuffle hidden cards thousands of times a
        decision)."""
        out = list(items)
        s = self.state
        for i in range(len(out) - 1, 0, -1):
            s = (s + _GAMMA) & _MASK64
            j = _mix(s) % (i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), Rng(s)


def _mix(s: int) -> int:
    """splitmix64's output function of the state `s`."""
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class Engine(Protocol):
    """The interface every engine object (`ENGINE` in `games/engines/<pkg>/`) provides; the
    registry (`games/registry.py`) checks each registered engine against it.

    Seats are numbered 0..players-1 in turn order from the first player. Moves are
    JSON-safe dicts with a `"type"` key; a turn with several steps is several moves.
    States are immutable values: `apply_move` returns a new state and never changes its
    input; an illegal move raises `IllegalMove` and changes nothing.

    `determinize(view, seat, seed)` builds a complete state consistent with
    `view(state, seat)`, sampling whatever that view hides (for example the order of
    face-down stacks) from `seed`, so that bots search without peeking at hidden information.

    The optional hooks have their defaults in `EngineDefaults`, which every engine class
    inherits: `reveals_steps` declares that a member may take back steps (DESIGN.md
    principle 8), and then `reveals(state, seat, move)` is True when playing `move` in
    `state` shows anyone something hidden (a face-down draw, a card drawn); such a step
    cannot be taken back. `holds_turn(state, seat)` is True when `seat`'s turn goes on in
    `state` although other seats move first (Tower of Babel's builder while the others make
    their offers); a step that led there belongs to the turn still going on.
    """

    slug: str
    name: str
    min_players: int
    max_players: int
    move_types: tuple[str, ...]
    reveals_steps: bool

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any: ...

    def to_move(self, state: Any) -> list[int]: ...

    def legal_moves(self, state: Any, seat: int) -> list[dict[str, Any]]: ...

    def apply_move(self, state: Any, seat: int, move: dict[str, Any]) -> Any: ...

    def is_over(self, state: Any) -> bool: ...

    def scores(self, state: Any) -> dict[str, Any]: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> Any: ...

    def determinize(self, view: dict[str, Any], seat: int | None, seed: int) -> Any: ...

    def reveals(self, state: Any, seat: int, move: dict[str, Any]) -> bool: ...

    def holds_turn(self, state: Any, seat: int) -> bool: ...


class EngineDefaults:
    """The optional engine hooks, as an engine that does not offer them has them: no step
    can be taken back (each move is a whole turn), and no turn is held while others move."""

    reveals_steps: bool = False

    def reveals(self, state: Any, seat: int, move: dict[str, Any]) -> bool:
        return True

    def holds_turn(self, state: Any, seat: int) -> bool:
        return False


def can_take_back_step(
    engine: Engine, before: Any, seat: int, move: dict[str, Any], after: Any
) -> bool:
    """Whether the step `move` of `seat`, which led from `before` to `after`, may be taken
    back while it is the last one played (DESIGN.md principle 8): the engine opts in with
    `reveals_steps`, the step showed nothing hidden, and the turn goes on (the seat is still to
    move, or `holds_turn`), so the step belongs to the current turn. Whether another seat
    has moved since is for the caller, who holds the log."""
    return take_back_refusal(engine, before, seat, move, after) is None


def take_back_refusal(
    engine: Engine, before: Any, seat: int, move: dict[str, Any], after: Any
) -> str | None:
    """Why that step may not be taken back, as a reason code, or None when it may:
    "whole_turns" (the engine does not declare `reveals_steps`: each move is a whole turn),
    "turn_passed" (the step ended the turn or the game), "step_revealed" (it showed
    something hidden)."""
    if not engine.reveals_steps:
        return "whole_turns"
    if engine.is_over(after) or not turn_goes_on(engine, after, seat):
        return "turn_passed"
    return "step_revealed" if engine.reveals(before, seat, move) else None


def turn_goes_on(engine: Engine, state: Any, seat: int) -> bool:
    """Whether `seat`'s turn is still going on in `state`: the seat is to move, or the engine
    says the turn waits for the others and comes back to it (`holds_turn`)."""
    return seat in engine.to_move(state) or engine.holds_turn(state, seat)
