#!/usr/bin/env python3
"""The hottest loop of one kernel in cuobjdump -sass output: its instruction mix, and how many of its FFMAs read
all three sources from one register bank.

Usage: sass_loop.py FILE.sass [FUNCTION]

The loop is the backward branch whose range holds the most FFMAs (for dlbtune's tile kernel it spans both the
interior and the edge copies, so its mix counts code a k-tile does not all run). The bank model is an assumption
from published microbenchmarks of Volta and later: two banks (register number mod 2), a stall when all three
source reads of an FFMA fall in one bank; a source the previous instruction marked .reuse in the same operand slot
is read from the reuse cache, not the bank. 'two' counts FFMAs with two reads in one bank (no stall under the
model)."""
import collections
import re
import sys

PRED = re.compile(r"^@!?U?P\w+\s+")


def parse(path, fn):
    insts, cur = [], None
    for line in open(path):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = m.group(1)
            continue
        if fn and cur != fn:
            continue
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            insts.append((int(m.group(1), 16), m.group(2).strip()))
    return insts


def hottest_loop(insts):
    best = None
    for a, t in insts:
        m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", t)
        if not m or int(m.group(1), 16) > a:
            continue
        lo = int(m.group(1), 16)
        body = [u for b, u in insts if lo <= b <= a]
        n = sum(1 for u in body if PRED.sub("", u).startswith("FFMA"))
        if best is None or n > best[0] or (n == best[0] and len(body) < len(best[1])):
            best = (n, body, lo, a)
    return best


def banks(body):
    prev, all3, two, cached = [None] * 3, 0, 0, 0
    for t in body:
        t = PRED.sub("", t)
        if not t.startswith("FFMA"):
            prev = [None] * 3
            continue
        srcs = [o.strip() for o in t.split(None, 1)[1].split(",")][1:4]
        reads, nxt = [], [None] * 3
        for s, o in enumerate(srcs):
            m = re.match(r"-?\|?R(\d+)(\.reuse)?", o)
            if not m:
                continue
            r = int(m.group(1))
            if prev[s] == r:
                cached += 1
            else:
                reads.append(r)
            if m.group(2):
                nxt[s] = r
        prev = nxt
        most = max(collections.Counter(r % 2 for r in reads).values()) if reads else 0
        all3 += most >= 3
        two += most == 2
    return all3, two, cached


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    found = hottest_loop(parse(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
    if not found:
        sys.exit("no loop found")
    n, body, lo, hi = found
    mix = collections.Counter(PRED.sub("", t).split()[0].split(".")[0] for t in body)
    all3, two, cached = banks(body)
    print("loop %#x-%#x: %d instructions, %d FFMA (%.1f%%)" % (lo, hi, len(body), n, 100.0 * n / len(body)))
    print("FFMA all three reads in one bank: %d; two in one bank: %d; sources from the reuse cache: %d" % (all3, two, cached))
    print("mix: " + ", ".join("%s %d" % kv for kv in mix.most_common(14)))


main()
