"""The network: a multilayer perceptron in numpy (no framework needed), from a position's
84 floats (libminimax's Connect Four observation) to 7 move logits and a value in
[-1, 1]; its loss (AlphaZero's: policy cross-entropy, value squared error, L2), its
gradients by hand, and Adam. Saved and loaded as a .npz file."""

import numpy as np


class Net:
    def __init__(self, sizes=(84, 128, 128, 8), seed=0):
        rng = np.random.default_rng(seed)
        self.w = [rng.normal(0, np.sqrt(2.0 / a), (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
        self.b = [np.zeros(b, np.float32) for b in sizes[1:]]
        self.adam = None

    def forward(self, x):
        """Observations [batch, 84] -> (values [batch], logits [batch, 7])."""
        for w, b in zip(self.w[:-1], self.b[:-1]):
            x = np.maximum(x @ w + b, 0.0)
        out = x @ self.w[-1] + self.b[-1]
        return np.tanh(out[:, -1]), out[:, :-1]

    __call__ = forward  # an evaluator for libminimax.BatchedMcts

    def loss_and_gradients(self, x, pi, z, l2=1e-4):
        """AlphaZero's loss on a batch (observations, policy targets, value targets)."""
        acts = [x]
        for w, b in zip(self.w[:-1], self.b[:-1]):
            acts.append(np.maximum(acts[-1] @ w + b, 0.0))
        out = acts[-1] @ self.w[-1] + self.b[-1]
        logits, v = out[:, :-1], np.tanh(out[:, -1])
        logits = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        n = len(x)
        policy_loss = -(pi * np.log(p + 1e-9)).sum() / n
        value_loss = ((v - z) ** 2).sum() / n
        d_out = np.empty_like(out)
        d_out[:, :-1] = (p - pi) / n
        d_out[:, -1] = 2.0 * (v - z) * (1.0 - v * v) / n
        gw, gb = [None] * len(self.w), [None] * len(self.b)
        d = d_out
        for i in range(len(self.w) - 1, -1, -1):
            gw[i] = acts[i].T @ d + l2 * self.w[i]
            gb[i] = d.sum(axis=0)
            if i > 0:
                d = (d @ self.w[i].T) * (acts[i] > 0)
        return policy_loss, value_loss, gw, gb

    def step(self, gw, gb, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
        """One Adam step."""
        params = self.w + self.b
        grads = gw + gb
        if self.adam is None:
            self.adam = [0, [np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params]]
        self.adam[0] += 1
        t, m, s = self.adam
        for i, (p, g) in enumerate(zip(params, grads)):
            m[i] = b1 * m[i] + (1 - b1) * g
            s[i] = b2 * s[i] + (1 - b2) * g * g
            p -= (lr * (m[i] / (1 - b1**t)) / (np.sqrt(s[i] / (1 - b2**t)) + eps)).astype(np.float32)

    def save(self, path):
        np.savez(path, *self.w, *self.b)

    @staticmethod
    def load(path):
        data = np.load(path)
        arrays = [data[f"arr_{i}"] for i in range(len(data.files))]
        net = Net.__new__(Net)
        half = len(arrays) // 2
        net.w, net.b, net.adam = arrays[:half], arrays[half:], None
        return net
