#!/usr/bin/env python3
"""How far a `dlbtune --op spmm --prec fp32 --csv` suite is from the bounds of its kernels' designs.

Usage: bound.py SUITE.CSV [--launch-us 4.1] [--hbm-tbs 4.3] [--smem-tflops 16.7]

Each row's bound is the larger of two times, both of which any CUDA-core CSR kernel of the fp32 space pays:
  stream: the fixed cost of a launch in this harness plus the bytes the cheapest format reads (4-byte values and
          16-bit columns, KIND 4: 6 bytes a nonzero; B, C and the row pointers once) at the measured copy rate
          (docs/NOTES.md item 162: 4.1 us and 4.3 TB/s on an H200);
  shared: the useful flops (2 nnz N) at a quarter of the FFMA peak, since every multiply-add needs one 4-byte
          element of B delivered to its lane from shared memory (or L1, the same 128 bytes a clock an SM):
          128 B x 132 SMs x 1.98 GHz / 4 B x 2 flops = 16.7 TFLOP/s on an H200 (docs/NOTES.md item 101).
The "max" column is cuSPARSE's paired time over that bound: the speedup a kernel at the bound would show.
"reach" is the bound over our paired time. Classes as the issue reads them: N = 1, N = 2 and 4, N >= 1500.
"""
import csv
import math
import sys


def arg(name, default):
    return float(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def geo(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    launch, hbm, smem = arg("--launch-us", 4.1), arg("--hbm-tbs", 4.3), arg("--smem-tflops", 16.7)
    rows = list(csv.DictReader(open(sys.argv[1])))
    print("| row | sparsity | ours µs (paired) | cuSPARSE µs (paired) | stream µs | shared µs | paired | max | reach |")
    print("|---|---|---|---|---|---|---|---|---|")
    cls = {}
    for r in rows:
        try:
            m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
            nnz, pt, pv = int(r["nnz"]), float(r["paired_tuned_us"]), float(r["paired_vendor_us"])
        except (KeyError, ValueError):
            continue  # a row without a pair
        stream = launch + (6.0 * nnz + 4.0 * (k * n + m * n + m + 1)) / (hbm * 1e6)
        shared = 2.0 * nnz * n / (smem * 1e6)
        bound = max(stream, shared)
        c = "N = 1" if n == 1 else "N = 2, 4" if n <= 4 else "N >= 1500"
        cls.setdefault(c, []).append((pv / pt, pv / bound, bound / pt))
        print(f"| {m}x{n}x{k} | {r['sparsity']} | {pt:.1f} | {pv:.1f} | {stream:.1f} | {shared:.1f} | "
              f"{pv / pt:.2f}x | {pv / bound:.2f}x | {bound / pt:.2f} |")
    print()
    print("| class | rows | paired geomean | at the bound | reach (geomean) |")
    print("|---|---|---|---|---|")
    every = []
    for c in ("N = 1", "N = 2, 4", "N >= 1500"):
        v = cls.get(c, [])
        every += v
        print(f"| {c} | {len(v)} | {geo([a for a, _, _ in v]):.3f}x | {geo([b for _, b, _ in v]):.3f}x | "
              f"{geo([f for _, _, f in v]):.3f} |")
    print(f"| suite | {len(every)} | {geo([a for a, _, _ in every]):.3f}x | {geo([b for _, b, _ in every]):.3f}x | "
          f"{geo([f for _, _, f in every]):.3f} |")


if __name__ == "__main__":
    main()
