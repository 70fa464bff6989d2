#!/usr/bin/env python3
"""Independent reference for the golden values of search_test.cpp and space_test.cpp
(docs/tune.md#searchers, #determinism): the spaces written from the published tables, SplitMix64,
rejection sampling, Fisher-Yates, simulated annealing and KTT's MCMC, the synthetic cost of
tuning_test_util.cpp. Prints the signatures, valid counts, first 20 random configurations per
space and the annealing/MCMC paths on fr_insert (lookup), which must equal the C++ goldens.
Not run by CI; run it by hand after changing a space or a searcher: python3 reference_search.py
"""
import itertools
import math

M64 = (1 << 64) - 1
INF = float("inf")


def fnv1a64(text):
    h = 14695981039346656037
    for c in text.encode():
        h = ((h ^ c) * 1099511628211) & M64
    return h


class SplitMix64:
    def __init__(self, seed):
        self.x = seed & M64

    def next(self):
        self.x = (self.x + 0x9E3779B97F4A7C15) & M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n):
        reject = (1 << 64) % n
        while True:
            x = self.next()
            if x >= reject:
                return x % n

    def unit(self):
        return (self.next() >> 11) * 2.0**-53


P2 = [1, 2, 4, 8, 16, 32, 64, 128]


def fr_insert(lookup, max_threads=1024, shared=48 * 1024, table_bytes=40000):
    params = [("BLOCK_DIM", "launch", [8, 12, 16, 20, 24, 28, 32]),
              ("GRID_DIM_Z", "launch", [1, 4, 16, 64, 256, 1024, 4096, 65535]),
              ("SHARED_BLOB_TABLE", "compile", [0, 1]), ("TILE", "launch", [1, 2, 4, 8]),
              ("PRECOMPUTE_BLOB_VAL", "compile", [1 if lookup else 0])]
    ids = ["block_threads", "tile_divides_block", "tile_below_block", "blob_table_needs_precompute",
           "blob_table_fits"]

    def ok(bd, gz, sbt, tile, pc):
        return (bd * bd <= max_threads and (tile == 1 or bd % tile == 0) and tile < bd
                and (sbt == 0 or pc == 1) and (sbt == 0 or table_bytes <= shared))
    return "fr_insert", params, ids, ok


SPACES = {
    "fr_insert_dynamic": fr_insert(False),
    "fr_insert_lookup": fr_insert(True),
    "ma_correlate": ("ma_correlate", [("TILE", "compile", [1, 2, 4, 8]), ("BLOCK_X", "launch", P2), ("BLOCK_Y", "launch", P2)],
                     ["block_threads", "block_x_covers_tile"], lambda t, x, y: x * y <= 1024 and x >= t),
    "fourier_crop_filter": ("fourier_crop_filter", [("BLOCK_X", "launch", P2), ("BLOCK_Y", "launch", P2)],
                            ["block_threads"], lambda x, y: x * y <= 1024),
    "extrema_window": ("extrema_window", [("BLOCK_X", "launch", [4, 8, 16, 32, 64, 128]),
                                          ("BLOCK_Y", "launch", [1, 2, 4, 8, 16, 32, 64])],
                       ["block_threads"], lambda x, y: x * y <= 1024),
    "extrema_full": ("extrema_full", [("BLOCK", "launch", [32, 64, 128, 256, 512, 1024])], ["block_threads"],
                     lambda b: b <= 1024),
}


def canonical_text(params, ids, version=1):
    text = "kernel_version=%d\n" % version
    for name, kind, values in params:
        text += "param %s %s %s\n" % (name, kind, ",".join(map(str, values)))
    return text + "".join("constraint %s\n" % i for i in ids)


def valid_configs(params, ok):
    return [c for c in itertools.product(*[v for _, _, v in params]) if ok(*c)]


VERSIONS = {"fr_insert": 2}


def fixed_key(kernel, signature):
    return ("1|%s|%d|%016x|NVIDIA H100 80GB HBM3|9.0|132|79|12040|12040|12040|1.0|size=128x128"
            % (kernel, VERSIONS.get(kernel, 1), signature))


def synthetic_ms(params, c):
    h = fnv1a64(" ".join("%s=%d" % (params[i][0], c[i]) for i in range(len(c))))
    if h % 23 == 0:
        return None
    t = 1.0
    for i, v in enumerate(c):
        values = params[i][2]
        mid = 0.5 * (len(values) - 1) + 0.3 * (i % 3) - 0.3
        t += 0.05 * (values.index(v) - mid) ** 2
    return t + 0.001 * (h % 97)


class Walk:
    """Shared state of annealing and MCMC: measured times, and the synthetic measurement."""

    def __init__(self, params, configs, seed):
        self.params, self.configs, self.rng, self.times, self.path = params, configs, SplitMix64(seed), {}, []

    def differences(self, a, b):
        return sum(1 for x, y in zip(self.configs[a], self.configs[b]) if x != y)

    def random_unmeasured(self):
        k = self.rng.below(len(self.configs) - len(self.times))
        for i in range(len(self.configs)):
            if i not in self.times:
                if k == 0:
                    return i
                k -= 1

    def measure(self, i):
        t = synthetic_ms(self.params, self.configs[i])
        self.path.append(i)
        self.times[i] = INF if t is None else t
        return self.times[i]

    def more(self, n):
        return len(self.path) < n and len(self.times) < len(self.configs)


def annealing(params, configs, seed, n, start=None):
    w = Walk(params, configs, seed)
    s = {"cur": None, "cur_t": INF, "best": None, "best_t": INF, "T": 0.144, "since": 0}

    def step(c, t):
        temperature = s["T"]
        s["T"] *= 0.95
        accept = t <= s["cur_t"]
        if not accept and t != INF and s["cur_t"] != INF and s["cur_t"] > 0:
            accept = w.rng.unit() < math.exp(-(t - s["cur_t"]) / (temperature * s["cur_t"]))
        if accept:
            s["cur"], s["cur_t"] = c, t
        if s["best"] is None or t < s["best_t"]:
            s["best"], s["best_t"], s["since"] = c, t, 0
        else:
            s["since"] += 1
            if s["since"] >= 10:
                s["cur"], s["cur_t"], s["since"] = s["best"], s["best_t"], 0

    while w.more(n):
        restart, chosen = False, None
        if s["cur"] is None:
            restart, chosen = True, (start if start is not None else w.random_unmeasured())
        else:
            for _ in range(1000):
                one = [i for i in range(len(configs)) if w.differences(s["cur"], i) == 1]
                near = one if one else [i for i in range(len(configs)) if w.differences(s["cur"], i) == 2]
                if all(i in w.times for i in near):
                    break
                c = near[w.rng.below(len(near))]
                if c not in w.times:
                    chosen = c
                    break
                step(c, w.times[c])
            if chosen is None:
                restart, chosen = True, w.random_unmeasured()
        t = w.measure(chosen)
        if restart:
            s["cur"], s["cur_t"], s["since"] = chosen, t, 0
            if s["best"] is None or t < s["best_t"]:
                s["best"], s["best_t"] = chosen, t
        else:
            step(chosen, t)
    return w.path


def mcmc(params, configs, seed, n, start=None):
    w = Walk(params, configs, seed)
    origin, boot, started = None, (0 if start is not None else 10), False
    while w.more(n):
        if not started:
            started, chosen = True, (start if start is not None else w.random_unmeasured())
        elif boot > 0 or origin is None:
            chosen = w.random_unmeasured()
        else:
            near = [i for i in range(len(configs)) if i not in w.times and w.differences(origin, i) <= 2]
            if near:
                chosen = near[w.rng.below(len(near))]
            else:
                origin, chosen = None, w.random_unmeasured()
        t = w.measure(chosen)
        if boot > 0:
            boot -= 1
            if origin is None or t <= w.times[origin]:
                origin = chosen
        elif origin is None or t <= w.times[origin] or w.rng.unit() < 0.02:
            origin = chosen
    return w.path


def main():
    g = SplitMix64(1234567)
    print("splitmix64(1234567):", [g.next() for _ in range(5)])
    for name, (kernel, params, ids, ok) in sorted(SPACES.items()):
        signature = fnv1a64(canonical_text(params, ids, VERSIONS.get(kernel, 1)))
        configs = valid_configs(params, ok)
        rng = SplitMix64(0x5EED ^ fnv1a64(fixed_key(kernel, signature)))
        perm = list(range(len(configs)))
        for i in range(len(perm) - 1, 0, -1):
            j = rng.below(i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        print("%-20s signature %016x  valid %3d  random %s" % (name, signature, len(configs), perm[:20]))
    kernel, params, ids, ok = SPACES["fr_insert_lookup"]
    configs = valid_configs(params, ok)
    seed = 0x5EED ^ fnv1a64(fixed_key(kernel, fnv1a64(canonical_text(params, ids, 2))))
    default = configs.index((16, 65535, 0, 1, 1))
    print("annealing from default", annealing(params, configs, seed, 30, default))
    print("annealing             ", annealing(params, configs, seed, 30))
    print("mcmc                  ", mcmc(params, configs, seed, 30))
    print("mcmc from default     ", mcmc(params, configs, seed, 30, default))


if __name__ == "__main__":
    main()
