"""The optional extras of B9 (unconfirmed, off by default): the quick game and movement on two
dice once the Helipad is down (the third, entering buildings from any side, is D5's option
``enter_any_side``: test_zombies9_rules)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from z9_scene import clear, empty_hands, lay

from kernels.zombies9 import layout as L
from sim.rulesets.zombies9.config import ConfigError, default_config


def _k(name):
    return importlib.import_module(f"kernels.zombies9.{name}")


def _check(st, tb):
    assert _k("turn").count_violations(st, tb) == 0


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_quick_game_lays_the_base_stack_at_the_setup(game, seed):
    cfg = default_config(4, quick_game=True)
    st, tb, rng = game(cfg, seed=seed, trace=2000)
    gs = st.w_gs
    assert gs[L.GS_TOP0] == gs[L.GS_N0] == int(tb.ids[L.ID_N_BASE]) + 1  # every base tile (and the Helipad) drawn
    laid = st.pres[0, :, L.PR_TILES]
    assert laid.sum() == gs[L.GS_NT] - 1 > 10  # the start tile is nobody's
    first = gs[L.GS_FIRST]
    ev = st.events[0, : st.n_events[0]]
    drawers = ev[ev[:, L.EV_KIND] == L.EK_STACK, L.EV_PLAYER].astype(int)
    assert len(drawers) >= gs[L.GS_N0]  # (a Helipad shuffled back is drawn again)
    assert np.array_equal(drawers, (first + np.arange(len(drawers))) % 4)  # the seats in turn from the first
    assert gs[L.GS_HELI] >= 0 or gs[L.GS_HELI_GONE] == 1
    assert np.all(st.w_pl[:, L.PL_SQ] == 4)  # every pawn on the Town Square centre
    assert gs[L.GS_BOARD] > 0 and st.res[0, L.RES_HELI_ROUND] in (-1, 0)  # populated; laid in "round 0"
    assert all(_k("hand").hand_count(st, tb, p) == 3 for p in range(4))  # then the cards are dealt
    assert _k("turn").choose_stack(st, tb, rng, 0, first) == -1  # step 1 has nothing to draw
    _check(st, tb)


def test_quick_game_mixed_places_the_graveyard_entrance(game):
    cfg = default_config(4, mode="mixed", quick_game=True)
    for seed in (1, 2, 3):
        st, tb, rng = game(cfg, seed=seed)
        gs = st.w_gs
        assert gs[L.GS_TOP0] == gs[L.GS_N0] and gs[L.GS_TOP1] == 0  # the graveyard stack is untouched
        if gs[L.GS_ENTRANCE] >= 0:  # laid (unless it fitted nowhere): the four-way set aside joins it
            types = [st.w_tile[k, L.TS_TYPE] for k in range(gs[L.GS_NT])]
            assert int(tb.ids[L.ID_SET_ASIDE]) in types
            assert _k("turn").choose_stack(st, tb, rng, 0, 0) == 1  # then every tile is the graveyard's
        _check(st, tb)


def test_quick_game_is_off_by_default_and_not_for_z9_alone(game):
    st, tb, rng = game(default_config(4))
    assert st.w_gs[L.GS_TOP0] == 0 and st.w_gs[L.GS_NT] == 1 and st.w_gs[L.GS_HELI] < 0
    with pytest.raises(ConfigError, match="quick_game"):
        default_config(3, mode="alone", quick_game=True)


@pytest.mark.parametrize("option", [False, True])
def test_two_dice_once_the_helipad_is_down(game, z9dice, option):
    cfg = default_config(2, two_dice_after_helipad=option)
    st, tb, rng = game(cfg)
    empty_hands(st, tb)
    cards = _k("cards")
    z9dice.script(5)  # no Helipad yet: one die
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_GATHER, False) == 5
    heli = lay(st, tb, cfg, "Helipad", 0, -1)
    st.w_gs[L.GS_HELI] = heli
    clear(st, tb)
    _k("policy").ensure_fields(st)
    z9dice.script(*((5, 6) if option else (5,)))  # B9: "movement may be rolled on 2 dice"
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_GATHER, False) == (11 if option else 5)
    z9dice.done()
