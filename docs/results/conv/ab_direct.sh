#!/bin/bash
# A/B of two builds on the direct kernels' rows, as run116 PART=2, run117 and run118 did it inline: each build twice
# (the second pass --retune on the first's database, its kernels cached), fp16 NHWC, exhaustive over ONLY (default
# KIND 3 and 4) on ROWS (default direct_rows116.csv); the table by ab_direct116.py; every file in $OUT/ab.tgz.
# OUT=dir A=label BIN_A=path B=label BIN_B=path [ROWS=csv] [ONLY=pattern] [TMO=seconds a pass, 120] bash docs/results/conv/ab_direct.sh
d=docs/results/conv
O=$OUT/ab
rows=${ROWS:-$d/direct_rows116.csv}
n=$(($(wc -l <"$rows") - 1))
t0=$(date +%s)
rm -rf $O /tmp/dbab_* && mkdir -p $O
for pass in 1 2; do
	for b in $A $B; do
		bin=$BIN_A; [ $b = $B ] && bin=$BIN_B
		re=; [ $pass = 2 ] && re=--retune
		timeout -s INT -k 5 ${TMO:-120} $bin --op conv --prec fp16 --layout NHWC --suite $rows --only "${ONLY:-KIND=3|KIND=4}" \
			--strategy exhaustive --paired 0 $re -v --db /tmp/dbab_$b --csv >$O/${b}_$pass.csv 2>$O/${b}_$pass.err
		echo "== $b pass $pass: exit $? at $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $O/${b}_$pass.err) of $n rows without a wrong answer or fault"
	done
done
python3 $d/ab_direct116.py $O $A $B
gzip -f $O/*.err
tar czf $OUT/ab.tgz -C $O . && rm -rf $O
