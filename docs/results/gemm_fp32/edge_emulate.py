#!/usr/bin/env python3
"""CPU emulation of templates/gemm_fp32.cu's tile_loader edge path, before and after next_edge_mask.diff: for
random tiles, problems and k-tiles, every thread's vectors must come out the same (memory holds each element's
address + 1, so a wrong address or a missed zero shows). The old load_edge computes each vector's row and k in 64
bits; the new one takes the k left in the tile and the rows left from the thread's first once a call, as ints, and
compares them with each vector's constant offset. python3 edge_emulate.py [SEED]"""
import random, sys

def loader(ROWS, BK, THREADS, CONTIG_K):
    NVEC = ROWS * BK // 4
    PER = (NVEC + THREADS - 1) // THREADS
    LINE = BK // 4 if CONTIG_K else ROWS // 4
    LPS = THREADS // LINE
    return NVEC, PER, LINE, LPS

def run(ROWS, BK, THREADS, CONTIG_K, ld, row0, rows, k0, kend, vec):
    NVEC, PER, LINE, LPS = loader(ROWS, BK, THREADS, CONTIG_K)
    mem = lambda a: a + 1
    bad = 0
    for tid in range(THREADS):
        row = tid // LINE if CONTIG_K else (tid % LINE) * 4
        kk = (tid % LINE) * 4 if CONTIG_K else tid // LINE
        base = (row0 + row) * ld + (k0 + kk) if CONTIG_K else (k0 + kk) * ld + (row0 + row)
        step = LPS * ld
        valid = lambda r: NVEC % THREADS == 0 or tid + r * THREADS < NVEC
        # old
        old = []
        for r in range(PER):
            v = [0.0] * 4
            if valid(r):
                gr = row0 + row + (r * LPS if CONTIG_K else 0)
                gk = k0 + kk + (0 if CONTIG_K else r * LPS)
                src = base + r * step
                line_ok = gr < rows if CONTIG_K else gk < kend
                pos, lim = (gk, kend) if CONTIG_K else (gr, rows)
                if line_ok:
                    if vec and pos + 3 < lim:
                        v = [mem(src + u) for u in range(4)]
                    else:
                        v = [mem(src + u) if pos + u < lim else 0.0 for u in range(4)]
            old.append(v)
        # new: the bounds once a call as counts (k left in the tile, rows left from the thread's first)
        kl = kend - (k0 + kk)
        kleft = 0 if kl <= 0 else BK if kl >= BK else kl
        rl = rows - (row0 + row)
        rleft = 0 if rl <= 0 else ROWS if rl >= ROWS else rl
        new = []
        for r in range(PER):
            v = [0.0] * 4
            if valid(r):
                src = base + r * step
                line_ok = r * LPS < (rleft if CONTIG_K else kleft)
                n = kleft if CONTIG_K else rleft
                if line_ok:
                    if vec and n >= 4:
                        v = [mem(src + u) for u in range(4)]
                    else:
                        v = [mem(src + u) if u < n else 0.0 for u in range(4)]
            new.append(v)
        if old != new:
            bad += 1
    return bad

def main():
    rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    cases = fails = 0
    for _ in range(4000):
        ROWS = rnd.choice([8, 16, 32, 64, 128, 256])
        BK = rnd.choice([8, 16, 32])
        THREADS = rnd.choice([64, 128, 256])
        CONTIG_K = rnd.random() < 0.5
        LINE = BK // 4 if CONTIG_K else ROWS // 4
        if THREADS % LINE:
            continue
        rows = rnd.randint(1, 3 * ROWS)
        row0 = rnd.randrange(0, rows + ROWS, ROWS) if rnd.random() < 0.8 else rnd.randint(0, rows)
        K = rnd.randint(1, 4 * BK)
        k0 = rnd.randrange(0, K + BK, BK) if rnd.random() < 0.8 else rnd.randint(0, K)
        kend = K if rnd.random() < 0.7 else rnd.randint(k0, K + BK)  # split-K chunk ends too
        ld = (rows if not CONTIG_K else K) + rnd.randint(0, 5)
        vec = rnd.random() < 0.5
        cases += 1
        b = run(ROWS, BK, THREADS, CONTIG_K, ld, row0, rows, k0, kend, vec)
        if b:
            fails += 1
            print("MISMATCH", dict(ROWS=ROWS, BK=BK, THREADS=THREADS, CONTIG_K=CONTIG_K, rows=rows, row0=row0,
                                   k0=k0, kend=kend, vec=vec, threads_differing=b))
    print(f"edge_emulate: {cases} cases, {fails} mismatches")
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
