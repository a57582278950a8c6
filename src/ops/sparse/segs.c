/* ops/sparse/segs: see segs.h. Two passes over the matrix, group by group: the first sizes every segment (a
 * cursor per row walks its columns slice by slice), the second fills them in the same walk. */
#include "segs.h"

#include "../../err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int dlb_segs_hdr16(int rpw)
{
	return (rpw * 2 + 15) / 16;
}

void dlb_segs_free(struct dlb_segs *s)
{
	if (!s)
		return;
	free(s->off);
	free(s->data);
	memset(s, 0, sizeof *s);
}

double dlb_segs_bytes_bound(int64_t rows, int64_t cols, double nnz, int rpw, int seg_k)
{
	double segs = (double)((rows + rpw - 1) / rpw) * (double)((cols + seg_k - 1) / seg_k);
	double gaps = segs * rpw < nnz ? segs * rpw : nnz; /* a row's gap in a segment follows one of its nonzeros */
	return segs * (dlb_segs_hdr16(rpw) * 16.0 + 4.0) + (nnz + gaps) * 8.0 + 4.0;
}

/* The entries of group g's rows in slice sl: each row's cursor cur[i] moves past them; with out, written there
 * (header first). Returns the segment's length in units. */
static int64_t segment(const struct dlb_csr *a, int rpw, int seg_k, int64_t g, int64_t sl, int64_t *cur,
		       unsigned char *out)
{
	int hdr16 = dlb_segs_hdr16(rpw);
	int64_t n = 0, end = (sl + 1) * seg_k;
	uint16_t *hdr = (uint16_t *)out;
	unsigned char *ent = out ? out + (size_t)hdr16 * 16 : NULL;
	for (int i = 0; i < rpw; i++) {
		int64_t r = g * rpw + i;
		if (r < a->rows) {
			int64_t stop = a->row_ptr[r + 1];
			for (; cur[i] < stop && a->col[cur[i]] < end; cur[i]++, n++)
				if (ent) {
					int32_t c = a->col[cur[i]] - (int32_t)(sl * seg_k);
					memcpy(ent + n * 8, &c, 4);
					memcpy(ent + n * 8 + 4, &a->val[cur[i]], 4);
				}
		}
		if (hdr)
			hdr[i] = (uint16_t)n;
		if (n % 2) { /* the next row starts on a whole unit */
			if (ent)
				memset(ent + n * 8, 0, 8);
			n++;
		}
	}
	return hdr16 + n / 2;
}

int dlb_segs_build(const struct dlb_csr *a, int rpw, int seg_k, struct dlb_segs *out)
{
	int rc = 0;
	int64_t *cur = NULL;
	memset(out, 0, sizeof *out);
	if (rpw < 1 || rpw > 64 || seg_k < 1 || seg_k > 1024 || rpw * (seg_k + 1) - 1 > 65535)
		DLB_FAIL(DLB_E_USAGE, "segments of %d rows and %d columns: 1 to 64 and 1 to 1024, rows x (columns + 1) "
				      "at most 65536 (16-bit offsets)", rpw, seg_k);
	out->rpw = rpw;
	out->seg_k = seg_k;
	out->groups = (a->rows + rpw - 1) / rpw;
	out->slices = (a->cols + seg_k - 1) / seg_k;
	if ((double)out->groups * (double)out->slices >= 4e9)
		DLB_FAIL(DLB_E_USAGE, "%lld x %lld segments: too many for 32-bit offsets", (long long)out->groups,
			 (long long)out->slices);
	size_t nseg = (size_t)(out->groups * out->slices);
	out->off = malloc((nseg + 1) * sizeof *out->off);
	cur = malloc((size_t)rpw * sizeof *cur);
	if (!out->off || !cur)
		DLB_FAIL(ENOMEM, "out of memory for %zu segments", nseg);
	uint64_t units = 0;
	for (int pass = 0; pass < 2; pass++) {
		units = 0;
		for (int64_t g = 0; g < out->groups; g++) {
			for (int i = 0; i < rpw; i++)
				cur[i] = g * rpw + i < a->rows ? a->row_ptr[g * rpw + i] : 0;
			for (int64_t sl = 0; sl < out->slices; sl++) {
				size_t q = (size_t)(g * out->slices + sl);
				unsigned char *at = pass ? (unsigned char *)out->data + (size_t)out->off[q] * 16 : NULL;
				int64_t len = segment(a, rpw, seg_k, g, sl, cur, at);
				if (!pass) {
					out->off[q] = (uint32_t)units;
					if (len > out->max16)
						out->max16 = (int)len;
				}
				units += (uint64_t)len;
				if (units > UINT32_MAX)
					DLB_FAIL(DLB_E_USAGE, "the segmented matrix exceeds 64 GiB: too large for 32-bit offsets");
			}
		}
		if (!pass) {
			out->off[nseg] = (uint32_t)units;
			out->bytes = (size_t)units * 16;
			out->data = malloc(out->bytes ? out->bytes : 16);
			if (!out->data)
				DLB_FAIL(ENOMEM, "out of memory for the segmented matrix (%zu bytes)", out->bytes);
		}
	}
	free(cur);
	return 0;
fail:
	free(cur);
	dlb_segs_free(out);
	return rc;
}
