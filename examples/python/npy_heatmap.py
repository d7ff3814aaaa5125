#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Load the all-pairs matrix that `netdp account --out F.npy` writes (row = observer, column =
target, the diagonal the local-DP value) with its node labels, and draw it.

    build/release/bin/netdp account --graph florentine --rounds 10 --out eps.npy
    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/npy_heatmap.py eps.npy [heatmap.png]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

path = sys.argv[1]
out = sys.argv[2] if len(sys.argv) > 2 else "heatmap.png"
matrix = np.load(path, mmap_mode="r")  # float64, no copy
labels_path = os.path.splitext(path)[0] + ".labels.txt"
labels = open(labels_path).read().split("\n")[:matrix.shape[0]] if os.path.exists(labels_path) else None
off_diagonal = matrix[~np.eye(matrix.shape[0], dtype=bool)]
print(f"{matrix.shape[0]} nodes, epsilon off the diagonal: mean {off_diagonal.mean():.4g}, "
      f"max {off_diagonal.max():.4g}")

fig, ax = plt.subplots(figsize=(6, 5))
image = ax.imshow(matrix, cmap="viridis")
fig.colorbar(image, ax=ax, label="epsilon")
if labels and len(labels) <= 40:
    ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=7)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
ax.set_xlabel("target")
ax.set_ylabel("observer")
fig.savefig(out, dpi=120, bbox_inches="tight")
print(f"wrote {out}")
