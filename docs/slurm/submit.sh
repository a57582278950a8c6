#!/bin/sh
# Tune a suite over a Slurm cluster: N array tasks (one part of the suite each), then the merge.
#   DLBTUNE_DB=/shared/dlbtune docs/slurm/submit.sh 8 --op gemm --prec fp16 --suite training
# The same by hand: sbatch --array=0-7 tune-array.sbatch ARGS; sbatch --dependency=afterany:JOB merge.sbatch 8
set -eu
n=${1:?usage: submit.sh N dlbtune-args...}
shift
here=$(cd "$(dirname "$0")" && pwd)
: "${DLBTUNE_DB:?set DLBTUNE_DB to a directory on a shared filesystem}"
export DLBTUNE_DB
job=$(sbatch --parsable --export=ALL --array=0-$((n - 1)) "$here/tune-array.sbatch" "$@")
sbatch --export=ALL --dependency=afterany:"$job" "$here/merge.sbatch" "$n"
