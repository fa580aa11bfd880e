"""Train the wait reader in NumPy (no PyTorch): a one-hidden-layer perceptron with Adam.

Two steps, each seeded; the shipped ``weights.npz`` was made by::

    python -m erren.bots.waitreader.dataset --hands 30000 --seed 1 --out wr_train.npz
    python -m erren.bots.waitreader.train --data wr_train.npz \\
        --out src/erren/bots/waitreader/weights.npz --seed 1

Each row is one (position, playing kind) pair that is not certainly safe
(:func:`~erren.bots.waitreader.features.encode`); its target is whether the kind is a winning
tile of the opponent (:mod:`erren.bots.waitreader.dataset`).  The loss is the mean binary
cross-entropy (a proper scoring rule: the outputs are calibrated chances, no reweighting).  The
inputs are standardised with the training rows' mean and spread (stored with the weights).  The
last ``--holdout`` share of the hands is held out to report the log-loss after each epoch.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from erren.bots.waitreader.features import NUM_FEATURES

__all__ = ["HIDDEN", "Rows", "fit", "main", "rows"]

HIDDEN = 48
"""Width of the hidden layer."""

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Rows:
    """Training rows: features ``(n, NUM_FEATURES)``, targets ``(n,)`` and each row's hand."""

    x: npt.NDArray[np.float32]
    y: npt.NDArray[np.float32]
    hand: npt.NDArray[np.int32]


def rows(*paths: str) -> Rows:
    """The rows of data sets (the kinds not certainly safe), concatenated."""
    xs, ys, hs = [], [], []
    for path in paths:
        with np.load(path) as d:
            live = ~d["never"]
            xs.append(d["x"][live].astype(np.float32))
            ys.append(d["wins"][live].astype(np.float32))
            hs.append(np.broadcast_to(d["hand"][:, None], live.shape)[live])
    return Rows(np.concatenate(xs), np.concatenate(ys), np.concatenate(hs).astype(np.int32))


def _log_loss(p: F64, y: npt.NDArray[np.float32]) -> float:
    p = np.clip(p, 1e-7, 1 - 1e-7)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _forward(params: dict[str, F64], x: F64) -> tuple[F64, F64]:
    h = np.maximum(x @ params["w1"] + params["b1"], 0.0)
    z = h @ params["w2"] + params["b2"]
    return h, z


def _predict(params: dict[str, F64], x: F64) -> F64:
    out: F64 = 1.0 / (1.0 + np.exp(-_forward(params, x)[1]))
    return out


def fit(
    data: Rows,
    *,
    seed: int,
    epochs: int = 6,
    batch: int = 2048,
    lr: float = 3e-3,
    hidden: int = HIDDEN,
    holdout: float = 0.1,
    log: bool = True,
) -> dict[str, npt.NDArray[np.float32]]:
    """The weights (float32 arrays ``w1 b1 w2 b2 mean scale``), trained from ``seed``."""
    rng = np.random.default_rng(seed)
    cut = np.quantile(data.hand, 1 - holdout) if holdout > 0 else np.inf
    train = data.hand < cut
    train_rows = np.flatnonzero(train)
    held_rows = np.flatnonzero(~train)
    some = data.x[train_rows[:: max(1, len(train_rows) // 500_000)]].astype(np.float64)
    mean = some.mean(0)
    scale = some.std(0)
    scale[scale < 1e-6] = 1.0
    x = (data.x - mean.astype(np.float32)) / scale.astype(np.float32)
    y = data.y
    yt = y[train_rows]
    params: dict[str, F64] = {
        "w1": rng.normal(0.0, np.sqrt(2.0 / NUM_FEATURES), (NUM_FEATURES, hidden)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0.0, np.sqrt(1.0 / hidden), hidden),
        "b2": np.array(np.log(yt.mean() / (1 - yt.mean()))),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    step = 0
    for epoch in range(epochs):
        start = time.perf_counter()
        rate = lr * (0.5 ** max(0, epoch - epochs // 2))
        order = train_rows[rng.permutation(len(train_rows))]
        for i in range(0, len(order), batch):
            idx = order[i : i + batch]
            xb, yb = x[idx], y[idx]
            h, z = _forward(params, xb)
            dz = (1.0 / (1.0 + np.exp(-z)) - yb) / len(idx)
            dh = np.outer(dz, params["w2"]) * (h > 0)
            grads = {"w1": xb.T @ dh, "b1": dh.sum(0), "w2": h.T @ dz, "b2": dz.sum()}
            step += 1
            for k, g in grads.items():
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                mh = m[k] / (1 - 0.9**step)
                vh = v[k] / (1 - 0.999**step)
                params[k] = params[k] - rate * mh / (np.sqrt(vh) + 1e-8)
        if log:
            part = held_rows[:400_000]
            held = _log_loss(_predict(params, x[part]), y[part]) if len(part) else float("nan")
            part = train_rows[:400_000]
            seen = _log_loss(_predict(params, x[part]), y[part])
            print(
                f"epoch {epoch + 1}: train log-loss {seen:.5f} held-out {held:.5f} "
                f"({time.perf_counter() - start:.0f} s)"
            )
    out = {k: np.asarray(p, dtype=np.float32) for k, p in params.items()}
    out["mean"] = mean.astype(np.float32)
    out["scale"] = scale.astype(np.float32)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", nargs="+", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--hidden", type=int, default=HIDDEN)
    parser.add_argument("--holdout", type=float, default=0.1)
    args = parser.parse_args(argv)
    data = rows(*args.data)
    print(f"{len(data.y)} rows, {data.y.mean():.4f} positive")
    weights = fit(
        data, seed=args.seed, epochs=args.epochs, hidden=args.hidden, holdout=args.holdout
    )
    np.savez(args.out, **weights)  # type: ignore[arg-type]
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
