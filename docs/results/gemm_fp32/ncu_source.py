#!/usr/bin/env python3
"""Summary of an `ncu --section SourceCounters --page source --print-source sass --csv` dump: warp instructions
executed by opcode, stall samples by reason, and the opcodes that hold the stalls; with --top N also the N
instructions holding the most samples, each with its address, text and reasons. ncu_source.py FILE.csv [--top N]"""
import collections, csv, re, sys

top = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--top" else 0
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
hdr = next((i for i, r in enumerate(rows) if "Source" in r), None)
if hdr is None:
    sys.exit("%s: no source table" % sys.argv[1])
H = rows[hdr]
src, ex = H.index("Source"), H.index("Instructions Executed")
stall = [i for i, c in enumerate(H) if c.startswith("stall_") and "Not Issued" not in c]


def num(x):
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0


count, reasons = collections.Counter(), collections.Counter()
held = collections.defaultdict(collections.Counter)
for r in rows[hdr + 1:]:
    op = re.sub(r"^@!?U?P\w+\s+", "", r[src].strip()).split(" ")[0]
    count[op] += num(r[ex])
    for i in stall:
        held[op.split(".")[0]][H[i][6:]] += num(r[i])
        reasons[H[i][6:]] += num(r[i])
n, s = sum(count.values()), sum(reasons.values()) or 1
print("%s: %.4g warp instructions, %d stall samples" % (sys.argv[1].split("/")[-1], n, s))
for op, c in count.most_common(16):
    print("  %-26s %11.4g %5.1f%%" % (op, c, 100 * c / n))
print("  stall samples by reason: " + ", ".join("%s %.1f%%" % (k, 100 * v / s) for k, v in reasons.most_common(8)))
for op, c in sorted(held.items(), key=lambda x: -sum(x[1].values()))[:8]:
    t = sum(c.values())
    print("  %-8s %5.1f%% of samples: %s" % (op, 100 * t / s, ", ".join("%s %.1f" % (k, 100 * v / s)
                                                                     for k, v in c.most_common(4))))
if top:
    adr = H.index("Address") if "Address" in H else None
    tot = lambda r: sum(num(r[i]) for i in stall)
    for r in sorted(rows[hdr + 1:], key=tot, reverse=True)[:top]:
        why = sorted(((num(r[i]), H[i][6:]) for i in stall), reverse=True)[:3]
        print("  %5.1f%% %-8s %-60s %s" % (100 * tot(r) / s, r[adr] if adr is not None else "", r[src].strip()[:60],
                                         ", ".join("%s %.1f" % (k, 100 * v / s) for v, k in why if v)))
