"""ACPC games and states: the rules of limit hold'em and Leduc, checked by hand."""
import pytest

import hulhe
from conftest import GAMES


def test_holdem_built_in_and_from_file():
    g = hulhe.Game.holdem()
    f = hulhe.Game(GAMES / "holdem.limit.2p.reverse_blinds.game")
    assert g == f and g.hash == f.hash
    assert f.name == "holdem.limit.2p.reverse_blinds"
    assert (g.num_players, g.num_rounds, g.num_hole_cards, g.big_blind) == (2, 4, 2, 10)
    assert g.blinds == [10, 5] and g.raise_sizes == [10, 10, 20, 20]
    assert g.board_cards == [0, 3, 1, 1] and g.betting == "limit"
    assert len(g.deck) == 104
    assert hulhe.Game.from_string(g.acpc()) == g
    leduc = hulhe.Game(str(GAMES / "leduc.game"))
    assert leduc.deck == "QhQsKhKsAhAs" and leduc.num_hole_cards == 1


def test_a_match_state_its_turn_pot_and_actions():
    # Reverse blinds: position 1 (small blind) acts first preflop, position 0 first after.
    s = hulhe.State("MATCHSTATE:1:7::|AhKh")
    assert (s.round, s.viewer, s.current_player, s.hand_id, s.pot) == (0, 1, 1, 7, 15)
    assert s.hole_cards() == "AhKh" and s.hole_cards(0) is None
    assert s.legal_actions() == ["f", "c", "r"] and s.to_call == 5
    s = hulhe.State("MATCHSTATE:0:7:rrc/:QsQd|/Td9c2s")
    assert (s.round, s.current_player, s.pot, s.board, s.to_call) == (1, 0, 60, "Td9c2s", 0)
    assert s.legal_actions() == ["c", "r"]  # nothing to call: no fold
    s.apply("r").apply("r")
    assert (s.pot, s.num_raises, s.current_player, s.to_call) == (90, 2, 0, 10)
    assert s.betting == "rrc/rr"
    # The cap: 4 bets a round.
    t = hulhe.State("MATCHSTATE:1:0:rrr:|AhKh")
    assert t.current_player == 0 and t.legal_actions() == ["f", "c"] and not t.is_legal("r")
    assert t.match_state() == "MATCHSTATE:1:0:rrr:|AhKh"
    f = t.child("f")  # the big blind folds its 30 chips
    assert f.finished and f.current_player is None and f.value(0) == -30 and f.value(1) == 30
    assert t.legal_actions() == ["f", "c"]  # child() left t alone


def test_showdown_values_and_a_new_hand():
    g = hulhe.Game.holdem()
    s = g.new_state(3)
    s.set_hole_cards(0, "AsAh").set_hole_cards(1, "KsKh")
    for a in "cc":
        s.apply(a)
    s.set_board("2c7d9h")
    for a in "cc":
        s.apply(a)
    s.set_board("2c7d9hJc")
    for a in ["check", "bet", "call"]:
        s.apply(a)
    s.set_board("2c7d9hJc3s")
    for a in "cc":
        s.apply(a)
    assert s.finished and s.pot == 60 and s.value(0) == 30 and s.value(1) == -30


def test_bad_states_and_actions(cli):
    with pytest.raises(hulhe.InputError, match="MATCHSTATE"):
        hulhe.State("MATCHSTATE:0:0")
    with pytest.raises(hulhe.InputError):
        hulhe.State("MATCHSTATE:0:0:x:AhKh|")
    with pytest.raises(hulhe.InputError):
        hulhe.State("MATCHSTATE:1:0:rrrr:|AhKh").apply("r")
    with pytest.raises(hulhe.InputError, match="an action is"):
        hulhe.State("MATCHSTATE:1:0::|AhKh").apply(2)
    with pytest.raises(hulhe.InputError) as e:
        hulhe.Game("/nonexistent.game")
    assert "/nonexistent.game" in str(e.value)
    with pytest.raises(hulhe.InputError, match="position 5"):
        hulhe.State("MATCHSTATE:1:0::|AhKh").spent(5)
