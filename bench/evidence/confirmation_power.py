"""How the confirmation's shape was chosen: power and level of the exact signed-rank test across
fresh processes, with one look against looks spread by error spending, for the plans the time cap
allows. A model, not the project's code: each process's log ratio is the true difference beyond
the margin (in process standard deviations, `es`) plus standard normal noise.

    python3 bench/evidence/confirmation_power.py        # needs numpy

Prints, per level, number of processes and scheme, the share of runs confirmed and the mean
number of processes measured (a futility check at 10 % from the fourth process on).
"""

import functools
import math

import numpy as np


@functools.lru_cache(None)
def upper_tail(n):
    """P(W+ >= w) for Wilcoxon's signed-rank statistic of n values, w = 0 .. n(n+1)/2."""
    ways = np.zeros(n * (n + 1) // 2 + 1)
    ways[0] = 1
    for rank in range(1, n + 1):
        shifted = ways.copy()
        shifted[rank:] += ways[:-rank]
        ways = shifted
    return np.cumsum((ways / 2**n)[::-1])[::-1]


@functools.lru_cache(None)
def critical(n, alpha):
    ok = np.nonzero(upper_tail(n) <= alpha)[0]
    return int(ok[0]) if len(ok) else None


def w_plus(z):
    ranks = np.argsort(np.argsort(np.abs(z), axis=-1), axis=-1) + 1
    return (ranks * (z > 0)).sum(-1)


def spent(t, gamma):
    return t if abs(gamma) < 1e-9 else (1 - math.exp(-gamma * t)) / (1 - math.exp(-gamma))


def looks(k, alpha, scheme):
    """The efficacy looks of a plan of k processes: (processes, share of alpha)."""
    if scheme == "one look":
        return [(k, alpha)]
    gamma = float(scheme.split()[-1])
    taken, used = [], 0.0
    for n in list(range(4, k, 2)) + [k]:
        allowed = alpha * spent(n / k, gamma) if n < k else alpha
        if 0.5**n <= allowed - used or n == k:
            taken.append((n, allowed - used))
            used = allowed
    return taken


def run(es, k, alpha, scheme, trials, seed=0):
    rng = np.random.default_rng(seed)
    y = es + rng.standard_normal((trials, k))
    at = dict(looks(k, alpha, scheme))
    done = np.zeros(trials, bool)
    confirmed = np.zeros(trials, bool)
    used = np.full(trials, k)
    for n in range(4, k + 1):
        z = y[:, :n]
        if n in at and critical(n, at[n]) is not None:
            hit = ~done & (w_plus(z) >= critical(n, at[n]))
            confirmed |= hit
            done |= hit
            used[hit] = n
        futile = ~done & (w_plus(-z) >= critical(n, 0.10))
        done |= futile
        used[futile] = n
    return confirmed.mean(), used.mean()


if __name__ == "__main__":
    for alpha in [0.0025, 0.00025]:
        for k in [12, 18]:
            for scheme in ["one look", "spending gamma -2", "spending gamma -4"]:
                cells = []
                for es in [0, 0.7, 1.0, 1.5, 3]:
                    rate, used = run(es, k, alpha, scheme, 100_000 if es == 0 else 20_000)
                    cells.append(f"es {es}: {rate * 100:.2f} % ({used:.1f})")
                print(f"alpha {alpha}, {k} processes, {scheme}: " + " | ".join(cells))
