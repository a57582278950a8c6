/* ops/sparse/tiles: see tiles.h. One pass over the matrix, group by group: each row's cursor walks its columns
 * slice by slice, and a tile's entries follow the previous tile's. */
#include "tiles.h"

#include "../../err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dlb_tiles_free(struct dlb_tiles *t)
{
	if (!t)
		return;
	free(t->off);
	free(t->ent);
	memset(t, 0, sizeof *t);
}

double dlb_tiles_bytes(int64_t rows, int64_t cols, double nnz, int gr, int tk)
{
	double tiles = (double)((rows + gr - 1) / gr) * (double)((cols + tk - 1) / tk);
	return (tiles + 1) * 4.0 + nnz * 4.0;
}

int dlb_tiles_build(const struct dlb_csr *a, const uint16_t *hval, int gr, int tk, struct dlb_tiles *out)
{
	int rc = 0;
	int64_t *cur = NULL;
	memset(out, 0, sizeof *out);
	if (gr < 1 || gr > 512 || tk < 1 || tk > 128)
		DLB_FAIL(DLB_E_USAGE, "tiles of %d rows and %d columns: 1..512 rows and 1..128 columns", gr, tk);
	if (a->nnz >= (int64_t)UINT32_MAX)
		DLB_USER_FAIL(DLB_E_USAGE, "%lld nonzeros: the tiled copy's offsets hold fewer than 2^32",
			      (long long)a->nnz);
	out->gr = gr;
	out->tk = tk;
	out->groups = (a->rows + gr - 1) / gr;
	out->slices = (a->cols + tk - 1) / tk;
	size_t ntiles = (size_t)out->groups * (size_t)out->slices;
	out->off = malloc((ntiles + 1) * sizeof *out->off);
	out->ent = malloc((size_t)(a->nnz ? a->nnz : 1) * sizeof *out->ent);
	cur = malloc((size_t)gr * sizeof *cur);
	if (!out->off || !out->ent || !cur)
		DLB_FAIL(ENOMEM, "out of memory for the tiled copy (%zu tiles, %lld nonzeros)", ntiles, (long long)a->nnz);
	uint32_t n = 0;
	for (int64_t g = 0; g < out->groups; g++) {
		int64_t r0 = g * gr, rows = a->rows - r0 < gr ? a->rows - r0 : gr;
		for (int64_t i = 0; i < rows; i++)
			cur[i] = a->row_ptr[r0 + i];
		for (int64_t sl = 0; sl < out->slices; sl++) {
			out->off[g * out->slices + sl] = n;
			int64_t c0 = sl * tk, end = c0 + tk;
			for (int64_t i = 0; i < rows; i++)
				for (; cur[i] < a->row_ptr[r0 + i + 1] && a->col[cur[i]] < end; cur[i]++)
					out->ent[n++] = (uint32_t)i << 23 | (uint32_t)(a->col[cur[i]] - c0) << 16 | hval[cur[i]];
		}
	}
	out->off[ntiles] = n;
fail:
	free(cur);
	if (rc)
		dlb_tiles_free(out);
	return rc;
}
