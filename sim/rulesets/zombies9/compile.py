"""Config -> the kernels' Tables (house style: QuantEcon validates in Python, kernels see arrays).

Tile types of the mode (base tiles, Z9 tiles, or both) are numbered in file order; each is
precomputed in four rotations (r quarter turns clockwise: the square at row i, column j goes to
row j, column 2 - i). The population orders (D4, the placer's choice): zombies on the doors
first, then the building squares nearest them; tokens on the squares farthest from the doors;
on an unnamed tile zombies on the road exits first (they block the way), then the other roads;
on the Helipad the centre first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from kernels.zombies9 import layout as L
from kernels.zombies9.state import Tables
from sim.rulesets.zombies9.config import ConfigError, Policy, Zombies9Config, resolved
from sim.rulesets.zombies9.data import (
    BASE_CARDS,
    BASE_TILES,
    EDGES,
    EFFECTS,
    ROLES,
    Z9_CARDS,
    Z9_TILES,
    Card,
    DataError,
    Tile,
    load_cards,
    load_tiles,
)

N_FILLERS = 28  # D23: the Z9 cards not found


@dataclass(frozen=True)
class Game:
    """What a config plays with: tile types (index = type id), the stacks, the card kinds."""

    tiles: tuple[Tile, ...]
    cards: tuple[Card, ...]
    copies: tuple[int, ...]
    start: int
    helipad: int
    entrance: int
    set_aside: int
    base_stack: tuple[int, ...]
    z9_stack: tuple[int, ...]


def _path(value: str, packaged: Path) -> Path:
    return Path(value) if value else packaged


def _load(config: Zombies9Config):
    try:
        base = load_tiles(str(_path(config.tiles_file, BASE_TILES)), False) if config.mode != "alone" else ()
        z9 = load_tiles(str(_path(config.z9_tiles_file, Z9_TILES)), True) if config.mode != "base" else ()
        base_cards = load_cards(str(_path(config.cards_file, BASE_CARDS)))
        z9_cards = load_cards(str(_path(config.z9_cards_file, Z9_CARDS))) if config.mode != "base" else ()
    except DataError as err:
        raise ConfigError(str(err)) from None
    return base, z9, base_cards, z9_cards


def _one(tiles, role: str, where: str, required: bool = True) -> int:
    found = [k for k, t in enumerate(tiles) if t.role == role]
    if not found:
        if required:
            raise ConfigError(f"{where}: no tile with role {role!r}; allowed: exactly one (count 1)")
        return -1
    if len(found) > 1 or tiles[found[0]].count != 1:
        raise ConfigError(f"{where}: the tile with role {role!r} must be listed once with count 1")
    return found[0]


@cache
def game_of(config: Zombies9Config) -> Game:
    """The tiles, stacks and cards a config plays with (validated)."""
    config = resolved(config)
    base, z9, base_cards, z9_cards = _load(config)
    tiles = tuple(base) + tuple(z9)
    where_b = config.tiles_file or "tiles.toml"
    where_z = config.z9_tiles_file or "z9_tiles.toml"
    nb = len(base)
    start = helipad = entrance = set_aside = -1
    if config.mode != "alone":
        start = _one(base, "start", where_b)
        helipad = _one(base, "helipad", where_b)
    if config.mode != "base":
        entrance = nb + _one(z9, "entrance", where_z)
        fourway = [nb + k for k, t in enumerate(z9) if t.role == "fourway" and t.count > 0]
        if config.mode == "mixed":
            if not fourway:
                raise ConfigError(f"{where_z}: no four-way tile to set aside (B4.3); allowed: a role 'fourway' tile")
            set_aside = fourway[0]
        if config.mode == "alone":
            start = entrance
    base_stack: list[int] = []
    if config.mode != "alone":
        for k, t in enumerate(base):
            if k not in (start, helipad):
                base_stack += [k] * t.count
        if config.mode == "mixed":
            base_stack.append(entrance)
    z9_stack: list[int] = []
    if config.mode != "base":
        for k, t in enumerate(z9, start=nb):
            if k == entrance:
                continue
            z9_stack += [k] * (t.count - (k == set_aside))
    cards = tuple(base_cards) + tuple(z9_cards)
    copies = [c.copies for c in cards]
    if config.z9_fillers and config.mode != "base":
        for k, extra in enumerate(_fillers([c.copies for c in base_cards])):
            copies[k] += extra
    if not config.event_cards:
        copies = [0] * len(cards)
    _check_buildings(cards, tiles, config)
    _check_kids_alone(config, z9, where_z)
    return Game(tiles, cards, tuple(copies), start, helipad, entrance, set_aside, tuple(base_stack), tuple(z9_stack))


def _fillers(copies: list[int]) -> list[int]:
    """D23: N_FILLERS extra cards in proportion to the base copies (largest remainders)."""
    total = sum(copies)
    if total == 0:
        return [0] * len(copies)
    exact = [N_FILLERS * c / total for c in copies]
    out = [int(x) for x in exact]
    order = sorted(range(len(copies)), key=lambda k: (-(exact[k] - out[k]), k))
    for k in order[: N_FILLERS - sum(out)]:
        out[k] += 1
    return out


def _check_buildings(cards, tiles, config) -> None:
    names = {t.name for t in tiles}
    every = names | {t.name for t in load_tiles(str(_path(config.tiles_file, BASE_TILES)), False)}
    for c in cards:
        for b in (c.building, c.also_building):
            if b and b not in every:
                raise ConfigError(f"card {c.name!r}: building = {b!r} is no tile; allowed: a tile name")


# ---------------------------------------------------------------------------------- rotations


def rotate(i: int, r: int) -> int:
    """Local square index i (row * 3 + column) after r clockwise quarter turns."""
    row, col = divmod(i, 3)
    for _ in range(r % 4):
        row, col = col, 2 - row
    return row * 3 + col


def _exit_bits(exits: str) -> int:
    return sum(1 << EDGES.index(e) for e in exits)


def _rotate_bits(bits: int, r: int) -> int:
    return sum(1 << ((d + r) % 4) for d in range(4) if bits >> d & 1)


def _check_kids_alone(config: Zombies9Config, z9, where: str) -> None:
    """Issue 27: `kid_rule` played alone with D32's default placement would change nothing (no
    Z9 tile prints more zombies than it has squares and 100 adults never run out alone), so it is
    refused rather than reported as a rule that was measured."""
    if config.mode != "alone" or not config.kid_rule or config.kid_placement != "needed":
        return
    if config.zombie_pool < 100 and config.zombie_pool_limited:
        return
    if any(t.zombies > len(_orders(t)[0]) for t in z9):
        return
    raise ConfigError(f"kid_rule = true with mode = 'alone' changes nothing: no tile of {where} prints more zombies "
                      "than it has squares (D32); allowed: kid_placement = 'aggressive', or mode mixed")


def _orders(t: Tile) -> tuple[list[int], list[int]]:
    """Zombie and token orders in rotation 0 (module docstring)."""
    cells = [(i, t.layout[i // 3][i % 3]) for i in range(9)]
    if t.role == "helipad":
        return [4] + [i for i in range(9) if i != 4], []
    if t.named:
        dist = _door_distance(t)
        inside = sorted((i for i, ch in cells if ch in "BD"), key=lambda i: (dist[i], i))
        return inside, sorted(inside, key=lambda i: (-dist[i], i))
    roads = [i for i, ch in cells if ch == "R"]
    exits = [i for i in roads if i in (1, 3, 5, 7)]
    order = exits + [i for i in roads if i not in exits]
    return order, order


def _door_distance(t: Tile) -> dict[int, int]:
    todo = [i for i in range(9) if t.layout[i // 3][i % 3] == "D"]
    dist = dict.fromkeys(todo, 0)
    while todo:
        i = todo.pop(0)
        r, c = divmod(i, 3)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            j = rr * 3 + cc
            if 0 <= rr < 3 and 0 <= cc < 3 and j not in dist and t.layout[rr][cc] in "BD":
                dist[j] = dist[i] + 1
                todo.append(j)
    return dist


def _tile_arrays(tiles: tuple[Tile, ...]):
    n = len(tiles)
    sq = np.zeros((n, 4, 9), np.int8)
    exits = np.zeros((n, 4), np.int8)
    info = np.zeros((n, L.N_TI), np.int32)
    zorder = np.full((n, 4, 9), -1, np.int8)
    torder = np.full((n, 4, 9), -1, np.int8)
    for k, t in enumerate(tiles):
        zo, to = _orders(t)
        for r in range(4):
            for i in range(9):
                sq[k, r, rotate(i, r)] = t.square(i // 3, i % 3)
            exits[k, r] = _rotate_bits(_exit_bits(t.exits), r)
            zorder[k, r, : len(zo)] = [rotate(i, r) for i in zo]
            torder[k, r, : len(to)] = [rotate(i, r) for i in to]
        info[k] = (t.zombies, t.life, t.bullets, t.named, ROLES.index(t.role), t.z9, t.cemetery, t.pet,
                   EDGES.index(t.town_side) if t.town_side else -1)
    return sq, exits, info, zorder, torder


# ---------------------------------------------------------------------------------- the tables


def _card_arrays(game: Game, config: Zombies9Config):
    names = {t.name: k for k, t in enumerate(game.tiles)}
    absent = len(game.tiles)  # an item whose building is not in this game: never playable
    cards = np.zeros((len(game.cards), L.N_CI), np.int32)
    for k, c in enumerate(game.cards):
        building = names.get(c.building, absent) if c.building else -1
        alt = names.get(c.also_building, absent) if c.also_building and config.first_aid_drug_store else -1
        cards[k] = (EFFECTS.index(c.effect), building, alt, c.value, c.automatic)
    deck = np.array([k for k, n in enumerate(game.copies) for _ in range(n)], np.int16)
    return cards, deck


def prm_array(config: Zombies9Config, game: Game) -> np.ndarray:
    c = config
    z9 = c.mode != "base"
    kids = c.kid_rule and z9
    dogs = c.pet_cemetery_dogs and z9
    values = {
        L.P_N_PLAYERS: c.n_players, L.P_MODE: ("base", "mixed", "alone").index(c.mode),
        L.P_START_LIFE: c.start_life, L.P_START_BULLETS: c.start_bullets, L.P_LIFE_CAP: c.life_cap,
        L.P_HAND: c.hand_size, L.P_KILL_NUMBER: c.kill_number, L.P_KILLS_TO_WIN: c.kills_to_win,
        L.P_POOL_ADULT: c.zombie_pool + (c.kid_pool if z9 and not kids else 0),
        L.P_POOL_KID: c.kid_pool if kids else 0, L.P_POOL_DOG: c.dog_pool if dogs else 0,
        L.P_POOL_LIMITED: c.zombie_pool_limited, L.P_HELI_ZOMBIES: c.helipad_zombies,
        L.P_HELI_BOTTOM: c.helipad_position == "bottom", L.P_HELI_RESHUFFLE: c.helipad_reshuffle,
        L.P_FIRST_RANDOM: c.first_player == "random", L.P_TOKEN_CAP: c.token_cap,
        L.P_POPULATE_RANDOM: c.populate == "random", L.P_ANY_SIDE: c.enter_any_side,
        L.P_CONTINUE: c.continue_after_fight, L.P_PICKUP_PASSING: c.pickup_passing,
        L.P_DEATH_ROUND_UP: c.death_rounding == "up", L.P_DEATH_DISCARD_HAND: c.death_discards_hand,
        L.P_MOVE_SHARED: c.move_zombie_on_player, L.P_BUTTER_BULLETS: c.butter_fingers_bullets,
        L.P_AMMO: c.lots_of_ammo, L.P_ITEM_TILE: c.item_anywhere_on_tile,
        L.P_HELI_MOST_KILLS: c.helipad_placer == "most_kills", L.P_SEPARATE: c.graveyard_separate,
        L.P_CREM_EMPTY: c.crematorium_trigger == "empty", L.P_CEM_EMPTY: c.cemetery_trigger == "empty",
        L.P_ALONE_KILLS: c.alone_kills_win, L.P_PROBLEM_ALL: c.little_problem_scope == "graveyard",
        L.P_KIDS_RULE: kids, L.P_KIDS_AGGRESSIVE: c.kid_placement == "aggressive", L.P_KID_FIRST: c.kid_first,
        L.P_DOGS: dogs, L.P_DOGS_MIX: c.dogs_mix, L.P_DOG_KILL: c.dog_kill, L.P_DOG_MOVES: c.dog_moves,
        L.P_DOG_STACK: c.dog_stack, L.P_DOG_DAMAGE: round(2 * c.dog_damage),
        L.P_TWO_DICE: c.two_dice_after_helipad, L.P_MAX_ROUNDS: c.max_rounds, L.P_KEYS_MOVES: c.keys_moves,
        L.P_SHOTGUN_COMBATS: c.shotgun_combats, L.P_REST_LIFE: c.rest_life, L.P_EVERYBODY_MOVES: c.everybody_moves,
        L.P_SCREWED: c.screwed_zombies, L.P_MASTER: c.master_zombies, L.P_NOT_SO_BAD: c.not_so_bad_moves,
        L.P_NOT_DEAD_LOST: c.not_dead_lost, L.P_AXE: c.axe_bonus, L.P_CHAINSAW: c.chainsaw_bonus,
        L.P_MOLOTOV: c.molotov_bonus, L.P_SHOTGUN: c.shotgun_bonus, L.P_SKATEBOARD: c.skateboard_bonus,
        L.P_BUTTER_LOST: c.butter_bullets_lost, L.P_GRENADE_LIFE: 2 * c.grenade_life,
        L.P_BAD_SENSE_LIFE: 2 * c.bad_sense_life, L.P_DEATH_AT_ONCE: c.death_tokens == "at_once",
        L.P_QUICK: c.quick_game, L.P_ENTRANCE_RESHUFFLE: c.entrance_reshuffle,
    }
    assert len(values) == L.N_PRM, "every kernel parameter is set"
    prm = np.zeros(L.N_PRM)
    for k, v in values.items():
        prm[k] = float(v)
    return prm


def pol_row(p: Policy) -> np.ndarray:
    goal = ("heuristic", "helipad", "kills", "greedy").index(p.goal)
    values = {
        L.POL_GOAL: goal, L.POL_MARGIN: p.margin_turns, L.POL_FARM_KILLS: p.farm_kills,
        L.POL_CREM_TURNS: p.crematorium_turns, L.POL_CREM_FACTOR: p.crematorium_factor,
        L.POL_TURNS_PER_KILL: p.turns_per_kill, L.POL_PLACE_RANDOM: p.placement == "random",
        L.POL_V_TOKEN: p.token_value, L.POL_V_ZOMBIE: p.zombie_value, L.POL_V_HELIPAD: p.helipad_value,
        L.POL_V_ITEM: p.item_value, L.POL_V_CREM: p.crematorium_value, L.POL_FIGHT_STEPS: p.fight_steps,
        L.POL_DETOUR: p.detour, L.POL_COMBAT: ("rule", "bullets", "hearts").index(p.combat),
        L.POL_MULTI: p.multi_zombies, L.POL_DANGER_LIFE: p.danger_life,
        L.POL_CARDS: ("heuristic", "random", "never").index(p.cards), L.POL_THREAT: p.threat_turns,
        L.POL_REST_LIFE: p.rest_life, L.POL_AFS_LIFE: p.afs_life, L.POL_GRENADE_MIN: p.grenade_zombies,
        L.POL_ZOMBIES: p.zombies == "random", L.POL_BLOCK_W: p.block_weight, L.POL_SELF_W: p.self_weight,
        L.POL_ATTACK_LIFE: p.attack_life, L.POL_DISCARD: p.discard == "never", L.POL_DISCARD_BELOW: p.discard_below,
        L.POL_STACK: ("default", "base", "graveyard", "random").index(p.stack), L.POL_HUNT: p.hunt,
        L.POL_REPLY: ("never", "defend", "leader").index(p.reply), L.POL_REPLY_CHANCE: p.reply_chance,
        L.POL_SCOUT: p.scout, L.POL_NEAR_W: p.near_weight, L.POL_V_FRONT: p.frontier_value,
    }
    assert len(values) == L.N_POL, "every policy field is set"
    row = np.zeros(L.N_POL)
    for k, v in values.items():
        row[k] = float(v)
    return row


def compile_tables(config: Zombies9Config) -> Tables:
    """Everything the kernels need to play this configuration."""
    config = resolved(config)
    game = game_of(config)
    sq, exits, info, zorder, torder = _tile_arrays(game.tiles)
    cards, deck = _card_arrays(game, config)
    width = max(1, len(game.base_stack), len(game.z9_stack))
    stacks = np.full((2, width), -1, np.int16)
    stacks[0, : len(game.base_stack)] = game.base_stack
    stacks[1, : len(game.z9_stack)] = game.z9_stack
    max_tiles = 1 + len(game.base_stack) + (game.helipad >= 0) + len(game.z9_stack) + (game.set_aside >= 0)
    ids = np.zeros(L.N_IDS, np.int64)
    ids[L.ID_START], ids[L.ID_HELIPAD], ids[L.ID_ENTRANCE] = game.start, game.helipad, game.entrance
    ids[L.ID_SET_ASIDE], ids[L.ID_N_BASE], ids[L.ID_N_Z9] = game.set_aside, len(game.base_stack), len(game.z9_stack)
    ids[L.ID_MAX_TILES], ids[L.ID_GRID], ids[L.ID_N_CARDS] = max_tiles, 2 * max_tiles + 3, len(deck)
    return Tables(
        tile_sq=sq, tile_exits=exits, tile_info=info, tile_zorder=zorder, tile_torder=torder, stacks=stacks,
        cards=cards, deck=deck, ids=ids, prm=prm_array(config, game),
        pol=np.array([pol_row(p.policy) for p in config.players]),
    )
