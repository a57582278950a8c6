#!/usr/bin/env python3
# next_ypix.diff (docs/NOTES.md item 140): its store index maps against the old conv_yi, in Python: every pixel and
# filter of 3000 random shapes in both layouts, the direct kernels' n-known form, KIND 0's vector path (its alignment),
# conv_reduce's stepping over groups of four, the wgmma epilogue's loop reorder. Prints the mismatches (0).
import random
def yi(NHWC,K,PQ,m,k): return m*K+k if NHWC else (m//PQ*K+k)*PQ+m%PQ
def ypix(NHWC,K,PQ,m): return m*K if NHWC else m+m//PQ*(K-1)*PQ
def ystep(NHWC,PQ): return 1 if NHWC else PQ
random.seed(1)
bad=0
for t in range(3000):
    N=random.randint(1,5);P=random.randint(1,9);Q=random.randint(1,9);K=random.randint(1,40);PQ=P*Q;NPQ=N*PQ
    for NHWC in (0,1):
        for m in range(NPQ):
            for k in range(K):
                if ypix(NHWC,K,PQ,m)+k*ystep(NHWC,PQ)!=yi(NHWC,K,PQ,m,k): bad+=1
        # KIND 3 direct: yp from n known
        for n in range(N):
            for p in range(P):
                for q in range(Q):
                    m=(n*P+p)*Q+q
                    yp=m*K if NHWC else m+n*(K-1)*PQ
                    if yp!=ypix(NHWC,K,PQ,m): bad+=1
    # KIND 0 vector path: TM pixels from mt (multiple of TM) in one image, PQ % TM == 0
    for TM in (2,4,8):
        if PQ%TM: continue
        for mt in range(0,NPQ,TM):
            for kt in range(K):
                base=ypix(0,K,PQ,mt)+kt*PQ
                assert base%TM==0
                for i in range(TM):
                    if base+i!=yi(0,K,PQ,mt+i,kt): bad+=1
    # conv_reduce's NCHW stepping over groups of 4 elements e0..e0+3 (e = m*K + k)
    MK=NPQ*K
    for e0 in range(0,MK,4):
        m=e0//K;yp=ypix(0,K,PQ,m);k=e0-m*K
        for i in range(4):
            if e0+i>=MK: break
            if yp+k*PQ!=yi(0,K,PQ,(e0+i)//K,(e0+i)%K): bad+=1
            k+=1
            if k==K and i<3: k=0;m+=1;yp=ypix(0,K,PQ,m)
# the wgmma epilogue's loop order: old (i, r) pairs vs new (i, h, r)
for BN in (16,32,64,128,256):
    old=[(r, 8*((r>>1)&1), 8*(r//4)) for r in range(0,BN//2,2)]
    new=[(r, 8*h, 8*(r//4)) for h in range(2) for r in range(2*h,BN//2,4)]
    if sorted(old)!=sorted(new): bad+=1; print('wgmma order',BN)
print('mismatches',bad)
