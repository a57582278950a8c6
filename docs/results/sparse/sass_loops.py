#!/usr/bin/env python3
"""The FFMA loops of a kernel's SASS, and the span from its first FFMA to its last.

Usage: sass_loops.py FILE.sass [MAX]   (FILE.sass: `cuobjdump -sass` of one cubin)

Each backward branch whose range holds an FFMA is a loop: its first and last address, its instructions and its
FFMAs. For spmm's KIND 3 the loops are the rows' two-nonzero loops (RPW of them, the rows unrolled) and the span
is one slab's whole walk, tails and row bookkeeping included (docs/NOTES.md item 247).
"""
import re
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    insts = []
    for line in open(sys.argv[1]):
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            insts.append((int(m.group(1), 16), m.group(2).strip()))
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    shown = 0
    for a, t in insts:
        m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", t)
        if not m or int(m.group(1), 16) >= a:
            continue
        lo = int(m.group(1), 16)
        body = [x for x in insts if lo <= x[0] <= a]
        ffma = sum(1 for _, x in body if re.search(r"\bFFMA\b", x))
        if ffma and shown < limit:
            print("loop %#x-%#x insts %d ffma %d" % (lo, a, len(body), ffma))
            shown += 1
    at = [a for a, t in insts if re.search(r"\bFFMA\b", t)]
    if at:
        print("ffma %d span insts %d" % (len(at), sum(1 for a, _ in insts if at[0] <= a <= at[-1])))


if __name__ == "__main__":
    main()
