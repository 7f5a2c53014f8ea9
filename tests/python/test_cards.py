"""Cards, the evaluator (one hand and NumPy batches) and hand indices, against the CLI's
`hulhe hand --json` and brute force."""
import itertools
import random

import numpy as np
import pytest

import hulhe

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def test_cards_round_trip_in_the_acpc_encoding():
    for rank, r in enumerate(RANKS):
        for suit, s in enumerate(SUITS):
            assert hulhe.parse_card(r + s) == rank * 4 + suit
            assert hulhe.card_str(rank * 4 + suit) == r + s
    assert hulhe.parse_cards("AhKh2c") == [50, 46, 0]
    assert hulhe.parse_cards([50, "Kh", 0]) == [50, 46, 0]
    assert hulhe.cards_str([51, 47]) == "AsKs"


def test_bad_cards_raise_the_cli_message(cli):
    with pytest.raises(hulhe.InputError) as e:
        hulhe.evaluate("AsKsQsJsTs9s8s7s")
    assert isinstance(e.value, ValueError)
    with pytest.raises(ValueError) as e:
        hulhe.parse_card("Zz")
    assert str(e.value) == cli.error("hand", "Zz", "Ks", "Qs", "Js", "Ts")
    with pytest.raises(hulhe.InputError, match="As appears twice"):
        hulhe.evaluate("AsAsQsJsTs")
    with pytest.raises(hulhe.InputError, match="repeat"):
        hulhe.evaluate([51, 51, 47, 43, 39])
    with pytest.raises(hulhe.InputError, match="0..51"):
        hulhe.card_str(52)


@pytest.mark.parametrize("cards", ["AsKsQsJsTs2c3d", "5c4d3h2sAc9d9h", "AhAdKcKs7h6d2c",
                                   "2c3d4h5s7c", "9h9d9s4c4d7h"])
def test_evaluate_matches_hulhe_hand(cli, cards):
    j = cli.json("hand", cards, "--json")
    rank = hulhe.evaluate(cards)
    assert rank == j["rank"]
    assert hulhe.hand_category(rank) == j["category"]
    assert sorted(hulhe.parse_cards(hulhe.best_five(cards))) == sorted(
        hulhe.parse_cards("".join(j["best_five"])))


def test_five_card_categories_over_every_hand():
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    ranks = hulhe.evaluate_batch(hands)
    assert ranks.dtype == np.uint16 and ranks.shape == (2598960,)
    assert len(np.unique(ranks)) == 7462
    # Category boundaries by rank (1..7462): counts of the known 5-card table.
    names = [hulhe.hand_category(r) for r in range(1, 7463)]
    by_rank = np.bincount(ranks, minlength=7463)[1:]
    counts = {}
    for name, n in zip(names, by_rank):
        counts[name] = counts.get(name, 0) + int(n)
    assert counts == {"high card": 1302540, "pair": 1098240, "two pair": 123552,
                      "three of a kind": 54912, "straight": 10200, "flush": 5108,
                      "full house": 3744, "four of a kind": 624, "straight flush": 40}


def test_batch_equals_single_and_brute_force_best_of_five():
    rng = random.Random(5)
    for k in (5, 6, 7):
        rows = [rng.sample(range(52), k) for _ in range(400)]
        batch = hulhe.evaluate_batch(np.array(rows, dtype=np.int64))  # any integer dtype
        for row, rank in zip(rows, batch):
            assert rank == hulhe.evaluate(row)
            assert rank == max(hulhe.evaluate(list(c)) for c in itertools.combinations(row, 5))


def test_batch_refuses_bad_rows():
    with pytest.raises(hulhe.InputError, match=r"shape \(n, 5..7\)"):
        hulhe.evaluate_batch(np.zeros((3, 4), dtype=np.uint8))
    with pytest.raises(hulhe.InputError, match="row 1"):
        hulhe.evaluate_batch(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 52]], dtype=np.uint8))
    with pytest.raises(hulhe.InputError, match="row 0 .*repeated"):
        hulhe.evaluate_batch(np.array([[0, 0, 2, 3, 4]], dtype=np.uint8))
    assert hulhe.evaluate_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)


def test_hand_indices_are_suit_isomorphic():
    assert [hulhe.holdem_index_size(r) for r in range(4)] == [169, 1286792, 13960050, 123156254]
    perm = {"c": "h", "d": "s", "h": "c", "s": "d"}

    def swap(cards):
        return "".join(c[0] + perm[c[1]] for c in (cards[i:i + 2] for i in range(0, len(cards), 2)))

    rng = random.Random(3)
    for board_n in (0, 3, 4, 5):
        for _ in range(50):
            cards = hulhe.cards_str(rng.sample(range(52), 2 + board_n))
            hole, board = cards[:4], cards[4:]
            i = hulhe.holdem_index(hole, board)
            assert i == hulhe.holdem_index(swap(hole), swap(board))
            assert i == hulhe.holdem_index(hole[2:] + hole[:2], board)  # order within a group
            r = max(0, board_n - 2)
            h, b = hulhe.holdem_unindex(r, i)
            assert hulhe.holdem_index(h, b) == i
    # The 169 preflop classes: every hole pair falls in one, each class is hit.
    seen = {hulhe.holdem_index(list(c)) for c in itertools.combinations(range(52), 2)}
    assert seen == set(range(169))
    with pytest.raises(hulhe.InputError, match="0, 3, 4 or 5"):
        hulhe.holdem_index("AsKs", "2c3c")
