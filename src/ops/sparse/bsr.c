/* ops/sparse/bsr: see bsr.h. Two passes, block row by block row: the first counts each block row's blocks (a
 * stamp per block column says it was seen in this block row), the second lists them in ascending order, gives
 * each its place and copies the values in. */
#include "bsr.h"

#include "../../err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dlb_bsr_free(struct dlb_bsr *b)
{
	if (!b)
		return;
	free(b->row_ptr);
	free(b->col);
	free(b->val);
	memset(b, 0, sizeof *b);
}

static int cmp_i32(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
	return (a > b) - (a < b);
}

/* Block row br's block columns, each once, ascending, into list (stamp[c] == br marks those seen); returns the
 * count. */
static int64_t block_row(const struct dlb_csr *a, int bs, int64_t br, int64_t *stamp, int32_t *list)
{
	int64_t n = 0;
	for (int64_t r = br * bs; r < (br + 1) * bs; r++)
		for (int64_t j = a->row_ptr[r]; j < a->row_ptr[r + 1]; j++) {
			int64_t c = a->col[j] / bs;
			if (stamp[c] != br) {
				stamp[c] = br;
				if (list)
					list[n] = (int32_t)c;
				n++;
			}
		}
	if (list)
		qsort(list, (size_t)n, sizeof *list, cmp_i32);
	return n;
}

int dlb_bsr_from_csr(const struct dlb_csr *a, int bs, struct dlb_bsr *out)
{
	int rc = 0;
	int64_t *stamp = NULL, *pos = NULL;
	memset(out, 0, sizeof *out);
	if (bs < 2)
		DLB_USER_FAIL(DLB_E_USAGE, "block formats need blocks of at least 2 x 2, not %d", bs);
	if (a->rows % bs || a->cols % bs)
		DLB_USER_FAIL(DLB_E_USAGE, "a %lld x %lld matrix is not whole blocks of %d x %d (cuSPARSE's block formats)",
			      (long long)a->rows, (long long)a->cols, bs, bs);
	out->bs = bs;
	out->brows = a->rows / bs;
	out->bcols = a->cols / bs;
	stamp = malloc((size_t)out->bcols * sizeof *stamp);
	pos = malloc((size_t)out->bcols * sizeof *pos);
	out->row_ptr = malloc(((size_t)out->brows + 1) * sizeof *out->row_ptr);
	if (!stamp || !pos || !out->row_ptr)
		DLB_FAIL(ENOMEM, "out of memory for the block formats' copy");
	for (int64_t c = 0; c < out->bcols; c++)
		stamp[c] = -1;
	int64_t nnzb = 0;
	out->row_ptr[0] = 0;
	for (int64_t br = 0; br < out->brows; br++) {
		int64_t n = block_row(a, bs, br, stamp, NULL);
		out->ell_blocks = n > out->ell_blocks ? n : out->ell_blocks;
		nnzb += n;
		if (nnzb * bs * bs > INT32_MAX)
			DLB_USER_FAIL(DLB_E_USAGE, "the matrix's %d x %d blocks hold more than 2^31 - 1 values", bs, bs);
		out->row_ptr[br + 1] = (int32_t)nnzb;
	}
	out->nnzb = nnzb;
	out->col = malloc((size_t)(nnzb ? nnzb : 1) * sizeof *out->col);
	out->val = calloc((size_t)(nnzb ? nnzb : 1) * (size_t)bs * (size_t)bs, sizeof *out->val);
	if (!out->col || !out->val)
		DLB_FAIL(ENOMEM, "out of memory for the block formats' copy");
	for (int64_t c = 0; c < out->bcols; c++)
		stamp[c] = -1;
	for (int64_t br = 0; br < out->brows; br++) {
		int32_t *list = out->col + out->row_ptr[br];
		int64_t n = block_row(a, bs, br, stamp, list);
		for (int64_t i = 0; i < n; i++)
			pos[list[i]] = out->row_ptr[br] + i;
		for (int64_t r = br * bs; r < (br + 1) * bs; r++)
			for (int64_t j = a->row_ptr[r]; j < a->row_ptr[r + 1]; j++) {
				int64_t c = a->col[j];
				out->val[(pos[c / bs] * bs + r % bs) * bs + c % bs] = a->val[j];
			}
	}
	free(stamp);
	free(pos);
	return 0;
fail:
	free(stamp);
	free(pos);
	dlb_bsr_free(out);
	return rc;
}

int dlb_bsr_to_ell(const struct dlb_bsr *b, int32_t **ind, float **val)
{
	int rc = 0;
	const int64_t bs = b->bs, w = b->ell_blocks * bs; /* values a row */
	*ind = NULL;
	*val = NULL;
	if ((double)b->brows * (double)bs * (double)w > INT32_MAX)
		DLB_USER_FAIL(DLB_E_USAGE, "Blocked-ELL of this matrix would hold more than 2^31 - 1 values");
	const int64_t slots = b->brows * b->ell_blocks, values = b->brows * bs * w;
	*ind = malloc((size_t)(slots > 0 ? slots : 1) * sizeof **ind);
	*val = calloc((size_t)(values > 0 ? values : 1), sizeof **val);
	if (!*ind || !*val)
		DLB_FAIL(ENOMEM, "out of memory for the Blocked-ELL copy");
	for (int64_t br = 0; br < b->brows; br++)
		for (int64_t s = 0; s < b->ell_blocks; s++) {
			int64_t blk = b->row_ptr[br] + s;
			int have = blk < b->row_ptr[br + 1];
			(*ind)[br * b->ell_blocks + s] = have ? b->col[blk] : -1;
			if (have)
				for (int64_t i = 0; i < bs; i++)
					memcpy(*val + (br * bs + i) * w + s * bs, b->val + (blk * bs + i) * bs,
					       (size_t)bs * sizeof **val);
		}
	return 0;
fail:
	free(*ind);
	free(*val);
	*ind = NULL;
	*val = NULL;
	return rc;
}
