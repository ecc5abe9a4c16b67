"""The network, on JAX with flax and optax: a multilayer perceptron from a position's 84
floats (libminimax's Connect Four observation) to 7 move logits and a value in [-1, 1];
AlphaZero's loss (policy cross-entropy, value squared error, L2) minimised by optax's
Adam. Saved as flax's msgpack (to train on) and exported to ONNX by jax2onnx (to play
with: libminimax.OnnxEvaluator, mm_onnx from C, OnnxEvaluator from Rust)."""

import os

# One thread a process: self-play runs a process a core beside the trainer.
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import serialization


class Mlp(nn.Module):
    """Observations [batch, 84] -> (values [batch], logits [batch, actions])."""

    hidden: tuple
    actions: int = 7

    @nn.compact
    def __call__(self, x):
        # He's initialisation, as the numpy network this one replaces had (flax's default,
        # LeCun's, starts ReLU layers at half the variance).
        init = nn.initializers.he_normal()
        for width in self.hidden:
            x = nn.relu(nn.Dense(width, kernel_init=init)(x))
        out = nn.Dense(self.actions + 1, kernel_init=init)(x)
        return jnp.tanh(out[:, -1]), out[:, :-1]


_FORWARD = {}  # sizes -> the jitted forward pass, shared by every Net of those sizes


class Net:
    """The module, its parameters and Adam's state; called, an evaluator for
    libminimax.BatchedMcts (numpy in, numpy out)."""

    def __init__(self, sizes=(84, 128, 128, 8), seed=0):
        self.sizes = tuple(sizes)
        self.module = Mlp(hidden=self.sizes[1:-1], actions=self.sizes[-1] - 1)
        self.params = self.module.init(jax.random.PRNGKey(seed), jnp.zeros((1, self.sizes[0])))
        self._compile()

    def _compile(self):
        # Compiled once a process for each shape (a self-play process gets a new Net
        # each round).
        if self.sizes not in _FORWARD:
            _FORWARD[self.sizes] = jax.jit(self.module.apply)
        self.forward = _FORWARD[self.sizes]
        # Adam with its rate set each step (the trainer lowers it over the run).
        self.optimizer = optax.inject_hyperparams(optax.adam)(learning_rate=1e-3)
        self.opt_state = self.optimizer.init(self.params)
        self._step = jax.jit(self._train_step)

    def __call__(self, x):
        """Observations [batch, 84] -> (values [batch], logits [batch, 7]), numpy. The
        batch is padded to a power of two, so that few shapes are compiled."""
        n = len(x)
        size = 1 << max(0, n - 1).bit_length()
        if size != n:
            x = np.concatenate([x, np.zeros((size - n, x.shape[1]), np.float32)])
        v, logits = self.forward(self.params, x)
        return np.asarray(v)[:n], np.asarray(logits)[:n]

    def loss(self, params, x, pi, z, l2=1e-4):
        """AlphaZero's loss on a batch (observations, policy targets, value targets):
        (total, (policy part, value part))."""
        v, logits = self.module.apply(params, x)
        policy = optax.softmax_cross_entropy(logits, pi).mean()
        value = jnp.mean((v - z) ** 2)
        # On the weight matrices, not the biases.
        decay = sum(jnp.sum(w**2) for w in jax.tree_util.tree_leaves(params) if w.ndim == 2)
        return policy + value + 0.5 * l2 * decay, (policy, value)

    def _train_step(self, params, opt_state, x, pi, z, lr):
        opt_state.hyperparams["learning_rate"] = lr
        grads, parts = jax.grad(self.loss, has_aux=True)(params, x, pi, z)
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, parts

    def step(self, x, pi, z, lr=1e-3):
        """One Adam step on a batch; returns (policy loss, value loss)."""
        self.params, self.opt_state, (pl, vl) = self._step(self.params, self.opt_state, x, pi, z, lr)
        return float(pl), float(vl)

    # Sent to self-play processes: the sizes and the parameters as numpy.
    def __getstate__(self):
        return {"sizes": self.sizes, "params": jax.device_get(self.params)}

    def __setstate__(self, state):
        self.__init__(state["sizes"])
        self.params = jax.tree_util.tree_map(jnp.asarray, state["params"])

    def save(self, path):
        """The sizes and parameters (flax's msgpack), to train on from there."""
        with open(path, "wb") as f:
            f.write(serialization.msgpack_serialize({"sizes": np.array(self.sizes),
                                                     "params": jax.device_get(self.params)}))

    @staticmethod
    def load(path):
        with open(path, "rb") as f:
            state = serialization.msgpack_restore(f.read())
        net = Net(tuple(int(s) for s in state["sizes"]))
        net.params = serialization.from_state_dict(net.params, state["params"])
        return net

    def export_onnx(self, path):
        """The network as ONNX by jax2onnx: input `observations` [B, 84] (B dynamic),
        outputs `value` [B] and `logits` [B, 7], the contract libminimax checks."""
        import jax2onnx

        params = self.params
        jax2onnx.to_onnx(
            lambda x: self.module.apply(params, x),
            inputs=[("B", self.sizes[0])],
            input_names=["observations"],
            output_names=["value", "logits"],
            model_name="connect_four",
            return_mode="file",
            output_path=path,
        )
