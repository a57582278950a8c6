#!/bin/bash
# Device call 70 for convolution (issue 28), run67's build on run67-69's machine (kernel cache warm): the
# conv_training rows run67's call did not reach (26 distinct) (docs/results/conv/training_rest70.csv), fp16 NHWC, default
# search, fresh database. run67's 66 rows and these are the suite.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
t0=$(date +%s)
timeout -s INT -k 10 240 ./dlbtune --op conv --prec fp16 --layout NHWC --suite docs/results/conv/training_rest70.csv --db /tmp/dbT2 -v --csv >$OUT/training_rest.csv 2>$OUT/training_rest.err
echo "== conv_training rest fp16: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/training_rest.err) rows"
grep -E "wrong|fault" $OUT/training_rest.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/training_rest.err
