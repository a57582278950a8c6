/* ops/sparse/csr: see csr.h. Places are drawn by selection sampling (Knuth's algorithm S): one pass over the
 * cells (or blocks) in row order, each kept with probability (still needed) / (still left), which gives exactly
 * the wanted count with every set of places equally likely, already sorted for CSR. */
#include "csr.h"

#include "../../../search/pcg32.h"
#include "../../err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INDEX 2147483647LL

void dlb_csr_free(struct dlb_csr *m)
{
	if (!m)
		return;
	free(m->row_ptr);
	free(m->col);
	free(m->val);
	memset(m, 0, sizeof *m);
}

static int csr_alloc(int64_t rows, int64_t cols, int64_t nnz, struct dlb_csr *m)
{
	int rc = 0;
	memset(m, 0, sizeof *m);
	m->rows = rows;
	m->cols = cols;
	m->nnz = nnz;
	m->row_ptr = calloc((size_t)rows + 1, sizeof *m->row_ptr);
	m->col = malloc((size_t)(nnz ? nnz : 1) * sizeof *m->col);
	m->val = malloc((size_t)(nnz ? nnz : 1) * sizeof *m->val);
	if (!m->row_ptr || !m->col || !m->val) {
		dlb_csr_free(m);
		DLB_FAIL(ENOMEM, "out of memory for a %lld x %lld sparse matrix with %lld nonzeros", (long long)rows,
			 (long long)cols, (long long)nnz);
	}
fail:
	return rc;
}

/* Kept with probability need / left, from 53 random bits (to double precision). */
static int keep(struct dlb_pcg32 *rng, int64_t need, int64_t left)
{
	uint64_t u = ((uint64_t)dlb_pcg32_next(rng) << 32) | dlb_pcg32_next(rng);
	return (double)(u >> 11) * (double)left < (double)need * 9007199254740992.0;
}

static float nonzero_value(struct dlb_pcg32 *rng)
{
	float v;
	do
		v = dlb_pcg32_float_pm1(rng);
	while (v == 0.0f);
	return v;
}

/* want blocks of block_r x block_c (clipped at the edges) of a rows x cols matrix, every set of places equally
 * likely, drawn from rng; the caller checks the sizes. */
static int generate_blocks(int64_t rows, int64_t cols, int64_t want, int block_r, int block_c, struct dlb_pcg32 *rng,
			   struct dlb_csr *out)
{
	int rc = 0;
	int64_t brows = (rows + block_r - 1) / block_r, bcols = (cols + block_c - 1) / block_c;
	/* the kept blocks, as a bit per block */
	uint8_t *kept = calloc((size_t)((brows * bcols + 7) / 8), 1);
	int64_t *kb = malloc((size_t)bcols * sizeof *kb); /* the kept blocks of the current block row */
	if (!kept || !kb)
		DLB_FAIL(ENOMEM, "out of memory for the pattern of a %lld x %lld matrix", (long long)rows, (long long)cols);
	/* nonzeros: whole kept blocks, less what the last block row and column clip */
	int64_t need = want, left = brows * bcols, nnz = 0;
	for (int64_t b = 0; b < brows * bcols; b++, left--)
		if (need > 0 && keep(rng, need, left)) {
			kept[b / 8] |= (uint8_t)(1u << (b % 8));
			need--;
			int64_t br = b / bcols, bc = b % bcols;
			int64_t h = br * block_r + block_r <= rows ? block_r : rows - br * block_r;
			int64_t w = bc * block_c + block_c <= cols ? block_c : cols - bc * block_c;
			nnz += h * w;
		}
	DLB_CHECK(csr_alloc(rows, cols, nnz, out));
	int64_t e = 0, nk = 0;
	for (int64_t r = 0; r < rows; r++) {
		int64_t br = r / block_r;
		if (r % block_r == 0) {
			nk = 0;
			for (int64_t bc = 0; bc < bcols; bc++) {
				int64_t b = br * bcols + bc;
				if (kept[b / 8] & (1u << (b % 8)))
					kb[nk++] = bc;
			}
		}
		for (int64_t i = 0; i < nk; i++)
			for (int64_t c = kb[i] * block_c; c < kb[i] * block_c + block_c && c < cols; c++) {
				out->col[e] = (int32_t)c;
				out->val[e++] = nonzero_value(rng);
			}
		out->row_ptr[r + 1] = e;
	}
fail:
	free(kb);
	free(kept);
	return rc;
}

int64_t dlb_csr_kept(int64_t rows, int64_t cols, double sparsity, int block_r, int block_c)
{
	double cells = (double)((rows + block_r - 1) / block_r) * (double)((cols + block_c - 1) / block_c);
	int64_t kept = (int64_t)llround((1.0 - sparsity) * cells);
	return kept < 1 ? 1 : kept;
}

/* The nonzeros a sparsity leaves of cells (cells or blocks): round((1 - sparsity)·cells), at least 1 (an empty
 * matrix measures nothing); DLB_E_USAGE for a size or sparsity out of range. */
static int count_of(int64_t rows, int64_t cols, double sparsity, int block_r, int block_c, int64_t *want)
{
	int rc = 0;
	if (rows < 1 || cols < 1 || rows > MAX_INDEX || cols > MAX_INDEX)
		DLB_USER_FAIL(DLB_E_USAGE, "a sparse matrix of %lld x %lld: each size must be in 1..%lld", (long long)rows,
			      (long long)cols, MAX_INDEX);
	if (!(sparsity >= 0 && sparsity < 1))
		DLB_USER_FAIL(DLB_E_USAGE, "sparsity %g: expected a fraction of zeros in [0, 1)", sparsity);
	if (block_r < 1 || block_c < 1 || block_r > rows || block_c > cols)
		DLB_USER_FAIL(DLB_E_USAGE, "blocks of %d x %d do not fit a %lld x %lld matrix", block_r, block_c,
			      (long long)rows, (long long)cols);
	double cells = (double)((rows + block_r - 1) / block_r) * (double)((cols + block_c - 1) / block_c);
	if (cells > (double)MAX_INDEX)
		DLB_USER_FAIL(DLB_E_USAGE, "a %lld x %lld matrix in blocks of %d x %d has too many blocks", (long long)rows,
			      (long long)cols, block_r, block_c);
	*want = dlb_csr_kept(rows, cols, sparsity, block_r, block_c);
	if ((double)*want * block_r * block_c > (double)MAX_INDEX)
		DLB_USER_FAIL(DLB_E_USAGE, "%.0f nonzeros: at most %lld", (double)*want * block_r * block_c, MAX_INDEX);
fail:
	return rc;
}

int dlb_csr_generate(int64_t rows, int64_t cols, double sparsity, int block_r, int block_c, uint64_t seed,
		     struct dlb_csr *out)
{
	int rc = 0;
	int64_t want;
	memset(out, 0, sizeof *out);
	DLB_CHECK(count_of(rows, cols, sparsity, block_r, block_c, &want));
	struct dlb_pcg32 rng;
	dlb_pcg32_seed(&rng, seed, 0x5eed5u);
	DLB_CHECK(generate_blocks(rows, cols, want, block_r, block_c, &rng, out));
fail:
	return rc;
}

int dlb_csr_generate_skewed(int64_t rows, int64_t cols, double sparsity, uint64_t seed, struct dlb_csr *out)
{
	int rc = 0;
	int64_t total, heavy;
	struct dlb_csr rest = {0};
	memset(out, 0, sizeof *out);
	DLB_CHECK(count_of(rows, cols, sparsity, 1, 1, &total));
	heavy = total / 10;
	if (heavy < total - (rows - 1) * cols) /* near-dense: the other rows cannot hold the rest */
		heavy = total - (rows - 1) * cols;
	if (heavy < 1)
		heavy = 1;
	if (heavy > cols)
		heavy = cols;
	struct dlb_pcg32 rng;
	dlb_pcg32_seed(&rng, seed, 0x5eed6u);
	if (rows > 1 && total > heavy)
		DLB_CHECK(generate_blocks(rows - 1, cols, total - heavy, 1, 1, &rng, &rest));
	DLB_CHECK(csr_alloc(rows, cols, heavy + rest.nnz, out));
	int64_t e = 0;
	for (int64_t c = 0, need = heavy; c < cols; c++) /* row 0: heavy of the cols, as generate_blocks draws */
		if (need > 0 && keep(&rng, need, cols - c)) {
			out->col[e] = (int32_t)c;
			out->val[e++] = nonzero_value(&rng);
			need--;
		}
	out->row_ptr[1] = e;
	for (int64_t r = 1; r < rows; r++)
		out->row_ptr[r + 1] = e + (rest.row_ptr ? rest.row_ptr[r] : 0);
	if (rest.nnz) {
		memcpy(out->col + e, rest.col, (size_t)rest.nnz * sizeof *rest.col);
		memcpy(out->val + e, rest.val, (size_t)rest.nnz * sizeof *rest.val);
	}
fail:
	dlb_csr_free(&rest);
	return rc;
}

struct entry {
	int64_t r, c, i;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->r != y->r)
		return x->r < y->r ? -1 : 1;
	return x->c < y->c ? -1 : x->c > y->c;
}

int dlb_csr_from_coo(int64_t rows, int64_t cols, int64_t nnz, const int64_t *r, const int64_t *c, const float *v,
		     struct dlb_csr *out)
{
	int rc = 0;
	struct entry *order = NULL;
	memset(out, 0, sizeof *out);
	if (rows < 1 || cols < 1 || rows > MAX_INDEX || cols > MAX_INDEX || nnz < 0 || nnz > MAX_INDEX)
		DLB_USER_FAIL(DLB_E_USAGE, "a sparse matrix of %lld x %lld with %lld entries is out of range",
			      (long long)rows, (long long)cols, (long long)nnz);
	order = malloc((size_t)(nnz ? nnz : 1) * sizeof *order);
	if (!order)
		DLB_FAIL(ENOMEM, "out of memory for %lld entries", (long long)nnz);
	for (int64_t i = 0; i < nnz; i++) {
		if (r[i] < 0 || r[i] >= rows || c[i] < 0 || c[i] >= cols)
			DLB_USER_FAIL(DLB_E_USAGE, "entry %lld at (%lld, %lld) is outside the %lld x %lld matrix",
				      (long long)i + 1, (long long)r[i], (long long)c[i], (long long)rows, (long long)cols);
		order[i] = (struct entry){r[i], c[i], i};
	}
	qsort(order, (size_t)nnz, sizeof *order, cmp_entry);
	DLB_CHECK(csr_alloc(rows, cols, nnz, out));
	for (int64_t e = 0; e < nnz; e++) {
		int64_t i = order[e].i;
		out->col[e] = (int32_t)c[i];
		out->val[e] = v[i];
		out->row_ptr[r[i] + 1]++;
	}
	for (int64_t i = 0; i < rows; i++)
		out->row_ptr[i + 1] += out->row_ptr[i];
fail:
	free(order);
	return rc;
}

void dlb_csr_stats(const struct dlb_csr *m, struct dlb_csr_stats *s)
{
	memset(s, 0, sizeof *s);
	s->nnz = m->nnz;
	s->shortest_row = m->rows ? m->cols : 0;
	for (int64_t r = 0; r < m->rows; r++) {
		int64_t n = m->row_ptr[r + 1] - m->row_ptr[r];
		s->empty_rows += n == 0;
		if (n > s->longest_row)
			s->longest_row = n;
		if (n < s->shortest_row)
			s->shortest_row = n;
	}
	s->mean_row = m->rows ? (double)m->nnz / (double)m->rows : 0;
	s->sparsity = 1.0 - (double)m->nnz / ((double)m->rows * (double)m->cols);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ull;
	}
	return h;
}

uint64_t dlb_csr_hash(const struct dlb_csr *m)
{
	uint64_t h = 14695981039346656037ull;
	h = fnv(h, &m->rows, sizeof m->rows);
	h = fnv(h, &m->cols, sizeof m->cols);
	h = fnv(h, &m->nnz, sizeof m->nnz);
	h = fnv(h, m->row_ptr, (size_t)(m->rows + 1) * sizeof *m->row_ptr);
	h = fnv(h, m->col, (size_t)m->nnz * sizeof *m->col);
	return fnv(h, m->val, (size_t)m->nnz * sizeof *m->val);
}
