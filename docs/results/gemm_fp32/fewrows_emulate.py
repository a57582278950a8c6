# CPU emulation of next_fewrows.diff's fewrows_body (templates/gemm_fp32.cu, KIND 3): every thread, both register
# batches of B, A's staging (vector and scalar paths), the split-K partials and their z-order sum, in exact integer
# arithmetic; it reports any C element not equal to its sum, written twice or not at all, and any read out of range,
# of padding or misaligned. `python3 docs/results/gemm_fp32/fewrows_emulate.py` (80 cases, a few minutes): docs/NOTES.md
# item 222.
import itertools, random, sys
from fractions import Fraction

def run(M,N,K,BM,BN,TN,KU,TA,TB,split,BK=16,ACH=64,RC=8,ldpad=(0,0,0)):
    THREADS=BN//TN
    assert BM%RC==0 and KU%4==0 and ACH%KU==0 and THREADS%32==0
    # host
    lda = (K if TA else M)+ldpad[0]; ldb=(N if TB else K)+ldpad[1]; ldc=M+ldpad[2]
    kc=(K+split-1)//split; kc=(kc+BK-1)//BK*BK
    nt=(N+BN-1)//BN; mt=(M+BM-1)//BM
    assert mt==1
    vec_b = ldb%4==0
    rnd=random.Random(M*7+N*13+K)
    Asz = (M*lda if TA else K*lda); Bsz=(N*ldb if not TB else K*ldb)
    A=[rnd.randint(-9,9) for _ in range(Asz)]; B=[rnd.randint(-9,9) for _ in range(Bsz)]
    def Aget(m,k):
        idx = m*lda+k if TA else k*lda+m
        return A[idx]
    def Bget(k,n):
        return B[k*ldb+n] if TB else B[n*ldb+k]
    C={} ; W={}
    errs=[]
    def ldgA(idx):
        if not (0<=idx<Asz): errs.append(("A oob",idx)); return 0
        if TA: m,k=divmod(idx,lda)
        else: k,m=divmod(idx,lda)
        if m>=M or k>=K: errs.append(("A pad",m,k))
        return A[idx]
    def ldgB(idx,width):
        if idx%width: errs.append(("B misaligned",idx,width))
        out=[]
        for w in range(width):
            i=idx+w
            if not (0<=i<Bsz): errs.append(("B oob",i)); out.append(0); continue
            if TB: k,n=divmod(i,ldb)
            else: n,k=divmod(i,ldb)
            if n>=N or k>=K: errs.append(("B pad",k,n))
            out.append(B[i])
        return out
    counters=[0]*nt
    cwrites={}
    for z in range(split):
      for bx in range(nt):
        kbeg=z*kc; kend=kbeg+kc if kbeg+kc<K else K
        chunks=(M+RC-1)//RC
        As=[None]*(ACH*BM)
        thr=[]
        for tid in range(THREADS):
            n0=bx*BN+tid*TN
            thr.append(dict(n0=n0,bvec=vec_b and n0+TN<=N,acc=[[0]*TN for _ in range(BM)]))
        def load_b(t,k0):
            n0=t['n0']; b=[[0]*TN for _ in range(KU)]
            if t['bvec'] and k0+KU<=kend:
                if TB:
                    for u in range(KU):
                        p=(k0+u)*ldb+n0
                        v=ldgB(p,TN)   # float4/float2/scalar
                        for j in range(TN): b[u][j]=v[j]
                else:
                    for j in range(TN):
                        for q in range(KU//4):
                            v=ldgB((n0+j)*ldb+k0+4*q,4)
                            for w in range(4): b[4*q+w][j]=v[w]
                return b
            for u in range(KU):
                for j in range(TN):
                    if k0+u<kend and n0+j<N:
                        b[u][j]=ldgB((k0+u)*ldb+n0+j if TB else (n0+j)*ldb+k0+u,1)[0]
            return b
        bufs=[[load_b(t,kbeg) for t in thr],[None]*THREADS]
        def step(cur,nxt,k0):
            kk=(k0-kbeg)%ACH
            if kk==0:
                for i in range(len(As)): As[i]=None  # barrier: stale chunk invalid
                vec_a = lda%4==0
                for tid in range(THREADS):
                    for e in range(tid,ACH*BM//4,THREADS):
                        m = e%BM if TA else e%(BM//4)*4; ck = e//BM*4 if TA else e//(BM//4)
                        k=k0+ck
                        if vec_a and ((m<M and k+3<kend) if TA else (m+3<M and k<kend)):
                            idx = m*lda+k if TA else k*lda+m
                            if idx%4: errs.append(("A misaligned",idx))
                            v=[ldgA(idx+q) for q in range(4)]
                        else:
                            v=[]
                            for q in range(4):
                                mq = m if TA else m+q; kq = k+q if TA else k
                                v.append(ldgA(mq*lda+kq if TA else kq*lda+mq) if (mq<M and kq<kend) else 0)
                        for q in range(4):
                            pos = (ck+q)*BM+m if TA else ck*BM+m+q
                            if As[pos] is not None: errs.append(("As twice",pos))
                            As[pos]=v[q]
            for ti,t in enumerate(thr):
                if k0+KU<kend: bufs[nxt][ti]=load_b(t,k0+KU)
                bc=bufs[cur][ti]
                for c in range(BM//RC):
                    if c>=chunks: break
                    for u in range(KU):
                        base=(kk+u)*BM+c*RC
                        if base%4: errs.append(("As misaligned",base))
                        if base+8>len(As): errs.append(("As oob",base)); continue
                        a=As[base:base+8]
                        if any(x is None for x in a): errs.append(("As stale",base))
                        for i in range(RC):
                            for j in range(TN):
                                t['acc'][c*RC+i][j]+= (a[i] or 0)*bc[u][j]
        k0=kbeg
        while k0<kend:
            step(0,1,k0)
            if k0+KU>=kend: break
            step(1,0,k0+KU)
            k0+=2*KU
        sp=split>1
        for t in thr:
            n0=t['n0']
            for j in range(TN):
                if n0+j>=N: break
                for c in range(BM//RC):
                    if c>=chunks: break
                    for i in range(RC):
                        m=c*RC+i
                        if m<M:
                            if sp:
                                idx=z*M*N+(n0+j)*M+m
                                if idx in W: errs.append(("W dup",idx))
                                W[idx]=t['acc'][m][j]
                            else:
                                idx=(n0+j)*ldc+m
                                if idx in cwrites: errs.append(("C dup",idx))
                                cwrites[idx]=t['acc'][m][j]
        if sp:
            counters[bx]+=1
            if counters[bx]==split:
                for tid in range(THREADS):
                    for e in range(tid,BN*BM,THREADS):
                        m=e%BM; n=bx*BN+e//BM
                        if m<M and n<N:
                            s=0
                            for zz in range(split):
                                idx=zz*M*N+n*M+m
                                if idx not in W: errs.append(("W unwritten",idx))
                                s+=W.get(idx,0)
                            idx=n*ldc+m
                            if idx in cwrites: errs.append(("C dup",idx))
                            cwrites[idx]=s
                counters[bx]=0
    # check
    bad=0
    for n in range(N):
        for m in range(M):
            want=sum(Aget(m,k)*Bget(k,n) for k in range(K))
            got=cwrites.get(n*ldc+m)
            if got!=want: bad+=1
    extra=[i for i in cwrites if i%ldc>=M or i//ldc>=N]
    return bad,len(errs),errs[:5],extra[:3]

cases=[]
for TA,TB in itertools.product((0,1),(0,1)):
    for split in (1,3):
        cases.append((35,77,333,64,64,2,8,TA,TB,split))
for TA,TB in itertools.product((0,1),(0,1)):
    for cfg in [(20,77,333,32,128,4,4),(7,300,100,16,32,1,16),(33,17,130,64,128,1,16),(64,129,64,64,64,2,4),(16,33,17,16,128,4,8),(40,65,200,64,32,1,8)]:
        for split in (1,2,5):
            cases.append(cfg+(TA,TB,split))
# unaligned ld (K odd etc.) already via shapes; also padded ld
tot=0
for c in cases:
    r=run(*c)
    tot+= r[0]+r[1]+len(r[3])
    if r[0] or r[1] or r[3]: print("FAIL",c,r)
print("cases",len(cases),"problems",tot)
