#!/usr/bin/env python3
"""Draws docs/mcts_winrate.png: MCTS's win rate at Hex 7x7 by playouts a move, against
alpha-beta with a zero evaluation (depth 3) and against MCTS at 1,000 playouts a move,
from the Rust example's seeded matches
(`cargo run --release --example hex -- --curve --games N --playouts 1000`). Needs
matplotlib.

Usage: scripts/mcts_plot.py [--games N] [--csv FILE]
  --games N   games at each count of playouts (default 20)
  --csv FILE  read the counts from FILE (the example's output) instead of running it
"""
import argparse
import csv
import io
import pathlib
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--csv")
    args = ap.parse_args()
    if args.csv:
        text = pathlib.Path(args.csv).read_text()
    else:
        cmd = ["cargo", "run", "--release", "--quiet", "--example", "hex", "--",
               "--curve", "--games", str(args.games), "--playouts", "1000"]
        text = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    games = int(rows[0]["games"])
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    rivals = list(dict.fromkeys(r["rival"] for r in rows))
    for rival in rivals:
        mine = [r for r in rows if r["rival"] == rival]
        playouts = [int(r["playouts"]) for r in mine]
        rate = [100.0 * int(r["won"]) / int(r["games"]) for r in mine]
        ax.plot(playouts, rate, marker="o", label=f"against {rival}")
        for p, r in zip(playouts, rate):
            print(f"against {rival}: {p:>6} playouts, {r:5.1f}% won")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_xscale("log")
    ax.set_ylim(0, 100)
    ax.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel("MCTS playouts a move")
    ax.set_ylabel("games won by MCTS (%)")
    ax.set_title(f"Hex 7x7: MCTS by playouts a move ({games} seeded games a point, colours alternating)",
                 fontsize=9)
    ax.grid(True, which="both", linewidth=0.3)
    fig.tight_layout()
    out = ROOT / "docs" / "mcts_winrate.png"
    fig.savefig(out)
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
