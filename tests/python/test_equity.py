"""Equity against `hulhe equity --json` (the same grammar, the same numbers)."""
import pytest

import hulhe


def same(py, cli_json):
    assert py["method"] == cli_json["method"]
    assert py["combinations"] == cli_json["combinations"]
    for p, c in zip(py["players"], cli_json["players"]):
        assert p["range"] == c["range"]
        for key in ("equity", "win", "tie"):
            assert p[key] == pytest.approx(c[key], abs=1e-12), key
        assert p["categories"] == pytest.approx(c["categories"], abs=1e-12)
        if "stderr" in c:
            assert p["stderr"] == pytest.approx(c["stderr"], abs=1e-12)


def test_exact_equity_is_the_cli_s(cli):
    py = hulhe.equity("AhKh", "QsQd")
    same(py, cli.json("equity", "AhKh", "QsQd", "--json"))
    assert py["method"] == "exact" and py["combinations"] == 1712304
    # The known counts: AhKh wins 787,966 of the 1,712,304 boards, QsQd 917,606, 6,732 tie.
    assert py["players"][0]["win"] * 1712304 == pytest.approx(787966)
    assert py["players"][1]["win"] * 1712304 == pytest.approx(917606)
    assert py["players"][0]["tie"] * 1712304 == pytest.approx(6732)


def test_ranges_board_and_dead_cards_as_the_cli(cli):
    args = ["QQ+,AKs:0.5", "A5s-A2s,KTo+", "--board", "Td9c2s", "--dead", "2h"]
    py = hulhe.equity("QQ+,AKs:0.5", "A5s-A2s,KTo+", board="Td9c2s", dead="2h",
                      method="exact", threads=2)
    same(py, cli.json("equity", *args, "--exact", "--threads", "2", "--json"))


def test_monte_carlo_with_a_seed_is_the_cli_s(cli):
    py = hulhe.equity("AsKs", "QQ+,AKs:0.5", "random", board="Qs7h2d", dead="2c",
                      method="monte-carlo", stderr=0.002, seed=7, threads=1)
    c = cli.json("equity", "AsKs", "QQ+,AKs:0.5", "random", "--board", "Qs7h2d", "--dead", "2c",
                 "--monte-carlo", "--stderr", "0.002", "--seed", "7", "--threads", "2", "--json")
    same(py, c)  # the seed decides, not the threads
    assert py["stderr"] <= 0.002


def test_bad_equity_requests(cli):
    with pytest.raises(hulhe.InputError) as e:
        hulhe.equity("AKx", "QQ")
    assert str(e.value) == cli.error("equity", "AKx", "QQ")
    with pytest.raises(hulhe.InputError) as e:
        hulhe.equity("AhKh", "AhQh")
    assert str(e.value) == cli.error("equity", "AhKh", "AhQh")
    with pytest.raises(hulhe.InputError, match="estimated .* method='monte-carlo'"):
        hulhe.equity("random", "random", "random", method="exact")
    with pytest.raises(hulhe.InputError, match="method is"):
        hulhe.equity("AA", "KK", method="fast")
