"""Train the ``learned`` policy: a small network that imitates 大师 (the expert) in guobiao-2p.

Training only: needs PyTorch (``pip install -e '.[train]'``, the CPU build ``torch==2.13.0``);
playing needs NumPy alone (:mod:`erren.bots.learned`).  Two steps, each seeded::

    # 1. the expert's decisions in self-play (NumPy only; docs/notes/learned-policy.md)
    python -m erren.bots.learned.dataset --hands 16000 --seed 1 --out train.npz
    python -m erren.bots.learned.dataset --hands 16000 --seed 3 --out train3.npz
    python -m erren.bots.learned.dataset --hands 1500 --seed 2 --out test.npz
    # 2. the network, written as float16 arrays into the package
    python -m erren.bots.learned.train --train train.npz train3.npz --test test.npz \
        --out src/erren/bots/learned/policy.npz --seed 1

The network (:data:`HIDDEN`) is a multi-layer perceptron over the flattened observation planes
(``(44, 34)`` bytes / 255: :func:`erren.bots.learned.dataset.quantize`) to the 269 action
logits, trained by cross-entropy on the logits of the legal moves only (the others are set to
−∞), with Adam.  It prints the top-1 agreement with the expert on the held-out decisions.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from erren.rl.actions import NUM_ACTIONS
from erren.rl.planes import NUM_PLANES
from erren.tiles import NUM_KINDS

HIDDEN = (512, 512)
"""The widths of the hidden layers."""
INPUTS = NUM_PLANES * NUM_KINDS


def build(inputs: int, hidden: Sequence[int] = HIDDEN) -> nn.Sequential:
    """The network: Linear+ReLU per hidden width, then a Linear to the action logits."""
    layers: list[nn.Module] = []
    width = inputs
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, NUM_ACTIONS))
    return nn.Sequential(*layers)


def load(*paths: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Inputs (bytes), legal masks (bool) and chosen indices of data sets, concatenated."""
    sets = [np.load(path) for path in paths]
    planes = np.concatenate([d["planes"].reshape(len(d["chosen"]), -1) for d in sets])
    masks = np.concatenate([d["masks"] for d in sets]).astype(bool)
    chosen = np.concatenate([d["chosen"] for d in sets]).astype(np.int64)
    return torch.from_numpy(planes), torch.from_numpy(masks), torch.from_numpy(chosen)


def masked_logits(net: nn.Module, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    logits = net(x.float() / 255.0)
    return logits.masked_fill(~mask, -1e9)


def agreement(net: nn.Module, data: tuple[torch.Tensor, torch.Tensor, torch.Tensor]) -> float:
    """The fraction of decisions where the network's best legal move is the expert's."""
    x, mask, y = data
    net.eval()
    hits = 0
    with torch.no_grad():
        for i in range(0, len(y), 4096):
            pred = masked_logits(net, x[i : i + 4096], mask[i : i + 4096]).argmax(1)
            hits += int((pred == y[i : i + 4096]).sum())
    net.train()
    return hits / len(y)


def train(
    train_paths: Sequence[str],
    test_path: str,
    *,
    seed: int,
    epochs: int,
    batch: int = 512,
    lr: float = 1e-3,
    hidden: Sequence[int] = HIDDEN,
) -> tuple[nn.Sequential, torch.Tensor, float]:
    """The trained network, the inputs it reads (indices into the flattened planes: those
    ever non-zero in the training set) and its held-out agreement."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    data, test = load(*train_paths), load(test_path)
    x, mask, y = data
    keep = torch.nonzero(x.amax(0) > 0).flatten()
    data, test = (x[:, keep], mask, y), (test[0][:, keep], test[1], test[2])
    x = data[0]
    print(f"{len(y)} decisions, {len(keep)} of {INPUTS} inputs ever non-zero", flush=True)
    net = build(len(keep), hidden)
    optimiser = torch.optim.Adam(net.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    loss_of = nn.CrossEntropyLoss()
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        start = time.perf_counter()
        order = torch.randperm(len(y), generator=generator)
        total = 0.0
        for i in range(0, len(y), batch):
            idx = order[i : i + batch]
            loss = loss_of(masked_logits(net, x[idx], mask[idx]), y[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(idx)
        schedule.step()
        print(
            f"epoch {epoch + 1}: loss {total / len(y):.4f}, held-out agreement "
            f"{agreement(net, test):.4f} ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    return net, keep, agreement(net, test)


def save(net: nn.Sequential, keep: torch.Tensor, path: str, *, seed: int, agreement: float) -> None:
    """The weights as float16 arrays ``w0, b0, w1, b1, ...`` (``w`` is in × out, C order)
    and ``keep``, the flattened planes' indices the first layer reads."""
    arrays: dict[str, Any] = {"keep": keep.numpy().astype(np.int16)}
    linears = [m for m in net if isinstance(m, nn.Linear)]
    for i, layer in enumerate(linears):
        arrays[f"w{i}"] = np.ascontiguousarray(layer.weight.detach().numpy().T, dtype=np.float16)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    arrays["seed"] = np.asarray(seed)
    arrays["agreement"] = np.asarray(agreement)
    np.savez_compressed(path, **arrays)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--train", required=True, nargs="+", help="data sets from erren.bots.learned.dataset"
    )
    parser.add_argument("--test", required=True, help="held-out data set")
    parser.add_argument("--out", required=True, help="the weights (.npz) to write")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--hidden", default=",".join(map(str, HIDDEN)))
    args = parser.parse_args(argv)
    hidden = [int(h) for h in args.hidden.split(",")]
    net, keep, score = train(
        args.train, args.test, seed=args.seed, epochs=args.epochs, hidden=hidden
    )
    save(net, keep, args.out, seed=args.seed, agreement=score)
    print(f"held-out agreement {score:.4f}; weights in {args.out}")


if __name__ == "__main__":
    main()
