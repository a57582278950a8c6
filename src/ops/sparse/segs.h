/* ops/sparse/segs: the slab-segmented copy of a CSR matrix that spmm's KIND 3 reads. The rows are taken in
 * groups of rpw (a warp's rows) and the columns in slices of seg_k (a shared-memory slab of B's rows);
 * segment (group, slice) holds that group's nonzeros in that slice, row by row, columns ascending, so that a
 * warp copies its segment of a slab with one contiguous copy and reads each nonzero as one broadcast from
 * shared memory, with no search of its rows. Built on the host once a problem, like a vendor's
 * preprocessing; its time is shown with the matrix's statistics.
 *
 * Segment layout, in 16-byte units from off[group·slices + slice]: a header of rpw 16-bit offsets (row i's
 * nonzeros end at entry hdr[i]), padded to whole units; then the entries, each {int32 column within the slice,
 * float value}. Every row starts on a whole unit (row 0 at entry 0, row i + 1 at hdr[i] rounded up to even: a
 * row with an odd count is followed by one zero entry), so a warp reads two entries with one 16-byte load. */
#ifndef DLB_OPS_SPARSE_SEGS_H
#define DLB_OPS_SPARSE_SEGS_H
#include "csr.h"

#include <stddef.h>
#include <stdint.h>

struct dlb_segs {
	int rpw, seg_k;         /* rows in a group, columns in a slice */
	int64_t groups, slices; /* ceil(rows / rpw), ceil(cols / seg_k) */
	uint32_t *off;          /* groups·slices + 1 offsets in 16-byte units */
	void *data;             /* off[groups·slices] units */
	size_t bytes;           /* of data */
	int max16;              /* the longest segment, in units */
};

/* Header units of a segment of rpw rows. */
int dlb_segs_hdr16(int rpw);

/* The segmented copy of a with rpw (1..64) rows a group and seg_k (1..1024) columns a slice, rpw·(seg_k + 1) <=
 * 65536 (the offsets, gaps included, fit 16 bits). DLB_E_USAGE where
 * the offsets would not fit 32 bits (more than 64 GiB), ENOMEM. */
int dlb_segs_build(const struct dlb_csr *a, int rpw, int seg_k, struct dlb_segs *out);

/* Bytes dlb_segs_build would need for a matrix of these sizes and nonzeros, at most (every segment padded),
 * and its offsets. */
double dlb_segs_bytes_bound(int64_t rows, int64_t cols, double nnz, int rpw, int seg_k);

void dlb_segs_free(struct dlb_segs *s);
#endif
