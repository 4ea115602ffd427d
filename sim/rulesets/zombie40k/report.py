"""Zombie 40,000's sections of the balance report, as data (``sim.ruleset.ReportSection``).

The report's main subject is the four-player game. Each section is a sweep on common random
numbers:

==============  =================================================================================
section         cells
==============  =================================================================================
standard        the standard game: every example team, four to a table, each team once in every
                seat (13 lineups), every player on the default policy (dash): factions and seats
playstyles      four Marines squads, the four policy presets rotated through the seats: ways of
                playing
mods            the four-player example and each playable mod of zombie40k §10 (T-Virus vs
                Hardcore too)
budget          points budgets 50-150, every team refitted (teams.fit_team)
powerups        the four-player example with one Power-Up result taken off the table
matchups        four factions x four factions in the two-player game, both seats, one policy
sensitivity     every chosen [C] number at its low and high plausible value
==============  =================================================================================

Sizes are fixed games per cell at scale 1, never measured speeds, so a rerun is the same
experiment and resumes instead of starting over.
"""

from __future__ import annotations

from dataclasses import replace

from sim.ruleset import ReportSection
from sim.rulesets.zombie40k.axes import EXAMPLES, load_team_ref, mods_label, removed_label
from sim.rulesets.zombie40k.compile import compile_tables
from sim.rulesets.zombie40k.config import DEFAULT_POLICY, MODS, POLICY_PRESETS, ConfigError, GameConfig, load_config
from sim.rulesets.zombie40k.mods import MOD_BY_KEY
from sim.rulesets.zombie40k.results import POWERUP_NAMES

BASE_CONFIG = EXAMPLES / "configs" / "four_players.toml"
TWO_PLAYERS = EXAMPLES / "configs" / "two_players.toml"
SEED = 2024
GAMES = {"standard": 600, "playstyles": 1200, "mods": 1500, "budget": 1200, "powerups": 750, "matchups": 960,
         "sensitivity": 300}
BUDGETS = (50, 75, 100, 125, 150)
FACTIONS = ("guard", "marines", "tau", "necrons")
TEAMS = ("boyz", "dark_eldar", "eldar", "genestealers", "grey_knights", "guard", "marines", "marines_bolters",
         "necrons", "plague", "sisters", "tau", "tyranids")
PLAYSTYLES = ("dash", "advance", "hunter", "backstabber")
PLAYSTYLE_TEAM = "marines"
HEAD_TO_HEAD = ("t_virus", "hardcore")


def mod_title(mod: str) -> str:
    """'t_virus' -> 'T-Virus' (the mod's title in sim.rulesets.zombie40k.mods)."""
    return MOD_BY_KEY[mod].title if mod in MOD_BY_KEY else mod


def set_title(label: str) -> str:
    """'hardcore+t_virus' -> 'Hardcore + T-Virus'; 'base' stays."""
    return " + ".join(mod_title(m) for m in label.split("+"))


def playable_mods(config: GameConfig) -> tuple[list[str], dict[str, str]]:
    """Mods the kernels can play with this config, and why each other one cannot."""
    ok, missing = [], {}
    for mod in MODS:
        try:
            compile_tables(replace(config, mods=frozenset({mod})))
            ok.append(mod)
        except ConfigError as err:
            missing[mod] = str(err)
    return ok, missing


def games_for(section: str, scale: float) -> int:
    return max(10, round(GAMES[section] * scale))


def rotations(items, seats: int) -> list[list[str]]:
    """Each item once in every seat: lineup k seats items k, k+1, ... (a cyclic design)."""
    return [[items[(k + s) % len(items)] for s in range(seats)] for k in range(len(items))]


def neutral(base: GameConfig) -> GameConfig:
    """Both seats renamed "Player 1/2" and on the default policy: teams are compared, not policies."""
    players = tuple(replace(p, name=f"Player {k + 1}", policy=POLICY_PRESETS[DEFAULT_POLICY])
                    for k, p in enumerate(base.players))
    return replace(base, players=players)


def _default(base: GameConfig) -> GameConfig:
    return replace(base, players=tuple(replace(p, policy=POLICY_PRESETS[DEFAULT_POLICY]) for p in base.players))


def standard_section(base: GameConfig, games: int) -> ReportSection:
    """The standard game on ``base``'s rules: every example team, as many to a table as ``base``
    has players, each once in every seat (a lineup per team), every player on the default
    policy (``DEFAULT_POLICY``); its sides are the teams (the report's first section, and the game `shamble
    rebalance` prices by default)."""
    seats = base.n_players
    return ReportSection(
        "standard", "The standard game: factions and seats",
        f"Every example team, {seats} to a table, each once in every seat ({len(TEAMS)} lineups), every player on "
        f"the same policy ({DEFAULT_POLICY}, the default): the teams are compared with each other and the seats "
        "with each other, not the ways of playing.", _default(base), games,
        {"lineup": rotations(TEAMS, seats)}, ("sides", "seats"),
        {"side": "team", "what": "factions", "value_label": "lineup"}, SEED)


def report_sections(scale: float = 1.0) -> list[ReportSection]:
    """The sections of Zombie 40,000's report, not played yet."""
    base = load_config(BASE_CONFIG)
    mods, missing = playable_mods(base)
    sets = [[]] + [[m] for m in mods] + ([list(HEAD_TO_HEAD)] if all(m in mods for m in HEAD_TO_HEAD) else [])
    removed = ["none", *POWERUP_NAMES]
    names = {f: load_team_ref(f, EXAMPLES).name for f in FACTIONS}
    four = base.n_players
    return [
        standard_section(base, games_for("standard", scale)),
        ReportSection(
            "playstyles", "Ways of playing",
            f"{four} squads of the same team ({PLAYSTYLE_TEAM}) on the {four} policy presets, each preset once in "
            "every seat: does one way of playing beat the others?", base, games_for("playstyles", scale),
            {"lineup": [[f"{PLAYSTYLE_TEAM}/{p}" for p in lineup] for lineup in rotations(PLAYSTYLES, four)]},
            ("sides",), {"side": "policy", "what": "ways of playing", "value_label": "lineup"}, SEED),
        ReportSection(
            "mods", "The base game and the mods",
            f"The four-player example against {len(mods)} mods, every cell on the same games (a paired comparison).",
            base, games_for("mods", scale), {"mods": sets}, ("outcomes", "paired", "head_to_head"),
            {"reference": "base", "value_label": "game", "compare_label": "mod",
             "titles": {mods_label(s): set_title(mods_label(s)) for s in sets},
             "charted": ["base", *HEAD_TO_HEAD, "+".join(sorted(HEAD_TO_HEAD))], "pair": HEAD_TO_HEAD,
             "chart_title": "Mods against the base game"},
            SEED, notes=(f"Not playable in this build: {', '.join(missing)}.",) if missing and mods else ()),
        ReportSection(
            "budget", "Points budget", "Every team of the four-player example is refitted to each budget (leader "
            "and weapon swaps kept, plain models added or dropped).", base, games_for("budget", scale),
            {"budget": list(BUDGETS)}, ("by_value",),
            {"axis": "budget", "value_label": "budget", "x_label": "points budget", "unit": " points",
             "chart_title": "Escape rate by points budget"}, SEED),
        ReportSection(
            "powerups", "Power-up ablation", "Each cell takes one Power-Up result off the 2D6 table "
            "(a roll of it gives nothing); its value is how much the escape rate drops without it.",
            base, games_for("powerups", scale), {"powerups_removed": removed}, ("paired",),
            {"reference": "none", "worth": True, "compare_label": "power-up removed", "thing": "power-up",
             "titles": {removed_label(r): removed_label(r).removeprefix("no_").replace("_", " ") for r in removed}
             | {"none": "the full table"}, "chart_title": "Value of each power-up"}, SEED),
        ReportSection(
            "matchups", "Faction against faction", "The two-player game: both players on the same policy "
            f"({DEFAULT_POLICY}, the default), so the teams are compared, not the ways of playing them; each pairing "
            "is played in both seats.", neutral(load_config(TWO_PLAYERS)), games_for("matchups", scale),
            {"team": {"Player 1": list(FACTIONS), "Player 2": list(FACTIONS)}}, ("matchups",),
            {"axes": ("team.Player 1", "team.Player 2"), "order": FACTIONS, "names": names}, SEED),
        ReportSection(
            "sensitivity", "Sensitivity of the chosen numbers", "The rules lost some numbers; Shamble "
            "chose them ([C] in zombie40k §12-§13). Each is played at a low and a high plausible value in the "
            "four-player example; a mod's numbers are played with that mod on, the terrain's own numbers on a "
            "table with terrain (terrain_density 0.25).", base,
            games_for("sensitivity", scale), {}, ("sensitivity",),
            {"enable": {"mods": tuple(mods), "terrain_density": (0.25,)},
             "titles": {m: mod_title(m) for m in mods}}, SEED),
    ]
