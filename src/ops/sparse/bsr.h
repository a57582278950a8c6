/* ops/sparse/bsr: a CSR matrix in cuSPARSE's block formats, for its block-format baselines on block patterns:
 * BSR (square blocks of bs x bs, each stored row-major, block columns ascending in a block row) and Blocked-ELL
 * (every block row padded to the longest one's count of blocks; -1 marks an empty slot). Zeros inside a kept
 * block are stored like any value. Built on the host once a problem, like the kernels' own copies. */
#ifndef DLB_OPS_SPARSE_BSR_H
#define DLB_OPS_SPARSE_BSR_H
#include "csr.h"

#include <stdint.h>

struct dlb_bsr {
	int bs;                /* the block's side */
	int64_t brows, bcols;  /* rows / bs, cols / bs */
	int64_t nnzb;          /* blocks with a nonzero */
	int64_t ell_blocks;    /* the most blocks in one block row: Blocked-ELL's width in blocks */
	int32_t *row_ptr;      /* brows + 1 offsets into col, in blocks */
	int32_t *col;          /* nnzb block columns */
	float *val;            /* nnzb blocks of bs·bs values, row-major within a block */
};

/* a's blocks of bs x bs. DLB_E_USAGE where bs < 2, or the rows or columns are not a multiple of bs (cuSPARSE's
 * block formats take whole blocks), or the blocks' values would pass 2^31 - 1; ENOMEM. */
int dlb_bsr_from_csr(const struct dlb_csr *a, int bs, struct dlb_bsr *out);

/* b as Blocked-ELL: *ind, brows·ell_blocks block columns (block row by block row, -1 past a row's blocks), and
 * *val, the (brows·bs) x (ell_blocks·bs) values row-major (zeros in the empty slots). DLB_E_USAGE where they
 * would pass 2^31 - 1 values; ENOMEM. The caller frees both. */
int dlb_bsr_to_ell(const struct dlb_bsr *b, int32_t **ind, float **val);

void dlb_bsr_free(struct dlb_bsr *b);
#endif
