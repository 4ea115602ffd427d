# ruff: noqa: E501  (a table of snippets: one mutant per entry, long lines read better)
"""Mutants of Zombies!!! with Ashes to Ashes (shared/rules/zombies-ashes-to-ashes.md): A*, B*, D*, Q*.

``TESTS`` are the rules tests run with the JIT off (about 60 s together here; the replies and
fight-oracle files take minutes each as plain Python and are left out).
"""

from mutant import Mutant as M

TESTS = ["tests/zombies9/test_zombies9_rules_gaps.py", "tests/zombies9/test_zombies9_mutant_kills.py",
         "tests/zombies9/test_zombies9_rules.py", "tests/zombies9/test_zombies9_cards.py"]
TIMEOUT = 400.0

K = "kernels/zombies9/"
CO, MO, TU, BO = (K + f for f in ("combat.py", "movement.py", "turn.py", "board.py"))
CA, PI, HA, PO = (K + f for f in ("cards.py", "pieces.py", "hand.py", "policy.py"))
CFG = "sim/rulesets/zombies9/config.py"

MUTANTS = [
    # A2 / A6 tile placement
    M("z9_edges_any", "A6", BO, "    if has_exit(tb, t, r, d) != has_exit(tb, nt, nr, back):\n        return False",
      "    if False:\n        return False", "a road exit may meet a tile side"),
    M("z9_no_road_join", "A6", BO, "    if touching == 0 or roads == 0:", "    if touching == 0:",
      "a tile may be laid with no road joining the map"),
    M("z9_graveyard_join", "B4.5, D24", BO, "    return graveyard > 0\n", "    return True\n",
      "a Z9 tile need not join the graveyard"),
    # A7 movement: doors
    M("z9_any_side_door", "A7, D5", BO, "return any_side != 0 or a == K_DOOR or b == K_DOOR",
      "return True", "a building is entered from any road square, not only by its door"),
    # A8 combat
    M("z9_kill_number", "A8", CFG, 'kill_number: int = _p(4,', 'kill_number: int = _p(5,', "a zombie dies on 5+"),
    M("z9_kill_strict", "A8", CO, "        if total >= kill_n:\n            return True, life_h",
      "        if total > kill_n:\n            return True, life_h", "a roll equal to the kill number fails"),
    M("z9_bullets_short", "A8, D17", CO, "            return True, life_h, bullets - short, kits, rolls",
      "            return True, life_h, bullets - short + 1, kits, rolls", "a failed roll is bought one bullet cheaper"),
    M("z9_life_loss", "A8", CO, "            life_h -= dmg\n", "            life_h -= dmg // 2\n",
      "a failed roll costs half a life token"),
    M("z9_kit_unused", "A11, D15", CO, "        if kits > 0:\n            kits -= 1\n        else:",
      "        if False:\n            kits -= 1\n        else:", "a First Aid Kit does not stand in for a life"),
    M("z9_q4_rule", "Q4", CO, "    return life_h / 2.0 + kits <= 2.0 or short <= 1",
      "    return life_h / 2.0 + kits <= 1.0 or short <= 1", "Q4 spends bullets only at one life"),
    # A8.4 death
    M("z9_death_round_down", "A8.4, D8", CO, "(k + 1) // 2 if tb.prm[P_DEATH_ROUND_UP] != 0 else k // 2",
      "k // 2 if tb.prm[P_DEATH_ROUND_UP] != 0 else k // 2", "a death loses half the collection rounded down"),
    M("z9_death_keeps_weapons", "A8.4", CO, "    for col in range(PL_AXE, PL_MARBLES + 1):\n        if pl[col] >= 0:",
      "    for col in range(PL_AXE, PL_AXE):\n        if pl[col] >= 0:", "a dead player keeps his weapons and items in play"),
    M("z9_death_restart_life", "A8.4", TU, "        pl[PL_LIFE] = 2 * int(tb.prm[P_START_LIFE])\n        pl[PL_BULLETS] = int(tb.prm[P_START_BULLETS])\n    pl[PL_PLAYED] = 0",
      "        pl[PL_LIFE] = 2 * int(tb.prm[P_START_LIFE])\n    pl[PL_PLAYED] = 0", "a dead player starts his turn without his 3 bullets"),
    # A10 / A11 weapons
    M("z9_axe_bonus", "A11", CFG, 'axe_bonus: int = _p(1,', 'axe_bonus: int = _p(2,', "the Fire Axe gives +2"),
    M("z9_weapons_stack", "A10", CO, "        best = max(best, tb.prm[P_CHAINSAW])", "        best = best + tb.prm[P_CHAINSAW]",
      "the Chainsaw adds to the Axe (one weapon per combat)"),
    M("z9_shotgun_forever", "A11", CO, "    if pl[PL_SHOTGUN] > 0:\n        pl[PL_SHOTGUN] -= 1", "    if pl[PL_SHOTGUN] > 99:\n        pl[PL_SHOTGUN] -= 1",
      "the Shotgun never runs out"),
    M("z9_card_per_round", "A10", TU, "    pl[PL_PLAYED] = 0\n    pl[PL_CHAINSAW_ON] = 0", "    pl[PL_CHAINSAW_ON] = 0",
      "the round's card is never free again"),
    # A12 / B8 wins
    M("z9_kills_to_win", "A12", CO, "st.w_pl[p, PL_KILLS] >= tb.prm[P_KILLS_TO_WIN]", "st.w_pl[p, PL_KILLS] > tb.prm[P_KILLS_TO_WIN]",
      "the 25th zombie does not win"),
    # (checking "no zombie on the centre" cannot be broken alone: enter_square fights every figure on
    # the square before it checks the Helipad, so dropping that test is an equivalent mutant)
    M("z9_helipad_any_square", "A12, D18", MO, "if heli >= 0 and q == 9 * heli + 4 and (zombies_at",
      "if heli >= 0 and q // 9 == heli and (zombies_at", "any square of the Helipad tile wins, not only its centre"),
    M("z9_crem_not_empty", "B8, D26", CO, "q // 9 == crem and st.w_tile[crem, TS_Z] == 0:", "q // 9 == crem:",
      "any kill on the Crematorium wins"),
    M("z9_cem_before_done", "B8, D27", CO, "and graveyard_done(st) and st.w_gs[GS_CEM_Z] == 0", "and st.w_gs[GS_CEM_Z] == 0",
      "the Cemeteries win before the last Z9 tile is laid"),
    # A7 / D6 / D7
    M("z9_pickup_never", "D7", MO, "    if tb.prm[P_PICKUP_PASSING] != 0 or last:\n", "    if last:\n",
      "tokens are not picked up when passing through"),
    M("z9_no_continue", "D6", MO, "    if fought and tb.prm[P_CONTINUE] == 0 and not always_continue:",
      "    if fought and not always_continue:", "a won fight ends the move"),
    # A9 zombie movement
    M("z9_zombie_moves_all", "A9", MO, "        for _ in range(k):\n            if not _best_move(st, tb, p):",
      "        for _ in range(k + 1):\n            if not _best_move(st, tb, p):", "one zombie more moves than the D6 says"),
    M("z9_marbles_ignored", "A11", MO, "    if st.w_gs[GS_TURN] <= st.w_gs[GS_MARBLES_END]:\n        return 0",
      "    if False:\n        return 0", "All the Marbles does not stop zombie movement"),
    M("z9_shared_square", "D10", MO, "    if tb.prm[P_MOVE_SHARED] == 0 and st.w_sq[q, SQ_PAWNS] > 0:",
      "    if tb.prm[P_MOVE_SHARED] != 0 and st.w_sq[q, SQ_PAWNS] > 0:", "a zombie beside a pawn may not be moved"),
    # A4 set-up
    M("z9_start_life", "A4", CFG, 'start_life: int = _p(3,', 'start_life: int = _p(4,', "players start with 4 life"),
    M("z9_hand_size", "A5", CFG, 'hand_size: int = _p(3,', 'hand_size: int = _p(4,', "players draw up to 4 cards"),
]

MUTANTS += [
    # ---- issue 27, second pass: the rules the first list did not reach
    # A4 set-up and caps
    M("z9_life_cap_pickup", "A4, A7", HA, "life = min(st.w_sq[q, SQ_LIFE], max(0, room // 2))", "life = st.w_sq[q, SQ_LIFE]",
      "a picked-up life token goes beyond the cap of 5"),
    M("z9_helipad_anywhere", "A4, D1", TU, "else n - n // 2 + int(uniform(rng, g) * (n // 2 + 1))", "else int(uniform(rng, g) * (n + 1))",
      "the Helipad is shuffled anywhere in the stack, not into its bottom half"),
    # A5 the turn
    M("z9_no_step2_fight", "A5.2, A8.5", TU, "alive = fight_all(st, tb, rng, g, p, st.w_pl[p, PL_SQ])  # A5.2", "alive = True  # A5.2",
      "a zombie on the player's square at the start of his turn is not fought"),
    # A6 placement
    M("z9_closed_map_free", "A6", TU, "        st.w_gs[GS_LOSE_TURN] = 1\n", "        st.w_gs[GS_LOSE_TURN] = 0\n",
      "closing the map costs nothing"),
    M("z9_helipad_discarded", "A6", TU, "if tb.prm[P_HELI_RESHUFFLE] != 0 and _shuffle_back(st, rng, g, p, s, t):", "if False:",
      "an unplaceable Helipad is discarded while tiles remain"),
    # A8.4 death
    M("z9_death_stays", "A8.4", CO, "    set_pawn(st, p, st.w_gs[GS_RESPAWN])\n    if tb.prm[P_DEATH_AT_ONCE]", "    if tb.prm[P_DEATH_AT_ONCE]",
      "a dead player's pawn stays where he died"),
    # A9 zombie movement
    M("z9_zombie_onto_zombie", "A9", PI, "    return a == 0 and (k == 0 or tb.prm[P_KIDS_RULE] != 0)", "    return k == 0 or tb.prm[P_KIDS_RULE] != 0",
      "a zombie may enter a square holding another zombie"),
    M("z9_zombie_into_blocked", "A9", PI, "    if st.w_sq[q, SQ_KIND] == 0:\n        return False\n    a, k, dogs", "    a, k, dogs",
      "a zombie may stand on a blocked square or an unnamed building"),
    M("z9_same_zombie_twice", "A9", MO, "    return st.w_sq[q, figure_column(kind)] - st.w_moved[q, kind]", "    return st.w_sq[q, figure_column(kind)]",
      "one zombie may be moved again in the same zombie phase"),
    # A10 general card rules
    M("z9_no_deck_reshuffle", "A10", CA, "st.w_gs[GS_DECK_N], st.w_gs[GS_DISC_N] = m, 0", "st.w_gs[GS_DECK_N], st.w_gs[GS_DISC_N] = 0, m",
      "the discards are not shuffled into a new deck when the deck runs out"),
    M("z9_two_of_a_kind", "A10", PO, "    return col >= 0 and st.w_pl[p, col] >= 0", "    return False",
      "a second item of the same kind may be put in play"),
    M("z9_shotgun_alone", "A10", CO, "        best += tb.prm[P_SHOTGUN]", "        best = max(best, tb.prm[P_SHOTGUN])",
      "the Shotgun does not combine with another weapon"),
    M("z9_item_anywhere", "A10, D16", PO, "    return st.w_sq[q, SQ_BLD] == k\n", "    return q // 9 == k\n",
      "an item is put in play anywhere on its building's tile"),
    # A11 the base event cards
    M("z9_adrenaline_no_double", "A11", CA, "    st.w_pl[p, PL_ADRENALINE] = 1\n    return 2 * points", "    st.w_pl[p, PL_ADRENALINE] = 1\n    return points + 1",
      "Adrenaline Rush adds one instead of doubling"),
    M("z9_shoe_no_halving", "A11", CA, "        points //= 2\n        pl[PL_SHOE] = 0", "        points //= 1\n        pl[PL_SHOE] = 0",
      "Your Shoe's Untied does not halve the roll"),
    M("z9_skateboard_after_double", "A11", CA, "    points += int(tb.prm[P_SKATEBOARD]) * (pl[PL_SKATEBOARD] >= 0)\n    points = _after_roll(st, tb, rng, g, p, goal, dist, points)",
      "    points = _after_roll(st, tb, rng, g, p, goal, dist, points)\n    points += int(tb.prm[P_SKATEBOARD]) * (pl[PL_SKATEBOARD] >= 0)",
      "the Skateboard's +2 is added after Adrenaline Rush doubles the roll"),
    M("z9_keys_nine", "A11", CFG, "keys_moves: int = _p(10,", "keys_moves: int = _p(9,", "The Keys Are Still In It moves 9 squares"),
    M("z9_rest_over_cap", "A11, A4", CA, "pl[PL_LIFE] = min(2 * int(tb.prm[P_LIFE_CAP]), pl[PL_LIFE] + 2 * int(tb.prm[P_REST_LIFE]))",
      "pl[PL_LIFE] = pl[PL_LIFE] + 2 * int(tb.prm[P_REST_LIFE])", "Much Needed Rest goes beyond the cap of 5 life"),
    M("z9_fear_ignored", "A11", CA, "    if fear:\n        return -1\n", "    if False:\n        return -1\n",
      "a player under Fear rolls and moves"),
    M("z9_paralysis_ignored", "A11", TU, "if st.w_pl[p, PL_PARALYSED]:  # Hysterical", "if False:  # Hysterical",
      "Hysterical Paralysis costs no turn"),
    M("z9_afs_this_turn_only", "A11", CA, "st.w_gs[GS_AFS_END] = st.w_gs[GS_TURN] + int(tb.prm[P_N_PLAYERS])  # the end of p's next turn",
      "st.w_gs[GS_AFS_END] = st.w_gs[GS_TURN]  # the end of p's next turn", "Alternate Food Source ends with the turn it is played in"),
    M("z9_afs_fights_on_move", "A11", MO, "    if zombies_at(st, q) > 0 and not afs_on(st):", "    if zombies_at(st, q) > 0:",
      "under Alternate Food Source a pawn still fights the zombies it walks into"),
    M("z9_marbles_this_turn_only", "A11", CA, "st.w_gs[GS_MARBLES_END] = st.w_gs[GS_TURN] + int(tb.prm[P_N_PLAYERS])", "st.w_gs[GS_MARBLES_END] = st.w_gs[GS_TURN]",
      "All the Marbles stops zombie movement for the holder's own turn only"),
    M("z9_bad_sense_free", "A11", CA, "if lose_life(st, tb, g, o, int(tb.prm[P_BAD_SENSE_LIFE])):", "if lose_life(st, tb, g, o, 0):",
      "Bad Sense of Direction costs its player no life token"),
    M("z9_butter_keeps_item", "A11, D13", CA, "        to_discard(st, st.w_pl[t, from_play])\n        st.w_pl[t, from_play] = -1\n        return True",
      "        return True", "Butter Fingers leaves the target's item in play"),
    M("z9_everybody_stops", "A11", CA, "hostile_move(st, tb, rng, g, o, t, int(tb.prm[P_EVERYBODY_MOVES]), True)",
      "hostile_move(st, tb, rng, g, o, t, int(tb.prm[P_EVERYBODY_MOVES]), False)", "Where Did Everybody Go? stops at the first fight"),
    M("z9_not_dead_one_die", "A11", CA, "        if die == 1:\n            roll = other", "        if die == 7:\n            roll = other",
      "I Don't Think They're Dead checks only the lower die"),
    M("z9_not_dead_costs_nothing", "A11", CA, "lost = lose_kills(st, tb, g, t, int(tb.prm[P_NOT_DEAD_LOST])) if failed else 0", "lost = 0",
      "a failed I Don't Think They're Dead returns no zombie"),
    M("z9_worse_anywhere", "A11", CA, "return place_best(st, tb, 9, True, True, k) if k >= 0 else 0", "return place_best(st, tb, 9, True, True, -1) if k >= 0 else 0",
      "Just When You Thought... puts its zombies anywhere, not in one building"),
    M("z9_miscalc_one_more", "A11", CA, "return place_best(st, tb, _building_zombies(st, k), True, False, k) if k >= 0 else 0",
      "return place_best(st, tb, _building_zombies(st, k) + 1, True, False, k) if k >= 0 else 0", "Slight Miscalculation adds one zombie more than doubles"),
    M("z9_screwed_on_pawns", "A11", CA, "return place_best(st, tb, int(tb.prm[P_SCREWED]), True, True, -1)", "return place_best(st, tb, int(tb.prm[P_SCREWED]), True, False, -1)",
      "We're Screwed puts zombies on squares with a pawn (not empty)"),
    M("z9_master_on_pawns", "A11", CA, "return place_best(st, tb, int(tb.prm[P_MASTER]), False, True, -1)", "return place_best(st, tb, int(tb.prm[P_MASTER]), False, False, -1)",
      "Zombie Master puts zombies on squares occupied by players"),
    M("z9_not_so_bad_three", "A11", CFG, "not_so_bad_moves: int = _p(2,", "not_so_bad_moves: int = _p(3,", "This Isn't So Bad moves 3 zombies"),
    M("z9_grenade_free", "A11", CA, "    if not is_over(st):\n        lose_life(st, tb, g, p, int(tb.prm[P_GRENADE_LIFE]))", "    if False:\n        lose_life(st, tb, g, p, int(tb.prm[P_GRENADE_LIFE]))",
      "the Grenade costs no life token"),
    M("z9_grenade_no_door", "A11", CA, "        if y >= 0 and st.w_sq[y, SQ_KIND] == K_DOOR:\n            return st.w_sq[y, SQ_BLD]", "        if False:\n            return st.w_sq[y, SQ_BLD]",
      "the Grenade cannot be thrown from the square in front of the door"),
    M("z9_ammo_nothing", "A11, D14", HA, "        st.w_pl[p, PL_BULLETS] += int(tb.prm[P_AMMO])", "        st.w_pl[p, PL_BULLETS] += 0",
      "Lots of Ammo gives no bullets"),
    M("z9_molotov_anywhere", "A11", CO, "if pl[PL_MOLOTOV_ON] > 0 and st.w_sq[q, SQ_BLD] == pl[PL_MOLOTOV_ON] - 1:", "if pl[PL_MOLOTOV_ON] > 0:",
      "the Molotov's +2 counts outside its building"),
    M("z9_skateboard_one", "A11", CFG, "skateboard_bonus: int = _p(2,", "skateboard_bonus: int = _p(1,", "the Skateboard gives +1"),
    M("z9_claustro_ignored", "A11", TU, "walk(st, tb, rng, g, p, points, goal, st.w_pl[p, PL_CLAUS] == 2)", "walk(st, tb, rng, g, p, points, goal, False)",
      "Claustrophobia does not keep the target out of buildings"),
    M("z9_brain_cramp_longer", "A11", CA, "            hostile_move(st, tb, rng, g, o, t, points, False)", "            hostile_move(st, tb, rng, g, o, t, points + 2, False)",
      "Brain Cramp moves the target farther than his roll"),
    # B4 mixed, B5 / B7 Automatic cards
    M("z9_no_set_aside", "B4.4", TU, "if tb.tile_info[t, TI_ROLE] == R_ENTRANCE and tb.prm[P_MODE] == MODE_MIXED:", "if False:",
      "the set-aside four-way is not attached to the Graveyard Entrance"),
    M("z9_empty_stack_stops", "B4.5", TU, "        want = 1 if (left1 and mode != MODE_BASE) else -1", "        want = -1",
      "when the base stack is empty no tile is drawn from the graveyard stack"),
    M("z9_auto_replaced", "B5", CA, "    for _ in range(want):\n        c = draw_card(st, rng, g)", "    while hand_count(st, tb, p) < int(tb.prm[P_HAND]):\n        c = draw_card(st, rng, g)",
      "an Automatic card is replaced at once (it does not count as drawn)"),
    M("z9_dust_drawer_only", "B7", CA, "        for o in range(int(tb.prm[P_N_PLAYERS])):\n            st.w_pl[o, PL_LIFE]", "        for o in range(p, p + 1):\n            st.w_pl[o, PL_LIFE]",
      "Dust to Dust resets only the drawer"),
    M("z9_problem_every_z9_tile", "B7, D29", CA, "if not (tb.tile_info[t, TI_CEMETERY] or (tb.prm[P_PROBLEM_ALL] != 0 and tb.tile_info[t, TI_Z9])):",
      "if not tb.tile_info[t, TI_Z9]:", "We Have a Little Problem puts a zombie on every Z9 tile, not only the Cemeteries"),
    # B6 kids
    M("z9_two_kids", "B6", PI, "    if kind == Z_KID:\n        return k == 0", "    if kind == Z_KID:\n        return k <= 1",
      "two kids may share a square"),
    M("z9_kid_fought_first", "B6", PI, "if st.w_sq[q, SQ_KID] > 0 and (kid_first or st.w_sq[q, SQ_ADULT] == 0):", "if st.w_sq[q, SQ_KID] > 0:",
      "the kid is fought before the adult"),
    # Part C dogs
    M("z9_dog_kill_4", "C, D37", CFG, "dog_kill: int = _p(5,", "dog_kill: int = _p(4,", "a dog dies on 4+"),
    M("z9_dog_full_damage", "C, D35", CO, "dmg = int(tb.prm[P_DOG_DAMAGE]) if dog else 2", "dmg = 2",
      "losing to a dog costs a whole life token"),
    M("z9_dog_one_step", "C, D35", MO, "                if kind == Z_DOG and dog_steps >= 2:", "                if kind == Z_DOG and dog_steps >= 3:",
      "a dog moves only one square (heuristic zombie movement)"),
    M("z9_three_dogs", "C, D35", PI, "return dogs < tb.prm[P_DOG_STACK] and (mix or a + k == 0)", "return dogs <= tb.prm[P_DOG_STACK] and (mix or a + k == 0)",
      "three dogs may share a square"),
    M("z9_dogs_mix", "C, D36", PI, "return dogs < tb.prm[P_DOG_STACK] and (mix or a + k == 0)", "return dogs < tb.prm[P_DOG_STACK]",
      "a dog may share a square with an adult zombie"),
    M("z9_pet_cemetery_adults", "C, D35", PI, "        return Z_DOG\n    return kind", "        return kind\n    return kind",
      "the Pet Cemetery gets adult zombies with the dogs option on"),
    # Q1-Q9 policies
    M("z9_q1_no_margin", "Q1", PO, "if mine <= _best_opponent_eta(st, tb, p) + tb.pol[p, POL_MARGIN] or not farm:", "if mine <= _best_opponent_eta(st, tb, p) or not farm:",
      "Q1 goes for the Helipad only when no opponent is nearer (margin ignored)"),
    M("z9_q1_crematorium_strict", "Q1", PO, "return st.w_tile[crem, TS_Z] <= tb.pol[p, POL_CREM_FACTOR] * means and", "return st.w_tile[crem, TS_Z] < tb.pol[p, POL_CREM_FACTOR] * means and",
      "Q1 skips a Crematorium holding exactly factor x means zombies"),
    M("z9_q2_own_side", "Q2", PO, "score = w * (d_lead - d_self) + 1e-3 * uniform(rng, g)", "score = w * (d_self - d_lead) + 1e-3 * uniform(rng, g)",
      "Q2 lays good tiles near the leader"),
    M("z9_q2_closes_map", "Q2, A6", PO, "            score -= 1e6  # A6", "            score -= 0  # A6",
      "Q2 closes the map although another placement fits"),
    M("z9_q3_zombies_free", "Q3", PO, "return int(STEP * tb.pol[p, POL_FIGHT_STEPS] * 4.5 / max(means, 0.5))", "return 0",
      "Q3's route costs nothing for a zombie square"),
    M("z9_q5_strict", "Q5", CO, "want = ahead >= tb.pol[p, POL_MULTI] or", "want = ahead > tb.pol[p, POL_MULTI] or",
      "Q5 keeps the Chainsaw at exactly multi_zombies zombies"),
    M("z9_q6_leader_self", "Q6", PO, "    for k in range(1, n):\n        p = (o + k) % n\n        t, g = turns_to_win(st, tb, o, p)", "    for k in range(0, n):\n        p = (o + k) % n\n        t, g = turns_to_win(st, tb, o, p)",
      "Q6's leader may be the player himself (attack cards on oneself)"),
    M("z9_q6_bad_sense_low", "Q6", CA, "        return st.w_pl[o, PL_LIFE] >= 4\n", "        return st.w_pl[o, PL_LIFE] >= 2\n",
      "Q6 plays Bad Sense of Direction at one life (and dies of it)"),
    M("z9_q7_helps_leader", "Q7", PO, "return tb.pol[p, POL_BLOCK_W] * block_value(st, tb, p, who, goal_l, q) - tb.pol[p, POL_SELF_W] * own_value(",
      "return -tb.pol[p, POL_BLOCK_W] * block_value(st, tb, p, who, goal_l, q) - tb.pol[p, POL_SELF_W] * own_value(",
      "Q7 moves zombies out of the leader's way"),
    M("z9_q8_keeps_dead_items", "Q8", PO, "    if b >= 0 and not building_available(st, tb, b, tb.cards[c, CI_ALT_BUILDING]):\n        return 0",
      "    if False:\n        return 0", "Q8 ranks an item whose building is gone at its usual value"),
    M("z9_q9_base_first", "Q9, D25", TU, "            want = 1 if st.w_gs[GS_CREM] < 0 and st.w_gs[GS_HELI] < 0 else 0", "            want = 0",
      "Q9's default draws from the base stack before the Crematorium is out"),
    # A1 / D11 the figure pools, B3 playing alone
    M("z9_empty_pool_places", "A1, D11", PI, "return tb.prm[P_POOL_LIMITED] == 0 or st.w_gs[pool_index(kind)] > 0",
      "return tb.prm[P_POOL_LIMITED] == 0 or st.w_gs[pool_index(kind)] >= 0", "a figure is placed from an empty pool"),
    M("z9_alone_starts_four_way", "B3, D34", "sim/rulesets/zombies9/compile.py", "        if config.mode == \"alone\":\n            start = entrance",
      "        if config.mode == \"alone\":\n            start = fourway[0]", "alone, the pawns start on a four-way tile, not the Graveyard Entrance"),
    # D readings the first lists did not reach
    M("z9_helipad_eight", "D2", CFG, "helipad_zombies: int = _p(9,", "helipad_zombies: int = _p(8,", "the Helipad gets 8 zombies, not one a square"),
    M("z9_death_discards_hand", "D9", CO, "    if tb.prm[P_DEATH_DISCARD_HAND] != 0:", "    if True:", "a death discards the hand by default"),
    M("z9_helipad_most_kills", "D19", TU, "if tb.tile_info[t, TI_ROLE] != R_HELIPAD or tb.prm[P_HELI_MOST_KILLS] == 0:", "if tb.tile_info[t, TI_ROLE] != R_HELIPAD:",
      "the Helipad is placed by the player with most kills by default"),
    M("z9_alone_kills_win", "D28, B8", CO, "    return tb.prm[P_MODE] != MODE_ALONE or tb.prm[P_ALONE_KILLS] != 0", "    return True",
      "25 kills win when playing Zombies!!! 9 alone"),
    M("z9_kids_aggressive", "D32, B6", PI, "    return max(0, z - squares)\n", "    return z // 2\n",
      "kids are stacked beside adults even where the squares suffice"),
]
