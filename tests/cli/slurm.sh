#!/usr/bin/env bash
# The Slurm batch scripts of scripts/slurm/, run with bash and the environment Slurm would
# give them (no Slurm here): a job array of three `score --vars K/3` tasks explored to the end,
# then merge-search.sbatch, whose merged cache must equal one whole run's and whose pool must
# pass `bnsl check`; and learn-mpi.sbatch under `mpirun -np 2` (in one process when bnsl was
# built without MPI), whose pool must pass `bnsl check`.
#
# Usage: bash slurm.sh PATH_TO_bnsl_BINARY DATASETS_DIR
SLURM=$(realpath "$(dirname "$0")/../../scripts/slurm")
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1
export BNSL SLURM_CPUS_PER_TASK=1
wine=$DATA/wine.csv

for k in 0 1 2; do
  SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=3 bash "$SLURM/score-array.sbatch" "$wine" parts \
    --no-header --time 0 -q 2>err.txt || fail "score-array.sbatch task $k"
done
[[ $(ls parts/part-*.jkl | wc -l) -eq 3 ]] || fail "score-array.sbatch: not three parts"
bash "$SLURM/merge-search.sbatch" "$wine" parts searched 2 --no-header -q 2>err.txt ||
  fail "merge-search.sbatch"
"$BNSL" score "$wine" --no-header --time 0 --threads 1 -q -o whole.jkl 2>err.txt || fail "score"
"$BNSL" merge whole.jkl -o whole-back.jkl 2>err.txt || fail "merge of the whole cache"
cmp -s parts/all.jkl whole-back.jkl || fail "the merged array parts differ from a whole run"
"$BNSL" check "$wine" --no-header searched.pool.json >out.txt 2>err.txt ||
  fail "check of merge-search.sbatch's pool"
pass "job array + merge-search: the whole run's cache, a valid pool"

launch=""
if "$BNSL" --version | grep -q MPI && command -v mpirun >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  launch="timeout 180 mpirun --oversubscribe -np 2"
fi
LAUNCH=$launch bash "$SLURM/learn-mpi.sbatch" "$wine" learned 4 --no-header -q 2>err.txt ||
  fail "learn-mpi.sbatch (launch: ${launch:-none})"
"$BNSL" check "$wine" --no-header learned.pool.json >out.txt 2>err.txt ||
  fail "check of learn-mpi.sbatch's pool"
pass "learn-mpi.sbatch (${launch:-one process}): a valid pool"

echo "$passed passed, 0 failed"
