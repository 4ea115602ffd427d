"""Charts of sweep results (matplotlib): each function takes a tidy table and returns a Figure;
``save`` writes it as PNG (Agg) and SVG. Figures are built without pyplot: no global state and
no display needed, and a notebook shows them inline.

- ``rate_vs_value``: win rate per player against a numeric axis (points budget) with 95%
  Wilson bands;
- ``forest``: paired differences with 95% intervals (mods vs the base game, power-up ablation,
  sensitivity), ticks in points, rows flagged by Holm drawn filled;
- ``game_length``: distribution of game length (turns) per cell;
- ``win_curves``: cumulative share of games won by the end of turn t, per cell;
- ``heatmap``: side x side win rates (a matchup matrix), each with its 95% half-width;
- ``search_path``: each side's win rate over the candidates of a rebalance, with the band of
  the mean ± the margin.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib
import matplotlib.ticker
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

WIDTH, HEIGHT, DPI = 7.0, 3.6, 110


def _figure(height: float = HEIGHT) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(WIDTH, height), dpi=DPI, layout="constrained")
    return fig, fig.add_subplot()


def _percent(ax: Axes, axis: str = "y") -> None:
    formatter = matplotlib.ticker.PercentFormatter(1.0, decimals=0)
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(formatter)


def _points(ax: Axes) -> None:
    """x ticks of a difference of rates in points (+5, 0, -10), as the axis label says."""
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v * 100:+.0f}" if round(v * 100)
                                                                 else "0"))


def _whole(axis) -> None:
    """Ticks on whole numbers only (turns, players): no 2.5 turns."""
    axis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))


def rate_vs_value(summary: pd.DataFrame, value: str, title: str, xlabel: str, ylabel: str = "win rate") -> Figure:
    """Win rate per player against a numeric column ``value`` of a sweep summary, with bands."""
    fig, ax = _figure()
    for name, rows in summary.groupby("name", sort=False):
        rows = rows.sort_values(value)
        x = rows[value].astype(float)
        (line,) = ax.plot(x, rows.rate, marker="o", label=name)
        ax.fill_between(x, rows.ci_low, rows.ci_high, color=line.get_color(), alpha=0.2, linewidth=0)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel, ylim=(0, 1))
    _percent(ax)
    if len(summary) and np.allclose(summary[value].astype(float) % 1, 0):
        _whole(ax.xaxis)
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    return fig


def forest(table: pd.DataFrame, title: str, xlabel: str) -> Figure:
    """Paired differences (``diff``, ``ci_low``, ``ci_high``) per row ``label`` and player ``name``;
    a filled marker is a difference flagged after Holm's correction."""
    names = list(pd.unique(table.name))
    labels = list(pd.unique(table.label))
    fig, ax = _figure(max(2.2, 0.32 * len(labels) * max(1, len(names)) + 1.0))
    offsets = np.linspace(-0.25, 0.25, len(names)) if len(names) > 1 else [0.0]
    for k, (offset, name) in enumerate(zip(offsets, names)):
        rows = table[table.name == name].set_index("label").reindex(labels)
        y = np.arange(len(labels)) + offset
        err = np.vstack([rows["diff"] - rows.ci_low, rows.ci_high - rows["diff"]])
        color = f"C{k}"
        ax.errorbar(rows["diff"], y, xerr=err, fmt="none", capsize=2, color=color, label=name)
        flagged = rows.get("flagged", pd.Series(False, index=rows.index)).fillna(False).astype(bool).to_numpy()
        ax.scatter(rows["diff"], y, facecolors=np.where(flagged, color, "white"), edgecolors=color, zorder=3)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set(title=title, xlabel=xlabel)
    _points(ax)
    if names:
        ax.legend(frameon=False, fontsize="small")
    else:
        ax.text(0.5, 0.5, "no comparison to draw", transform=ax.transAxes, ha="center", color="grey")
    ax.grid(alpha=0.3, axis="x")
    return fig


def game_length(games: pd.DataFrame, title: str) -> Figure:
    """Distribution of game length (``turns``) per ``label`` (one step histogram each)."""
    fig, ax = _figure()
    top = int(games.turns.max()) if len(games) else 1
    bins = np.arange(0.5, top + 1.5)
    for label, rows in games.groupby("label", sort=False):
        ax.hist(rows.turns, bins=bins, histtype="step", density=True, linewidth=1.5, label=str(label))
    ax.set(title=title, xlabel="game length (turns)", ylabel="share of games")
    _percent(ax)
    _whole(ax.xaxis)
    ax.legend(frameon=False, fontsize="small")
    return fig


def win_curves(curves: pd.DataFrame, title: str, ylabel: str = "games won so far") -> Figure:
    """Cumulative share of games won by turn t (``label``, ``turn``, ``share``), or another share
    per turn named by ``ylabel``."""
    fig, ax = _figure()
    for label, rows in curves.groupby("label", sort=False):
        ax.step(rows.turn, rows.share, where="post", label=str(label))
    ax.set(title=title, xlabel="game turn", ylabel=ylabel, ylim=(0, 1))
    _percent(ax)
    _whole(ax.xaxis)
    ax.legend(frameon=False, fontsize="small")
    ax.grid(alpha=0.3)
    return fig


def heatmap(matrix: pd.DataFrame, title: str, xlabel: str, ylabel: str,
            halfwidth: pd.DataFrame | None = None) -> Figure:
    """A rate matrix (rows x columns) with the rate written in each square, and under it its 95%
    half-width in points when ``halfwidth`` (same shape) is given."""
    fig, ax = _figure(1.2 + (0.7 if halfwidth is not None else 0.55) * len(matrix))
    image = ax.imshow(matrix.to_numpy(float), cmap="viridis", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(matrix.shape[1]), matrix.columns)
    ax.set_yticks(range(matrix.shape[0]), matrix.index)
    widths = None if halfwidth is None else halfwidth.reindex_like(matrix).to_numpy(float)
    for (i, j), rate in np.ndenumerate(matrix.to_numpy(float)):
        text = f"{rate:.0%}" if widths is None or np.isnan(widths[i, j]) else f"{rate:.0%}\n±{widths[i, j] * 100:.0f}"
        ax.text(j, i, text, ha="center", va="center", color="white" if rate < 0.6 else "black",
                fontsize="small" if widths is not None else None)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    fig.colorbar(image, ax=ax, format=matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    return fig


def search_path(sides: pd.DataFrame, title: str, margin: float, ylabel: str = "win rate") -> Figure:
    """Each ``side``'s ``rate`` per ``candidate`` (a rebalance's search), the ``mean`` of each
    candidate dashed with its ± ``margin`` band; a marker where a side is within the margin."""
    fig, ax = _figure(HEIGHT + 1.2)
    means = sides.groupby("candidate", sort=True)["mean"].first()
    ax.fill_between(means.index, means - margin, means + margin, color="grey", alpha=0.15, linewidth=0,
                    label=f"mean ± {margin * 100:g} points")
    ax.plot(means.index, means, color="black", linestyle="--", linewidth=1, label="mean")
    for k, (side, rows) in enumerate(sides.groupby("side", sort=False)):
        rows = rows.sort_values("candidate")
        color = f"C{k % 10}"
        linestyle = "-" if k < 10 else ":"
        ax.plot(rows.candidate, rows.rate, color=color, linestyle=linestyle, linewidth=1.2, label=str(side))
        inside = rows[rows.equivalent.astype(bool)]
        ax.scatter(inside.candidate, inside.rate, color=color, s=12, zorder=3)
    ax.set(title=title, xlabel="candidate of the search", ylabel=ylabel)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    _percent(ax)
    ax.legend(frameon=False, fontsize="x-small", ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(alpha=0.3)
    return fig


def save(fig: Figure, stem: Path, png_data: bytes | None = None, svg_data: bytes | None = None) -> tuple[Path, Path]:
    """Write ``stem``.png and ``stem``.svg (without timestamps); ``png_data``, ``svg_data``: the
    figure's `png_bytes` and `svg_bytes` when the caller has them already (not drawn twice)."""
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    png.write_bytes(png_bytes(fig) if png_data is None else png_data)
    svg.write_bytes(svg_bytes(fig) if svg_data is None else svg_data)
    return png, svg


SVG_SALT = "shamble"  # matplotlib's salt for the ids it gives an SVG's clip paths and glyphs


def svg_bytes(fig: Figure) -> bytes:
    """The figure as SVG bytes, without timestamps, its ids salted with `SVG_SALT`: without a salt
    matplotlib salts every id with a random UUID, so a report's SVGs changed at every run while
    their drawing did not (a rerun's files compare byte for byte with the first's)."""
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT}):
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return buffer.getvalue()


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG bytes (for embedding in a page)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
