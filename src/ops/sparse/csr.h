/* ops/sparse/csr: the sparse operand as problem data — a CSR matrix in host memory, generated reproducibly from a
 * seed (uniformly random at a sparsity, or in blocks of R×C), or built from coordinates (ops/sparse/mtx.c reads
 * them from a Matrix Market file); its statistics and a hash of its contents for keys. Not yet used by an op:
 * the sparse family (issue 29) is being built on it. */
#ifndef DLB_OPS_SPARSE_CSR_H
#define DLB_OPS_SPARSE_CSR_H
#include <stdint.h>

struct dlb_csr {
	int64_t rows, cols, nnz;
	int64_t *row_ptr; /* rows + 1 offsets into col and val */
	int32_t *col;     /* column of each entry, ascending within a row */
	float *val;       /* never 0 in a generated matrix */
};

struct dlb_csr_stats {
	int64_t nnz, empty_rows, shortest_row, longest_row;
	double mean_row, sparsity; /* sparsity: the fraction of zeros, 1 - nnz / (rows·cols) */
};

/* A rows × cols matrix with round((1 - sparsity)·rows·cols) nonzeros at uniformly random places (every set of
 * places equally likely), values uniform in [-1, 1) and never 0; with block_r·block_c > 1, the same over
 * blocks of block_r × block_c (clipped at the edges), all of a kept block's entries nonzero. The same
 * arguments give the same matrix on every machine. DLB_E_USAGE for a size or sparsity out of range (rows and
 * cols 1..2^31-1, sparsity in [0, 1), at most 2^31-1 nonzeros); ENOMEM. */
int dlb_csr_generate(int64_t rows, int64_t cols, double sparsity, int block_r, int block_c, uint64_t seed,
		     struct dlb_csr *out);

/* The cells (blocks of block_r × block_c, 1 × 1 for single entries) dlb_csr_generate keeps at that sparsity:
 * round((1 - sparsity)·blocks), at least one (an empty matrix measures nothing); no checks. */
int64_t dlb_csr_kept(int64_t rows, int64_t cols, double sparsity, int block_r, int block_c);

/* The same count of nonzeros as a uniform matrix at that sparsity, with row 0 holding a tenth of them (at most
 * cols; more where the other rows cannot hold the rest) and the others uniformly random over rows 1.. — the
 * awkward case of one row much longer than the rest. */
int dlb_csr_generate_skewed(int64_t rows, int64_t cols, double sparsity, uint64_t seed, struct dlb_csr *out);

/* From nnz coordinates (0-based, any order, no repeats: the caller checks) and values. */
int dlb_csr_from_coo(int64_t rows, int64_t cols, int64_t nnz, const int64_t *r, const int64_t *c, const float *v,
		     struct dlb_csr *out);

void dlb_csr_free(struct dlb_csr *m);
void dlb_csr_stats(const struct dlb_csr *m, struct dlb_csr_stats *s);
/* FNV-1a over the sizes, the structure and the values' bits: equal matrices, equal hashes. */
uint64_t dlb_csr_hash(const struct dlb_csr *m);
#endif
