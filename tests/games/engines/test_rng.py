"""The engines' random generator: splitmix64, and a shuffle that draws as `next` does.

Move logs replay for years, so the generator's numbers may never change: the first outputs
for seed 0 are splitmix64's published reference values."""

from games.engines.base import Rng

# splitmix64 seeded with 0: its first four outputs (Vigna's reference implementation).
REFERENCE = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC]


def test_the_generator_gives_splitmix64s_reference_numbers() -> None:
    rng = Rng.from_seed(0)
    drawn = []
    for _ in REFERENCE:
        value, rng = rng.next(2**64)
        drawn.append(value)
    assert drawn == REFERENCE


def test_a_shuffle_is_fisher_yates_with_the_generators_draws() -> None:
    for seed in (0, 1, 12345, 2**64 - 1):
        items = list(range(30))
        expected = list(items)
        rng = Rng.from_seed(seed)
        for i in range(len(expected) - 1, 0, -1):
            j, rng = rng.next(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        shuffled, after = Rng.from_seed(seed).shuffle(items)
        assert list(shuffled) == expected
        assert after == rng
        assert sorted(shuffled) == items


def test_a_shuffle_leaves_its_input_alone_and_shuffles_nothing_or_one_item() -> None:
    items = (3, 1, 2)
    Rng.from_seed(7).shuffle(items)
    assert items == (3, 1, 2)
    assert Rng.from_seed(7).shuffle(())[0] == ()
    assert Rng.from_seed(7).shuffle([9]) == ((9,), Rng.from_seed(7))
