"""Batch state and rule tables of Zombies Out West games (design.md decision 1; pgx style).

``GameState`` holds fixed-shape arrays, axis 0 = game. Figures are padded slots (layout: the
humans first, then the zombie groups); a figure that leaves the table keeps its slot with state
``S_GONE``. The ``w_*`` fields are the scratch of the one game being played (a batch is played
by one thread, game after game), preallocated so that no kernel allocates (kernels.jit).
``Tables`` holds the compiled rules every game of a batch shares (sim.rulesets.outwest builds
them). Both are NamedTuples of numpy arrays, passed to every kernel; nothing is a module global.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.outwest.layout import N_EV, N_FF, N_FI, N_GS, N_MK, N_PR


class GameState(NamedTuple):
    """Every game of a batch; F figure slots, H humans, C cards."""

    ff: np.ndarray  # float64[n, F, N_FF] position (inches), facing (radians), aim and horse spots (FF_*)
    fi: np.ndarray  # int32[n, F, N_FI] kind, state, group, class, guns, wounds... (FI_*); -1 = none
    gs: np.ndarray  # int32[n, N_GS] turn, deck, waiting cards, held cards, result (GS_*)
    deck: np.ndarray  # int16[n, C] the current deck, next card at gs[GS_DECK_POS]; card ids (layout)
    mk: np.ndarray  # float64[n, H, N_MK] feeding-frenzy markers: x, y (inches), on (1/0) (§6.5)
    pres: np.ndarray  # int32[n, H, N_PR] per-human tallies (PR_*)
    events: np.ndarray  # float32[n_traced, E, N_EV] trace events (n_traced = 0: no trace)
    n_events: np.ndarray  # int32[n] events written
    viol: np.ndarray  # int32[n] invariant violations found (checked mode only)
    # scratch of the game being played (not per game, never results)
    w_cards: np.ndarray  # int16[C] the cards of a reshuffle
    w_list: np.ndarray  # int64[F] figure indices (attackers, group-target candidates)
    w_hits: np.ndarray  # int64[F] hits assigned to each figure by one shooting roll
    w_key: np.ndarray  # float64[F] sort keys (distances, inches)


class Tables(NamedTuple):
    """The compiled rules of one Out West configuration."""

    prm: np.ndarray  # float64[N_PRM] scalar parameters (layout P_*)
    pol: np.ndarray  # float64[H, N_POL] each human's behaviour (P1-P6, layout POL_*)
    cls: np.ndarray  # int64[4, N_CL] per class: shooting dice, melee dice modifier, move dice (§2.1)
    weapons: np.ndarray  # int64[n_weapons, N_W] guns (§2.2, layout W_*)
    band_edges: np.ndarray  # float64[N_BANDS] upper distance of each range band, inches (§5.2)
    band_dice: np.ndarray  # int64[2, N_BANDS] dice per band, pistol and rifle profiles; -1 = out of range
    hit_on: np.ndarray  # int64[N_BANDS] score a shooting die needs to hit (6 = "each 6 is a hit")
    location: np.ndarray  # int64[6, 6] hit-location results (R_* bits), [location die - 1, effect die - 1]
    zombie_hits: np.ndarray  # int64[2, 6] hits on humans by zombies, basic and plague rows (ZH_*, §7.4)
    human_hits: np.ndarray  # int64[2, 6] hits on zombies by humans, Limited and Effective rows (HZ_*, §7.5)
    terrain: np.ndarray  # float64[n_terrain, N_T] rectangles of the town (T_*)
    posse: np.ndarray  # int64[H, N_PO] each character as built (PO_*)
    groups: np.ndarray  # int64[G, N_GR] zombie groups: first slot, size, edge, gunslinger (GR_*)
    fight_odds: np.ndarray  # float64[2, 2, D+1, D+1, 3] a human's Fight: [Limited/Effective, zombie down, attack
    #   dice, defend dice] -> (zombie destroyed, knocked down, human knocked over), exact (§7.3, §7.5)


PER_GAME = tuple(name for name in GameState._fields if not name.startswith("w_"))  # axis 0 is the game


def n_cards(n_humans: int, n_groups: int) -> int:
    """Characters, zombie groups, four class action cards, Joker, Extra action, Dead shall rise (§3.1)."""
    return n_humans + n_groups + 7


def new_state(n_games: int, n_humans: int, n_groups: int, n_figures: int, trace_events: int = 0) -> GameState:
    """Allocate the state of ``n_games`` games (zeros; ``play_batch`` sets each game up)."""
    n, f, h, c = n_games, n_figures, n_humans, n_cards(n_humans, n_groups)
    return GameState(
        ff=np.zeros((n, f, N_FF)),
        fi=np.zeros((n, f, N_FI), np.int32),
        gs=np.zeros((n, N_GS), np.int32),
        deck=np.zeros((n, c), np.int16),
        mk=np.zeros((n, h, N_MK)),
        pres=np.zeros((n, h, N_PR), np.int32),
        events=np.zeros((n if trace_events else 0, trace_events, N_EV), np.float32),
        n_events=np.zeros(n, np.int32),
        viol=np.zeros(n, np.int32),
        w_cards=np.zeros(c, np.int16),
        w_list=np.zeros(f, np.int64),
        w_hits=np.zeros(f, np.int64),
        w_key=np.zeros(f),
    )


def head(state: GameState, count: int) -> GameState:
    """The first ``count`` games of a batch (views), with the batch's scratch."""
    return state._replace(**{name: getattr(state, name)[:count] for name in PER_GAME})
