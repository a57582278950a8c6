/* ops/sparse/tiles: the tiled copy of a CSR matrix that spmm's KIND 5 (fp16, tensor cores) reads. The rows are
 * taken in groups of gr (a warp's rows: 16 for each of its m16 tiles) and the columns in slices of tk (one
 * k-slice the warp makes dense in shared memory); tile (group, slice) holds that group's nonzeros in that slice
 * as 32-bit entries, row by row, columns ascending: the row within the group << 23 | the column within the
 * slice << 16 | the value's half bits. A warp scatters its tile's entries into a zeroed shared-memory tile one
 * a lane, with no search of its rows. Built on the host once a problem, like a vendor's preprocessing; its time
 * is shown with the matrix's statistics. Entries of tile t are [off[t], off[t + 1]), t = group·slices + slice. */
#ifndef DLB_OPS_SPARSE_TILES_H
#define DLB_OPS_SPARSE_TILES_H
#include "csr.h"

#include <stddef.h>
#include <stdint.h>

struct dlb_tiles {
	int gr, tk;             /* rows in a group, columns in a slice */
	int64_t groups, slices; /* ceil(rows / gr), ceil(cols / tk) */
	uint32_t *off;          /* groups·slices + 1 offsets, in entries */
	uint32_t *ent;          /* off[groups·slices] = nnz entries */
};

/* The tiled copy of a, whose values are half (hval[j]: nonzero j's bits, in a's order), with gr (1..512) rows
 * a group and tk (1..128) columns a slice. DLB_E_USAGE where a has 2^32 nonzeros or more, ENOMEM. */
int dlb_tiles_build(const struct dlb_csr *a, const uint16_t *hval, int gr, int tk, struct dlb_tiles *out);

/* Bytes of a copy of a matrix of these sizes and nonzeros: its entries and offsets. */
double dlb_tiles_bytes(int64_t rows, int64_t cols, double nnz, int gr, int tk);

void dlb_tiles_free(struct dlb_tiles *t);
#endif
