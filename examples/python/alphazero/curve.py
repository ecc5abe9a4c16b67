"""The learning curve as a PNG: the score against the UCT baseline over training
minutes. With matplotlib, a labelled chart; without it, a bare one drawn here (axes, a
grid line at each 0.1 of score, the target 0.70 in red, the curve in blue) so that the
example needs nothing but numpy. The points are also written beside it as CSV."""

import struct
import zlib


def save(points, path, target=0.70):
    """`points`: (minutes, score) pairs, in order."""
    with open(path.rsplit(".", 1)[0] + ".csv", "w") as f:
        f.write("minutes,score\n")
        for m, s in points:
            f.write(f"{m:.2f},{s:.3f}\n")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        bare(points, path, target)
        return
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot([m for m, _ in points], [s for _, s in points], "o-", label="AlphaZero example")
    ax.axhline(target, color="red", linestyle="--", label=f"target {target:.2f}")
    ax.set_xlabel("training time (minutes)")
    ax.set_ylabel("score against UCT, 1,000 playouts a move")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def bare(points, path, target, width=640, height=400, margin=40):
    px = [[(255, 255, 255)] * width for _ in range(height)]

    def dot(x, y, colour):
        if 0 <= x < width and 0 <= y < height:
            px[y][x] = colour

    def line(x0, y0, x1, y1, colour):
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for k in range(steps + 1):
            dot(round(x0 + (x1 - x0) * k / steps), round(y0 + (y1 - y0) * k / steps), colour)

    span = max((m for m, _ in points), default=1.0) or 1.0
    to_xy = lambda m, s: (margin + round(m / span * (width - 2 * margin)),
                          height - margin - round(s * (height - 2 * margin)))
    for k in range(11):
        _, y = to_xy(0, k / 10)
        line(margin, y, width - margin, y, (225, 225, 225))
    line(margin, height - margin, width - margin, height - margin, (0, 0, 0))
    line(margin, margin, margin, height - margin, (0, 0, 0))
    _, y = to_xy(0, target)
    line(margin, y, width - margin, y, (220, 0, 0))
    xy = [to_xy(m, s) for m, s in points]
    for a, b in zip(xy, xy[1:]):
        line(*a, *b, (0, 0, 200))
    for x, y in xy:
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                dot(x + dx, y + dy, (0, 0, 200))
    raw = b"".join(b"\0" + bytes(c for p in row for c in p) for row in px)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))
