#!/bin/bash
# Device call 4 for convolution (issue 28): cuDNN's default-math entry labelled with the math it ran (the name
# says "(TF32)" or "(may be TF32)", the configuration the math type), checked to TF32's tolerance, never the
# vendor best. The four rows of run03 plus a large training row, JSON then the text table from the database.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
printf 'w,h,c,n,k,s,r,pad_w,pad_h,stride_w,stride_h,order\n700,161,1,1,32,20,5,0,0,2,2,NCHW\n56,56,256,1,128,1,1,0,0,2,2,NCHW\n7,7,832,1,256,1,1,0,0,1,1,NHWC\n28,28,128,8,128,3,3,1,1,1,1,NHWC\n28,28,256,16,512,3,3,1,1,1,1,NCHW\n' >/tmp/five.csv
s=$(date +%s)
timeout -s INT -k 10 150 ./dlbtune --op conv --suite /tmp/five.csv --db /tmp/c1 --json >$OUT/five.json 2>$OUT/five.err
echo "== five rows: exit $? in $(( $(date +%s) - s )) s"
grep -E "us, vendor best|error|warning" $OUT/five.err | cut -c1-220
./dlbtune export --format json --db /tmp/c1 >$OUT/export.json
grep -o '"name": *"cudnn[^"]*", *"kind": *[0-9]*, *"ok": *[a-z]*' $OUT/export.json | head -40
grep -o '"config": *"math[^"]*"' $OUT/export.json | sort | uniq -c
grep -o '"other_math": *true' $OUT/export.json | wc -l
./dlbtune --op conv --suite /tmp/five.csv --db /tmp/c1 2>&1 | cut -c1-420
