/* test_sparse: the sparse operand without a GPU — the generator is reproducible from its seed (a pinned hash), exact
 * in its count, sorted, never 0, uniform enough, blocked when asked, and skewed (one long row) when asked; Matrix Market files are read (general,
 * pattern, symmetric) and every malformed one is refused with its line named; the slab-segmented copy (KIND 3's) holds
 * every nonzero once, where its header says, and nothing else; the block formats (BSR and Blocked-ELL, cuSPARSE's
 * baselines on block patterns) hold the matrix, zeros and all, with block columns ascending. */
#include "err.h"
#include "ops/sparse/bsr.h"
#include "ops/sparse/csr.h"
#include "ops/sparse/mtx.h"
#include "ops/sparse/segs.h"
#include "ops/sparse/tiles.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_sorted_nonzero(const struct dlb_csr *m, const char *what)
{
	int ok = m->row_ptr[0] == 0 && m->row_ptr[m->rows] == m->nnz;
	for (int64_t r = 0; r < m->rows && ok; r++)
		for (int64_t e = m->row_ptr[r]; e < m->row_ptr[r + 1] && ok; e++)
			ok = m->col[e] >= 0 && m->col[e] < m->cols && (e == m->row_ptr[r] || m->col[e] > m->col[e - 1]) &&
			     m->val[e] != 0 && m->val[e] >= -1 && m->val[e] < 1;
	CHECK(ok, "%s: not a sorted CSR matrix of nonzero values in [-1, 1)", what);
}

static void test_generate(void)
{
	struct dlb_csr a, b, c;
	CHECK_EQ_INT(dlb_csr_generate(1000, 700, 0.9, 1, 1, 42, &a), 0);
	CHECK_EQ_INT(a.nnz, 70000); /* exactly (1 - 0.9)·1000·700 */
	check_sorted_nonzero(&a, "uniform");
	CHECK_EQ_INT(dlb_csr_generate(1000, 700, 0.9, 1, 1, 42, &b), 0);
	CHECK(dlb_csr_hash(&a) == dlb_csr_hash(&b), "the same seed gave another matrix");
	/* pinned: a change to the generator or PCG32 changes every stored key that names a seed */
	CHECK(dlb_csr_hash(&a) == 0x316bb2f85b62e25dull, "the matrix of seed 42 changed: hash %#llx",
	      (unsigned long long)dlb_csr_hash(&a));
	CHECK_EQ_INT(dlb_csr_generate(1000, 700, 0.9, 1, 1, 43, &c), 0);
	CHECK(dlb_csr_hash(&a) != dlb_csr_hash(&c), "seeds 42 and 43 gave the same matrix");
	/* uniform: every column and every row holds about 10% (binomial: sd 9.5 and 8.5; 6 sd apart is a bug) */
	int64_t *per_col = calloc((size_t)a.cols, sizeof *per_col), worst = 0;
	for (int64_t e = 0; e < a.nnz; e++)
		per_col[a.col[e]]++;
	for (int64_t j = 0; j < a.cols; j++)
		worst = llabs(per_col[j] - 100) > worst ? llabs(per_col[j] - 100) : worst;
	CHECK(worst < 57, "a column is %lld away from its expected 100 nonzeros", (long long)worst);
	free(per_col);
	struct dlb_csr_stats st;
	dlb_csr_stats(&a, &st);
	CHECK(st.nnz == 70000 && st.longest_row > 70 && st.longest_row < 121 && st.shortest_row < 70 &&
		      st.shortest_row > 25 && st.empty_rows == 0 && st.mean_row == 70.0 &&
		      st.sparsity > 0.8999 && st.sparsity < 0.9001,
	      "stats: nnz %lld, longest %lld, mean %g, sparsity %g", (long long)st.nnz, (long long)st.longest_row,
	      st.mean_row, st.sparsity);
	dlb_csr_free(&a);
	dlb_csr_free(&b);
	dlb_csr_free(&c);

	/* blocks of 4 x 8 on a 30 x 50 matrix: 8 x 7 blocks, the last row and column clipped */
	CHECK_EQ_INT(dlb_csr_generate(30, 50, 0.75, 4, 8, 7, &a), 0);
	check_sorted_nonzero(&a, "block");
	int whole = 1;
	for (int64_t r = 0; r < a.rows && whole; r++)
		for (int64_t e = a.row_ptr[r]; e < a.row_ptr[r + 1] && whole; e++) {
			int64_t c0 = a.col[e] / 8 * 8, n = 0;
			/* the entry's block is whole in this row: its 8 columns (fewer at the edge) are all there */
			for (int64_t f = a.row_ptr[r]; f < a.row_ptr[r + 1]; f++)
				n += a.col[f] >= c0 && a.col[f] < c0 + 8;
			whole = n == (c0 + 8 <= 50 ? 8 : 50 - c0);
			/* and so is the same block in the first row of its block row */
			int64_t r0 = r / 4 * 4, m = 0;
			for (int64_t f = a.row_ptr[r0]; f < a.row_ptr[r0 + 1]; f++)
				m += a.col[f] >= c0 && a.col[f] < c0 + 8;
			whole = whole && m == n;
		}
	CHECK(whole, "a block of the blocked pattern is not whole");
	dlb_csr_stats(&a, &st);
	CHECK(st.sparsity > 0.6 && st.sparsity < 0.9, "blocked sparsity %g, asked 0.75 of the blocks", st.sparsity);
	dlb_csr_free(&a);

	/* refused */
	CHECK_EQ_INT(dlb_csr_generate(0, 10, 0.9, 1, 1, 1, &a), DLB_E_USAGE);
	CHECK_EQ_INT(dlb_csr_generate(10, 10, 1.0, 1, 1, 1, &a), DLB_E_USAGE);
	CHECK_EQ_INT(dlb_csr_generate(10, 10, -0.1, 1, 1, 1, &a), DLB_E_USAGE);
	CHECK_EQ_INT(dlb_csr_generate(10, 10, 0.5, 11, 1, 1, &a), DLB_E_USAGE);
	/* the sparsest allowed still holds one nonzero */
	CHECK_EQ_INT(dlb_csr_generate(10, 10, 0.999, 1, 1, 1, &a), 0);
	CHECK_EQ_INT(a.nnz, 1);
	dlb_csr_free(&a);
}

/* Read text as a Matrix Market file. */
static int read_text(const char *text, struct dlb_csr *m)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	REQUIRE(f, "fmemopen failed");
	int rc = dlb_mtx_read_stream(f, "w.mtx", m);
	fclose(f);
	return rc;
}

static void refused(const char *text, const char *want)
{
	struct dlb_csr m;
	int rc = read_text(text, &m);
	CHECK(rc == DLB_E_PARSE && strstr(dlb_last_error(), want), "refused with %d \"%s\", expected \"%s\"", rc,
	      dlb_last_error(), want);
	if (!rc)
		dlb_csr_free(&m);
}

static void test_mtx(void)
{
	struct dlb_csr m;
	CHECK_EQ_INT(read_text("%%MatrixMarket matrix coordinate real general\n% a comment\n\n3 4 4\n3 1 -2.5\n1 2 1e-3\n"
			       "1 4 7\n3 4 0.5\n",
			       &m),
		     0);
	CHECK(m.rows == 3 && m.cols == 4 && m.nnz == 4 && m.row_ptr[1] == 2 && m.row_ptr[2] == 2 && m.row_ptr[3] == 4 &&
		      m.col[0] == 1 && m.col[1] == 3 && m.col[2] == 0 && m.col[3] == 3 && m.val[0] == 1e-3f &&
		      m.val[2] == -2.5f,
	      "the general matrix was not read as written");
	dlb_csr_free(&m);
	CHECK_EQ_INT(read_text("%%MatrixMarket matrix coordinate pattern symmetric\r\n3 3 3\r\n2 1\r\n3 3\r\n3 2\r\n", &m), 0);
	CHECK(m.nnz == 5 && m.row_ptr[1] == 1 && m.col[0] == 1 && m.row_ptr[2] == 3 && m.val[4] == 1.0f,
	      "the symmetric pattern was not mirrored: nnz %lld", (long long)m.nnz);
	dlb_csr_free(&m);
	/* no entries: refused at the size line, before the row offsets are allocated (the spmm op had no use for it) */
	refused("%%MatrixMarket matrix coordinate integer general\n2 2 0\n", "w.mtx:2: the size line declares no entries");

	refused("hello\n", "w.mtx:1: not a Matrix Market file");
	refused("%%MatrixMarket matrix array real general\n2 2\n", "w.mtx:1: a matrix array file");
	refused("%%MatrixMarket matrix coordinate complex general\n", "w.mtx:1: complex values");
	refused("%%MatrixMarket matrix coordinate real hermitian\n", "w.mtx:1: hermitian matrices");
	refused("%%MatrixMarket matrix coordinate real general\n%\n3 x 4\n", "w.mtx:3: expected the size line");
	refused("%%MatrixMarket matrix coordinate real general\n0 4 1\n", "w.mtx:2: 0 x 4 with 1 entries");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 5\n", "w.mtx:2: 2 x 2 with 5 entries");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n3 1 1\n",
		"w.mtx:4: entry (3, 1) is outside the 2 x 2 matrix");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n0 1 1\n", "w.mtx:4: entry (0, 1) is outside");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 2 x\n",
		"w.mtx:4: expected a finite value after \"1 2\"");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 2 inf\n", "w.mtx:4: expected a finite");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1e39\n", "w.mtx:3: expected a finite");
	refused("%%MatrixMarket matrix coordinate real symmetric\n4 4 2000000000\n", "w.mtx:2: 4 x 4 with 2000000000");
	CHECK_EQ_INT(read_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 1e-310", &m), 0);
	CHECK(m.nnz == 1 && m.val[0] == 0.0f, "a tiny value (no newline at the end) was not read as it rounds");
	dlb_csr_free(&m);
	refused("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1\n", "w.mtx:3: expected a finite value after \"1 1\"");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 2\n1\n", "w.mtx:3: expected \"row col value\"");
	refused("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 5\n", "w.mtx:3: a pattern entry is");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n",
		"w.mtx:4: the file ends after 2 of its 3 entries");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n",
		"w.mtx:4: more entries than the 1 the size line promised");
	refused("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 2 1\n2 2 1\n1 2 3\n",
		"w.mtx:5: entry (1, 2) was already given on line 3");
	refused("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", "w.mtx:2: a symmetric matrix must be square");
	refused("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", "w.mtx:3: entry (1, 2) is above the diagonal");
	CHECK_EQ_INT(dlb_mtx_read("/nonexistent/w.mtx", &m), DLB_E_PARSE);
	CHECK(strstr(dlb_last_error(), "cannot read /nonexistent/w.mtx"), "%s", dlb_last_error());
}

/* skewed: a uniform matrix's count, row 0 holding a tenth of it (at most every column), reproducible */
static void test_skewed(void)
{
	struct dlb_csr a, b;
	struct dlb_csr_stats st;
	CHECK_EQ_INT(dlb_csr_generate_skewed(1000, 700, 0.9, 5, &a), 0);
	check_sorted_nonzero(&a, "skewed");
	CHECK_EQ_INT(a.nnz, 70000);
	CHECK_EQ_INT(a.row_ptr[1], 700); /* a tenth is 7000: at most the 700 columns */
	CHECK_EQ_INT(dlb_csr_generate_skewed(1000, 700, 0.9, 5, &b), 0);
	CHECK(dlb_csr_hash(&a) == dlb_csr_hash(&b), "the same seed gave another skewed matrix");
	dlb_csr_free(&a);
	dlb_csr_free(&b);
	CHECK_EQ_INT(dlb_csr_generate_skewed(1000, 20000, 0.99, 5, &a), 0);
	check_sorted_nonzero(&a, "skewed, wide");
	dlb_csr_stats(&a, &st);
	CHECK(a.nnz == 200000 && a.row_ptr[1] == 20000 && st.longest_row == 20000 && st.shortest_row < 180,
	      "skewed 1000 x 20000 at 99%%: nnz %lld, row 0 %lld", (long long)a.nnz, (long long)a.row_ptr[1]);
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate_skewed(4, 5, 0, 1, &a), 0); /* dense: every row full */
	check_sorted_nonzero(&a, "skewed, dense");
	CHECK_EQ_INT(a.nnz, 20);
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate_skewed(1, 9, 0.5, 1, &a), 0); /* one row holds everything */
	CHECK_EQ_INT(a.nnz, 5);
	dlb_csr_free(&a);
}


/* The segmented copy of a, read back: every segment in place (offsets ascending, the longest as max16), its
 * header's offsets ascending, each row's entries from an even one (its nonzeros of the slice in CSR order), the
 * gap after a row with an odd count zero. */
static void check_segs(const struct dlb_csr *a, int rpw, int seg_k, const char *what)
{
	struct dlb_segs s;
	CHECK_EQ_INT(dlb_segs_build(a, rpw, seg_k, &s), 0);
	int hdr16 = dlb_segs_hdr16(rpw), ok = 1, longest = 0;
	int64_t seen = 0;
	for (int64_t g = 0; g < s.groups && ok; g++)
		for (int64_t sl = 0; sl < s.slices && ok; sl++) {
			int64_t q = g * s.slices + sl;
			const unsigned char *seg = (const unsigned char *)s.data + (size_t)s.off[q] * 16;
			const uint16_t *hdr = (const uint16_t *)seg;
			int64_t len = (int64_t)s.off[q + 1] - s.off[q], j = 0;
			longest = len > longest ? (int)len : longest;
			for (int i = 0; i < rpw && ok; i++) {
				int64_t r = g * rpw + i;
				int64_t start = j;
				for (; ok && j < hdr[i]; j++, seen++) {
					int32_t c;
					float v;
					memcpy(&c, seg + (size_t)hdr16 * 16 + (size_t)j * 8, 4);
					memcpy(&v, seg + (size_t)hdr16 * 16 + (size_t)j * 8 + 4, 4);
					/* the entry is the next of row r in this slice */
					int64_t e = a->row_ptr[r];
					while (e < a->row_ptr[r + 1] && a->col[e] < sl * seg_k + c)
						e++;
					ok = r < a->rows && c >= 0 && c < seg_k && e < a->row_ptr[r + 1] &&
					     a->col[e] == sl * seg_k + c && a->val[e] == v;
				}
				/* and no nonzero of row r in this slice was left out */
				int64_t in = 0;
				for (int64_t e = r < a->rows ? a->row_ptr[r] : 0; r < a->rows && e < a->row_ptr[r + 1]; e++)
					in += a->col[e] / seg_k == sl;
				ok = ok && start % 2 == 0 && hdr[i] - start == in;
				if (ok && j % 2) { /* the gap: zero, and the next row starts after it */
					static const unsigned char zero[8];
					ok = !memcmp(seg + (size_t)hdr16 * 16 + (size_t)j * 8, zero, 8);
					j++;
				}
			}
			ok = ok && len == hdr16 + j / 2;
		}
	CHECK(ok && seen == a->nnz && longest == s.max16 && s.bytes == (size_t)s.off[s.groups * s.slices] * 16 &&
		      (double)s.bytes + (double)(s.groups * s.slices + 1) * 4 <=
			      dlb_segs_bytes_bound(a->rows, a->cols, (double)a->nnz, rpw, seg_k),
	      "%s, %d rows and %d columns a segment: the segmented copy does not hold the matrix (%lld of %lld nonzeros "
	      "seen)", what, rpw, seg_k, (long long)seen, (long long)a->nnz);
	dlb_segs_free(&s);
}

static void test_segs(void)
{
	struct dlb_csr a;
	CHECK_EQ_INT(dlb_csr_generate(203, 517, 0.9, 1, 1, 3, &a), 0); /* neither a multiple of a group nor a slice */
	for (int rpw = 1; rpw <= 16; rpw *= 2)
		for (int seg_k = 32; seg_k <= 128; seg_k *= 2)
			check_segs(&a, rpw, seg_k, "uniform 203 x 517");
	check_segs(&a, 3, 7, "uniform 203 x 517");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate_skewed(61, 1000, 0.95, 2, &a), 0); /* one long row, empty rows likely */
	check_segs(&a, 8, 64, "skewed 61 x 1000");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate(5, 7, 0, 1, 1, 1, &a), 0); /* dense and smaller than a group and a slice */
	check_segs(&a, 16, 32, "dense 5 x 7");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate(64, 1024, 0, 1, 1, 1, &a), 0); /* dense: a segment's count at its largest */
	check_segs(&a, 63, 1024, "dense 64 x 1024");
	struct dlb_segs s;
	CHECK_EQ_INT(dlb_segs_build(&a, 64, 1024, &s), DLB_E_USAGE); /* 65536 nonzeros: not a 16-bit count */
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_segs_build(&a, 0, 32, &s), DLB_E_USAGE);
}

/* The tiled copy of a, scattered back: every nonzero once, at its row and column, with its value's bits (here
 * a code of its index); the offsets ascending, each tile's entries in its group's rows and its slice, in row
 * order, the last offset the nonzero count. */
static void check_tiles(const struct dlb_csr *a, int gr, int tk, const char *what)
{
	struct dlb_tiles t;
	uint16_t *h = malloc((size_t)(a->nnz ? a->nnz : 1) * sizeof *h);
	int32_t *dense = malloc((size_t)a->rows * (size_t)a->cols * sizeof *dense);
	CHECK(h && dense, "out of memory");
	if (!h || !dense)
		return;
	for (int64_t j = 0; j < a->nnz; j++)
		h[j] = (uint16_t)(j * 7 + 1);
	for (int64_t i = 0; i < a->rows * a->cols; i++)
		dense[i] = -1;
	CHECK_EQ_INT(dlb_tiles_build(a, h, gr, tk, &t), 0);
	int ok = t.off && t.off[0] == 0 && t.off[t.groups * t.slices] == (uint32_t)a->nnz;
	int64_t placed = 0;
	for (int64_t g = 0; g < t.groups && ok; g++)
		for (int64_t sl = 0; sl < t.slices && ok; sl++) {
			int64_t q = g * t.slices + sl;
			int last_row = 0;
			ok = t.off[q] <= t.off[q + 1];
			for (uint32_t e = t.off[q]; ok && e < t.off[q + 1]; e++, placed++) {
				uint32_t x = t.ent[e];
				int64_t i = x >> 23, c = (x >> 16) & 0x7f, r = g * gr + i, col = sl * tk + c;
				ok = i < gr && c < tk && i >= last_row && r < a->rows && col < a->cols &&
				     dense[r * a->cols + col] == -1;
				last_row = (int)i;
				if (ok)
					dense[r * a->cols + col] = (int32_t)(x & 0xffff);
			}
		}
	for (int64_t r = 0; r < a->rows && ok; r++)
		for (int64_t j = a->row_ptr[r]; j < a->row_ptr[r + 1] && ok; j++)
			ok = dense[r * a->cols + a->col[j]] == h[j];
	CHECK(ok && placed == a->nnz &&
		      dlb_tiles_bytes(a->rows, a->cols, (double)a->nnz, gr, tk) ==
			      ((double)(t.groups * t.slices) + 1) * 4 + (double)a->nnz * 4,
	      "%s, %d rows and %d columns a tile: the tiled copy does not hold the matrix (%lld of %lld nonzeros placed)",
	      what, gr, tk, (long long)placed, (long long)a->nnz);
	dlb_tiles_free(&t);
	free(h);
	free(dense);
}

static void test_tiles(void)
{
	struct dlb_csr a;
	CHECK_EQ_INT(dlb_csr_generate(203, 517, 0.9, 1, 1, 3, &a), 0); /* neither a multiple of a group nor a slice */
	for (int gr = 16; gr <= 64; gr *= 2)
		for (int tk = 32; tk <= 128; tk *= 2)
			check_tiles(&a, gr, tk, "uniform 203 x 517");
	check_tiles(&a, 3, 7, "uniform 203 x 517");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate_skewed(61, 1000, 0.95, 2, &a), 0); /* one long row, empty rows likely */
	check_tiles(&a, 32, 64, "skewed 61 x 1000");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate(5, 7, 0, 1, 1, 1, &a), 0); /* dense and smaller than a group and a slice */
	check_tiles(&a, 16, 32, "dense 5 x 7");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate(512, 300, 0, 1, 1, 1, &a), 0); /* dense: the largest row and column codes */
	check_tiles(&a, 512, 128, "dense 512 x 300");
	struct dlb_tiles t;
	CHECK_EQ_INT(dlb_tiles_build(&a, NULL, 513, 32, &t), DLB_E_USAGE); /* a row within the group in 9 bits */
	CHECK_EQ_INT(dlb_tiles_build(&a, NULL, 16, 129, &t), DLB_E_USAGE); /* a column within the slice in 7 bits */
	dlb_csr_free(&a);
}

/* BSR and Blocked-ELL of a, expanded back to dense: every value at its place (zeros elsewhere), block columns
 * ascending and within range, the block counts as the blocks a holds, the ELL width the longest block row's. */
static void check_bsr(const struct dlb_csr *a, int bs, const char *what)
{
	struct dlb_bsr b;
	int32_t *ind = NULL;
	float *ev = NULL;
	size_t cells = (size_t)a->rows * (size_t)a->cols;
	float *want = calloc(cells, sizeof *want), *got = calloc(cells, sizeof *got), *eg = calloc(cells, sizeof *eg);
	CHECK(want && got && eg, "out of memory");
	CHECK_EQ_INT(dlb_bsr_from_csr(a, bs, &b), 0);
	CHECK_EQ_INT(dlb_bsr_to_ell(&b, &ind, &ev), 0);
	if (!want || !got || !eg || !ind || !ev) {
		free(want), free(got), free(eg), free(ind), free(ev);
		dlb_bsr_free(&b);
		return;
	}
	for (int64_t r = 0; r < a->rows; r++)
		for (int64_t j = a->row_ptr[r]; j < a->row_ptr[r + 1]; j++)
			want[r * a->cols + a->col[j]] = a->val[j];
	int ok = b.brows == a->rows / bs && b.bcols == a->cols / bs && b.row_ptr[0] == 0 && b.row_ptr[b.brows] == b.nnzb;
	int64_t longest = 0, blocks = 0;
	for (int64_t br = 0; br < b.brows && ok; br++) {
		int64_t n = b.row_ptr[br + 1] - b.row_ptr[br];
		longest = n > longest ? n : longest;
		for (int64_t q = b.row_ptr[br]; q < b.row_ptr[br + 1] && ok; q++) {
			ok = b.col[q] >= 0 && b.col[q] < b.bcols && (q == b.row_ptr[br] || b.col[q] > b.col[q - 1]);
			for (int64_t i = 0; i < bs && ok; i++)
				for (int64_t c = 0; c < bs; c++)
					got[(br * bs + i) * a->cols + b.col[q] * bs + c] = b.val[(q * bs + i) * bs + c];
		}
		for (int64_t s = 0; s < b.ell_blocks && ok; s++) {
			int32_t c = ind[br * b.ell_blocks + s];
			ok = s < n ? c == b.col[b.row_ptr[br] + s] : c == -1;
			for (int64_t i = 0; i < bs && ok && c >= 0; i++)
				for (int64_t x = 0; x < bs; x++)
					eg[(br * bs + i) * a->cols + c * bs + x] = ev[(br * bs + i) * b.ell_blocks * bs + s * bs + x];
		}
	}
	for (int64_t br = 0; br < b.brows; br++)
		for (int64_t bc = 0; bc < b.bcols; bc++) {
			int any = 0;
			for (int64_t i = 0; i < bs; i++)
				for (int64_t c = 0; c < bs; c++)
					any |= want[(br * bs + i) * a->cols + bc * bs + c] != 0;
			blocks += any;
		}
	ok = ok && longest == b.ell_blocks && blocks == b.nnzb && !memcmp(want, got, cells * sizeof *got) &&
	     !memcmp(want, eg, cells * sizeof *eg);
	CHECK(ok, "%s in blocks of %d: the BSR or Blocked-ELL copy does not hold the matrix (%lld blocks, %lld expected)",
	      what, bs, (long long)b.nnzb, (long long)blocks);
	dlb_bsr_free(&b);
	free(want), free(got), free(eg), free(ind), free(ev);
}

static void test_bsr(void)
{
	struct dlb_csr a;
	CHECK_EQ_INT(dlb_csr_generate(64, 96, 0.9, 4, 4, 5, &a), 0); /* whole 4 x 4 blocks */
	check_bsr(&a, 4, "block:4x4 64 x 96");
	check_bsr(&a, 8, "block:4x4 64 x 96"); /* blocks of 8 made of the 4 x 4 ones: zeros inside */
	check_bsr(&a, 2, "block:4x4 64 x 96");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate(120, 48, 0.95, 1, 1, 6, &a), 0); /* uniform: partly filled blocks, empty rows */
	check_bsr(&a, 8, "uniform 120 x 48");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate(32, 32, 0, 1, 1, 1, &a), 0); /* dense: every block, one width */
	check_bsr(&a, 16, "dense 32 x 32");
	dlb_csr_free(&a);
	CHECK_EQ_INT(dlb_csr_generate(30, 32, 0.9, 1, 1, 1, &a), 0);
	struct dlb_bsr b;
	CHECK_EQ_INT(dlb_bsr_from_csr(&a, 4, &b), DLB_E_USAGE); /* 30 rows: not whole blocks of 4 */
	CHECK_HAS(dlb_last_error(), "not whole blocks of 4 x 4");
	CHECK_EQ_INT(dlb_bsr_from_csr(&a, 1, &b), DLB_E_USAGE);
	dlb_clear_error();
	dlb_csr_free(&a);
}

int main(void)
{
	test_bsr();
	test_segs();
	test_tiles();
	test_generate();
	test_skewed();
	test_mtx();
	return TEST_DONE();
}
