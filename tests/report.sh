#!/bin/sh
# report: `dlbtune report` on the fixture records (tests/data: GEMM on two GPUs and two drivers, a sparse
# record): index.html and every plot's SVG parse as XML (xmllint), every plot has its CSV and gnuplot script,
# a group's CSV holds its problems sorted by speedup, each group has a roofline (its CSV holds each problem's
# intensity and throughputs, its script the GPU's roofs) and a search-progress plot (the best so far after each
# stored trial, in the search's order), the pages name each op x precision x GPU and its platforms;
# without gnuplot (DLBTUNE_GNUPLOT=none) the tables stay and the pages say the plots are missing; --compare of
# two databases, or of two GPUs of one (--device, --compare-device), gives the expected ratios; bad options exit 2.
# CPU only.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
. "$top_srcdir/tests/lib.sh"
command -v xmllint >/dev/null || { echo "FAIL: xmllint not found (Debian: libxml2-utils; ./bootstrap installs it)"; exit 1; }

"$bin" import "$top_srcdir/tests/data/records.json" --db "$tmp/db" >/dev/null 2>"$tmp/err" || bad "import: $(cat "$tmp/err")"
"$bin" import "$top_srcdir/tests/data/spmm_record.json" --db "$tmp/db" >/dev/null 2>"$tmp/err" || bad "import spmm: $(cat "$tmp/err")"

# with gnuplot where configure or DLBTUNE_GNUPLOT found one
"$bin" report --out "$tmp/r" --any-version --db "$tmp/db" 2>"$tmp/err" && ok || bad "report: $(cat "$tmp/err")"
cp "$tmp/err" "$tmp/r.err"
[ -s "$tmp/r/index.html" ] && [ -s "$tmp/r/report.md" ] && ok || bad "no index.html or report.md"
xmllint --noout "$tmp/r/index.html" 2>"$tmp/x" && ok || bad "index.html does not parse: $(head -3 "$tmp/x")"
ncsv=$(ls "$tmp/r"/*_speedup.csv 2>/dev/null | wc -l)
[ "$ncsv" = 4 ] && ok || bad "$ncsv plot CSVs, not 4 (gemm fp32 on three GPU x driver groups, spmm fp32)"
for c in "$tmp/r"/*_speedup.csv; do
	[ -s "${c%.csv}.gp" ] || bad "$(basename "$c"): no gnuplot script"
done
grep -q "4 tables, " "$tmp/err" && ok || bad "report's summary: $(cat "$tmp/err")"
# each family's own plot, from its own columns: spmm's speedup wrt dense against sparsity (spmm_record.json:
# dense 1.34707x ours, 1.56762x cuSPARSE's at 90%), gemm's paired speedup against N (only the group whose
# records were timed side by side has values)
grep -qx 'problem,sparsity,speedup_wrt_dense,cusparse_wrt_dense' "$tmp/r/spmm_fp32_4_wrt_dense.csv" &&
	grep -qx '"7680x2560 90.00% sparse, N 1500, uniform",0.9,1.34707,1.56762' "$tmp/r/spmm_fp32_4_wrt_dense.csv" &&
	grep -qx 'problem,n,paired_speedup' "$tmp/r/gemm_fp32_1_by_n.csv" &&
	grep -qF "Speedup wrt dense against sparsity data: spmm_fp32_4_wrt_dense.csv" "$tmp/r/report.md" && ok ||
	bad "the ops' own plots: $(cat "$tmp/r/spmm_fp32_4_wrt_dense.csv" 2>&1)"
for t in "gemm fp32 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0" "gemm fp32 on NVIDIA H100 80GB HBM3" "spmm fp32 on"; do
	grep -qF "<h2>$t" "$tmp/r/index.html" && grep -qF "## $t" "$tmp/r/report.md" && ok || bad "no section '$t'"
done
# each group names its platforms (the fixture's platform records)
grep -q "<p>Platform: NVIDIA H200 (sm_90, 132 SMs at 1980 MHz, 140 GiB" "$tmp/r/index.html" &&
	grep -q "^Platform: NVIDIA H100 80GB HBM3 .*host gpu-node-2" "$tmp/r/report.md" && ok || bad "no platform lines"
# the H200 driver 13.0 group: two problems, sorted by speedup (paired 0.99x, then unpaired 1.71x)
g="$tmp/r/gemm_fp32_2_speedup.csv" # groups in the order of GPU model id, then driver
awk -F, 'NR == 2 {a = $3; m2 = $6} NR == 3 {b = $3; m3 = $6} END {exit !(NR == 3 && a + 0 < b + 0 && m2 == "paired" && m3 == "unpaired")}' "$g" &&
	ok || bad "gemm_fp32_2_speedup.csv: $(cat "$g")"
# a roofline per group: intensity = work / the bytes of the inputs read once and the output written once
# (1760x16x1760 fp32: 2·1760·16·1760 / (4·(1760·1760 + 1760·16 + 1760·16)) = 7.85714), the throughputs in TFLOP/s
# (16.736 us: 5.9227); the GEMM groups' bandwidth from the records' platforms (none of the GEMM records holds
# one; the H200's 2 x 3201 MHz x 6144 bits = 4916.74 GB/s), the sparse record's from itself
[ "$(ls "$tmp/r"/*_roofline.csv 2>/dev/null | wc -l)" = 4 ] && ok || bad "not 4 roofline CSVs: $(ls "$tmp/r")"
awk -F, '$1 == "\"1760x16x1760 NN\"" && $2 == 7.85714 && $3 == 5.92275 {n++} END {exit !(n == 1)}' "$tmp/r/gemm_fp32_2_roofline.csv" &&
	ok || bad "gemm_fp32_2_roofline.csv: $(cat "$tmp/r/gemm_fp32_2_roofline.csv")"
grep -q "^# under the GPU's roofs: 66.9 TFLOP/s and 4916.74 GB/s" "$tmp/r/gemm_fp32_2_roofline.gp" && ok ||
	bad "the H200 group's roofs: $(grep roofs "$tmp/r/gemm_fp32_2_roofline.gp")"
# plots where dlbtune finds gnuplot: $DLBTUNE_GNUPLOT when set (empty or none: no plots), else configure's
if [ -n "${DLBTUNE_GNUPLOT+set}" ]; then
	case $DLBTUNE_GNUPLOT in "" | none) plots=0 ;; *) plots=1 ;; esac
elif grep -q "^#define DLB_GNUPLOT \"/" "$top_builddir/config.h" 2>/dev/null; then
	plots=1
else
	plots=0
fi
if [ $plots = 1 ]; then
	grep -q ", 4 search-progress plots, 2 plots of the ops' own$" "$tmp/r.err" && xmllint --noout "$tmp/r/spmm_fp32_4_wrt_dense.svg" 2>"$tmp/x" &&
		grep -qF 'src="spmm_fp32_4_wrt_dense.svg"' "$tmp/r/index.html" && ok || bad "the spmm plot: $(cat "$tmp/r.err" "$tmp/x")"
fi
if [ $plots = 1 ]; then
	nsvg=$(ls "$tmp/r"/*_speedup.svg 2>/dev/null | wc -l)
	[ "$nsvg" = 4 ] && ok || bad "$nsvg SVG plots, not 4: $(cat "$tmp/r/gnuplot.log" 2>/dev/null | head -5)"
	grep -q ", 4 rooflines" "$tmp/err" && [ "$(ls "$tmp/r"/*_roofline.svg 2>/dev/null | wc -l)" = 4 ] && ok ||
		bad "not 4 roofline SVGs: $(cat "$tmp/err")"
	for s in "$tmp/r"/*_speedup.svg "$tmp/r"/*_roofline.svg; do
		xmllint --noout "$s" 2>"$tmp/x" || bad "$(basename "$s") does not parse: $(head -3 "$tmp/x")"
		[ -s "${s%.svg}.csv" ] || bad "$(basename "$s") has no CSV"
		grep -qF "$(basename "$s")" "$tmp/r/index.html" || bad "index.html does not show $(basename "$s")"
	done
else
	echo "report: no gnuplot (configure's or DLBTUNE_GNUPLOT); the SVG checks are skipped (the no-gnuplot path is tested below)"
fi

# search progress: the fixture's trials carry no order (one timestamp, no seq), so each group's plot is short; a
# search of 8 trials stored with its order (progress_record.json: seq 1-8 on an H100, their GPU seconds, one wrong
# answer, kept by LMDB in the order of their configurations) gives the best so far / final best after each trial
"$bin" import "$top_srcdir/tests/data/progress_record.json" --db "$tmp/pdb" >/dev/null 2>"$tmp/err" || bad "import progress: $(cat "$tmp/err")"
"$bin" report --out "$tmp/p" --any-version --db "$tmp/pdb" 2>"$tmp/err" && ok || bad "report of the progress fixture: $(cat "$tmp/err")"
[ $plots = 0 ] || grep -q ", 2 search-progress plots, " "$tmp/err" || bad "the progress plots: $(cat "$tmp/err")"
got=$(cut -d, -f2- "$tmp/p/gemm_fp32_2_progress_1.csv" | tr '\n' ' ')
want="trials,gpu_seconds,best_us,best_over_final 1,0.9000,30.0000,1.5464 2,1.6000,25.0000,1.2887 3,2.0000,25.0000,1.2887 4,2.8000,25.0000,1.2887 5,3.4000,20.0000,1.0309 6,3.9000,20.0000,1.0309 7,4.5000,19.5000,1.0052 8,6.0000,19.4000,1.0000 "
[ "$got" = "$want" ] && ok || bad "gemm_fp32_2_progress_1.csv: $got"
if [ $plots = 1 ]; then
	xmllint --noout "$tmp/p/gemm_fp32_2_progress.svg" 2>"$tmp/x" && grep -qF gemm_fp32_2_progress.svg "$tmp/p/index.html" && ok ||
		bad "the progress SVG: $(head -3 "$tmp/x")"
fi
# power and clocks (power_record.json: bursts of 10256 and 9524 calls in 0.2 s at 80 and 90 J on an H100 whose
# platform names its CPU): J/call, TFLOP/s/W, the SM clock's range in the table, the CPU in the platform line
"$bin" import "$top_srcdir/tests/data/power_record.json" --db "$tmp/wdb" >/dev/null 2>"$tmp/err" || bad "import power: $(cat "$tmp/err")"
"$bin" report --out "$tmp/w" --any-version --db "$tmp/wdb" 2>"$tmp/err" && ok || bad "report of the power fixture: $(cat "$tmp/err")"
grep -qF "| J/call | vendor J/call | TFLOP/s/W | vendor TFLOP/s/W | SM MHz |" "$tmp/w/report.md" &&
	grep -qF "| 1.08x [1.07, 1.08] | 0.0078 | 0.00945 | 0.0172 | 0.0142 | 1830-1980 |" "$tmp/w/report.md" && ok ||
	bad "the power columns: $(grep -F "1024 | 64" "$tmp/w/report.md")"
# the same model of GPU twice (a run over two GPUs of one host): one platform line naming both, spanning
# their times (the copy: another UUID, another shape, seen an hour later)
sed -e 's/GPU-a1b2c3d4/GPU-b2c3d4e5/g' -e 's/1024x64x1024/1024x64x2048/' -e 's/"k": 1024/"k": 2048/' \
	-e 's/"last_seen": "2026-11-20T12:00:00Z"/"last_seen": "2026-11-20T13:00:00Z"/' \
	"$top_srcdir/tests/data/power_record.json" >"$tmp/power2.json"
"$bin" import "$tmp/power2.json" --db "$tmp/wdb" >/dev/null 2>"$tmp/err" &&
	"$bin" report --out "$tmp/w2" --any-version --db "$tmp/wdb" 2>"$tmp/err" &&
	grep -q "^Platform, 2 GPUs alike (GPU-a1b2c3d4, GPU-b2c3d4e5): NVIDIA H100 80GB HBM3 .*; 2026-11-20T10:00:00Z to 2026-11-20T13:00:00Z$" "$tmp/w2/report.md" &&
	[ "$(grep -c "^Platform" "$tmp/w2/report.md")" = 1 ] && ok || bad "two GPUs alike: $(cat "$tmp/err"; grep "^Platform" "$tmp/w2/report.md")"
# a third, whose UUID sorts first but whose problem (K = 4096) comes last: the list is in the UUIDs' order
sed -e 's/GPU-a1b2c3d4/GPU-0a1b2c3d/g' -e 's/1024x64x1024/1024x64x4096/' -e 's/"k": 1024/"k": 4096/' \
	"$top_srcdir/tests/data/power_record.json" >"$tmp/power3.json"
"$bin" import "$tmp/power3.json" --db "$tmp/wdb" >/dev/null 2>"$tmp/err" &&
	"$bin" report --out "$tmp/w3" --any-version --db "$tmp/wdb" 2>"$tmp/err" &&
	grep -q "^Platform, 3 GPUs alike (GPU-0a1b2c3d, GPU-a1b2c3d4, GPU-b2c3d4e5): " "$tmp/w3/report.md" && ok ||
	bad "three GPUs alike, in order: $(cat "$tmp/err"; grep "^Platform" "$tmp/w3/report.md")"
# the group's summary: its speedup (1.077, CI above 1), and the vendor's joules over ours, 0.00945 / 0.0078
grep -qF "1 problems; geomean speedup 1.077x over 1 (1 of them paired); tuned faster in 1, the vendor in 0, the rest within their CI; energy per call, the vendor's / ours (geomean): 1.21x over the 1 row with both" "$tmp/w/report.md" &&
	grep -qF '<p class="summary">1 problems; geomean speedup 1.077x' "$tmp/w/index.html" && ok ||
	bad "the summary line: $(grep -F "problems; " "$tmp/w/report.md")"
grep -qF "<td>0.0078</td>" "$tmp/w/index.html" && grep -qF "Linux 6.8.0-45-generic, Intel(R) Xeon(R) Platinum 8480+;" "$tmp/w/index.html" &&
	xmllint --noout "$tmp/w/index.html" && ok || bad "the power fixture's page: $(grep -c J/call "$tmp/w/index.html")"
# two GPUs of one database: the same problem on the H200 (17.6 us, vendor 19.0) against the H100 (19.4, 21.0)
"$bin" report --out "$tmp/pc" --any-version --db "$tmp/pdb" --device H100 --compare-device H200 2>"$tmp/err" &&
	grep -q "; 1 comparisons" "$tmp/err" && grep -q '^1,"512x64x1024 NN",19.400,17.600,0.9072,21.000,19.000,0.9048$' "$tmp/pc/compare_1.csv" &&
	grep -q "on GPUs matching 'H200'" "$tmp/pc/report.md" && ok || bad "report --compare-device: $(cat "$tmp/err" "$tmp/pc/compare_1.csv")"
refused "--compare-device without --device" "give the GPUs to compare them with as --device" "$bin" report --out "$tmp/pc" --db "$tmp/pdb" --compare-device H200
refused "--compare-device with --compare" "choose one of --compare" "$bin" report --out "$tmp/pc" --db "$tmp/pdb" --device H100 --compare-device H200 --compare "$tmp/db"

# without gnuplot: the tables and CSVs, no SVG (an earlier report's removed: $tmp/n holds the first one's), and
# the pages say so
cp -r "$tmp/r" "$tmp/n"
DLBTUNE_GNUPLOT=none "$bin" report --out "$tmp/n" --any-version --db "$tmp/db" 2>"$tmp/err" && ok || bad "report without gnuplot: $(cat "$tmp/err")"
[ "$(ls "$tmp/n"/*.svg 2>/dev/null | wc -l)" = 0 ] && ok || bad "SVGs left without gnuplot"
[ "$(ls "$tmp/n"/*_speedup.csv 2>/dev/null | wc -l)" = 4 ] && ok || bad "no plot CSVs without gnuplot"
grep -q "Plots missing: DLBTUNE_GNUPLOT" "$tmp/n/index.html" && grep -q "Plots missing" "$tmp/n/report.md" && ok ||
	bad "the pages do not say the plots are missing"
[ "$(grep -c "Roofline missing: no gnuplot" "$tmp/n/report.md")" = 4 ] && [ "$(ls "$tmp/n"/*_roofline.csv | wc -l)" = 4 ] && ok ||
	bad "without gnuplot the rooflines' CSVs and the pages' word on them"
xmllint --noout "$tmp/n/index.html" && ok || bad "index.html without plots does not parse"
grep -c "<table>" "$tmp/n/index.html" | grep -qx 4 && ok || bad "index.html without plots lost its tables"

# current results only: the fixture was measured with another build, so none match (and that is said)
"$bin" report --out "$tmp/c" --db "$tmp/db" 2>"$tmp/err" && grep -q "No results match" "$tmp/c/index.html" && ok ||
	bad "report of no current results: $(cat "$tmp/err")"

: >"$tmp/file"
# --compare B: a copy of the fixture database, so each group is paired with every group of B holding the same
# problems: 6 comparisons; the same GPU and driver on both sides gives 1, the H200's driver 13.0 (A) against its
# driver 12.8 (B) on 1760x16x1760 NN gives 17.100 / 16.736 = 1.0217 (the vendor bests: 18.200 / 16.608 = 1.0959)
cp -r "$tmp/db" "$tmp/b"
"$bin" report --out "$tmp/cmp" --any-version --db "$tmp/db" --compare "$tmp/b" 2>"$tmp/err" && grep -q "; 6 comparisons" "$tmp/err" &&
	ok || bad "report --compare: $(cat "$tmp/err")"
xmllint --noout "$tmp/cmp/index.html" && grep -q "<h1>Comparison</h1>" "$tmp/cmp/index.html" && ok || bad "the comparison page"
grep -h '^1,"1760x16x1760 NN",16.736,17.100,1.0217,16.608,18.200,1.0959$' "$tmp/cmp"/compare_*.csv | grep -q . && ok ||
	bad "no ratio 1.0217 (H200 driver 12.8 / 13.0): $(cat "$tmp/cmp"/compare_*.csv)"
[ "$(cat "$tmp/cmp"/compare_*.csv | grep -c ',1.0000,.*,1.0000$')" = 5 ] && ok || bad "the self-pairs are not 1: $(cat "$tmp/cmp"/compare_*.csv)"
refused "--compare of --db itself" "that is the database being reported" "$bin" report --out "$tmp/cmp2" --any-version --db "$tmp/db" --compare "$tmp/db"
refused "--compare of no database" "no database there" "$bin" report --out "$tmp/cmp2" --db "$tmp/db" --compare "$tmp/none"
refused "--compare of a file" "not a database directory" "$bin" report --out "$tmp/cmp2" --db "$tmp/db" --compare "$tmp/file"
refused "export --compare" "--compare goes with the report command" "$bin" export --format csv --compare "$tmp/b" --db "$tmp/db"

# a report that fails midway (a plot's CSV cannot be written) exits 1 and leaves the last whole pages as they were
cp -r "$tmp/r" "$tmp/f"
rm -f "$tmp/f/gemm_fp32_2_speedup.csv" && mkdir "$tmp/f/gemm_fp32_2_speedup.csv"
"$bin" report --out "$tmp/f" --any-version --db "$tmp/db" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && cmp -s "$tmp/r/index.html" "$tmp/f/index.html" && cmp -s "$tmp/r/report.md" "$tmp/f/report.md" &&
	[ ! -e "$tmp/f/index.html.tmp" ] && ok || bad "a failed report: exit $rc, $(cat "$tmp/err"); $(ls "$tmp/f" | head -3)"

# bad options: exit 2 with the reason
refused "report without --out" "report needs --out" "$bin" report --db "$tmp/db"
refused "report --out FILE" "not a directory" "$bin" report --out "$tmp/file" --any-version --db "$tmp/db"
refused "export --out" "--out goes with the report command" "$bin" export --format csv --out "$tmp/x" --db "$tmp/db"
refused "export --compare-device" "--compare-device goes with the report command" "$bin" export --format csv --device H100 --compare-device H200 --db "$tmp/db"

echo "report: $pass checks passed and 10 refusals checked ($fail failed)"
[ $fail = 0 ]
