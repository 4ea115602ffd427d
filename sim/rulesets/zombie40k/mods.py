"""The mods of Zombie 40,000 (zombie40k §10): each is data plus a ``GameConfig -> GameConfig``
transformation, or a kernel flag set at the compile edge (design.md decision 2).

``resolve(config)`` applies the selected mods in the order of ``MODS`` and returns a config with
no mods left to apply; ``kernel_flags(config)`` gives the kernel switches (kernels.zombie40k.columns
P_*) of the selected mods. Nothing below the compile edge knows a mod's name.

Mods that change a team transform it instead of rejecting it, so any sample configuration plays
under any mod: Hardcore plays teams without their USR; Killing Floor strips leader upgrades and
weapon swaps, refits each team to ``kf_budget`` points and replaces its wargear. Lore Friendly is
validation only: a team that breaks it is an error.

Combinations that contradict themselves are rejected (``CONTRADICTIONS``): T-Virus, Death Korps
and Four Weeks Later each set the zombies' Toughness or Feel No Pain their own way; Hardcore (one
respawn) and Instant Death (none) disagree on respawns; Every Man For Himself is rivalry between
squads, which Coop Mode removes.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from importlib import resources
from itertools import combinations

from kernels.zombie40k import columns as GL
from sim.rulesets.zombie40k.catalogue import killing_floor
from sim.rulesets.zombie40k.config import MODS, ConfigError, GameConfig, PlayerConfig
from sim.rulesets.zombie40k.teams import ModelChoice, Team, fit_team
from sim.w40k.catalogue import Catalogue


@dataclass(frozen=True)
class Mod:
    """One optional variant: what it does, the parameters it reads, and how it applies."""

    key: str
    title: str
    section: str
    summary: str
    params: tuple[str, ...] = ()
    transform: Callable[[GameConfig], GameConfig] | None = None
    flags: tuple[tuple[int, float], ...] = ()


# ---------------------------------------------------------------------------- transformations


def _hardcore(c: GameConfig) -> GameConfig:
    players = tuple(replace(p, team=replace(p.team, usr="")) for p in c.players)
    return replace(c, players=players, max_respawns=1, powerups_enabled=False, usr_allowed=False)


def _instant_death(c: GameConfig) -> GameConfig:
    return replace(c, max_respawns=0)


def _t_virus(c: GameConfig) -> GameConfig:
    c = replace(c, zombie_t=c.tvirus_t, zombie_fnp=c.tvirus_fnp)
    return replace(c, boss_t=c.tvirus_t, boss_fnp=c.tvirus_fnp) if c.tvirus_boss else c


def _four_weeks_later(c: GameConfig) -> GameConfig:
    rules = tuple(dict.fromkeys(c.zombie_rules + ("furious_charge", "rage")))
    return replace(c, zombie_fnp=7, zombie_rules=rules, shamble_dice=c.fwl_shamble_dice)


def _boss_variant(c: GameConfig) -> GameConfig:
    return replace(c, boss_unit=c.boss_variant_unit)


def _killing_floor(c: GameConfig) -> GameConfig:
    players = tuple(replace(p, team=kf_team(p.team, c.kf_budget)) for p in c.players)
    return replace(c, players=players, team_budget=c.kf_budget, squad_wargear=c.kf_starting_wargear,
                   shop=c.kf_wishlist)


def kf_team(team: Team, budget: int) -> Team:
    """zombie40k §10.11: no weapons or upgrades bought; the team refitted to the KF budget."""
    plain = tuple(ModelChoice(m.unit) for m in team.models)
    return fit_team(replace(team, models=plain), budget)


MOD_LIST = (
    Mod("coop", "Coop Mode", "§10.1",
        "All players against the zombies: no shooting or charging rivals, no catch-up; result 6 deep strikes in front "
        "of the squad closest to the EV; no respawn when wiped within coop_no_respawn_radius_in of the EV; hordes "
        "arrive on the EV edge once a squad is within 18\"; nobody boards while the Boss lives; embarked squads fire "
        "from the EV. The players win when every squad still able to play is embarked (A11).",
        ("coop_no_respawn_radius_in",),
        flags=((GL.P_COOP, 1), (GL.P_PVP, 0), (GL.P_BOSS_BLOCKS_EV, 1), (GL.P_EV_EDGE_ARRIVALS, 1))),
    Mod("four_weeks_later", "Four Weeks Later", "§10.2",
        "Fast zombies: no Feel No Pain, Furious Charge and Rage, shamble 3D6 keeping the two highest.",
        ("fwl_shamble_dice",), _four_weeks_later),
    Mod("dead_men_walking", "Dead Men Walking", "§10.3",
        "A survivor slain in close combat by a horde joins it with its profile, wargear and rules and Feel No Pain "
        "(dmw_fnp); it does not come back when the horde respawns (A36).", ("dmw_fnp",), flags=((GL.P_DMW, 1),)),
    Mod("death_korps", "Death Korps Zombies", "§10.4",
        "Zombies start at dk_start_t with FNP dk_start_fnp+; each respawn of a horde adds +1 T and improves FNP by 1, "
        "up to dk_max_t and dk_max_fnp+ (per horde, or every horde with dk_scope = global; A37).",
        ("dk_start_t", "dk_start_fnp", "dk_max_t", "dk_max_fnp", "dk_scope"), flags=((GL.P_DK, 1),)),
    Mod("every_man_for_himself", "Every Man For Himself", "§10.5",
        "A squad starting its turn within emfh_radius_in of another squad loses its actions on a D6 of emfh_fail_on+ "
        "(it still fights and fires Overwatch; A38).", ("emfh_radius_in", "emfh_fail_on", "emfh_scope"),
        flags=((GL.P_EMFH, 1),)),
    Mod("hardcore", "Hardcore Mode", "§10.6",
        "No USR (teams play without theirs), no power-ups, each squad respawns only once.", (), _hardcore),
    Mod("instant_death", "Instant Death", "§10.7",
        "No respawns at all; if every squad is dead nobody wins (A11).", (), _instant_death),
    Mod("lore_friendly", "Lore Friendly", "§10.8",
        "Team check only: factions pairwise Battle Brothers or Allies of Convenience "
        "(sim/data/zombie40k/mods/allies.toml) and no model with the Mark of Nurgle.", ()),
    Mod("t_virus", "T-Virus", "§10.9",
        "Horde zombies are T tvirus_t with Feel No Pain tvirus_fnp+ (the Boss too with tvirus_boss).",
        ("tvirus_t", "tvirus_fnp", "tvirus_boss"), _t_virus),
    Mod("boss_variant", "Zombie Boss Alternatives", "§10.10",
        "The Boss is boss_variant_unit: the Patriarch by default, or a unit of your own added with catalogue_files. "
        "Each model fires the weapon with the most expected unsaved wounds (A39).",
        ("boss_variant_unit", "catalogue_files"), _boss_variant),
    Mod("killing_floor", "Killing Floor", "§10.11",
        "Teams refitted to kf_budget points with no upgrades; every model carries kf_starting_wargear; each zombie "
        "killed earns kf_points_per_kill; squads buy from the price list (kf_prices overrides) following kf_wishlist "
        "and sell back at half price rounded up (A41, docs/mods.md).",
        ("kf_budget", "kf_points_per_kill", "kf_starting_wargear", "kf_wishlist", "kf_prices"), _killing_floor,
        flags=((GL.P_KF, 1),)),
)
MOD_BY_KEY = {m.key: m for m in MOD_LIST}
assert tuple(MOD_BY_KEY) == MODS

CONTRADICTIONS = {
    frozenset({"t_virus", "death_korps"}): "both set the zombies' Toughness and Feel No Pain",
    frozenset({"t_virus", "four_weeks_later"}): "T-Virus gives zombies Feel No Pain, Four Weeks Later takes it away",
    frozenset({"death_korps", "four_weeks_later"}): "Death Korps gives zombies Feel No Pain, Four Weeks Later takes "
                                                    "it away",
    frozenset({"hardcore", "instant_death"}): "Hardcore allows one respawn per squad, Instant Death none",
    frozenset({"coop", "every_man_for_himself"}): "Every Man For Himself is rivalry between squads, which Coop removes",
}


def contradiction(mods) -> str | None:
    """Why a set of mods contradicts itself, or None."""
    for a, b in combinations(sorted(mods), 2):
        why = CONTRADICTIONS.get(frozenset({a, b}))
        if why:
            return f"mods {a} and {b} cannot be combined: {why}"
    return None


def resolve(config: GameConfig) -> GameConfig:
    """The config with every selected mod's transformation applied, in the order of MODS."""
    why = contradiction(config.mods)
    if why:
        raise ConfigError(why)
    for mod in MOD_LIST:
        if mod.key in config.mods and mod.transform is not None:
            config = mod.transform(config)
    return config


def kernel_flags(config: GameConfig) -> dict[int, float]:
    """Kernel parameters (P_*) the selected mods switch."""
    out: dict[int, float] = {}
    for mod in MOD_LIST:
        if mod.key in config.mods:
            out.update(mod.flags)
    return out


# ---------------------------------------------------------------------------- Lore Friendly


def allies_matrix() -> dict[frozenset, str]:
    text = resources.files("sim").joinpath("data/zombie40k/mods/allies.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    out = {}
    for level in ("battle_brothers", "allies_of_convenience", "come_the_apocalypse"):
        for a, b in data.get(level, []):
            out[frozenset({a, b})] = level
    return out


ACCEPTED = ("battle_brothers", "allies_of_convenience")


def lore_friendly_problems(player: PlayerConfig, cat: Catalogue) -> list[str]:
    """zombie40k §10.8: why this team is not Lore Friendly (empty: it is)."""
    units = [cat.unit(m.unit) for m in player.team.models]
    problems = [f"{u.name} has the Mark of Nurgle" for u in dict.fromkeys(units) if "mark_of_nurgle" in u.profile.rules]
    matrix = allies_matrix()
    for a, b in combinations(sorted({u.faction for u in units}), 2):
        level = matrix.get(frozenset({a, b}), "desperate_allies")
        if level not in ACCEPTED:
            problems.append(f"{a} and {b} are {level.replace('_', ' ')}")
    return problems


def check_lore_friendly(config: GameConfig, cat: Catalogue) -> None:
    if "lore_friendly" not in config.mods:
        return
    for player in config.players:
        problems = lore_friendly_problems(player, cat)
        if problems:
            raise ConfigError(f"players {player.name!r}: not Lore Friendly (zombie40k §10.8): {problems[0]}")


# ---------------------------------------------------------------------------- Killing Floor prices


KF_SLOTS = {"pistols": GL.G_RANGED1, "basic": GL.G_RANGED2, "heavy": GL.G_RANGED2, "melee": GL.G_MELEE1,
            "grenades": GL.G_GRENADE}


def kf_prices(config: GameConfig, cat: Catalogue) -> dict[str, tuple[str, Fraction, bool]]:
    """item -> (price-list table, cost, psykers only), with the config's overrides."""
    prices = {k.item.lower(): (k.item, k.table, k.cost, k.psyker_only) for k in killing_floor(cat)}
    out = {item: (table, cost, psy) for item, table, cost, psy in prices.values()}
    for item, cost in config.kf_prices:
        if item.lower() not in prices:
            raise ConfigError(f"kf_prices: {item!r} is not on the Killing Floor list; allowed: {', '.join(out)}")
        name, table, _, psy = prices[item.lower()]
        out[name] = (table, Fraction(cost), psy)
    return out
