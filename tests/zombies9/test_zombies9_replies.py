"""D21: cards played in reply to a card, on a stack (last played, first resolved), with scripted
dice and decks (kernels as plain Python, see conftest); whole games with replies in checked mode.

No printed card cancels another (A11, B7); the tests that need one use a deck file with a card of
the ``cancel`` effect (``cancel_deck``), as a user's deck file may (D12, D23).
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from z9_scene import check, clear, empty_hands, give, pawn, put, race_map, sq

from kernels.zombies9 import layout as L
from sim import ruleset as registry
from sim.rulesets.zombies9.config import PlayerConfig, Policy, Zombies9Config
from sim.rulesets.zombies9.data import BASE_CARDS

CANCEL = "Not Now! (test card)"
SABOTEUR = Policy(threat_turns=1000.0)


def k(name):
    return importlib.import_module(f"kernels.zombies9.{name}")


@pytest.fixture(scope="module")
def cancel_deck(tmp_path_factory) -> str:
    """The base deck plus three copies of a card that cancels the card it answers."""
    path = tmp_path_factory.mktemp("z9deck") / "cards_with_cancel.toml"
    path.write_text(Path(BASE_CARDS).read_text() + f"""
[[card]]
name = "{CANCEL}"
copies = 3
type = "reply"
effect = "cancel"
value = 4
tag = "default"
text = "Play in reply to a card: that card does nothing."
""")
    return str(path)


def players(*policies: Policy) -> tuple[PlayerConfig, ...]:
    return tuple(PlayerConfig(name, pol) for name, pol in zip(("Ann", "Ben", "Cal"), policies))


def kinds(st):
    return [int(e) for e in st.events[0, : st.n_events[0], L.EV_KIND]]


def forced_move_scene(game, ann: Policy, trace=0):
    """Ben (saboteur) will play Where Did Everybody Go? on Ann before her turn: five squares to the
    farthest from the Helipad, through a zombie; Ann holds Alternate Food Source."""
    cfg = Zombies9Config(players=players(ann, SABOTEUR))
    st, tb, rng = game(cfg, trace=trace)
    heli = race_map(st, tb, cfg)
    pawn(st, 0, sq(heli, 2, 1))
    put(st, tb, sq(2, 1, 1))
    give(st, tb, cfg, 1, "Where Did Everybody Go?")
    give(st, tb, cfg, 0, "Alternate Food Source")
    st.w_gs[L.GS_TURN] = 5
    return cfg, st, tb, rng


def test_single_reply_alternate_food_source_spares_the_forced_move_its_fight(game, z9dice):
    cfg, st, tb, rng = forced_move_scene(game, Policy(), trace=200)
    k("cards").pre_turn_window(st, tb, rng, 0, 0)  # no die: the reply resolves first, no fight on the way
    assert st.w_pl[0, L.PL_SQ] == sq(1, 1, 1)  # moved all the same (the card it answers still resolves)
    assert st.w_pl[0, L.PL_KILLS] == 0 and st.w_sq[sq(2, 1, 1), L.SQ_ADULT] == 1
    assert st.w_gs[L.GS_AFS_END] == 7  # Ann is the active player: the end of her next turn (two players)
    assert st.pres[0, 0, L.PR_REPLIES] == 1 and st.pres[0, 0, L.PR_CARDS] == 1 and st.pres[0, 1, L.PR_REPLIES] == 0
    assert st.w_pl[0, L.PL_PLAYED] == 1  # the reply is Ann's card of the round
    ev = kinds(st)
    assert ev.index(L.EK_REPLY) == ev.index(L.EK_CARD) + 2  # Ben's card, Ann's card, then "in reply"
    z9dice.done()
    check(st, tb)


def test_shotgun_answers_a_forced_move_when_no_food_source_is_held(game, z9dice):
    cfg, st, tb, rng = forced_move_scene(game, Policy())
    empty_hands(st, tb)
    give(st, tb, cfg, 1, "Where Did Everybody Go?")
    give(st, tb, cfg, 0, "Hey, Look! A Shotgun!")
    z9dice.script(3)  # 3 + the Shotgun's 1 kills the zombie on the way: no bullet spent
    k("cards").pre_turn_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_KILLS] == 1 and st.w_pl[0, L.PL_BULLETS] == 3
    assert st.w_pl[0, L.PL_SHOTGUN] == 2 and st.pres[0, 0, L.PR_REPLIES] == 1
    z9dice.done()
    check(st, tb)


@pytest.mark.parametrize("ann", [Policy(reply="never"), Policy(cards="never"), Policy(reply_chance=0.25)])
def test_no_reply_when_the_policy_says_no(game, z9dice, ann):
    cfg, st, tb, rng = forced_move_scene(game, ann)
    if ann.reply_chance < 1.0:
        z9dice.script(0.25)  # the reply is made with chance 0.25: a uniform of 0.25 or more says no
    z9dice.script(6)  # Ann fights the zombie on her way
    k("cards").pre_turn_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_KILLS] == 1 and st.pres[0, 0, L.PR_REPLIES] == 0
    assert k("hand").find_card(st, tb, 0, L.E_AFS) >= 0  # still in her hand
    z9dice.done()
    check(st, tb)


def test_reply_chance_below_the_draw_replies(game, z9dice):
    cfg, st, tb, rng = forced_move_scene(game, Policy(reply_chance=0.25))
    z9dice.script(0.2)
    k("cards").pre_turn_window(st, tb, rng, 0, 0)
    assert st.w_pl[0, L.PL_KILLS] == 0 and st.pres[0, 0, L.PR_REPLIES] == 1
    z9dice.done()


@pytest.mark.parametrize("draw, replies", [(0.3, True), (0.7, False)])
def test_random_baseline_replies_with_a_uniform_legal_card_or_passes(game, z9dice, draw, replies):
    cfg, st, tb, rng = forced_move_scene(game, Policy(cards="random"))
    z9dice.script(draw)  # one legal reply (Alternate Food Source) or passing, each 1/2
    if not replies:
        z9dice.script(6)
    k("cards").pre_turn_window(st, tb, rng, 0, 0)
    assert st.pres[0, 0, L.PR_REPLIES] == int(replies) and st.w_pl[0, L.PL_KILLS] == int(not replies)
    z9dice.done()
    check(st, tb)


def leader_scene(game, active, deck=""):
    """Three players who answer the leader's cards; Ben, 1 zombie short of 25, is everybody's
    leader; Ann and Cal each hold Fear."""
    pol = Policy(reply="leader", threat_turns=1000.0)
    cfg = Zombies9Config(players=players(pol, pol, pol), **({"cards_file": deck} if deck else {}))
    st, tb, rng = game(cfg, trace=200)
    clear(st, tb)
    empty_hands(st, tb)
    st.w_pl[1, L.PL_KILLS] = 24
    st.w_gs[L.GS_POOL_ADULT] -= 24  # (taken from the pool, as kills are)
    give(st, tb, cfg, 0, "Fear")
    give(st, tb, cfg, 2, "Fear")
    st.w_gs[L.GS_ACTIVE] = active
    return cfg, st, tb, rng


@pytest.mark.parametrize("active, first", [(0, 0), (1, 2), (2, 2)])
def test_the_active_player_gets_the_first_chance_to_reply(game, z9dice, active, first):
    """Ben puts the Shotgun in play; Ann and Cal both would answer with Fear: the first asked in
    turn order from the active player does (Ben himself has played his card), and the other has
    no reason to answer that reply (it is not the leader's card)."""
    cfg, st, tb, rng = leader_scene(game, active)
    slot = give(st, tb, cfg, 1, "Hey, Look! A Shotgun!")
    k("cards").play_self(st, tb, rng, 0, 1, slot)
    other = 2 - first
    assert st.pres[0, first, L.PR_REPLIES] == 1 and st.pres[0, other, L.PR_REPLIES] == 0
    assert k("hand").find_card(st, tb, other, L.E_FEAR) >= 0
    assert st.w_pl[1, L.PL_FEAR] == 1 and st.w_pl[1, L.PL_SHOTGUN] == 3  # both resolved
    z9dice.done()
    check(st, tb)


def test_a_reply_that_cancels(game, z9dice, cancel_deck):
    """Ann (saboteur) plays Fear on Ben before his turn; Ben cancels it: Fear does nothing."""
    cfg = Zombies9Config(players=players(SABOTEUR, Policy()), cards_file=cancel_deck)
    st, tb, rng = game(cfg, trace=200)
    race_map(st, tb, cfg)
    give(st, tb, cfg, 0, "Fear")
    give(st, tb, cfg, 1, CANCEL)
    st.w_gs[L.GS_ACTIVE] = 1
    k("cards").pre_turn_window(st, tb, rng, 0, 1)
    assert st.w_pl[1, L.PL_FEAR] == 0
    assert st.pres[0, 0, L.PR_CANCELLED] == 1 and st.pres[0, 1, L.PR_REPLIES] == 1
    assert L.EK_CANCELLED in kinds(st)
    discards = st.w_discard[: st.w_gs[L.GS_DISC_N]]
    assert tb.cards[discards[-2:], L.CI_EFFECT].tolist() == [L.E_CANCEL, L.E_FEAR]  # the reply resolves first
    z9dice.done()
    check(st, tb)


def test_reply_to_a_reply_resolves_last_in_first_out(game, z9dice, cancel_deck):
    """Ann plays Fear on Ben; Ben cancels it; Cal, whose leader Ben is, cancels Ben's cancel. The
    last played resolves first: Ben's cancel does nothing and Fear takes hold (in the order the
    cards were played, Ben's cancel would have stopped Fear)."""
    cfg, st, tb, rng = leader_scene(game, 0, cancel_deck)
    give(st, tb, cfg, 1, CANCEL)
    give(st, tb, cfg, 2, CANCEL)
    hand, replies = k("hand"), k("replies")
    slot = hand.find_card(st, tb, 0, L.E_FEAR)
    c = hand.play_card(st, tb, 0, 0, slot, 1)
    assert replies.answered(st, tb, rng, 0, 0, c, 1)  # Fear resolves
    assert st.pres[0, 1, L.PR_REPLIES] == 1 and st.pres[0, 2, L.PR_REPLIES] == 1
    assert st.pres[0, 1, L.PR_CANCELLED] == 1 and st.pres[0, 0, L.PR_CANCELLED] == 0
    levels = [int(e[L.EV_D]) for e in st.events[0, : st.n_events[0]] if e[L.EV_KIND] == L.EK_REPLY]
    assert levels == [1, 2]
    assert hand.find_card(st, tb, 2, L.E_FEAR) >= 0  # Cal's one card of the round was the cancel
    z9dice.done()


def test_a_cancelled_card_does_nothing(game, z9dice, cancel_deck):
    """Adrenaline Rush, The Keys Are Still In It and an item, each cancelled: no double move, a
    roll after all, the item discarded, not in play."""
    pol = Policy(reply="leader", threat_turns=1000.0)
    cfg = Zombies9Config(players=players(Policy(), pol), cards_file=cancel_deck)
    st, tb, rng = game(cfg)
    race_map(st, tb, cfg)
    cards = k("cards")
    give(st, tb, cfg, 0, "Adrenaline Rush")
    give(st, tb, cfg, 1, CANCEL)
    z9dice.script(3)
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_HELIPAD, False) == 3  # 3 short of 9, not doubled
    assert st.w_pl[0, L.PL_ADRENALINE] == 0 and st.pres[0, 0, L.PR_CANCELLED] == 1
    for p in (0, 1):
        st.w_pl[p, L.PL_PLAYED] = 0
    empty_hands(st, tb)
    give(st, tb, cfg, 0, "The Keys Are Still In It")
    give(st, tb, cfg, 1, CANCEL)
    z9dice.script(2)
    assert cards.movement_roll(st, tb, rng, 0, 0, L.G_HELIPAD, False) == 2  # the keys cancelled: a roll
    for p in (0, 1):
        st.w_pl[p, L.PL_PLAYED] = 0
    empty_hands(st, tb)
    give(st, tb, cfg, 0, "Hey, Look! A Shotgun!")
    give(st, tb, cfg, 1, CANCEL)
    k("replies").play_item(st, tb, rng, 0, 0, k("hand").find_card(st, tb, 0, L.E_SHOTGUN))
    assert st.w_pl[0, L.PL_SHOTGUN] == 0 and st.w_pl[0, L.PL_SHOTGUN_CARD] == -1
    assert st.pres[0, 0, L.PR_CANCELLED] == 3
    z9dice.done()
    check(st, tb)


def test_food_source_in_reply_lasts_to_the_end_of_its_players_next_turn(game, z9dice):
    pol = Policy(reply="leader", threat_turns=1000.0)
    cfg = Zombies9Config(players=players(pol, pol, pol))
    st, tb, rng = game(cfg)
    replies = k("replies")
    st.w_gs[L.GS_TURN], st.w_gs[L.GS_ACTIVE] = 10, 0
    for o, end in ((1, 11), (2, 12), (0, 13)):
        st.w_gs[L.GS_AFS_END] = -1
        replies.start_afs(st, tb, o)
        assert st.w_gs[L.GS_AFS_END] == end
    replies.start_afs(st, tb, 1)
    assert st.w_gs[L.GS_AFS_END] == 13  # one already running is not shortened
    z9dice.done()


# ---------------------------------------------------------------- whole games


def reply_config(deck: str) -> Zombies9Config:
    """Random and leader-answering players with the cancel deck: replies and cancels are common."""
    pols = (Policy(cards="random"), Policy(reply="leader", threat_turns=1000.0), Policy(cards="random"),
            Policy(reply="leader"))
    return Zombies9Config(players=tuple(PlayerConfig(f"P{i}", p) for i, p in enumerate(pols)), cards_file=deck)


def _play(config, n, seed=5, check=True, first_game=0, state=None, tables=None):
    rs = registry.get("zombies9")
    tb = tables if tables is not None else rs.compile(config)
    st = state if state is not None else rs.new_state(config, tb, n)
    rng = np.zeros(n, np.uint64)
    rs.play_batch(st, tb, np.uint64(seed), np.int64(first_game), check, rng)
    return st, rng


def test_whole_games_with_replies_keep_every_invariant(cancel_deck):
    """Every invariant holds after every step, and the result columns count replies and cancels."""
    cfg = reply_config(cancel_deck)
    st, _ = _play(cfg, 200)
    df = registry.get("zombies9").results(cfg, st, 0, np.zeros(200, np.int64))
    assert st.viol.sum() == 0
    assert df.replies.sum() > 0 and df.cancelled.sum() > 0
    assert (df.replies <= df.cards_played).all()
    assert df.cancelled.sum() <= df.replies.sum()


def test_games_with_replies_are_the_same_for_any_batch_size(cancel_deck):
    cfg = reply_config(cancel_deck)
    rs = registry.get("zombies9")
    tb = rs.compile(cfg)
    whole, rng_whole = _play(cfg, 40, seed=8, check=False, tables=tb)
    assert whole.pres[:, :, L.PR_REPLIES].sum() > 0
    for size in (1, 17):
        st = rs.new_state(cfg, tb, size)
        for start in range(0, 40, size):
            count = min(size, 40 - start)
            part = rs.head(st, count)
            rng = np.zeros(count, np.uint64)
            rs.play_batch(part, tb, np.uint64(8), np.int64(start), False, rng)
            assert np.array_equal(part.pres, whole.pres[start: start + count]), (size, start)
            assert np.array_equal(part.res, whole.res[start: start + count]), (size, start)
            assert np.array_equal(rng, rng_whole[start: start + count])


CHILD = """
import json, sys
from test_zombies9_replies import _play, reply_config
st, rng = _play(reply_config(sys.argv[1]), int(sys.argv[2]), seed=31)
print(json.dumps({"res": st.res.tolist(), "pres": st.pres.tolist(), "rng": [int(x) for x in rng],
                  "viol": int(st.viol.sum())}))
"""


@pytest.mark.slow
def test_plain_python_gives_the_same_games_with_replies(cancel_deck):
    """NUMBA_DISABLE_JIT=1 plays bit for bit the same games, replies and cancels included."""
    n = 3
    here = Path(__file__).resolve().parent
    root = here.parents[1]
    path = os.pathsep.join([str(root), str(here), str(root / "tests")])
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=path)
    out = subprocess.run([sys.executable, "-c", CHILD, cancel_deck, str(n)], env=env, capture_output=True, text=True,
                         timeout=600, check=True, cwd=here)
    child = json.loads(out.stdout.strip().splitlines()[-1])
    st, rng = _play(reply_config(cancel_deck), n, seed=31)
    assert st.pres[:, :, L.PR_REPLIES].sum() > 0 and st.pres[:, :, L.PR_CANCELLED].sum() > 0
    assert child["viol"] == 0 and st.viol.sum() == 0
    assert child["res"] == st.res.tolist()
    assert child["pres"] == st.pres.tolist()
    assert child["rng"] == [int(x) for x in rng]
