#!/usr/bin/env python3
# A CPU check of fp16's KIND 4 (templates/conv_fp16.cu's conv_body_direct_ld) before it runs on a GPU: the
# kernel's shared-memory layout (the patch's phase-ordered slots, the filters' rows, off8), every lane's
# ldmatrix row address, the mma.sync m16n8k16 fragments those rows make, and the epilogue's mapping, emulated
# block by block in integers and compared with a direct convolution. Also checks each ldmatrix's eight rows for
# 16-byte alignment and bank conflicts, and that no read touches shared memory the block did not write.
# With --slab L, the kernel of next_direct_ld_slab.diff: where Kt > 2·L the filters a slab of L k at a time in two
# buffers, each refilled with slab sl + 2 once slab sl's steps are done (L = 256 in the template; a smaller L tests
# more slabs).
# With --stepped, the patch's copies in next_k4_copies.diff's order (each thread's chunks stepped with carries,
# j / str_w by a multiply-high): every slot written once, none read unwritten.
# With --splits, each shape's reduction split 1, 2, 3, 4 or 8 ways as next_k4_split.diff's split-K does (a split's
# k from z·kc, its slabs and offsets of its own, the partial sums added).
# With --swizzle, the unpadded slots of logs/run100/k4_swz128.diff (NOTES item 150; not kept): where C/8 is 2, 4 or a multiple of 8 a
# slot holds C halves and its unit u is stored at u ^ swz(slot), swz(sl) = (sl >> SH) & SM; off8 carries the tap's
# slot % 8 in bits 28-30 and each lane XORs its offset's unit bits with swz(ar + that).
# With --wgmma, KIND 4's wgmma path (NOTES items 151-152, landed after run101) where WARPS_M is 4 and BN 32 or 64: the slabs stored as
# 128-byte swizzled lines of 64 k (L a multiple of 64), read as wgmma's descriptor addresses them (start + 1024
# an 8-filter group + 128 a filter + 2 a k, bits 4-6 XORed with bits 7-9), 128 k a pass and 64 at the end, past
# kend to a multiple of 64 (off8 has KO entries), each pass's descriptor computed once and stepped (NOTES item
# 153); the A fragments by ldmatrix as before. --slab must then be a multiple of 64. With --pass256 also
# k4_pass256_tried.diff's passes of 256 k first where BN is 32.
# Usage: direct_ld_emulate.py [shapes] [--slab L] [--stepped] [--splits] [--swizzle] [--wgmma] [--pass256] (default 300
# random NHWC shapes, C % 8 == 0).
import random, sys
import numpy as np

SLAB = None
STEPPED = False
SPLITS = 1
SWIZZLE = False
WGMMA = False
WG_SHAPES = 0  # shapes that ran the --wgmma path
PASS256 = False  # --pass256: k4_pass256_tried.diff's passes of 256 k where BN is 32
P256_USED = [0]  # such passes emulated (a warp's)

def patch_chunks(TR, TC, C8, THREADS, sw):
    """The patch's 16-byte chunks as (row, column j, c8, j // sw, j % sw), in the kernel's order: chunk e =
    (row·TC + j)·C8 + c8 decomposed by division, or (STEPPED, next_k4_copies.diff) each thread's first chunk
    decomposed and the next ones stepped by THREADS's digits with carries, j // sw by a 32-bit multiply-high"""
    if not STEPPED:
        for e in range(TR * TC * C8):
            c8, rj = e % C8, e // C8
            j, row = rj % TC, rj // TC
            yield row, j, c8, j // sw, j % sw
        return
    dc8, drj = THREADS % C8, THREADS // C8
    dj, drow = drj % TC, drj // TC
    mw = (0xFFFFFFFF // sw + 1) & 0xFFFFFFFF
    for tid in range(THREADS):
        c8, j, row = tid % C8, tid // C8 % TC, tid // C8 // TC
        e = tid
        while e < TR * TC * C8:
            jq = j if sw == 1 else (j * mw) >> 32
            yield row, j, c8, jq, j - jq * sw
            e += THREADS
            c8 += dc8; j += dj; row += drow
            if c8 >= C8: c8 -= C8; j += 1
            if j >= TC: j -= TC; row += 1

def check(N, C, H, W, K, R, S, ph, pw, sh, sw, dh, dw, BM, BN, BK, WM, rng):
    P = (H + 2 * ph - dh * (R - 1) - 1) // sh + 1
    Q = (W + 2 * pw - dw * (S - 1) - 1) // sw + 1
    if P < 1 or Q < 1:
        return None
    x = rng.integers(-3, 4, size=(N, H, W, C)).astype(np.int64)
    w = rng.integers(-3, 4, size=(K, R, S, C)).astype(np.int64)
    # reference
    ref = np.zeros((N, P, Q, K), dtype=np.int64)
    for r in range(R):
        for s in range(S):
            for p in range(P):
                ih = p * sh - ph + r * dh
                if not 0 <= ih < H: continue
                iw = np.arange(Q) * sw - pw + s * dw
                ok = (iw >= 0) & (iw < W)
                ref[:, p, ok, :] += np.einsum('nqc,kc->nqk', x[:, ih, iw[ok], :], w[:, r, s, :])
    DQ, DP = BK, BM // BK
    THREADS = 32 * WM
    MI, NI = BM // WM // 16, BN // 8
    TR = (DP - 1) * sh + (R - 1) * dh + 1
    TC = (DQ - 1) * sw + (S - 1) * dw + 1
    TCs = (TC + sw - 1) // sw
    C8 = C // 8
    SWZ = SWIZZLE and (C8 in (2, 4) or C8 % 8 == 0)
    SH = 2 if C8 == 2 else 1 if C8 == 4 else 0
    SM = 0 if not SWZ else 7 if C8 >= 8 else C8 - 1
    swz = lambda sl: (sl >> SH) & SM
    Cp = C if C8 % 2 or SWZ else C + 8
    RL = sw * TCs * Cp
    CRS = C * R * S
    Kt = (CRS + 15) & ~15
    C8 = C // 8
    wg = WGMMA and WM == 4 and BN in (32, 64)
    r64 = lambda v: (v + 63) // 64 * 64
    if SLAB is None:  # all the filters at once: one "slab" of Kt
        L, NB = (r64(Kt) if wg else Kt), 1
    else:
        L = (r64(Kt) if wg else Kt) if Kt <= 2 * SLAB else SLAB
        NB = 2 if Kt > L else 1
    WP = L + 8
    NS = (Kt + L - 1) // L
    if wg:  # conv.c's direct_ld_smem for K4WG
        smem = 1024 + 2 * (NB * BN * L + TR * RL) + 4 * (r64(Kt) // 8)
    else:
        smem = 2 * (TR * RL + NB * BN * WP) + 4 * (Kt // 8)
    if smem > 220 * 1024:
        return None
    if wg:
        global WG_SHAPES
        WG_SHAPES += 1
    y = np.full((N, P, Q, K), -999999, dtype=np.int64)
    qt, pt = (Q + DQ - 1) // DQ, (P + DP - 1) // DP
    conflicts = 0
    for by in range((K + BN - 1) // BN):
        k0 = by * BN
        for t in range(N * qt * pt):
            n, pq = t // (qt * pt), t % (qt * pt)
            p0, q0 = pq // qt * DP, pq % qt * DQ
            ih0, iw0 = p0 * sh - ph, q0 * sw - pw
            xs = np.zeros(TR * RL, dtype=np.int64); xw = np.zeros(TR * RL, dtype=bool)
            for row, j, c8, jq, ph_ in patch_chunks(TR, TC, C8, THREADS, sw):
                ih, iw = ih0 + row, iw0 + j
                slot = ph_ * TCs + jq
                dst = row * RL + slot * Cp + (c8 ^ swz(slot)) * 8
                assert dst % 8 == 0 and dst + 8 <= TR * RL
                ok = 0 <= ih < H and 0 <= iw < W
                xs[dst:dst + 8] = x[n, ih, iw, c8 * 8:c8 * 8 + 8] if ok else 0
                assert not xw[dst:dst + 8].any(), "a patch slot written twice"
                xw[dst:dst + 8] = True
            def ldm(addrs, arr, wr):  # addrs: 32 lanes' row starts (halves); returns 4 matrices of 8x8
                nonlocal conflicts
                mats = []
                for m in range(4):
                    rows = addrs[8 * m:8 * m + 8]
                    for a in rows:
                        assert a % 8 == 0 and a >= 0 and a + 8 <= len(arr), "ldmatrix row out of range or unaligned"
                        assert wr[a:a + 8].all(), "ldmatrix reads shared memory nobody wrote"
                    if len(set((a // 8) % 8 for a in rows)) != 8:
                        conflicts += 1
                    mats.append(np.array([arr[a:a + 8] for a in rows]))
                return mats
            wflat = w.reshape(K, CRS)
            # split-K (next_k4_split.diff): split z reduces k from kb0 = z·kc, KS of them, into its own partial sums
            # (conv_reduce adds them); kc as conv.c's chunk_of: ceil(CRS / splits) rounded up to BK
            kc = ((CRS + SPLITS - 1) // SPLITS + BK - 1) // BK * BK if SPLITS > 1 else CRS
            for z in range(SPLITS):
              kb0 = z * kc if SPLITS > 1 else 0
              KS = min(kc, CRS - kb0) if SPLITS > 1 else CRS
              assert KS > 0
              Kts = (KS + 15) & ~15
              if SLAB is None:
                  Ls, NBs = (r64(Kts) if wg else Kts), 1
              else:
                  Ls = (r64(Kts) if wg else Kts) if Kts <= 2 * SLAB else SLAB
                  NBs = 2 if Kts > Ls else 1
              WPs, NSs = Ls + 8, (Kts + Ls - 1) // Ls
              KOs = r64(Kts) if wg else Kts
              if wg:
                  assert Ls % 64 == 0
                  assert 1024 + 2 * (NBs * BN * Ls + TR * RL) + 4 * (KOs // 8) <= smem
              else:
                  assert 2 * (TR * RL + NBs * BN * WPs) + 4 * (Kts // 8) <= smem, "a split's layout past the allocation"
              bsize = BN * Ls if wg else BN * WPs
              bufs = [np.zeros(bsize, dtype=np.int64) for _ in range(NBs)]
              bwr = [np.zeros(bsize, dtype=bool) for _ in range(NBs)]
              def slab_at(kk, k8):
                  return k8 // 8 * (BN * 64) + kk * 64 + ((k8 % 8) ^ (kk % 8)) * 8 if wg else kk * WPs + k8 * 8
              def load_slab(sl, b):
                  bwr[b][:] = False  # what the slab does not write is stale: reading it is an error
                  for e in range(BN * (Ls // 8)):
                      kk, k8 = e // (Ls // 8), e % (Ls // 8)
                      k = sl * Ls + 8 * k8
                      ok = kb0 + k < CRS and k0 + kk < K
                      at = slab_at(kk, k8)
                      assert not bwr[b][at:at + 8].any(), "a slab chunk written twice"
                      bufs[b][at:at + 8] = wflat[k0 + kk, kb0 + k:kb0 + k + 8] if ok else 0
                      bwr[b][at:at + 8] = True
              load_slab(0, 0)
              if NSs > 1:
                  load_slab(1, 1)
              off8 = []
              for k8 in range(KOs // 8):
                  k = kb0 + 8 * k8
                  c, s, r = k % C, k // C % S, k // C // S
                  cw = s * dw
                  T = (cw % sw) * TCs + cw // sw
                  o = (r * dh * RL + T * Cp + c) | (T % 8) << 28 if 8 * k8 < KS else 0
                  assert o < 2 ** 31
                  off8.append(o)
              accs = np.zeros((WM, MI, NI, 16, 8), dtype=np.int64)
              for sl in range(NSs):
                ws, wwr = bufs[sl % 2], bwr[sl % 2]
                for warp in range(WM):
                  acc = accs[warp]  # per strip i, tile j: the 16x8 C tile
                  kend = min(Ls, Kts - sl * Ls)
                  if wg:  # passes of 128 k and one of 64 at the end (to kend rounded up to 64), the descriptor once
                      kend64, passes, kp = r64(kend), [], 0  # a pass: k-step u at d0 + (u // 4)·BN·128 + (u % 4)·32 bytes
                      while PASS256 and BN == 32 and kp + 256 <= kend64:
                          passes.append((kp, 16)); kp += 256
                          P256_USED[0] += 1
                      while kp + 128 <= kend64:
                          passes.append((kp, 8)); kp += 128
                      if kp < kend64:
                          passes.append((kp, 4))
                      steps = [(kp + 16 * u, kp // 64 * BN * 128 + u // 4 * BN * 128 + u % 4 * 32)
                               for kp, U in passes for u in range(U)]
                  else:
                      steps = [(kb, None) for kb in range(0, kend, 16)]
                  for kb, start in steps:
                    Bt = np.zeros((NI, 16, 8), dtype=np.int64)  # k x n
                    if wg:  # wgmma's B: the descriptor's addresses (bytes), swizzled, into the slab's halves
                      assert kb < Ls and start < BN * Ls * 2
                      for nn in range(BN):
                          for kl in range(16):
                              pre = start + nn // 8 * 1024 + nn % 8 * 128 + kl * 2
                              phys = pre ^ (((pre >> 7) & 7) << 4)
                              assert wwr[phys // 2], "wgmma reads slab memory nobody wrote"
                              Bt[nn // 8, kl, nn % 8] = ws[phys // 2]
                    else:
                      # B: x4 over pairs of n8 tiles; lane: row br = lane%8 + 8*(lane//16), k half bk = lane//8%2
                      for j in range(0, NI - 1, 2):
                          addrs = [(j * 8 + (l % 8 + 8 * (l // 16))) * WPs + 8 * (l // 8 % 2) + kb for l in range(32)]
                          m = ldm(addrs, ws, wwr)
                          # matrix rows are filters (n), columns k: m0 (n0-7,k0-7) m1 (n0-7,k8-15) m2 (n8-15,k0-7) m3
                          Bt[j, 0:8, :] = m[0].T; Bt[j, 8:16, :] = m[1].T
                          Bt[j + 1, 0:8, :] = m[2].T; Bt[j + 1, 8:16, :] = m[3].T
                      if NI % 2:
                          addrs = [((NI - 1) * 8 + l % 8) * WPs + 8 * (l // 8 % 2) + kb for l in range(32)]
                          m = ldm(addrs, ws, wwr)  # x2: the first two matrices only
                          Bt[NI - 1, 0:8, :] = m[0].T; Bt[NI - 1, 8:16, :] = m[1].T
                    for i in range(MI):
                        strip = warp * MI + i
                        pr = strip // (DQ // 16)
                        addrs = []
                        for l in range(32):
                            ar, ak = l % 8 + 8 * (l // 8 % 2), l // 16
                            pc = strip % (DQ // 16) * 16 + ar
                            ow = off8[(sl * Ls + kb) // 8 + ak]
                            o = (ow & 0x0FFFFFFF) ^ (swz(ar + (ow >> 28)) << 3)
                            addrs.append(pr * sh * RL + pc * Cp + o)
                        m = ldm(addrs, xs, xw)
                        A = np.zeros((16, 16), dtype=np.int64)  # pixels x k
                        A[0:8, 0:8], A[8:16, 0:8], A[0:8, 8:16], A[8:16, 8:16] = m[0], m[1], m[2], m[3]
                        for j in range(NI):
                            acc[i, j] += A @ Bt[j]
                if sl + 2 < NSs:
                    load_slab(sl + 2, sl % 2)
              for warp in range(WM):
                acc = accs[warp]
                # the epilogue (direct_store; with splits, direct_partials and conv_reduce's sum in split order):
                # strip i's pixel row pr, columns q0 + ..*16 + 0..15
                for i in range(MI):
                    strip = warp * MI + i
                    p = p0 + strip // (DQ // 16)
                    for rr in range(16):
                        q = q0 + strip % (DQ // 16) * 16 + rr
                        if p >= P or q >= Q: continue
                        for j in range(NI):
                            for cc in range(8):
                                k = k0 + j * 8 + cc
                                if k < K:
                                    y[n, p, q, k] = acc[i, j, rr, cc] if z == 0 else y[n, p, q, k] + acc[i, j, rr, cc]
    bad = int((y != ref).sum())
    return bad, conflicts, smem

def main():
    global SLAB, STEPPED, SPLITS, SWIZZLE, WGMMA, PASS256
    args = sys.argv[1:]
    if '--pass256' in args:
        PASS256 = True
        args.remove('--pass256')
    if '--wgmma' in args:
        WGMMA = True
        args.remove('--wgmma')
    if '--swizzle' in args:
        SWIZZLE = True
        args.remove('--swizzle')
    splits = '--splits' in args
    if splits:
        args.remove('--splits')
    if '--stepped' in args:
        STEPPED = True
        args.remove('--stepped')
    if '--slab' in args:
        i = args.index('--slab')
        SLAB = int(args[i + 1])
        del args[i:i + 2]
    nshapes = int(args[0]) if args else 300
    rng = np.random.default_rng(7)
    random.seed(7)
    tiles = [(bm, bn, bk, wm) for bm in (64, 128) for bn in (32, 64) for bk in (16, 32, 64) for wm in (2, 4)
             if bm % bk == 0 and (bm // 16) % wm == 0]
    done = bad_total = conf_total = nsplit = 0
    # the rows this kernel is for, then random shapes
    fixed = [(1, 32, 79, 341, 32, 5, 10, 0, 0, 2, 2, 1, 1), (2, 32, 12, 120, 64, 3, 3, 1, 1, 1, 1, 1, 1),
             (1, 64, 6, 60, 128, 3, 3, 1, 1, 1, 1, 1, 1), (1, 16, 24, 240, 32, 3, 3, 1, 1, 1, 1, 1, 1)]
    while done < nshapes:
        if fixed:
            N, C, H, W, K, R, S, ph, pw, sh, sw, dh, dw = fixed.pop(0)
        else:
            N = random.choice([1, 2, 3]); C = 8 * random.choice([1, 2, 3, 4, 5, 6, 8, 16])
            H = random.randint(1, 24); W = random.randint(1, 40); K = random.choice([1, 3, 8, 17, 32, 40, 64, 70])
            R = random.randint(1, 5); S = random.randint(1, 10); sh = random.randint(1, 3); sw = random.randint(1, 3)
            dh = random.choice([1, 1, 2]); dw = random.choice([1, 1, 2]); ph = random.randint(0, 3); pw = random.randint(0, 3)
        BM, BN, BK, WM = random.choice(tiles)
        SPLITS = random.choice([1, 2, 3, 4, 8]) if splits else 1
        kc = ((C * R * S + SPLITS - 1) // SPLITS + BK - 1) // BK * BK
        if kc * (SPLITS - 1) >= C * R * S:  # conv.c offers no such split (the last would have no k)
            SPLITS = 1
        res = check(N, C, H, W, K, R, S, ph, pw, sh, sw, dh, dw, BM, BN, BK, WM, rng)
        if res is None:
            continue
        bad, conf, smem = res
        done += 1
        nsplit += SPLITS > 1
        bad_total += bad; conf_total += conf
        if bad or conf:
            print("MISMATCH" if bad else "CONFLICT", (N, C, H, W, K, R, S, ph, pw, sh, sw, dh, dw), (BM, BN, BK, WM), bad, conf)
    print("%d shapes (%d split%s): %d wrong outputs, %d ldmatrix matrices with a bank conflict" %
          (done, nsplit, ", %d through wgmma" % WG_SHAPES if WGMMA else "", bad_total, conf_total))
    if PASS256:
        print("%d warp passes of 256 k" % P256_USED[0])
    return 1 if bad_total or conf_total else 0

sys.exit(main())
