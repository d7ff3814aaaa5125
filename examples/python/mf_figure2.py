#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The MF paper's Figure 2: per hop distance, the Rényi ε (α = 2) that DP-D-SGD leaks under
the MF accountant (PNDP), under Muffliato's paper formula (NOT a bound on the view), under
Muffliato's exact joint view, and under Koskela-Kulkarni's secure summation. Florentine
families, closed-row gossip, T = 20 steps, noise 10.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/mf_figure2.py [figure2.png]
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import netdp  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "figure2.png"
table = netdp.compare("florentine", rounds=20, sigma=10.0, alpha=2.0, weights="closed-row")
print(table[["pairs", "mf_mean", "muffliato_mean", "muffliato_exact_mean", "secure_sum_mean"]])

fig, ax = plt.subplots(figsize=(6, 4))
for column, label in [("mf_mean", "MF accountant (PNDP)"),
                      ("muffliato_mean", "Muffliato, paper formula (not a bound)"),
                      ("muffliato_exact_mean", "Muffliato, exact joint view"),
                      ("secure_sum_mean", "secure summation (KK Theorem 8)")]:
    ax.plot(table.index, table[column], marker="o", label=label)
ax.axhline(table.attrs["local_dp"], color="grey", linestyle="--", label="local DP")
ax.set_yscale("log")
ax.set_xlabel("hop distance between attacker and target")
ax.set_ylabel("mean Rényi ε at α = 2")
ax.legend(fontsize=7)
fig.savefig(out, dpi=120, bbox_inches="tight")
print(f"wrote {out}")
