# ruff: noqa: E501  (a table of snippets: one mutant per entry, long lines read better)
"""Mutants of Zombies!!! with Ashes to Ashes (shared/rules/zombies-ashes-to-ashes.md): A*, B*, D*, Q*.

``TESTS`` are the rules tests run with the JIT off (about 60 s together here; the replies and
fight-oracle files take minutes each as plain Python and are left out).
"""

from mutant import Mutant as M

TESTS = ["tests/zombies9/test_zombies9_mutant_kills.py", "tests/zombies9/test_zombies9_rules.py",
         "tests/zombies9/test_zombies9_cards.py"]
TIMEOUT = 400.0

K = "kernels/zombies9/"
CO, MO, TU, BO = (K + f for f in ("combat.py", "movement.py", "turn.py", "board.py"))
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
