"""The event deck (A10, A11, B5, B7): drawing, Automatic cards, every card's effect, and the
moments cards are played.

Timing model (A10 "any time", made concrete as fixed moments; plays that meet at one moment
come one at a time in turn order; every card played is open to replies, D21, ``replies``):

- **before a player's turn** every opponent, in turn order, may play an attack card on that
  player (Hysterical Paralysis, Fear, Your Shoe's Untied, Claustrophobia hit the turn about to
  start; Bad Sense of Direction, Where Did Everybody Go?, Butter Fingers, I Don't Think They're
  Dead act at once) or a zombie card on their path;
- **the active player**, after laying the tile: an item (in its building), the Shotgun,
  Alternate Food Source; at the movement roll: Much Needed Rest or The Keys Are Still In It
  instead of rolling, Adrenaline Rush or Alternate Food Source after it; after moving: an item,
  a zombie card on the leader's path;
- **when a player starts to move**, each opponent in turn may answer with Brain Cramp;
- items in play are used without counting as the round's card: the Grenade, the Chainsaw and
  the Molotov (combat), the First Aid Kit, All the Marbles at the end of the holder's turn.

Heuristic card play (Q6) plays attack cards only on the player's leader, when the leader is
within POL_THREAT turns of a win; the random baseline plays a uniformly drawn legal card (or
passes) at every moment it may play one; "never" plays none.
"""

from __future__ import annotations

from kernels.jit import njit
from kernels.rng import d6, uniform
from kernels.zombies9.board import is_inside, zombies_at
from kernels.zombies9.combat import choose_spend, is_over, kill, kills_win_on, lose_kills, lose_life
from kernels.zombies9.events import log_event
from kernels.zombies9.hand import (
    find_card,
    hand_add,
    hand_count,
    is_random,
    may_play,
    play_card,
    random_choice,
)
from kernels.zombies9.layout import (
    CI_AUTO,
    CI_EFFECT,
    E_ADRENALINE,
    E_AFS,
    E_BAD_SENSE,
    E_BRAIN_CRAMP,
    E_BUTTER,
    E_CLAUSTRO,
    E_DUST,
    E_EVERYBODY,
    E_FEAR,
    E_KEYS,
    E_MASTER,
    E_MISCALC,
    E_NOT_DEAD,
    E_NOT_SO_BAD,
    E_PARALYSIS,
    E_PROBLEM,
    E_REST,
    E_SCREWED,
    E_SHOE,
    E_SHOTGUN,
    E_WORSE,
    EK_AUTO,
    EK_DEAL,
    EK_DISCARD,
    EK_DRAW,
    EK_GRENADE,
    EK_ITEM,
    EK_NOT_DEAD,
    EK_REST,
    EK_ROLL,
    G_CREMATORIUM,
    G_HELIPAD,
    G_KILLS,
    GS_AFS_END,
    GS_AFS_OWNER,
    GS_CREM,
    GS_DECK_N,
    GS_DISC_N,
    GS_HELI,
    GS_MARBLES_END,
    GS_NT,
    GS_RESPAWN,
    GS_TURN,
    K_DOOR,
    MAX_HAND,
    MODE_MIXED,
    P_BAD_SENSE_LIFE,
    P_BUTTER_BULLETS,
    P_BUTTER_LOST,
    P_EVERYBODY_MOVES,
    P_GRENADE_LIFE,
    P_HAND,
    P_KEYS_MOVES,
    P_KILL_NUMBER,
    P_LIFE_CAP,
    P_MASTER,
    P_MODE,
    P_N_PLAYERS,
    P_NOT_DEAD_LOST,
    P_NOT_SO_BAD,
    P_PROBLEM_ALL,
    P_REST_LIFE,
    P_SCREWED,
    P_SKATEBOARD,
    P_START_BULLETS,
    P_START_LIFE,
    P_TWO_DICE,
    PL_ADRENALINE,
    PL_AXE,
    PL_BULLETS,
    PL_CHAINSAW,
    PL_FIRST_AID,
    PL_GOAL,
    PL_GRENADE,
    PL_HAND,
    PL_KILLS,
    PL_LIFE,
    PL_MARBLES,
    PL_MOLOTOV,
    PL_SHOE,
    PL_SHOTGUN,
    PL_SHOTGUN_CARD,
    PL_SKATEBOARD,
    PL_SQ,
    POL_AFS_LIFE,
    POL_COMBAT,
    POL_DISCARD,
    POL_DISCARD_BELOW,
    POL_GRENADE_MIN,
    POL_REST_LIFE,
    POL_THREAT,
    PR_BULLETS,
    PR_HEARTS,
    SQ_BLD,
    SQ_KIND,
    SQ_PAWNS,
    TI_CEMETERY,
    TI_NAMED,
    TI_Z9,
    TS_TYPE,
    TS_Z,
    Z_ADULT,
)
from kernels.zombies9.movement import hostile_move
from kernels.zombies9.pieces import add_zombie, can_hold, first_figure, kind_for, move_zombie, set_pawn, to_discard
from kernels.zombies9.policy import (
    card_value_now,
    choose_goal,
    ensure_fields,
    hindrance_scores,
    leader,
    path_field,
    speed,
)
from kernels.zombies9.replies import answered, mark_next_turn, play_item, try_items

# ---------------------------------------------------------------- the deck


@njit
def shuffle_deck(st, rng, g):
    n = st.w_gs[GS_DECK_N]
    for i in range(n - 1, 0, -1):
        j = int(uniform(rng, g) * (i + 1))
        st.w_deck[i], st.w_deck[j] = st.w_deck[j], st.w_deck[i]


@njit
def draw_card(st, rng, g):
    """The top card; an empty deck is the discards shuffled (A10). -1: no card anywhere."""
    if st.w_gs[GS_DECK_N] == 0:
        m = st.w_gs[GS_DISC_N]
        for i in range(m):
            st.w_deck[i] = st.w_discard[i]
        st.w_gs[GS_DECK_N], st.w_gs[GS_DISC_N] = m, 0
        shuffle_deck(st, rng, g)
    if st.w_gs[GS_DECK_N] == 0:
        return -1
    st.w_gs[GS_DECK_N] -= 1
    return st.w_deck[st.w_gs[GS_DECK_N]]


@njit
def draw_up(st, tb, rng, g, p):
    """A5.3: draw until the hand holds 3; an Automatic card resolves at once and still counts
    as one of the cards drawn (B5)."""
    want = int(tb.prm[P_HAND]) - hand_count(st, tb, p)
    drawn = 0
    for _ in range(want):
        c = draw_card(st, rng, g)
        if c < 0:
            break
        drawn += 1
        if tb.cards[c, CI_AUTO]:
            resolve_automatic(st, tb, rng, g, p, c)
        else:
            hand_add(st, tb, p, c)
    log_event(st, g, EK_DRAW, p, drawn, 0, 0, 0)
    return drawn


@njit
def deal(st, tb, rng, g, first):
    """A4.3: three cards to each player from the first; Automatic ones resolve after the deal,
    in deal order, and are not replaced (D30)."""
    n_p = int(tb.prm[P_N_PLAYERS])
    autos = 0
    for k in range(n_p):
        p = (first + k) % n_p
        for _ in range(int(tb.prm[P_HAND])):
            c = draw_card(st, rng, g)
            if c < 0:
                break
            if tb.cards[c, CI_AUTO]:
                st.w_cand[autos, 0], st.w_cand[autos, 1] = c, p
                autos += 1
            else:
                hand_add(st, tb, p, c)
    log_event(st, g, EK_DEAL, first, autos, 0, 0, 0)
    for i in range(autos):
        resolve_automatic(st, tb, rng, g, st.w_cand[i, 1], st.w_cand[i, 0])


@njit
def resolve_automatic(st, tb, rng, g, p, c):
    """B5, B7: drawn by p; not a card played (D31); then discarded."""
    e = tb.cards[c, CI_EFFECT]
    log_event(st, g, EK_AUTO, p, c, e, 0, 0)
    if e == E_DUST:
        for o in range(int(tb.prm[P_N_PLAYERS])):
            st.w_pl[o, PL_LIFE] = 2 * int(tb.prm[P_START_LIFE])
            st.w_pl[o, PL_BULLETS] = int(tb.prm[P_START_BULLETS])
    elif e == E_PROBLEM:
        _little_problem(st, tb, p)
    to_discard(st, c)


@njit
def _little_problem(st, tb, p):
    """B7: one zombie on a legal square of each Cemetery tile (D29: or of every Z9 tile), on the
    square the drawer likes best (Q7 score)."""
    score_squares(st, tb, p)
    for k in range(st.w_gs[GS_NT]):
        t = st.w_tile[k, TS_TYPE]
        if not (tb.tile_info[t, TI_CEMETERY] or (tb.prm[P_PROBLEM_ALL] != 0 and tb.tile_info[t, TI_Z9])):
            continue
        best, pick = -1e18, -1
        for i in range(9):
            q = 9 * k + i
            if can_hold(st, tb, q, kind_for(st, tb, q, Z_ADULT)) and st.w_score[q] > best:
                best, pick = st.w_score[q], q
        if pick >= 0:
            add_zombie(st, tb, pick, kind_for(st, tb, pick, Z_ADULT))


# ---------------------------------------------------------------- zombie cards (A11)


@njit
def score_squares(st, tb, p):
    """w_score[q] = the Q7 hindrance of a zombie on q for player p; returns p's leader."""
    return hindrance_scores(st, tb, p)


@njit
def _spot(st, tb, q, empty, no_pawns):
    """A square a card may put a zombie on: legal, empty of figures (and pawns) if asked."""
    if not can_hold(st, tb, q, kind_for(st, tb, q, Z_ADULT)):
        return False
    if empty and zombies_at(st, q) > 0:
        return False
    return not (no_pawns and st.w_sq[q, SQ_PAWNS] > 0)


@njit
def place_best(st, tb, count, empty, no_pawns, building):
    """Put up to ``count`` zombies on the best-scored spots (of ``building`` if >= 0)."""
    placed = 0
    for _ in range(count):
        best, pick = -1e18, -1
        for q in range(9 * st.w_gs[GS_NT]):
            if (building < 0 or st.w_sq[q, SQ_BLD] == building) and st.w_score[q] > best and _spot(
                    st, tb, q, empty, no_pawns):
                best, pick = st.w_score[q], q
        if pick < 0 or not add_zombie(st, tb, pick, kind_for(st, tb, pick, Z_ADULT)):
            break
        placed += 1
    return placed


@njit
def _building_zombies(st, k):
    n = 0
    for i in range(9):
        if st.w_sq[9 * k + i, SQ_BLD] == k:
            n += zombies_at(st, 9 * k + i)
    return n


@njit
def _best_building(st, tb, need_zombies):
    """The named building whose free squares score highest (Slight Miscalculation: one with a
    zombie in it); -1 none."""
    best, pick = 0.0, -1
    for k in range(st.w_gs[GS_NT]):
        if not tb.tile_info[st.w_tile[k, TS_TYPE], TI_NAMED]:
            continue
        if need_zombies and _building_zombies(st, k) == 0:
            continue
        s = 0.0
        for i in range(9):
            q = 9 * k + i
            if st.w_sq[q, SQ_BLD] == k and _spot(st, tb, q, True, False):
                s += max(st.w_score[q], 0.0) + 1e-6
        if s > best:
            best, pick = s, k
    return pick


@njit
def zombie_card(st, tb, p, effect):
    """Resolve a zombie card for p, scores already in ``w_score``. Returns figures added/moved."""
    if effect == E_SCREWED:
        return place_best(st, tb, int(tb.prm[P_SCREWED]), True, True, -1)
    if effect == E_MASTER:
        return place_best(st, tb, int(tb.prm[P_MASTER]), False, True, -1)
    if effect == E_WORSE:
        k = _best_building(st, tb, False)
        return place_best(st, tb, 9, True, True, k) if k >= 0 else 0
    if effect == E_MISCALC:
        k = _best_building(st, tb, True)
        return place_best(st, tb, _building_zombies(st, k), True, False, k) if k >= 0 else 0
    if effect == E_NOT_SO_BAD:
        moved = 0
        for _ in range(int(tb.prm[P_NOT_SO_BAD])):
            moved += _move_worst_zombie(st, tb)
        return moved
    return 0


@njit
def _move_worst_zombie(st, tb):
    """This Isn't So Bad: the least useful figure goes to the most useful empty legal square."""
    worst, wq = 1e18, -1
    best, bq = -1e18, -1
    for q in range(9 * st.w_gs[GS_NT]):
        if zombies_at(st, q) > 0 and st.w_score[q] < worst:
            worst, wq = st.w_score[q], q
        if _spot(st, tb, q, True, True) and st.w_score[q] > best:
            best, bq = st.w_score[q], q
    if wq < 0 or bq < 0 or best <= worst:
        return 0
    kind = first_figure(st, tb, wq, False)
    if not can_hold(st, tb, bq, kind):
        return 0
    move_zombie(st, tb, wq, bq, kind)
    return 1


@njit
def _is_zombie_card(e):
    return e == E_SCREWED or e == E_MASTER or e == E_WORSE or e == E_MISCALC or e == E_NOT_SO_BAD


# ---------------------------------------------------------------- attack cards (A11)


@njit
def _has_item(st, t):
    for col in range(PL_AXE, PL_MARBLES + 1):
        if st.w_pl[t, col] >= 0:
            return True
    return st.w_pl[t, PL_SHOTGUN_CARD] >= 0


@njit
def butter_fingers(st, tb, t):
    """Target discards a weapon/item in play, the one most worth taking (D13: with none, up to
    2 bullets under the option). Returns True if anything went."""
    from_play = -1
    for col in (PL_AXE, PL_SKATEBOARD, PL_FIRST_AID, PL_CHAINSAW, PL_MOLOTOV, PL_GRENADE, PL_MARBLES):
        if from_play < 0 and st.w_pl[t, col] >= 0:
            from_play = col
    if from_play >= 0:
        to_discard(st, st.w_pl[t, from_play])
        st.w_pl[t, from_play] = -1
        return True
    if st.w_pl[t, PL_SHOTGUN_CARD] >= 0:
        to_discard(st, st.w_pl[t, PL_SHOTGUN_CARD])
        st.w_pl[t, PL_SHOTGUN_CARD], st.w_pl[t, PL_SHOTGUN] = -1, 0
        return True
    if tb.prm[P_BUTTER_BULLETS] != 0 and st.w_pl[t, PL_BULLETS] > 0:
        st.w_pl[t, PL_BULLETS] -= min(st.w_pl[t, PL_BULLETS], int(tb.prm[P_BUTTER_LOST]))
        return True
    return False


ND_STANDS, ND_BUY, ND_REROLL, ND_FAIL = 0, 1, 2, 3  # not_dead_choice


@njit
def not_dead_choice(short, life_h, bullets, rule):
    """I Don't Think They're Dead, one die ``short`` below the kill number: the die may be
    modified "with bullets/life as in combat" (A11). The target chooses as in a fight (Q4,
    ``choose_spend``; no First Aid Kit: it saves a token "in combat" only): ND_BUY spends
    ``short`` bullets, ND_REROLL pays a life token and rolls this die again; where a fight
    would pay its last life token (death) the target lets the die fail instead (ND_FAIL)."""
    if short <= 0:
        return ND_STANDS
    if choose_spend(short, life_h, bullets, 0, 2, rule):
        return ND_BUY
    if life_h > 2:
        return ND_REROLL
    return ND_FAIL


@njit
def not_dead(st, tb, rng, g, t):
    """A11: the target rolls two dice, each modified by bullets / life as in combat
    (``not_dead_choice``); if either ends at 3 or less the target returns 2 zombies to the
    pool. The target works on the lower die first and spends nothing more once a die has
    failed (the loss is certain then)."""
    kill_n = int(tb.prm[P_KILL_NUMBER])
    rule = int(tb.pol[t, POL_COMBAT])
    a, b = d6(rng, g), d6(rng, g)
    roll = min(a, b)
    other = max(a, b)
    failed = False
    hearts = spent = 0
    for die in range(2):
        if die == 1:
            roll = other
        while not failed:
            choice = not_dead_choice(kill_n - roll, st.w_pl[t, PL_LIFE], st.w_pl[t, PL_BULLETS], rule)
            if choice == ND_STANDS:
                break
            if choice == ND_BUY:
                spent += kill_n - roll
                st.w_pl[t, PL_BULLETS] -= kill_n - roll
                break
            if choice == ND_REROLL:
                st.w_pl[t, PL_LIFE] -= 2
                hearts += 1
                roll = d6(rng, g)
            else:
                failed = True
    st.pres[g, t, PR_BULLETS] += spent
    st.pres[g, t, PR_HEARTS] += hearts
    lost = lose_kills(st, tb, g, t, int(tb.prm[P_NOT_DEAD_LOST])) if failed else 0
    log_event(st, g, EK_NOT_DEAD, t, failed, lost, hearts, spent)
    return lost


@njit
def _attack_legal(st, tb, o, t, e):
    """May o play a card with effect e on t before t's turn (legality, not wisdom)?"""
    if e == E_PARALYSIS or e == E_FEAR or e == E_SHOE or e == E_CLAUSTRO or e == E_EVERYBODY:
        return True
    if e == E_BAD_SENSE:
        return st.w_pl[o, PL_LIFE] > tb.prm[P_BAD_SENSE_LIFE]
    if e == E_BUTTER:
        return _has_item(st, t) or (tb.prm[P_BUTTER_BULLETS] != 0 and st.w_pl[t, PL_BULLETS] > 0)
    if e == E_NOT_DEAD:
        return st.w_pl[t, PL_KILLS] > 0
    return _is_zombie_card(e)


@njit
def _apply_attack(st, tb, rng, g, o, t, e):
    if mark_next_turn(st, t, e):
        return
    if e == E_BAD_SENSE:
        if lose_life(st, tb, g, o, int(tb.prm[P_BAD_SENSE_LIFE])):
            set_pawn(st, t, st.w_gs[GS_RESPAWN])
    elif e == E_EVERYBODY:
        hostile_move(st, tb, rng, g, o, t, int(tb.prm[P_EVERYBODY_MOVES]), True)
    elif e == E_BUTTER:
        butter_fingers(st, tb, t)
    elif e == E_NOT_DEAD:
        not_dead(st, tb, rng, g, t)
    else:
        score_squares(st, tb, o)
        zombie_card(st, tb, o, e)


# priority of the heuristic attack (Q6): against a racer (Helipad, Crematorium), a kill hunter
RACE_ORDER = (E_PARALYSIS, E_FEAR, E_BAD_SENSE, E_EVERYBODY, E_SCREWED, E_SHOE, E_MASTER, E_CLAUSTRO,
              E_NOT_SO_BAD, E_WORSE, E_MISCALC)
KILL_ORDER = (E_PARALYSIS, E_NOT_DEAD, E_BUTTER, E_FEAR, E_SHOE)


@njit
def _wise_attack(st, tb, o, t, kind, e):
    """Q6 conditions beyond legality: Bad Sense of Direction keeps o at 2 life or more,
    Claustrophobia only against the Crematorium or a pawn in a building, I Don't Think They're
    Dead only where the collection can win."""
    if e == E_BAD_SENSE:
        return st.w_pl[o, PL_LIFE] >= 4
    if e == E_CLAUSTRO:
        return kind == G_CREMATORIUM or is_inside(st, st.w_pl[t, PL_SQ])
    if e == E_WORSE or e == E_MISCALC:
        return kind == G_CREMATORIUM
    if e == E_NOT_DEAD:  # it takes from the collection: worth nothing where kills do not win (B8, D28)
        return kills_win_on(tb)
    return True


@njit
def pre_turn_window(st, tb, rng, g, t):
    """Before t's turn each opponent, in turn order, may play an attack card on t."""
    n = int(tb.prm[P_N_PLAYERS])
    ensure_fields(st)
    for k in range(1, n):
        o = (t + k) % n
        if is_over(st):
            return
        if not may_play(st, tb, o):
            continue
        slot = _random_attack(st, tb, rng, g, o, t) if is_random(tb, o) else _heuristic_attack(st, tb, o, t)
        if slot >= 0:
            e = tb.cards[st.w_pl[o, slot], CI_EFFECT]
            c = play_card(st, tb, g, o, slot, t)
            if answered(st, tb, rng, g, o, c, t):  # D21: the replies first; a cancelled card does nothing
                _apply_attack(st, tb, rng, g, o, t, e)
            to_discard(st, c)


@njit
def _heuristic_attack(st, tb, o, t):
    who, turns, kind = leader(st, tb, o)
    if who != t or turns > tb.pol[o, POL_THREAT]:
        return -1
    if kind == G_HELIPAD or kind == G_CREMATORIUM:
        return _first_attack(st, tb, o, t, kind, RACE_ORDER)
    return _first_attack(st, tb, o, t, kind, KILL_ORDER)


@njit
def _first_attack(st, tb, o, t, kind, order):
    """The hand slot of the first card of ``order`` that o holds and may wisely play on t."""
    for e in order:
        slot = find_card(st, tb, o, e)
        if slot >= 0 and _attack_legal(st, tb, o, t, e) and _wise_attack(st, tb, o, t, kind, e):
            return slot
    return -1


@njit
def _random_attack(st, tb, rng, g, o, t):
    n = 0
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        c = st.w_pl[o, i]
        n += c >= 0 and _attack_legal(st, tb, o, t, tb.cards[c, CI_EFFECT])
    if n == 0:
        return -1
    k = random_choice(rng, g, n)
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        c = st.w_pl[o, i]
        if c >= 0 and _attack_legal(st, tb, o, t, tb.cards[c, CI_EFFECT]):
            if k == 0:
                return i
            k -= 1
    return -1


# ---------------------------------------------------------------- the active player's moments


@njit
def _zombie_near(st, q):
    if zombies_at(st, q) > 0:
        return True
    for d in range(4):
        y = st.w_nb[q, d]
        if y >= 0 and zombies_at(st, y) > 0:
            return True
    return False


@njit
def play_self(st, tb, rng, g, p, slot):
    """A self card (Shotgun, Alternate Food Source) from slot, open to replies (D21)."""
    e = tb.cards[st.w_pl[p, slot], CI_EFFECT]
    if e == E_SHOTGUN:
        play_item(st, tb, rng, g, p, slot)
        return
    c = play_card(st, tb, g, p, slot, -1)
    if answered(st, tb, rng, g, p, c, -1) and e == E_AFS:
        st.w_gs[GS_AFS_OWNER] = p
        st.w_gs[GS_AFS_END] = st.w_gs[GS_TURN] + int(tb.prm[P_N_PLAYERS])  # the end of p's next turn
    to_discard(st, c)


@njit
def start_window(st, tb, rng, g, p):
    """After the tile (A5.1): an item, the Shotgun, Alternate Food Source; the Grenade."""
    use_grenade(st, tb, g, p)
    if is_over(st) or not may_play(st, tb, p):
        return
    if try_items(st, tb, rng, g, p):
        return
    q = st.w_pl[p, PL_SQ]
    shotgun = find_card(st, tb, p, E_SHOTGUN)
    afs = find_card(st, tb, p, E_AFS)
    if is_random(tb, p):
        n = (shotgun >= 0 and st.w_pl[p, PL_SHOTGUN_CARD] < 0) + (afs >= 0)
        k = random_choice(rng, g, n) if n > 0 else -1
        if k >= 0:
            gun = k == 0 and shotgun >= 0 and st.w_pl[p, PL_SHOTGUN_CARD] < 0
            play_self(st, tb, rng, g, p, shotgun if gun else afs)
        return
    if afs >= 0 and st.w_pl[p, PL_LIFE] <= 2 * tb.pol[p, POL_AFS_LIFE] and _zombie_near(st, q):
        play_self(st, tb, rng, g, p, afs)
        return
    goal = choose_goal(st, tb, p)
    wants_fights = zombies_at(st, q) > 0 or goal == G_KILLS or goal == G_CREMATORIUM
    if shotgun >= 0 and st.w_pl[p, PL_SHOTGUN_CARD] < 0 and wants_fights:
        play_self(st, tb, rng, g, p, shotgun)


@njit
def goal_distance(st, p, goal):
    f = path_field(goal)
    return st.w_field[f, st.w_pl[p, PL_SQ]] if f >= 0 else -1


@njit
def movement_roll(st, tb, rng, g, p, goal, fear):
    """A5.4 with its cards: Much Needed Rest or The Keys Are Still In It instead of the roll,
    Your Shoe's Untied, the Skateboard, Adrenaline Rush, Alternate Food Source. Returns the
    squares p may move (-1: no move this turn)."""
    pl = st.w_pl[p]
    rest = find_card(st, tb, p, E_REST) if may_play(st, tb, p) else -1
    random = is_random(tb, p)
    tired = pl[PL_LIFE] < 2 * tb.prm[P_LIFE_CAP]
    if rest >= 0 and tired and (pl[PL_LIFE] <= 2 * tb.pol[p, POL_REST_LIFE] if not random else
                                random_choice(rng, g, 1) == 0):
        c = play_card(st, tb, g, p, rest, -1)
        rests = answered(st, tb, rng, g, p, c, -1)  # D21; cancelled: p rolls after all
        if rests:
            pl[PL_LIFE] = min(2 * int(tb.prm[P_LIFE_CAP]), pl[PL_LIFE] + 2 * int(tb.prm[P_REST_LIFE]))
            log_event(st, g, EK_REST, p, pl[PL_LIFE], 0, 0, 0)
        to_discard(st, c)
        if rests:
            return -1
    if fear:
        return -1
    keys = find_card(st, tb, p, E_KEYS) if may_play(st, tb, p) else -1
    dist = goal_distance(st, p, goal)
    if keys >= 0 and ((dist > speed(st, tb, p) and dist <= tb.prm[P_KEYS_MOVES]) if not random else
                      random_choice(rng, g, 1) == 0):
        c = play_card(st, tb, g, p, keys, -1)
        drives = answered(st, tb, rng, g, p, c, -1)
        to_discard(st, c)
        if drives:
            log_event(st, g, EK_ROLL, p, 0, tb.prm[P_KEYS_MOVES], 1, 0)
            return int(tb.prm[P_KEYS_MOVES])
    roll = d6(rng, g)
    if tb.prm[P_TWO_DICE] != 0 and st.w_gs[GS_HELI] >= 0:
        roll += d6(rng, g)  # B9 option
    points = roll
    if pl[PL_SHOE]:
        points //= 2
        pl[PL_SHOE] = 0
    points += int(tb.prm[P_SKATEBOARD]) * (pl[PL_SKATEBOARD] >= 0)
    points = _after_roll(st, tb, rng, g, p, goal, dist, points)
    log_event(st, g, EK_ROLL, p, roll, points, 0, 0)
    return points


@njit
def _after_roll(st, tb, rng, g, p, goal, dist, points):
    if not may_play(st, tb, p):
        return points
    adrenaline = find_card(st, tb, p, E_ADRENALINE)
    afs = find_card(st, tb, p, E_AFS)
    if is_random(tb, p):
        n = (adrenaline >= 0) + (afs >= 0)
        k = random_choice(rng, g, n) if n > 0 else -1
        if k == 0 and adrenaline >= 0:
            return _adrenaline(st, tb, rng, g, p, adrenaline, points)
        if k >= 0:
            play_self(st, tb, rng, g, p, afs)
        return points
    heli = st.w_gs[GS_HELI]
    if afs >= 0 and goal == G_HELIPAD and 0 <= dist <= points and zombies_at(st, 9 * heli + 4) > 0:
        play_self(st, tb, rng, g, p, afs)  # reach the centre without killing its zombie
        return points
    if adrenaline >= 0 and dist > points:
        return _adrenaline(st, tb, rng, g, p, adrenaline, points)
    return points


@njit
def _adrenaline(st, tb, rng, g, p, slot, points):
    """Adrenaline Rush doubles the move (A11), unless a reply cancels it (D21)."""
    c = play_card(st, tb, g, p, slot, -1)
    doubles = answered(st, tb, rng, g, p, c, -1)
    to_discard(st, c)
    if not doubles:
        return points
    st.w_pl[p, PL_ADRENALINE] = 1
    return 2 * points


@njit
def brain_cramp_window(st, tb, rng, g, t, points):
    """When t starts to move, each opponent in turn may answer with Brain Cramp (A11): that
    opponent moves t instead. Returns True if one did."""
    n = int(tb.prm[P_N_PLAYERS])
    for k in range(1, n):
        o = (t + k) % n
        if not may_play(st, tb, o):
            continue
        slot = find_card(st, tb, o, E_BRAIN_CRAMP)
        if slot < 0:
            continue
        if is_random(tb, o):
            if random_choice(rng, g, 1) < 0:
                continue
        else:
            who, turns, kind = leader(st, tb, o)
            if who != t or turns > tb.pol[o, POL_THREAT] or path_field(st.w_pl[t, PL_GOAL]) < 0:
                continue
        c = play_card(st, tb, g, o, slot, t)
        cramps = answered(st, tb, rng, g, o, c, t)  # D21; cancelled: the next opponent may answer the move
        to_discard(st, c)
        if cramps:
            hostile_move(st, tb, rng, g, o, t, points, False)
            return True
    return False


@njit
def after_move_window(st, tb, rng, g, p):
    """After moving: an item, the Grenade, a zombie card on the leader's path (Q6)."""
    use_grenade(st, tb, g, p)
    if is_over(st) or not may_play(st, tb, p) or try_items(st, tb, rng, g, p):
        return
    n = 0
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        c = st.w_pl[p, i]
        n += c >= 0 and _is_zombie_card(tb.cards[c, CI_EFFECT])
    if n == 0:
        return
    pick = -1
    if is_random(tb, p):
        k = random_choice(rng, g, n)
        for i in range(PL_HAND, PL_HAND + MAX_HAND):
            c = st.w_pl[p, i]
            if k >= 0 and c >= 0 and _is_zombie_card(tb.cards[c, CI_EFFECT]):
                if k == 0:
                    pick = i
                k -= 1
    else:
        who, turns, kind = leader(st, tb, p)
        if kind == G_HELIPAD or kind == G_CREMATORIUM:
            for e in RACE_ORDER:
                s = find_card(st, tb, p, e)
                if pick < 0 and s >= 0 and _is_zombie_card(e) and _wise_attack(st, tb, p, who, kind, e):
                    pick = s
    if pick >= 0:
        e = tb.cards[st.w_pl[p, pick], CI_EFFECT]
        c = play_card(st, tb, g, p, pick, -1)
        if answered(st, tb, rng, g, p, c, -1):
            score_squares(st, tb, p)
            zombie_card(st, tb, p, e)
        to_discard(st, c)


# ---------------------------------------------------------------- items used from play


@njit
def grenade_building(st, q):
    """The building a Grenade thrown from q clears: the one q is in, or whose door q faces."""
    b = st.w_sq[q, SQ_BLD]
    if b >= 0:
        return b
    for d in range(4):
        y = st.w_nb[q, d]
        if y >= 0 and st.w_sq[y, SQ_KIND] == K_DOOR:
            return st.w_sq[y, SQ_BLD]
    return -1


@njit
def use_grenade(st, tb, g, p):
    """A11 Grenade: kill every zombie in the building (they join the collection), lose a life.
    Q6: when it kills POL_GRENADE_MIN or more, or clears the Crematorium; never the last life."""
    card = st.w_pl[p, PL_GRENADE]
    if card < 0 or st.w_pl[p, PL_LIFE] <= tb.prm[P_GRENADE_LIFE]:
        return
    b = grenade_building(st, st.w_pl[p, PL_SQ])
    if b < 0:
        return
    z = _building_zombies(st, b)
    clears = tb.prm[P_MODE] == MODE_MIXED and b == st.w_gs[GS_CREM] and z == st.w_tile[b, TS_Z]
    if z == 0 or (z < tb.pol[p, POL_GRENADE_MIN] and not clears):
        return
    st.w_pl[p, PL_GRENADE] = -1
    to_discard(st, card)
    log_event(st, g, EK_GRENADE, p, b, z, 0, 0)
    for i in range(9):
        q = 9 * b + i
        if st.w_sq[q, SQ_BLD] != b:
            continue
        while zombies_at(st, q) > 0:
            kill(st, tb, g, p, q, first_figure(st, tb, q, False))
    if not is_over(st):
        lose_life(st, tb, g, p, int(tb.prm[P_GRENADE_LIFE]))


@njit
def end_window(st, tb, rng, g, p):
    """End of turn: All the Marbles (holder racing, Q6), then the optional discard (A5.6, Q8)."""
    card = st.w_pl[p, PL_MARBLES]
    racing = st.w_pl[p, PL_GOAL] == G_HELIPAD or st.w_pl[p, PL_GOAL] == G_CREMATORIUM
    if card >= 0 and ((random_choice(rng, g, 1) == 0) if is_random(tb, p) else racing):
        st.w_pl[p, PL_MARBLES] = -1
        to_discard(st, card)
        st.w_gs[GS_MARBLES_END] = st.w_gs[GS_TURN] + int(tb.prm[P_N_PLAYERS])
        log_event(st, g, EK_ITEM, p, card, 0, 0, 0)
    discard_step(st, tb, g, p)


@njit
def discard_step(st, tb, g, p):
    """Q8: discard the lowest-ranked card if it ranks below POL_DISCARD_BELOW (an item whose
    building is gone ranks 0)."""
    if tb.pol[p, POL_DISCARD] != 0:
        return
    worst, slot = 1e9, -1
    for i in range(PL_HAND, PL_HAND + MAX_HAND):
        c = st.w_pl[p, i]
        if c >= 0 and card_value_now(st, tb, p, c) < worst:
            worst, slot = card_value_now(st, tb, p, c), i
    if slot >= 0 and worst < tb.pol[p, POL_DISCARD_BELOW]:
        c = st.w_pl[p, slot]
        st.w_pl[p, slot] = -1
        to_discard(st, c)
        log_event(st, g, EK_DISCARD, p, c, worst, 0, 0)
