"""The tools that measure, load and fill the site, kept apart from the product.

- `arena`, `engine_bench`, `review_bench`: bot matches, the engines' speed and memory, the
  review's cost (`python -m tools.<name> --help`);
- `livestack`: the servers, workers and sockets the live benchmark and the load test start;
- `load`: the load test with members and spectators (`python -m tools.load --help`);
- `seeding`, `seeding_tournaments`: a club's worth of finished games, seasons and tournaments;
- `management/commands/`: `seed_club`, `bench_club`, `bench_live` and `bench_pairing`.

The apps and `infra` never import this package (tests/test_import_layers.py): the site runs
without it, and it may import any of them. docs/benchmarks.md has every figure they printed.
"""
