"""The learning curve: the score against the UCT baseline over training minutes, as a
chart drawn by matplotlib (axes labelled with their numbers, the target line labelled)
and as CSV beside it."""

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # noqa: E402


def save(points, path, target=0.70, playouts=1000):
    """`points`: (minutes, score) pairs, in order; `playouts`: the baseline's a move."""
    with open(path.rsplit(".", 1)[0] + ".csv", "w") as f:
        f.write("minutes,score\n")
        for m, s in points:
            f.write(f"{m:.2f},{s:.3f}\n")
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot([m for m, _ in points], [s for _, s in points], "o-", label="AlphaZero example")
    ax.axhline(target, color="red", linestyle="--", label=f"target {target:.2f}")
    ax.set_xlabel("training time (minutes)")
    ax.set_ylabel(f"score against UCT, {playouts:,} playouts a move")
    ax.set_ylim(0, 1)
    ax.set_xlim(left=0)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

