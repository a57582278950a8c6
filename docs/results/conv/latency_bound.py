#!/usr/bin/env python3
# Which rows of the H200 fp16 and fp32 conv suites are latency-bound for cuDNN (its best time at least 3x, or
# 10x, the roofline floor: the larger of the work at the CSV's peak and the bytes of x, w and y at 4.3 TB/s,
# the H200's measured copy rate), and our paired speedup there: issue 28's ">= 1.5x on batch-1 and speech
# layers where cuDNN is latency-bound". Run from the repository root.
import csv, gzip, math, sys
BW=4.3e12  # bytes/s: the device-to-device copy measured on an H200 (KINDS.md)
# The floor as this harness measures it: a launch's fixed cost plus its bytes at the copy rate (they add up:
# docs/NOTES.md, GEMM's latency-bound rows). The fixed cost is the smallest time any kernel, ours or cuDNN's,
# took in run69 (the suite with the smallest layers): 4.124 us. Since run107 our convolutions are programmatic
# dependent launches and run as low as 3.24 us (run130), under it; so where a file's fastest kernel is under
# TMIN the script also prints the class with that time as the fixed cost (docs/NOTES.md item 220).
TMIN=4.124
def gm(xs): return math.exp(sum(math.log(x) for x in xs)/len(xs)) if xs else float('nan')
# DeepBench's speech layers: DeepSpeech (700x161, 341x79) and Speaker ID (350x80, 175x40, 84x20, 42x10)
SPEECH={('700','161'),('341','79'),('350','80'),('175','40'),('84','20'),('42','10')}
for name,f,es_in,es_out in [("conv_inference_server fp16 NHWC (run69)","docs/results/conv/logs/run69/inference_server.csv",2,2),
                 ("conv_inference_server fp16 NHWC (run84, cluster split-K)","docs/results/conv/logs/run84/inference_server_all.csv",2,2),
                 ("conv_training fp16 NHWC (run67)","docs/results/conv/logs/run67/training.csv",2,2),
                 ("conv_training fp16 NHWC (run70)","docs/results/conv/logs/run70/training_rest.csv",2,2),
                 ("conv_training fp32 NCHW (run72)","docs/results/conv/logs/run72/training_fp32.csv",4,4),
                 ("conv_training fp32 NCHW (gemm_fp32 run20)","docs/results/gemm_fp32/logs/run20/conv_training.csv.gz",4,4),
                 ("conv_training fp32 NCHW (run86, cluster split-K)","docs/results/conv/logs/run86/training_fp32.csv",4,4),
                 ("conv_training fp32 NCHW (run91, the FFMA kernel's 1x1 loads)","docs/results/conv/logs/run91/training_fp32.csv",4,4),
                 ("conv_training fp32 NCHW (run93, epilogues a pixel at a time, 3xTF32 BN 32)","docs/results/conv/logs/run93/part2/training_fp32.csv",4,4),
                 ("conv_training fp16 NHWC speech rows (run101, KIND 4 with wgmma)","docs/results/conv/logs/run101/part2/speech_fp16.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run102, KIND 4 with wgmma)","docs/results/conv/logs/run102/batch1_speech.csv",2,2),
                 ("conv_training fp16 NHWC speech rows (run104, KIND 4 with 128-k passes)","docs/results/conv/logs/run104/speech_fp16.csv",2,2),
                 ("conv_training fp16 NHWC speech rows (run105, PDL + 256-k passes; the latter not kept)","docs/results/conv/logs/run105/speech_fp16.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run107, every convolution a dependent launch)","docs/results/conv/logs/run107/batch1_speech.csv",2,2),
                 ("conv_training fp16 NHWC speech rows (run107, every convolution a dependent launch)","docs/results/conv/logs/run107/part2/speech_fp16.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run111, the search by magnitude, window up to 48)","docs/results/conv/logs/run111/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run115, two producer threads, lean consumer loop)","docs/results/conv/logs/run115/part1_lean/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run116, the direct kernels' NHWC stores two filters at a time)","docs/results/conv/logs/run116/part1_batch1_ds/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run119, fp16 KIND 3 stores under one predicate a column)","docs/results/conv/logs/run119/part2/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run121, the wgmma descriptors in uniform registers)","docs/results/conv/logs/run121/part1/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run125, KIND 5: the halo kernel; 64 of 67 rows)","docs/results/conv/logs/run125/part2/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run127 first third + run125's others, all 67 on 47e21e0)","docs/results/conv/logs/run127/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run130, KIND 3's staged 16-byte stores)","docs/results/conv/logs/run130/part2/batch1_speech.csv",2,2),
                 ("conv_training fp16 NHWC speech rows (run131, on e4ef97a's conv code)","docs/results/conv/logs/run131/speech_training_fp16.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run135, the wgmma and halo kernels' set-up before their wait)","docs/results/conv/logs/run135/part3/p3/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run139, run135's kernels measured again)","docs/results/conv/logs/run139/p/batch1_speech.csv",2,2),
                 ("conv_inference_server fp16 NHWC batch-1 and speech rows (run143, the one-sided cluster finish, f9739ff)","docs/results/conv/logs/run143/part3/batch1_speech67.csv",2,2)]:
    out=[]
    for r in csv.DictReader(gzip.open(f, 'rt') if f.endswith('.gz') else open(f)):
        try:
            n,k,c,R,S,p,q,h,w=(int(r[x]) for x in ['n','k','c','r','s','p','q','h','w'])
            flops=2.0*n*k*p*q*c*R*S
            comp=flops/(float(r['peak'])*1e12)*1e6
            mem=(es_in*(n*c*h*w+k*c*R*S)+es_out*n*k*p*q)/BW*1e6
            cud=min(float(x) for x in [r['cudnn_heuristic_us'],r['cudnn_find_us']] if x not in ('','n/a'))
            ps=float(r['paired_speedup'])
            ours=float(r['paired_tuned_us'])
        except ValueError:
            continue
        L=cud/max(comp,mem)
        out.append(dict(n=n,L=L,ps=ps,speech=(r['w'],r['h']) in SPEECH,cud=cud,comp=comp,mem=mem,ours=ours,
                        shape="%sx%s c%s n%s k%s %sx%s"%(r['w'],r['h'],r['c'],r['n'],r['k'],r['s'],r['r'])))
    print("==",name,len(out),"rows")
    # Since the convolutions became programmatic dependent launches (run106-107) ours run under TMIN: the floor
    # from this file's own fastest kernel (ours or cuDNN's) instead
    tfile=min([o['ours'] for o in out]+[o['cud'] for o in out])
    for cls,sel in [("batch 1",[o for o in out if o['n']==1]),("speech",[o for o in out if o['speech']])]:
        if not sel: continue
        print("  %s: %d rows, paired %.3f" % (cls,len(sel),gm([o['ps'] for o in sel])))
        for thr in [3,10]:
            s2=[o for o in sel if o['L']>=thr]
            print("    cuDNN >= %2dx its roofline floor: %d rows, paired %.3f (min %.2f)" % (thr,len(s2),gm([o['ps'] for o in s2]),min([o['ps'] for o in s2] or [float('nan')])))
        room=[o for o in sel if o['cud']>=1.5*(TMIN+o['mem'])]
        print("    cuDNN >= 1.5x the measured floor (%.2f us + bytes at 4.3 TB/s): %d rows, paired %.3f; the other %d rows (1.5x out of reach at this floor) %.3f"
              % (TMIN,len(room),gm([o['ps'] for o in room]),len(sel)-len(room),gm([o['ps'] for o in sel if o not in room])))
        if tfile<TMIN:
            room=[o for o in sel if o['cud']>=1.5*(tfile+o['mem'])]
            print("    cuDNN >= 1.5x the floor of this file's fastest kernel (%.2f us + bytes at 4.3 TB/s): %d rows, paired %.3f; the other %d rows %.3f"
                  % (tfile,len(room),gm([o['ps'] for o in room]),len(sel)-len(room),gm([o['ps'] for o in sel if o not in room])))
