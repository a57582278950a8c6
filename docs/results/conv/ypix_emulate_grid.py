#!/usr/bin/env python3
# Extended check of next_ypix.diff: KIND 0's whole grid (block m0, thread tm/tn as conv_fp32.cu defines them),
# old scalar stores vs new (vector path + scalar fallback) as sets of (address, accumulator), exactly-once writes,
# byte alignment of each vector store (y base 256-aligned), and every TM lane in one image/in range.
# Also conv_reduce: exactly-once coverage over all groups; fp16/int8 store_tile reorder as sets; direct kernel with
# partial tiles (n from the tile index).
import random, itertools
def yi(NHWC,K,PQ,m,k): return m*K+k if NHWC else (m//PQ*K+k)*PQ+m%PQ
def ypix(NHWC,K,PQ,m): return m*K if NHWC else m+m//PQ*(K-1)*PQ
def ystep(NHWC,PQ): return 1 if NHWC else PQ
bad=0; nvec=0
random.seed(7)
cfgs=[(BM,BN,TM,TN) for BM in (32,64,128) for BN in (16,32,64,128) for TM in (2,4,8) for TN in (2,4,8)
      if BM%TM==0 and BN%TN==0 and 64<=(BM//TM)*(BN//TN)<=256]
shapes=[(random.randint(1,3),random.randint(1,12),random.randint(1,12),random.choice([1,2,3,5,8,13,16,17,33,64,70,130])) for _ in range(60)]
shapes+= [(2,2,4,3),(1,1,8,1),(3,4,6,17),(1,7,8,1),(16,2,2,5),(1,1,2,130)]
for (N,P,Q,K) in shapes:
    PQ=P*Q;NPQ=N*PQ
    for (BM,BN,TM,TN) in cfgs:
        T=(BM//TM)*(BN//TN)
        gx=(NPQ+BM-1)//BM; gy=(K+BN-1)//BN
        for NHWC in (0,1):
            old={};new={}
            for bx in range(gx):
                for by in range(gy):
                    m0=bx*BM;k0=by*BN
                    for tid in range(T):
                        tm = tid//(BN//TN) if NHWC else tid%(BM//TM)
                        tn = tid%(BN//TN) if NHWC else tid//(BM//TM)
                        mt=m0+tm*TM; kt=k0+tn*TN
                        for i in range(TM):
                            for j in range(TN):
                                if mt+i<NPQ and kt+j<K:
                                    a=yi(NHWC,K,PQ,mt+i,kt+j)
                                    if a in old: bad+=1
                                    old[a]=(bx,by,tid,i,j)
                        if (not NHWC) and PQ%TM==0:
                            if mt>=NPQ: continue
                            if mt%TM: bad+=1;print('mt',mt,TM)
                            if (mt+TM-1)//PQ!=mt//PQ or mt+TM-1>=NPQ: bad+=1;print('lanes')
                            yt=ypix(0,K,PQ,mt)+kt*PQ
                            for j in range(TN):
                                if kt+j>=K: break
                                step=TM if TM<4 else 4
                                for i in range(0,TM,step):
                                    w=min(step,TM)
                                    if (yt+i)*4 % (4*w): bad+=1;print('align',yt+i,w)
                                    for u in range(w):
                                        a=yt+i+u
                                        if a in new: bad+=1
                                        new[a]=(bx,by,tid,i+u,j); nvec+=1
                                yt+=PQ
                        else:
                            for i in range(TM):
                                m=mt+i
                                if m>=NPQ: continue
                                yp=ypix(NHWC,K,PQ,m)
                                for j in range(TN):
                                    if kt+j<K:
                                        a=yp+(kt+j)*ystep(NHWC,PQ)
                                        if a in new: bad+=1
                                        new[a]=(bx,by,tid,i,j)
            if old!=new: bad+=1;print('kind0 set',N,P,Q,K,BM,BN,TM,TN,NHWC)
            if sorted(old)!=list(range(NPQ*K)): bad+=1;print('old coverage')
    # conv_reduce, exactly-once over all groups, both layouts
    MK=NPQ*K
    for nhwc in (0,1):
        got={}
        for e0 in range(0,MK,4):
            if nhwc:
                for i in range(4):
                    if e0+i<MK: got[e0+i]=e0+i
                continue
            m=e0//K;yp=ypix(0,K,PQ,m);k=e0-m*K
            for i in range(4):
                if e0+i>=MK: break
                a=yp+k*PQ
                if a in got: bad+=1
                got[a]=e0+i
                k+=1
                if k==K and i<3: k=0;m+=1;yp=ypix(0,K,PQ,m)
        ref={ (yi(nhwc,K,PQ,e//K,e%K)):e for e in range(MK)}
        if got!=ref: bad+=1;print('reduce',N,P,Q,K,nhwc)
    # store_tile (fp16/int8) reorder: MI,NI tiles, wm0,wn0 warp offsets; old (i,j,e) vs new (i,e,j)
    for NHWC in (0,1):
      for (MI,NI) in ((1,1),(2,4)):
        for m0 in range(0,NPQ+16,32):
          for lane in range(32):
            gid,t4=lane//4,lane%4
            o=set();n_=set()
            for i in range(MI):
                for j in range(NI):
                    for e in (0,2):
                        m=m0+i*16+gid+(8 if e>=2 else 0);k=j*8+t4*2
                        if m>=NPQ: continue
                        if NHWC and K%2==0 and k+1<K: o.add(('v',m*K+k,i,j,e));continue
                        if k<K:o.add((yi(NHWC,K,PQ,m,k),i,j,e))
                        if k+1<K:o.add((yi(NHWC,K,PQ,m,k+1),i,j,e+1))
            for i in range(MI):
                for e in (0,2):
                    m=m0+i*16+gid+(8 if e>=2 else 0)
                    if m>=NPQ: continue
                    yp=ypix(NHWC,K,PQ,m)
                    for j in range(NI):
                        k=j*8+t4*2
                        if NHWC and K%2==0 and k+1<K: n_.add(('v',m*K+k,i,j,e));continue
                        if k<K:n_.add((yp+k*ystep(NHWC,PQ),i,j,e))
                        if k+1<K:n_.add((yp+(k+1)*ystep(NHWC,PQ),i,j,e+1))
            if o!=n_: bad+=1;print('store_tile')
    # direct kernels: tiles of DP rows x DQ cols, n = t // (qt*pt); partial tiles past P,Q skipped
    for DQ,DP in ((16,4),(32,2),(16,8)):
        qt=(Q+DQ-1)//DQ;pt=(P+DP-1)//DP
        for t in range(N*qt*pt):
            n=t//(qt*pt);pq=t%(qt*pt);p0=pq//qt*DP;q0=pq%qt*DQ
            for pr in range(DP):
                for qc in range(DQ):
                    p=p0+pr;q=q0+qc
                    if p>=P or q>=Q: continue
                    m=(n*P+p)*Q+q
                    for NHWC in (0,1):
                        yp=m*K if NHWC else m+n*(K-1)*PQ
                        for k in range(K):
                            if yp+k*ystep(NHWC,PQ)!=yi(NHWC,K,PQ,m,k): bad+=1
print('configs',len(cfgs),'shapes',len(shapes),'vector elements',nvec,'mismatches',bad)
