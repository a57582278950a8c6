#!/usr/bin/env python3
"""Register-bank / reuse-cache / scheduling analysis of the hottest FFMA loop in cuobjdump -sass output.

Usage: sass_bank.py FILE.sass [FUNCTION] [--dump]

Extends docs/results/gemm_fp32/sass_loop.py. The loop is the backward branch whose range holds the most FFMAs;
the "compute region" is the stretch from its first to its last FFMA (for dlbtune's tile kernel the loop also
holds the interior/edge global-load branches, which the region leaves out).

Reuse-cache models (operand slots a=0, b=1, c=2 of FFMA Rd, Ra, Rb, Rc):
  M1 (sass_loop.py's): one entry per slot, valid only for the very next instruction, and only if that is an FFMA.
  M2 (per slot and bank, as Huerta et al. 2025 describe Ampere's register-file cache): one entry per (slot, bank
     = reg % 2); a read of (slot, bank) hits if the entry holds that register; after any read of (slot, bank) the
     entry holds the register if the read carried .reuse, else it is emptied. Reads by other instructions of that
     slot and bank empty it too (non-FFMA operands mapped to slots by position).
Control bits (2nd 64-bit word of each instruction): stall = bits 41-44, yield = 45, wr-bar = 46-48,
rd-bar = 49-51, wait mask = 52-57, reuse = 58-61.
"""
import collections
import re
import sys

PRED = re.compile(r"^@!?U?P\w+\s+")
REG = re.compile(r"^-?\|?-?R(\d+)(\.reuse)?")


def parse(path, fn):
    insts, cur, last = [], None, None
    for line in open(path):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = m.group(1)
            continue
        if fn and cur != fn:
            continue
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);\s*/\* (0x[0-9a-f]+) \*/", line)
        if m:
            last = [int(m.group(1), 16), m.group(2).strip(), int(m.group(3), 16), None]
            insts.append(last)
            continue
        m = re.match(r"\s+/\* (0x[0-9a-f]+) \*/", line)
        if m and last is not None and last[3] is None:
            last[3] = int(m.group(1), 16)
    return insts


def ctrl(hi):
    return dict(stall=(hi >> 41) & 0xF, yld=(hi >> 45) & 1, wbar=(hi >> 46) & 7, rbar=(hi >> 49) & 7,
                wait=(hi >> 52) & 0x3F, reuse=(hi >> 58) & 0xF)


def hottest_loop(insts):
    best = None
    for idx, (a, t, lo_w, hi_w) in enumerate(insts):
        m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", t)
        if not m or int(m.group(1), 16) > a:
            continue
        lo = int(m.group(1), 16)
        body = [u for u in insts if lo <= u[0] <= a]
        n = sum(1 for u in body if op(u[1]) == "FFMA")
        if best is None or n > best[0] or (n == best[0] and len(body) < len(best[1])):
            best = (n, body, lo, a)
    return best


def op(t):
    return PRED.sub("", t).split()[0].split(".")[0]


def operands(t):
    t = PRED.sub("", t)
    parts = t.split(None, 1)
    if len(parts) < 2:
        return parts[0], []
    return parts[0], [o.strip() for o in parts[1].split(",")]


def dst_regs(t):
    """registers an instruction writes (first operand), with vector width from .64/.128"""
    name, ops = operands(t)
    o = op(t)
    if not ops or o in ("STS", "STG", "ST", "BRA", "BAR", "BSSY", "BSYNC", "EXIT", "RED", "ATOM", "LDGSTS"):
        return []
    m = re.match(r"^R(\d+)", ops[0])
    if not m or ops[0].startswith("RZ"):
        return []
    r = int(m.group(1))
    w = 4 if ".128" in name else 2 if ".64" in name else 1
    if o in ("LDS", "LDG", "LD", "LDSM", "LDC"):
        return list(range(r, r + w))
    return [r]


def src_regs(t):
    """(slot, reg, reuse) of register sources; memory operands' base registers count as slot 0"""
    name, ops = operands(t)
    o = op(t)
    out = []
    srcs = ops if o in ("STS", "STG", "ST") else ops[1:]
    for s, x in enumerate(srcs):
        m = re.search(r"\[R(\d+)", x)
        if m:
            out.append((0, int(m.group(1)), False))
            continue
        m = REG.match(x)
        if m and not x.lstrip("-|").startswith("RZ"):
            out.append((min(s, 2), int(m.group(1)), bool(m.group(2))))
    return out


def analyse(body):
    ffma_idx = [i for i, u in enumerate(body) if op(u[1]) == "FFMA"]
    lo, hi = ffma_idx[0], ffma_idx[-1]
    reg = body[lo:hi + 1]
    res = collections.OrderedDict()
    res["loop_insts"] = len(body)
    res["region_insts"] = len(reg)
    nf = len(ffma_idx)
    res["ffma"] = nf
    res["region_mix"] = collections.Counter(op(u[1]) for u in reg).most_common(8)

    # (a) reuse flags
    flags = collections.Counter()
    slotflags = collections.Counter()
    for u in reg:
        if op(u[1]) != "FFMA":
            continue
        ss = [s for s, r, ru in src_regs(u[1]) if ru]
        flags[len(ss)] += 1
        for s in ss:
            slotflags["abc"[s]] += 1
    res["reuse_flags_per_ffma"] = sum(k * v for k, v in flags.items()) / nf
    res["reuse_flag_hist"] = dict(sorted(flags.items()))
    res["reuse_flags_by_slot"] = dict(sorted(slotflags.items()))

    # reuse models; run the region twice (steady state: 2nd pass) for M2
    def run(model, nbanks_list=(2, 4)):
        cache = {}
        prev = [None] * 3
        stats = None
        for p in range(2):
            st = collections.Counter()
            per_ffma_uncached = []
            for u in reg:
                o = op(u[1])
                srcs = src_regs(u[1])
                if o != "FFMA":
                    prev = [None] * 3
                    for s, r, ru in srcs:
                        cache.pop((s, r % 2), None)
                    continue
                reads, nxt, hits = [], [None] * 3, 0
                for s, r, ru in srcs:
                    if model == 1:
                        hit = prev[s] == r
                        if ru:
                            nxt[s] = r
                    else:
                        hit = cache.get((s, r % 2)) == r
                        if ru:
                            cache[(s, r % 2)] = r
                        else:
                            cache.pop((s, r % 2), None)
                    if hit:
                        hits += 1
                        st["hit_" + "abc"[s]] += 1
                    else:
                        reads.append((s, r))
                prev = nxt
                st["srcs"] += len(srcs)
                st["hits"] += hits
                st["uncached"] += len(reads)
                st["unc_%d" % len(reads)] += 1
                for nb in nbanks_list:
                    c = collections.Counter(r % nb for s, r in reads)
                    most = max(c.values()) if c else 0
                    st["ge2_%dbank" % nb] += most >= 2
                    st["all3_%dbank" % nb] += most >= 3
                    for b, k in c.items():
                        st["bankreads%d_%d" % (nb, b)] += k
                # all-3 regardless of cache (sass_loop's first number counts after cache)
                per_ffma_uncached.append(reads)
            stats = (st, per_ffma_uncached)
        return stats

    for model in (1, 2):
        st, per = run(model)
        k = "M%d" % model
        res[k + "_pct_from_cache"] = 100.0 * st["hits"] / st["srcs"]
        res[k + "_hits_by_slot"] = {s: st["hit_" + s] for s in "abc"}
        res[k + "_uncached_per_ffma"] = st["uncached"] / nf
        res[k + "_uncached_hist"] = {n: st["unc_%d" % n] for n in range(4)}
        res[k + "_ge2_same_bank_2b"] = st["ge2_2bank"]
        res[k + "_ge2_same_bank_4b"] = st["ge2_4bank"]
        res[k + "_all3_same_bank_2b"] = st["all3_2bank"]
        res[k + "_all3_same_bank_4b"] = st["all3_4bank"]
        res[k + "_bank_reads_per_ffma_2b"] = [round(st["bankreads2_%d" % b] / nf, 3) for b in range(2)]
        res[k + "_bank_reads_per_ffma_4b"] = [round(st["bankreads4_%d" % b] / nf, 3) for b in range(4)]
        # port simulation: each bank serves one warp-register read per cycle; an FFMA can issue at cycle t only
        # if every bank it reads is free at t; its n reads on a bank hold it for n cycles. One warp stream, FFMA
        # issue every cycle otherwise (upper bound of back-to-back issue; other warps share the same banks).
        for nb in (2, 4):
            free = [0] * nb
            t = 0
            extra = 0
            for reads in per:
                c = collections.Counter(r % nb for s, r in reads)
                start = max([t] + [free[b] for b in c])
                extra += start - t
                for b, k2 in c.items():
                    free[b] = start + k2
                t = start + 1
            res[k + "_portsim_extra_cycles_per_ffma_%db" % nb] = round(extra / nf, 3)

    # All-3 in one bank with no cache at all (raw register assignment)
    raw3 = 0
    raw2 = 0
    for u in reg:
        if op(u[1]) != "FFMA":
            continue
        c = collections.Counter(r % 2 for s, r, ru in src_regs(u[1]))
        raw3 += max(c.values()) >= 3
    res["raw_all3_same_bank_2b"] = raw3

    # (e) LDS -> first FFMA reader distance (instructions), within the loop body, wrapping once
    n = len(body)
    dists = []
    for i, u in enumerate(body):
        if op(u[1]) != "LDS":
            continue
        for r in dst_regs(u[1]):
            d = None
            for j in range(1, n + 1):
                v = body[(i + j) % n]
                if op(v[1]) == "FFMA" and any(x == r for s, x, ru in src_regs(v[1])):
                    d = j
                    break
                if r in dst_regs(v[1]):
                    break
            if d is not None:
                dists.append(d)
    if dists:
        dists.sort()
        res["lds_to_use_min_med_max"] = (dists[0], dists[len(dists) // 2], dists[-1])
        res["lds_to_use_hist"] = {k: sum(1 for d in dists if lo_ <= d < k)
                                  for lo_, k in ((0, 8), (8, 16), (16, 32), (32, 64), (64, 10 ** 9))}

    # (f) control bits of FFMAs in region
    stalls = collections.Counter()
    yl = 0
    waits = 0
    cyc = 0
    for u in reg:
        if u[3] is None:
            continue
        c = ctrl(u[3])
        cyc += c["stall"]
        if op(u[1]) == "FFMA":
            stalls[c["stall"]] += 1
            yl += c["yld"]
            waits += c["wait"] != 0
    res["ffma_stall_hist"] = dict(sorted(stalls.items()))
    res["ffma_yield_bit_set"] = yl
    res["ffma_waiting_on_scoreboard"] = waits
    res["region_stall_cycles"] = cyc
    res["region_stall_cycles_per_ffma"] = round(cyc / nf, 3)

    # (g) ordering: consecutive FFMAs sharing a / b; accumulator reuse distance
    ff = [u for u in reg if op(u[1]) == "FFMA"]
    same_a = same_b = both = none = 0
    for x, y in zip(ff, ff[1:]):
        sx = {s: r for s, r, ru in src_regs(x[1])}
        sy = {s: r for s, r, ru in src_regs(y[1])}
        a = sx.get(0) == sy.get(0)
        b = sx.get(1) == sy.get(1)
        same_a += a and not b
        same_b += b and not a
        none += not a and not b
    res["consec_same_a"] = same_a
    res["consec_same_b"] = same_b
    res["consec_neither"] = none
    # run length of the operand held in a slot
    # accumulator RAW distance (instructions between the FFMA that writes Rc and the FFMA reading it), wrap
    last_w = {}
    accd = []
    m = len(reg)
    for p in range(2):
        for i, u in enumerate(reg):
            if op(u[1]) == "FFMA":
                srcs = src_regs(u[1])
                c = [r for s, r, ru in srcs if s == 2]
                if p == 1 and c and c[0] in last_w:
                    accd.append(i + m - last_w[c[0]] if last_w[c[0]] > i else i - last_w[c[0]])
            for r in dst_regs(u[1]):
                last_w[r] = i
    if accd:
        accd.sort()
        res["acc_raw_dist_min_med"] = (accd[0], accd[len(accd) // 2])
        res["acc_raw_dist_lt8"] = sum(1 for d in accd if d < 8)
    # accumulator written to a different register than read (register renaming between iterations)
    moved = sum(1 for u in ff if src_regs(u[1])[-1][1] != dst_regs(u[1])[0])
    res["ffma_dst_ne_c"] = moved
    # banks of accumulators
    accs = [dst_regs(u[1])[0] for u in ff]
    res["acc_bank_2b"] = dict(collections.Counter(r % 2 for r in accs))
    return res


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__)
    found = hottest_loop(parse(args[0], args[1] if len(args) > 1 else None))
    if not found:
        sys.exit("no loop found")
    n, body, lo, hi = found
    print("loop %#x-%#x" % (lo, hi))
    for k, v in analyse(body).items():
        if isinstance(v, float):
            v = round(v, 3)
        print("  %-34s %s" % (k, v))


main()
