#!/bin/bash
# Device call 127 (issue 28), 2026-12-01 (an eighth session): the first third of the batch-1 and speech rows
# (batch1_speech_inference.csv rows 1-23) on 47e21e0 (KIND 5 landed), with a 330 s limit. run125 PART=2 cut this
# third at 160 s after 20 rows (a fresh machine compiles every kernel); with run125's other two thirds this makes
# the 67 rows on one build. Build: ./bootstrap && ./configure && make; ../shared/gpu/bundle .gpu ./dlbtune; carry
# dlbtune and .gpu. mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run127.sh
# Prediction: the three missing rows (7x7 c512 k512 3x3, 224x224 c3 k64 7x7 s2, 28x28 c192 k32 5x5) near run121's
# (KIND 5 applies to none of them); batch 1 about 1.44x, speech 1.48-1.49x over the 67.
mkdir -p $OUT/t2 && OUT=$OUT/t2 PART=2 LIMIT=330 bash docs/results/conv/run111.sh
gzip -f $OUT/t2/*.err
