/* report: the database's results as index.html and report.md, a table and a speedup plot per op × precision × GPU
 * (report.h). The tables use the Markdown export's columns (columns.c), so every op shows its own. */
#include "report.h"

#include "../src/device.h"
#include "../src/err.h"
#include "../src/op.h"
#include "../src/catalog.h"
#include "../store/record.h"
#include "columns.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Groups as the Markdown export makes them: op, precision, GPU model (id), driver. */
static int group_cmp(const struct dlb_row *a, const struct dlb_row *b)
{
	int c = strcmp(a->k.op, b->k.op);
	if (!c)
		c = strcmp(a->k.prec, b->k.prec);
	if (!c)
		c = strcmp(a->k.id, b->k.id);
	if (!c)
		c = (a->k.driver > b->k.driver) - (a->k.driver < b->k.driver);
	if (!c) /* the title names it (--any-version may hold several) */
		c = (a->k.cuda > b->k.cuda) - (a->k.cuda < b->k.cuda);
	return c;
}

static int row_order(const void *pa, const void *pb)
{
	const struct dlb_row *a = *(const struct dlb_row *const *)pa, *b = *(const struct dlb_row *const *)pb;
	int c = group_cmp(a, b);
	return c ? c : strcmp(a->r.key, b->r.key);
}

/* One point of a speedup plot: the paired speedup and its CI, or (not measured side by side) the unpaired one. */
struct point {
	const struct dlb_row *w;
	double s, lo, hi;
	int paired;
};

static int point_order(const void *pa, const void *pb)
{
	const struct point *a = pa, *b = pb;
	return (a->s > b->s) - (a->s < b->s);
}

static void describe(const struct dlb_row *w, char *buf, int len)
{
	const struct dlb_op *op = w->r.p.op;
	if (op && op->family->describe)
		op->family->describe(w->r.p.dim, buf, len);
	else
		snprintf(buf, (size_t)len, "%s %s", w->k.shape, w->k.layout);
}

/* The length of the well-formed UTF-8 sequence at s (1 for ASCII), or 0 where s starts none. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
		: (s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Text as the pages may hold it, so a name from an imported record cannot break the XML or a table: bytes that are
 * not UTF-8 and control characters become '?', except tab and newline (HTML keeps them; Markdown, one line a cell,
 * makes them and CR a space); then HTML escapes < > & ", Markdown | and \. */
static void page_text(FILE *f, const char *s, int md)
{
	for (; *s; s++) {
		int n = utf8_len((const unsigned char *)s);
		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n - 1;
			continue;
		}
		if (n == 0 || (unsigned char)*s < 0x20 || *s == 0x7f) {
			int blank = *s == '\t' || *s == '\n' || (md && *s == '\r');
			fputc(!blank ? '?' : md ? ' ' : *s, f);
			continue;
		}
		if (md) {
			if (*s == '|' || *s == '\\')
				fputc('\\', f);
			fputc(*s, f);
			continue;
		}
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static void html_text(FILE *f, const char *s)
{
	page_text(f, s, 0);
}

static void md_text(FILE *f, const char *s)
{
	page_text(f, s, 1);
}

static int open_in(const char *dir, const char *name, FILE **out)
{
	int rc = 0;
	char path[4096];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
		DLB_USER_FAIL(ENAMETOOLONG, "%s/%s: path too long", dir, name);
	*out = fopen(path, "we"); /* not inherited by gnuplot */
	if (!*out)
		DLB_USER_FAIL(errno, "%s: %s", path, strerror(errno));
fail:
	return rc;
}

static int close_checked(const char *dir, const char *name, FILE *f)
{
	int rc = 0, bad = ferror(f);
	errno = 0;
	int closed = fclose(f), e = errno ? errno : EIO;
	if (closed || bad)
		DLB_USER_FAIL(e, "writing %s/%s: %s", dir, name, strerror(e));
fail:
	return rc;
}

/* dir/name.tmp renamed to dir/name */
static int rename_in(const char *dir, const char *name)
{
	int rc = 0;
	char from[4096], to[4096];
	snprintf(from, sizeof from, "%s/%s.tmp", dir, name);
	snprintf(to, sizeof to, "%s/%s", dir, name);
	if (rename(from, to))
		DLB_USER_FAIL(errno, "%s: %s", to, strerror(errno));
fail:
	return rc;
}

/* gnuplot (an absolute path, or a name looked up in PATH) runs script in dir (its files named relative to it);
 * its messages go to dir/gnuplot.log. 0 when it exited 0. */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *script)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (chdir(dir) || !freopen("gnuplot.log", "a", stderr) || !freopen("/dev/null", "w", stdout)) {
			dprintf(2, "dlbtune report: %s: cannot run gnuplot there: %s\n", dir, strerror(errno));
			_exit(126);
		}
		execlp(gnuplot, "gnuplot", script, (char *)NULL);
		dprintf(2, "%s: %s\n", gnuplot, strerror(errno)); /* fd 2 is gnuplot.log: unbuffered */
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : DLB_E_LIMIT;
}

/* gnuplot's settings for a plot of np sorted problems into svg, the y axis logarithmic in [ylo, yhi] */
/* text as a gnuplot string may hold it: ASCII only (the SVG must parse whatever a GPU name holds), no quotes */
static void gp_text(char *t, size_t len, const char *text)
{
	snprintf(t, len, "%s", text);
	for (char *c = t; *c; c++)
		if (*c == '"' || *c == '\\' || *c == '\'' || (unsigned char)*c < 0x20 || *c == 0x7f ||
		    (unsigned char)*c >= 0x80)
			*c = ' ';
}

/* A plot script's first lines: the SVG terminal and file, CSV data, the title. */
static void gp_start(FILE *f, const char *svg, const char *title)
{
	char t[512];
	gp_text(t, sizeof t, title);
	fprintf(f,
		"set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'\n"
		"set output '%s'\n"
		"set datafile separator ','\n"
		"set title \"%s\" noenhanced\n",
		svg, t);
}

static void gp_head(FILE *f, const char *svg, const char *title, const char *ylabel, int np, double ylo, double yhi)
{
	gp_start(f, svg, title);
	fprintf(f,
		"set xlabel 'problems, sorted'\n"
		"set ylabel '%s'\n"
		"set logscale y 2\n"
		"set grid ytics\n"
		"set key top left\n"
		"set xrange [0:%d]\n"
		"set yrange [%.4g:%.4g]\n"
		"%s",
		ylabel, np + 1, ylo, yhi, np <= 24 ? "set xtics 1\n" : "set format x '%.0f'\n");
}

/* Runs the script `name` where it can: whether svg was made. */
static int gp_made(const char *dir, const char *gnuplot, const char *name, const char *svg, int np)
{
	char path[4096];
	struct stat sb;
	snprintf(path, sizeof path, "%s/%s", dir, svg);
	unlink(path); /* an earlier report's plot never stands in for this one */
	if (!gnuplot || !*gnuplot || np < 1 || run_gnuplot(gnuplot, dir, name))
		return 0;
	return stat(path, &sb) == 0 && sb.st_size > 0;
}

/* The plot script `name` (open as f) closed, then run: 0 or the error closing it; *made: whether svg was made. */
static int gp_finish(const char *dir, const char *name, FILE *f, const char *gnuplot, const char *svg, int np, int *made)
{
	int rc = close_checked(dir, name, f);
	*made = rc ? 0 : gp_made(dir, gnuplot, name, svg, np);
	return rc;
}

/* Why a plot whose script was written has no SVG. */
static const char *gp_why(const char *gnuplot)
{
	return !gnuplot || !*gnuplot ? "no gnuplot" : "gnuplot failed (gnuplot.log)";
}

/* The speedup plot's CSV and script for one group; whether its SVG was made. */
static int write_plot(const char *dir, const char *base, const char *title, struct point *pt, int np,
		      const char *gnuplot, int *made)
{
	int rc = 0;
	char name[256], svg[256];
	FILE *f = NULL;
	*made = 0;
	snprintf(name, sizeof name, "%s_speedup.csv", base);
	DLB_CHECK(open_in(dir, name, &f));
	fprintf(f, "rank,problem,speedup,ci_lo,ci_hi,measured\n");
	for (int i = 0; i < np; i++) {
		char d[256];
		describe(pt[i].w, d, sizeof d);
		fprintf(f, "%d,", i + 1);
		dlb_csv_string(f, d);
		fprintf(f, ",%.4f,%.4f,%.4f,%s\n", pt[i].s, pt[i].lo, pt[i].hi, pt[i].paired ? "paired" : "unpaired");
	}
	rc = close_checked(dir, name, f);
	f = NULL;
	DLB_CHECK(rc);
	snprintf(svg, sizeof svg, "%s_speedup.svg", base);
	snprintf(name, sizeof name, "%s_speedup.gp", base);
	DLB_CHECK(open_in(dir, name, &f));
	double ylo = 0.5, yhi = 2; /* the line at 1 always in view */
	for (int i = 0; i < np; i++) {
		ylo = fmin(ylo, pt[i].lo / 1.25);
		yhi = fmax(yhi, pt[i].hi * 1.25);
	}
	fprintf(f, "# dlbtune report: the paired speedup per problem (vendor best / tuned, side by side), sorted, with its\n"
		   "# 95%% CI; rows measured only apart show their unpaired speedup. Data: %s_speedup.csv\n",
		base);
	gp_head(f, svg, title, "speedup over the vendor best (x)", np, ylo, yhi);
	fprintf(f,
		"plot '%s_speedup.csv' skip 1 using 1:3:4:5 with yerrorbars pt 7 ps 0.6 lc rgb '#1f5fa8' "
		"title 'speedup, 95%% CI', 1 with lines dt 2 lc rgb '#555555' title 'even with the vendor'\n",
		base);
	rc = gp_finish(dir, name, f, gnuplot, svg, np, made);
	f = NULL;
	DLB_CHECK(rc);
fail:
	if (f)
		fclose(f);
	return rc;
}

/* The roofline of a group: each problem's arithmetic intensity (the op's work over the bytes of its inputs read
 * once and its output written once, dlb_op_min_bytes) against the tuned kernel's and the vendor best's
 * throughput, under the GPU's roofs: peak (the op's unit) and memory bandwidth bw (GB/s) times the intensity.
 * Its CSV and script, and whether its SVG was made; *why says what is missing when there is no plot. */
static int write_roofline(const char *dir, const char *base, const char *title, const struct dlb_row *const *g, int n,
			  double peak, double bw, const char *gnuplot, int *made, const char **why)
{
	int rc = 0, np = 0;
	char name[256], svg[256];
	FILE *f = NULL;
	const struct dlb_op *op = n > 0 ? g[0]->r.p.op : NULL;
	double xlo = INFINITY, xhi = 0, ylo = INFINITY;
	*made = 0;
	*why = NULL;
	if (!op || op->family->work_kind != DLB_WORK_FLOPS || !isfinite(dlb_op_min_bytes(op, &g[0]->r.p))) {
		*why = "the op declares no bytes for its problems";
		return 0;
	}
	if (!(isfinite(peak) && peak > 0) || !(isfinite(bw) && bw > 0)) {
		*why = !(isfinite(peak) && peak > 0) ? "the records hold no compute peak"
						       : "the records and platforms hold no memory bandwidth";
		return 0;
	}
	const double scale = 1e12; /* the op's unit: TFLOP/s or TOPS */
	snprintf(name, sizeof name, "%s_roofline.csv", base);
	DLB_CHECK(open_in(dir, name, &f));
	fprintf(f, "problem,intensity,tuned,vendor_best\n");
	for (int i = 0; i < n; i++) {
		const struct dlb_result *r = &g[i]->r;
		double work = op->family->work(&r->p), bytes = dlb_op_min_bytes(op, &r->p), ai = work / bytes;
		double t = r->found ? r->tuned.median : NAN, v = dlb_result_vendor_best_us(r);
		double yt = t > 0 ? work / (t * 1e-6) / scale : NAN, yv = v > 0 ? work / (v * 1e-6) / scale : NAN;
		if (!(isfinite(ai) && ai > 0) || (!isfinite(yt) && !isfinite(yv)))
			continue;
		char d[256];
		describe(g[i], d, sizeof d);
		dlb_csv_string(f, d);
		fprintf(f, ",%.6g,", ai);
		if (isfinite(yt))
			fprintf(f, "%.6g", yt);
		fprintf(f, ",");
		if (isfinite(yv))
			fprintf(f, "%.6g", yv);
		fprintf(f, "\n");
		xlo = fmin(xlo, ai);
		xhi = fmax(xhi, ai);
		ylo = fmin(ylo, fmin(isfinite(yt) ? yt : INFINITY, isfinite(yv) ? yv : INFINITY));
		np++;
	}
	rc = close_checked(dir, name, f);
	f = NULL;
	DLB_CHECK(rc);
	if (np == 0) {
		*why = "no problem has a time";
		return 0;
	}
	const double ridge = peak / (bw / 1e3); /* intensity where the roofs meet */
	xlo = fmin(xlo, ridge) / 2;
	xhi = fmax(xhi, ridge) * 2;
	ylo = fmin(ylo, bw / 1e3 * xlo) / 2;
	snprintf(svg, sizeof svg, "%s_roofline.svg", base);
	snprintf(name, sizeof name, "%s_roofline.gp", base);
	DLB_CHECK(open_in(dir, name, &f));
	fprintf(f, "# dlbtune report: the roofline. Each problem's intensity (work / the bytes of its inputs read once and\n"
		   "# its output written once) against the throughput of the tuned kernel and of the vendor's best,\n"
		   "# under the GPU's roofs: %.6g %s and %.6g GB/s. Data: %s_roofline.csv\n",
		peak, dlb_op_unit(op), bw, base);
	char rtitle[600];
	snprintf(rtitle, sizeof rtitle, "roofline: %s", title);
	gp_start(f, svg, rtitle);
	fprintf(f,
		"set xlabel 'arithmetic intensity (%s per byte moved at least)'\n"
		"set ylabel '%s'\n"
		"set logscale xy 10\n"
		"set format xy '%%g'\n"
		"set grid xtics ytics\n"
		"set key top left\n"
		"set xrange [%.4g:%.4g]\n"
		"set yrange [%.4g:%.4g]\n"
		"set samples 400\n"
		"peak = %.6g\n"
		"bw = %.6g # the bandwidth in the unit per intensity (GB/s / 1000)\n"
		"roof(x) = bw * x < peak ? bw * x : peak\n"
		"plot roof(x) with lines lw 2 lc rgb '#555555' title sprintf('roofs: %%g %s, %%g GB/s', peak, bw * 1000), "
		"'%s_roofline.csv' skip 1 using 2:3 with points pt 7 ps 0.7 lc rgb '#1f5fa8' title 'tuned', "
		"'%s_roofline.csv' skip 1 using 2:4 with points pt 6 ps 0.9 lc rgb '#c0392b' title 'vendor best'\n",
		op->family->work_kind == DLB_WORK_FLOPS && op->prec == DLB_PREC_INT8 ? "operations" : "flops",
		dlb_op_unit(op), xlo, xhi, ylo, peak * 2, peak, bw / 1e3, dlb_op_unit(op), base, base);
	rc = gp_finish(dir, name, f, gnuplot, svg, np, made);
	f = NULL;
	DLB_CHECK(rc);
	*why = *made ? NULL : gp_why(gnuplot);
fail:
	if (f)
		fclose(f);
	return rc;
}

/* The value of row x's column with CSV field `field` among cols (a number or an integer), NAN where it has none. */
static double column_value(const struct dlb_row_ctx *x, const struct dlb_column *cols, int n, const char *field,
			   const char **title)
{
	for (int c = 0; c < n; c++) {
		if (!cols[c].get || strcmp(cols[c].field, field))
			continue;
		struct dlb_cell cell = {0};
		cols[c].get(x, &cols[c], &cell);
		if (cell.kind == DLB_CELL_JSON)
			json_decref(cell.j);
		if (cell.kind != DLB_CELL_NUM && cell.kind != DLB_CELL_INT)
			continue; /* another column of that field (a text rendering); look on */
		if (title)
			*title = cols[c].title;
		return cell.missing ? NAN : cell.kind == DLB_CELL_NUM ? cell.x : (double)cell.i;
	}
	return NAN;
}

/* The family's own plot of a group (struct dlb_family_plot): its CSV (problem, x, one column per series) and
 * script, from the family's column list; whether its SVG was made; *why says what is missing. */
static int write_family_plot(const char *dir, const char *base, const char *title, const struct dlb_row *const *g,
			     int n, const char *gnuplot, int *made, const char **why)
{
	int rc = 0, np = 0, ny = 0;
	char name[256], svg[256];
	FILE *f = NULL;
	const struct dlb_op *op = n > 0 ? g[0]->r.p.op : NULL;
	const struct dlb_family_plot *fp = op ? op->family->plot : NULL;
	struct dlb_column cols[DLB_MAX_COLUMNS];
	const char *ytitle[4] = {NULL, NULL, NULL, NULL}, *xtitle = NULL;
	*made = 0;
	*why = NULL;
	if (!fp) {
		*why = "the op declares none";
		return 0;
	}
	int nc = dlb_columns(op->family, cols, DLB_MAX_COLUMNS);
	while (ny < 4 && fp->y[ny])
		ny++;
	snprintf(name, sizeof name, "%s_%s.csv", base, fp->name);
	DLB_CHECK(open_in(dir, name, &f));
	fprintf(f, "problem,%s", fp->x);
	for (int k = 0; k < ny; k++)
		fprintf(f, ",%s", fp->y[k]);
	fprintf(f, "\n");
	for (int i = 0; i < n; i++) {
		const struct dlb_row_ctx x = {&g[i]->r, 1, g[i]->stale};
		double xv = column_value(&x, cols, nc, fp->x, &xtitle), yv[4];
		int any = 0;
		for (int k = 0; k < ny; k++)
			any |= isfinite(yv[k] = column_value(&x, cols, nc, fp->y[k], &ytitle[k]));
		if (!isfinite(xv) || !any || (fp->logx && !(xv > 0)))
			continue;
		char d[256];
		describe(g[i], d, sizeof d);
		dlb_csv_string(f, d);
		fprintf(f, ",%.6g", xv);
		for (int k = 0; k < ny; k++)
			if (isfinite(yv[k]))
				fprintf(f, ",%.6g", yv[k]);
			else
				fprintf(f, ",");
		fprintf(f, "\n");
		np++;
	}
	rc = close_checked(dir, name, f);
	f = NULL;
	DLB_CHECK(rc);
	if (np == 0) {
		*why = "no problem has the plot's values";
		return 0;
	}
	snprintf(svg, sizeof svg, "%s_%s.svg", base, fp->name);
	snprintf(name, sizeof name, "%s_%s.gp", base, fp->name);
	DLB_CHECK(open_in(dir, name, &f));
	char t[600], xl[128];
	snprintf(t, sizeof t, "%s: %s", fp->title, title);
	gp_text(xl, sizeof xl, xtitle ? xtitle : fp->x);
	fprintf(f, "# dlbtune report: the %s family's own plot, %s. Data: %s_%s.csv\n", op->family->name, fp->title, base,
		fp->name);
	gp_start(f, svg, t);
	fprintf(f, "set xlabel '%s'\nset ylabel '%s'\nset grid xtics ytics\nset key top left\nset logscale y 2\n%s", xl,
		fp->ylabel, fp->logx ? "set logscale x 2\nset format x '%g'\nset offsets graph 0.05, graph 0.05\n" : "set offsets graph 0.05, graph 0.05\n");
	static const char *const colour[4] = {"#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad"};
	static const int shape[4] = {7, 6, 5, 9};
	fprintf(f, "plot ");
	for (int k = 0; k < ny; k++) {
		char yt[128];
		gp_text(yt, sizeof yt, ytitle[k] ? ytitle[k] : fp->y[k]);
		fprintf(f, "%s'%s_%s.csv' skip 1 using 2:%d with points pt %d ps 0.8 lc rgb '%s' title '%s'", k ? ", " : "",
			base, fp->name, 3 + k, shape[k], colour[k], yt);
	}
	if (fp->one)
		fprintf(f, ", 1 with lines dt 2 lc rgb '#555555' title 'even'");
	fprintf(f, "\n");
	rc = gp_finish(dir, name, f, gnuplot, svg, np, made);
	f = NULL;
	DLB_CHECK(rc);
	*why = *made ? NULL : gp_why(gnuplot);
fail:
	if (f)
		fclose(f);
	return rc;
}

/* Stored trials in the order their search took them: by timestamp, then by their place in the search (seq),
 * then as stored. */
struct ord_trial {
	const struct dlb_trial *t;
	int i;
};

static int trial_order(const void *pa, const void *pb)
{
	const struct ord_trial *a = pa, *b = pb;
	int c = strcmp(a->t->timestamp, b->t->timestamp);
	if (!c)
		c = (a->t->seq > b->t->seq) - (a->t->seq < b->t->seq);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

#define PROGRESS_MAX 3 /* problems in a group's search-progress plot: those with the most trials */

/* Where the searches of a group spent their time: for its PROGRESS_MAX problems with the most stored trials, the
 * best time found so far (relative to the problem's final best) after each trial, against the trials
 * evaluated and the GPU seconds they cost. A CSV per problem and one script; whether its SVG was made; *why
 * says what is missing when there is no plot. */
static int write_progress(const char *dir, const char *base, const char *title, struct dlb_store *s,
			  const struct dlb_row *const *g, int n, const char *gnuplot, int *made, const char **why)
{
	int rc = 0, pick[PROGRESS_MAX], npick = 0, ntr[PROGRESS_MAX], with_seconds = 0;
	char name[256], svg[256], label[PROGRESS_MAX][160];
	FILE *f = NULL;
	struct dlb_trial *t = NULL;
	struct ord_trial *o = NULL;
	*made = 0;
	*why = "no problem has stored trials";
	/* the problems with the most trials (counted as the results keep them), most first, ties in table order */
	for (int i = 0; i < n; i++) {
		int c = 0;
		for (int k = 0; k < DLB_ST_COUNT; k++)
			c += g[i]->r.counts[k];
		if (c < 1 || !g[i]->r.found)
			continue;
		int at = npick;
		while (at > 0 && ntr[at - 1] < c)
			at--;
		if (at >= PROGRESS_MAX)
			continue;
		for (int k = (npick < PROGRESS_MAX ? npick : PROGRESS_MAX - 1); k > at; k--)
			pick[k] = pick[k - 1], ntr[k] = ntr[k - 1];
		pick[at] = i;
		ntr[at] = c;
		if (npick < PROGRESS_MAX)
			npick++;
	}
	int nplot = 0;
	for (int k = 0; k < npick; k++) {
		const struct dlb_row *w = g[pick[k]];
		int nt = 0;
		DLB_CHECK(dlb_trials_load(s, w->r.key, &t, &nt));
		o = calloc(nt > 0 ? (size_t)nt : 1, sizeof *o);
		if (!o)
			DLB_FAIL(ENOMEM, "out of memory");
		for (int i = 0; i < nt; i++)
			o[i] = (struct ord_trial){&t[i], i};
		qsort(o, (size_t)nt, sizeof *o, trial_order);
		double final = INFINITY;
		for (int i = 0; i < nt; i++)
			if (o[i].t->status == DLB_ST_OK && o[i].t->median_us > 0)
				final = fmin(final, o[i].t->median_us);
		if (isfinite(final)) {
			snprintf(name, sizeof name, "%s_progress_%d.csv", base, nplot + 1);
			DLB_CHECK(open_in(dir, name, &f));
			fprintf(f, "problem,trials,gpu_seconds,best_us,best_over_final\n");
			char d[256];
			describe(w, d, sizeof d);
			double best = INFINITY, sec = 0;
			for (int i = 0; i < nt; i++) {
				sec += o[i].t->seconds > 0 ? o[i].t->seconds : 0;
				with_seconds |= o[i].t->seconds > 0;
				if (o[i].t->status == DLB_ST_OK && o[i].t->median_us > 0)
					best = fmin(best, o[i].t->median_us);
				if (!isfinite(best))
					continue;
				dlb_csv_string(f, d);
				fprintf(f, ",%d,%.4f,%.4f,%.4f\n", i + 1, sec, best, best / final);
			}
			rc = close_checked(dir, name, f);
			f = NULL;
			DLB_CHECK(rc);
			gp_text(label[nplot], sizeof label[nplot], d);
			nplot++;
		}
		free(o);
		o = NULL;
		free(t);
		t = NULL;
	}
	if (nplot == 0)
		return 0;
	snprintf(svg, sizeof svg, "%s_progress.svg", base);
	snprintf(name, sizeof name, "%s_progress.gp", base);
	DLB_CHECK(open_in(dir, name, &f));
	fprintf(f, "# dlbtune report: where the search spent its time. For the %d problem(s) of the group with the most\n"
		   "# stored trials, the best time found so far over the final best, after each trial (in the order the\n"
		   "# search took them), against the trials evaluated and the GPU seconds they cost.\n"
		   "# Data: %s_progress_N.csv\n",
		nplot, base);
	char ptitle[600];
	snprintf(ptitle, sizeof ptitle, "search progress: %s", title);
	gp_start(f, svg, ptitle);
	fprintf(f, "unset title\n"
		   "set multiplot layout 1,%d title \"%s\" noenhanced\n"
		   "set ylabel 'best so far / final best'\n"
		   "set logscale y 2\n"
		   "set yrange [0.95:*]\n"
		   "set grid xtics ytics\n"
		   "set key top right\n",
		with_seconds ? 2 : 1, ptitle);
	for (int panel = 0; panel < (with_seconds ? 2 : 1); panel++) {
		fprintf(f, "set xlabel '%s'\nplot ", panel ? "GPU seconds" : "trials evaluated");
		for (int k = 0; k < nplot; k++)
			fprintf(f, "%s'%s_progress_%d.csv' skip 1 using %d:5 with steps lw 2 title '%s'", k ? ", " : "", base,
				k + 1, panel ? 3 : 2, label[k]);
		fprintf(f, "\n");
	}
	fprintf(f, "unset multiplot\n");
	rc = gp_finish(dir, name, f, gnuplot, svg, nplot, made);
	f = NULL;
	DLB_CHECK(rc);
	*why = *made ? NULL : gp_why(gnuplot);
fail:
	if (f)
		fclose(f);
	free(o);
	free(t);
	return rc;
}

/* The memory bandwidth of a group's GPU in GB/s: the first row's recorded one, else its platform record's
 * memory clock and bus through dlb_device_peak_gbs; NAN if none says. */
static double group_bw(struct dlb_store *s, const struct dlb_row *const *g, int n)
{
	for (int i = 0; i < n; i++)
		if (isfinite(g[i]->r.mem_peak) && g[i]->r.mem_peak > 0)
			return g[i]->r.mem_peak;
	for (int i = 0; i < n; i++) {
		double gbs = dlb_result_gbs(s, &g[i]->r);
		if (isfinite(gbs))
			return gbs;
	}
	return NAN;
}

static double group_peak(const struct dlb_row *const *g, int n)
{
	for (int i = 0; i < n; i++)
		if (isfinite(g[i]->r.peak) && g[i]->r.peak > 0)
			return g[i]->r.peak;
	return NAN;
}

/* The first 12 characters of key (a GPU's UUID, "GPU-9fa2d4b7") into list, a ", "-separated list kept in
 * order, so the same GPUs read the same however their results came. */
static void add_sorted(char *list, size_t cap, const char *key)
{
	char id[16];
	snprintf(id, sizeof id, "%.12s", key);
	char *at = list;
	while (*at && strncmp(at, id, strlen(id)) < 0) { /* past the ids before it */
		char *comma = strstr(at, ", ");
		at = comma ? comma + 2 : at + strlen(at);
	}
	size_t off = (size_t)(at - list), len = strlen(list), n = strlen(id) + 2;
	if (len + n + 1 > cap)
		return;
	if (*at) { /* before the ids after it */
		memmove(at + n, at, len - off + 1);
		memcpy(at, id, n - 2);
		memcpy(at + n - 2, ", ", 2);
	} else /* the last */
		snprintf(at, cap - off, "%s%s", off ? ", " : "", id);
}

/* The platforms of a group's rows, one line each: the GPU as measured, the driver and library versions, the
 * host. GPUs alike in all of that (a run over several GPUs of one host) share one line that names them by
 * their UUIDs and spans their times. */
#define MAX_PLATFORM_LINES 32
static void platforms(FILE *html, FILE *md, struct dlb_store *s, const struct dlb_row *const *g, int n)
{
	struct {
		char line[1024], uuids[200], first[40], last[40];
		int count;
	} *pl = calloc(MAX_PLATFORM_LINES, sizeof *pl);
	int npl = 0;
	if (!pl)
		return;
	for (int i = 0; i < n; i++) {
		const char *key = g[i]->r.platform;
		int seen = !*key;
		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(g[j]->r.platform, key);
		if (seen)
			continue;
		struct dlb_platform p;
		int got = dlb_platform_get(s, key, &p);
		if (got == DLB_E_PARSE) {
			fprintf(stderr, "report: the platform record %s does not parse (left out)\n", key);
			continue;
		}
		if (got) { /* results imported without their platform have none: said only for other reasons */
			if (got != DLB_E_NOTFOUND)
				fprintf(stderr, "report: the platform record %s: %s (left out)\n", key, dlb_strerror(got));
			continue;
		}
		char line[1024], v[32];
		int off = snprintf(line, sizeof line,
				   "%s (sm_%d, %d SMs at %d MHz, %.0f GiB at %d MHz, %.0f MiB L2), driver %d.%d, CUDA %d.%d, "
				   "NVRTC %d.%d",
				   p.gpu, p.sm, p.sm_count, p.clock_mhz, p.memory_gib, p.mem_clock_mhz, p.l2_mib,
				   p.driver / 1000, (p.driver % 1000) / 10, p.cuda / 1000, (p.cuda % 1000) / 10, p.nvrtc / 100,
				   p.nvrtc % 100);
		for (int l = 0; dlb_libs[l] && l < DLB_MAX_LIBS && off > 0 && off < (int)sizeof line; l++)
			if (p.lib[l]) {
				dlb_libs[l]->format(p.lib[l], v, sizeof v);
				off += snprintf(line + off, sizeof line - (size_t)off, ", %s %s", dlb_libs[l]->name, v);
			}
		if (off > 0 && off < (int)sizeof line)
			snprintf(line + off, sizeof line - (size_t)off, "; host %s, %s%s%s; dlbtune %s", p.hostname, p.kernel,
				 p.cpu[0] ? ", " : "", p.cpu, p.dlbtune);
		int k = 0;
		while (k < npl && strcmp(pl[k].line, line))
			k++;
		if (k == MAX_PLATFORM_LINES)
			continue;
		if (k == npl) {
			npl++;
			snprintf(pl[k].line, sizeof pl[k].line, "%s", line);
			snprintf(pl[k].first, sizeof pl[k].first, "%s", p.first_seen);
			snprintf(pl[k].last, sizeof pl[k].last, "%s", p.last_seen);
		}
		if (strcmp(p.first_seen, pl[k].first) < 0)
			snprintf(pl[k].first, sizeof pl[k].first, "%s", p.first_seen);
		if (strcmp(p.last_seen, pl[k].last) > 0)
			snprintf(pl[k].last, sizeof pl[k].last, "%s", p.last_seen);
		add_sorted(pl[k].uuids, sizeof pl[k].uuids, key); /* the key starts with the GPU's UUID */
		pl[k].count++;
	}
	for (int k = 0; k < npl; k++) {
		char head[256], line[1200];
		if (pl[k].count > 1)
			snprintf(head, sizeof head, "Platform, %d GPUs alike (%s): ", pl[k].count, pl[k].uuids);
		else
			snprintf(head, sizeof head, "Platform: ");
		snprintf(line, sizeof line, "%s; %s to %s", pl[k].line, pl[k].first, pl[k].last);
		fprintf(html, "<p>");
		html_text(html, head);
		html_text(html, line);
		fprintf(html, "</p>\n");
		md_text(md, head);
		md_text(md, line);
		fprintf(md, "\n\n");
	}
	free(pl);
}

static int cmp_double_desc(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* A group's numbers in one line: the geomean speedup (paired where measured), how many problems each side
 * wins, and the energy per call, ours against the vendor's: over every row with both, and over the tenth of
 * the rows that take longest (where a burst keeps the GPU busy, not the host). */
static void summary(FILE *html, FILE *md, const struct point *pt, int np, const struct dlb_row *const *g, int n)
{
	double ls = 0, le = 0, lb = 0;
	int won = 0, lost = 0, npaired = 0, ne = 0, nb = 0;
	for (int i = 0; i < np; i++) {
		ls += log(pt[i].s);
		npaired += pt[i].paired;
		won += pt[i].lo > 1; /* its CI above 1 */
		lost += pt[i].hi < 1;
	}
	double *us = malloc((size_t)(n ? n : 1) * sizeof *us);
	if (!us)
		return;
	for (int i = 0; i < n; i++)
		us[i] = g[i]->r.tuned.median;
	qsort(us, (size_t)n, sizeof *us, cmp_double_desc);
	double cut = n ? us[(n - 1) / 10] : 0; /* the longest tenth */
	for (int i = 0; i < n; i++) {
		double a = dlb_result_j_per_call(&g[i]->r, 0), b = dlb_result_j_per_call(&g[i]->r, 1);
		if (!(isfinite(a) && isfinite(b) && a > 0 && b > 0))
			continue;
		le += log(b / a);
		ne++;
		if (g[i]->r.tuned.median >= cut) {
			lb += log(b / a);
			nb++;
		}
	}
	free(us);
	char line[640];
	int off = snprintf(line, sizeof line, "%d problems; ", n);
	if (np)
		off += snprintf(line + off, sizeof line - (size_t)off,
				"geomean speedup %.3fx over %d (%d of them paired); tuned faster in %d, the vendor in %d, "
				"the rest within their CI",
				exp(ls / np), np, npaired, won, lost);
	else
		off += snprintf(line + off, sizeof line - (size_t)off, "no speedup measured");
	if (ne && off > 0 && off < (int)sizeof line) {
		off += snprintf(line + off, sizeof line - (size_t)off,
				"; energy per call, the vendor's / ours (geomean): %.2fx over the %d row%s with both", exp(le / ne),
				ne, ne == 1 ? "" : "s");
		if (off > 0 && off < (int)sizeof line)
			snprintf(line + off, sizeof line - (size_t)off,
				 nb ? ", %.2fx over the %d longest-running of them" : ", none of them among the longest-running tenth",
				 nb ? exp(lb / nb) : 0, nb);
	}
	else if (off > 0 && off < (int)sizeof line)
		snprintf(line + off, sizeof line - (size_t)off, "; energy per call: n/a (no row has it for both sides)");
	fprintf(html, "<p class=\"summary\">");
	html_text(html, line);
	fprintf(html, ".</p>\n");
	md_text(md, line);
	fprintf(md, ".\n\n");
}

/* --compare: a problem both databases hold with a verified winner, A's row and B's. */
struct pair {
	const struct dlb_row *a, *b;
	double ratio, vratio; /* B's tuned time / A's; the vendor bests' (NAN where one has none) */
};

static int same_problem(const struct dlb_row *a, const struct dlb_row *b)
{
	return !strcmp(a->k.op, b->k.op) && !strcmp(a->k.prec, b->k.prec) && !strcmp(a->k.layout, b->k.layout) &&
	       !strcmp(a->k.shape, b->k.shape);
}

/* Groups: op, precision, A's GPU model and driver, B's; then by ratio. */
static int pair_order(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;
	int c = group_cmp(a->a, b->a);
	if (!c)
		c = strcmp(a->b->k.id, b->b->k.id);
	if (!c)
		c = (a->b->k.driver > b->b->k.driver) - (a->b->k.driver < b->b->k.driver);
	if (!c)
		c = (a->b->k.cuda > b->b->k.cuda) - (a->b->k.cuda < b->b->k.cuda);
	return c ? c : (a->ratio > b->ratio) - (a->ratio < b->ratio);
}

static double tuned_us(const struct dlb_row *w)
{
	return w->r.found && w->r.tuned.median > 0 ? w->r.tuned.median : NAN;
}

/* One group of pairs: its CSV, script, plot, and table. */
static int compare_group(FILE *html, FILE *md, const char *dir, int g, const struct pair *p, int np, const char *gnuplot,
			 int *made_out)
{
	int rc = 0, made;
	char base[64], name[96], svg[96], title[900], sa[320], sb[320];
	FILE *f = NULL;
	snprintf(base, sizeof base, "compare_%d", g);
	dlb_key_gpu_text(&p[0].a->k, sa, sizeof sa);
	dlb_key_gpu_text(&p[0].b->k, sb, sizeof sb);
	snprintf(title, sizeof title, "%s %s: B %s / A %s", p[0].a->k.op, p[0].a->k.prec, sb, sa);
	snprintf(name, sizeof name, "%s.csv", base);
	DLB_CHECK(open_in(dir, name, &f));
	fprintf(f, "rank,problem,a_us,b_us,ratio_b_over_a,a_vendor_us,b_vendor_us,vendor_ratio_b_over_a\n");
	double ylo = 0.5, yhi = 2;
	for (int i = 0; i < np; i++) {
		char d[256];
		describe(p[i].a, d, sizeof d);
		fprintf(f, "%d,", i + 1);
		dlb_csv_string(f, d);
		fprintf(f, ",%.3f,%.3f,%.4f,", tuned_us(p[i].a), tuned_us(p[i].b), p[i].ratio);
		double va = dlb_result_vendor_best_us(&p[i].a->r), vb = dlb_result_vendor_best_us(&p[i].b->r);
		if (isfinite(va) && isfinite(vb) && isfinite(p[i].vratio))
			fprintf(f, "%.3f,%.3f,%.4f\n", va, vb, p[i].vratio);
		else
			fprintf(f, ",,\n");
		ylo = fmin(ylo, p[i].ratio / 1.25);
		yhi = fmax(yhi, p[i].ratio * 1.25);
		if (isfinite(p[i].vratio)) {
			ylo = fmin(ylo, p[i].vratio / 1.25);
			yhi = fmax(yhi, p[i].vratio * 1.25);
		}
	}
	rc = close_checked(dir, name, f);
	f = NULL;
	DLB_CHECK(rc);
	snprintf(svg, sizeof svg, "%s.svg", base);
	snprintf(name, sizeof name, "%s.gp", base);
	DLB_CHECK(open_in(dir, name, &f));
	fprintf(f, "# dlbtune report --compare: per problem both databases hold, B's tuned time / A's (above 1: A is\n"
		   "# faster), sorted, and the vendor bests' ratio. Data: %s.csv\n",
		base);
	gp_head(f, svg, title, "time B / time A (x)", np, ylo, yhi);
	fprintf(f,
		"plot '%s.csv' skip 1 using 1:5 with points pt 7 ps 0.6 lc rgb '#1f5fa8' title 'tuned', "
		"'%s.csv' skip 1 using 1:8 with points pt 6 ps 0.7 lc rgb '#c0392b' title 'vendor best', "
		"1 with lines dt 2 lc rgb '#555555' title 'as fast'\n",
		base, base);
	rc = close_checked(dir, name, f);
	f = NULL;
	DLB_CHECK(rc);
	made = gp_made(dir, gnuplot, name, svg, np);
	*made_out += made;
	fprintf(html, "<h2>");
	html_text(html, title);
	fprintf(html, "</h2>\n");
	fprintf(md, "\n## ");
	md_text(md, title);
	fprintf(md, "\n\n");
	if (made) {
		fprintf(html, "<p><img src=\"%s\" alt=\"time B / time A per problem, sorted\"/></p>\n", svg);
		fprintf(md, "![time B / time A per problem, sorted](%s)\n\n", svg);
	} else {
		fprintf(html, "<p class=\"missing\">Plot missing: %s.</p>\n", gnuplot && *gnuplot ? "gnuplot failed (gnuplot.log)" : "no gnuplot");
		fprintf(md, "Plot missing: %s.\n\n", gnuplot && *gnuplot ? "gnuplot failed (gnuplot.log)" : "no gnuplot");
	}
	fprintf(html, "<p>Plot data: <a href=\"%s.csv\">%s.csv</a> (script %s.gp); %d problems.</p>\n<table>\n"
		      "<tr><th>problem</th><th>A us</th><th>B us</th><th>B / A</th><th>A vendor us</th><th>B vendor us</th>"
		      "<th>vendor B / A</th></tr>\n",
		base, base, base, np);
	fprintf(md, "Plot data: [%s.csv](%s.csv) (script %s.gp); %d problems.\n\n"
		    "| problem | A us | B us | B / A | A vendor us | B vendor us | vendor B / A |\n|---|---|---|---|---|---|---|\n",
		base, base, base, np);
	for (int i = 0; i < np; i++) {
		char d[256], v[96] = "n/a | n/a | n/a";
		describe(p[i].a, d, sizeof d);
		double va = dlb_result_vendor_best_us(&p[i].a->r), vb = dlb_result_vendor_best_us(&p[i].b->r);
		fprintf(html, "<tr><td class=\"l\">");
		html_text(html, d);
		fprintf(html, "</td><td>%.2f</td><td>%.2f</td><td>%.3fx</td>", tuned_us(p[i].a), tuned_us(p[i].b), p[i].ratio);
		if (isfinite(p[i].vratio)) {
			fprintf(html, "<td>%.2f</td><td>%.2f</td><td>%.3fx</td></tr>\n", va, vb, p[i].vratio);
			snprintf(v, sizeof v, "%.2f | %.2f | %.3fx", va, vb, p[i].vratio);
		} else {
			fprintf(html, "<td>n/a</td><td>n/a</td><td>n/a</td></tr>\n");
		}
		fprintf(md, "| ");
		md_text(md, d);
		fprintf(md, " | %.2f | %.2f | %.3fx | %s |\n", tuned_us(p[i].a), tuned_us(p[i].b), p[i].ratio, v);
	}
	fprintf(html, "</table>\n");
fail:
	if (f)
		fclose(f);
	return rc;
}

/* The comparison section: every pair of rows of A and B that are the same problem with a verified winner each. */
static int compare(FILE *html, FILE *md, const char *dir, const struct dlb_row *const *a, int na,
		   const struct dlb_report_other *o, const char *source, const char *gnuplot, int *ngroups, int *nmade)
{
	int rc = 0, np = 0, cap = 0;
	struct pair *p = NULL;
	*ngroups = *nmade = 0;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < o->n; j++) {
			const struct dlb_row *b = &o->rows[j];
			double ta = tuned_us(a[i]), tb = tuned_us(b);
			if (!same_problem(a[i], b) || !isfinite(ta) || !isfinite(tb))
				continue;
			if (np == cap) {
				struct pair *q = realloc(p, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *p);
				if (!q)
					DLB_FAIL(ENOMEM, "out of memory");
				p = q;
			}
			double va = dlb_result_vendor_best_us(&a[i]->r), vb = dlb_result_vendor_best_us(&b->r);
			p[np++] = (struct pair){a[i], b, tb / ta, isfinite(va) && isfinite(vb) && va > 0 ? vb / va : NAN};
		}
	if (np)
		qsort(p, (size_t)np, sizeof *p, pair_order);
	fprintf(html, "<h1>Comparison</h1>\n<p>A: ");
	html_text(html, source);
	fprintf(html, ". B: ");
	html_text(html, o->source);
	fprintf(html, ". Per problem both hold with a verified winner: B's tuned time / A's (above 1: A is faster), and "
		      "the same ratio of the vendor bests.</p>\n");
	fprintf(md, "\n# Comparison\n\nA: ");
	md_text(md, source);
	fprintf(md, ". B: ");
	md_text(md, o->source);
	fprintf(md, ". Per problem both hold with a verified winner: B's tuned time / A's (above 1: A is faster), and the "
		    "same ratio of the vendor bests.\n");
	if (!np) {
		fprintf(html, "<p>No problem is in both.</p>\n");
		fprintf(md, "\nNo problem is in both.\n");
	}
	for (int i = 0, j; i < np; i = j) {
		for (j = i + 1; j < np && !group_cmp(p[i].a, p[j].a) && !strcmp(p[i].b->k.id, p[j].b->k.id) &&
				p[i].b->k.driver == p[j].b->k.driver && p[i].b->k.cuda == p[j].b->k.cuda;
		     j++)
			;
		DLB_CHECK(compare_group(html, md, dir, ++*ngroups, p + i, j - i, gnuplot, nmade));
	}
fail:
	free(p);
	return rc;
}

/* A plot in the pages: its SVG where it was made, else "<name> missing: <why>."; then a line about its data where
 * the data was written (made, or only gnuplot missing or failing). */
static void plot_block(FILE *html, FILE *md, int made, const char *why, const char *svg, const char *name,
		       const char *alt, const char *data)
{
	if (made) {
		fprintf(html, "<p><img src=\"%s\" alt=\"", svg);
		html_text(html, alt);
		fprintf(html, "\"/></p>\n");
		fprintf(md, "![%s](%s)\n\n", alt, svg);
	} else {
		fprintf(html, "<p class=\"missing\">%s missing: ", name);
		html_text(html, why);
		fprintf(html, ".</p>\n");
		fprintf(md, "%s missing: %s.\n\n", name, why);
	}
	if (made || (why && (!strcmp(why, "no gnuplot") || !strncmp(why, "gnuplot failed", 14)))) {
		fprintf(html, "<p>");
		html_text(html, data);
		fprintf(html, "</p>\n");
		fprintf(md, "%s\n\n", data);
	}
}

static const char css[] =
	"body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;font-size:12px}"
	"th,td{border:1px solid #bbb;padding:2px 6px;text-align:right}th{background:#eee}"
	"td.l{text-align:left}.missing{color:#a33}img{max-width:100%}";

int dlb_report(const char *dir, struct dlb_store *s, const struct dlb_row *rows, int n, const char *gnuplot,
	       const char *why_no_plots, const char *source, const struct dlb_report_other *other)
{
	int rc = 0, ngroups = 0, nplots = 0, nroof = 0, nprog = 0, nown = 0;
	FILE *html = NULL, *md = NULL;
	const struct dlb_row **sorted = calloc(n > 0 ? (size_t)n : 1, sizeof *sorted);
	struct point *pt = calloc(n > 0 ? (size_t)n : 1, sizeof *pt);
	struct dlb_column *cols = calloc(DLB_MAX_COLUMNS, sizeof *cols);
	if (!sorted || !pt || !cols)
		DLB_FAIL(ENOMEM, "out of memory");
	struct stat sb;
	if (mkdir(dir, 0777) && errno != EEXIST)
		DLB_USER_FAIL(errno, "--out %s: %s", dir, strerror(errno));
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode))
		DLB_USER_FAIL(DLB_E_USAGE, "--out %s: not a directory", dir);
	for (int i = 0; i < n; i++)
		sorted[i] = &rows[i];
	qsort(sorted, (size_t)n, sizeof *sorted, row_order);
	/* the pages are written beside and renamed when whole: a failed run leaves the last report's */
	DLB_CHECK(open_in(dir, "index.html.tmp", &html));
	DLB_CHECK(open_in(dir, "report.md.tmp", &md));
	FILE *log; /* gnuplot's messages: this report's only */
	DLB_CHECK(open_in(dir, "gnuplot.log", &log));
	fclose(log);
	fprintf(html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>dlbtune report</title>\n"
		      "<style>%s</style>\n</head>\n<body>\n<h1>dlbtune report</h1>\n<p>",
		css);
	html_text(html, source);
	fprintf(html, ": %d results. Tuned and vendor times are medians in microseconds, measured by the same harness; "
		      "speedup = vendor best / tuned; paired: measured side by side after the search, the median of the "
		      "pairs' ratios with its 95%% CI.</p>\n",
		n);
	fprintf(md, "# dlbtune report\n\n");
	md_text(md, source);
	fprintf(md, ": %d results. Tuned and vendor times are medians in microseconds, measured by the same harness; "
		    "speedup = vendor best / tuned; paired: measured side by side after the search, the median of the "
		    "pairs' ratios with its 95%% CI.\n",
		n);
	if (!gnuplot || !*gnuplot) {
		fprintf(html, "<p class=\"missing\">Plots missing: ");
		html_text(html, why_no_plots ? why_no_plots : "no gnuplot");
		fprintf(html, ". Each plot's data and gnuplot script are written beside this page.</p>\n");
		fprintf(md, "\nPlots missing: %s. Each plot's data and gnuplot script are written beside this page.\n",
			why_no_plots ? why_no_plots : "no gnuplot");
	}
	if (n == 0) {
		fprintf(html, "<p>No results match.</p>\n");
		fprintf(md, "\nNo results match.\n");
	}
	for (int i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !group_cmp(sorted[i], sorted[j]); j++)
			;
		const struct dlb_row *w = sorted[i];
		char title[512], base[96], where[320];
		dlb_key_gpu_text(&w->k, where, sizeof where);
		snprintf(title, sizeof title, "%s %s on %s", w->k.op, w->k.prec, where);
		snprintf(base, sizeof base, "%s_%s_%d", w->k.op, w->k.prec, ++ngroups);
		for (char *c = base; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
				*c = '_';
		int np = 0;
		for (int r = i; r < j; r++) {
			double p = dlb_result_paired_speedup(&sorted[r]->r), u = dlb_result_speedup(&sorted[r]->r);
			if (isfinite(p) && p > 0)
				pt[np++] = (struct point){sorted[r], p, dlb_result_paired_lo(&sorted[r]->r),
							  dlb_result_paired_hi(&sorted[r]->r), 1};
			else if (isfinite(u) && u > 0)
				pt[np++] = (struct point){sorted[r], u, u, u, 0};
			if (np && !(isfinite(pt[np - 1].lo) && isfinite(pt[np - 1].hi)))
				pt[np - 1].lo = pt[np - 1].hi = pt[np - 1].s;
		}
		qsort(pt, (size_t)np, sizeof *pt, point_order);
		int made;
		DLB_CHECK(write_plot(dir, base, title, pt, np, gnuplot, &made));
		nplots += made;
		fprintf(html, "<h2>");
		html_text(html, title);
		fprintf(html, "</h2>\n");
		fprintf(md, "\n## ");
		md_text(md, title);
		fprintf(md, "\n\n");
		platforms(html, md, s, sorted + i, j - i);
		summary(html, md, pt, np, sorted + i, j - i);
		if (made) {
			fprintf(html, "<p><img src=\"%s_speedup.svg\" alt=\"speedup per problem, sorted\"/></p>\n", base);
			fprintf(md, "![speedup per problem, sorted](%s_speedup.svg)\n\n", base);
		} else {
			const char *why = np == 0 ? "no problem has a speedup" : !gnuplot || !*gnuplot ? "no gnuplot"
											     : "gnuplot failed (gnuplot.log)";
			fprintf(html, "<p class=\"missing\">Plot missing: %s.</p>\n", why);
			fprintf(md, "Plot missing: %s.\n\n", why);
		}
		fprintf(html, "<p>Plot data: <a href=\"%s_speedup.csv\">%s_speedup.csv</a> (script %s_speedup.gp); %d of %d "
			      "problems have a speedup.</p>\n",
			base, base, base, np, j - i);
		fprintf(md, "Plot data: [%s_speedup.csv](%s_speedup.csv) (script %s_speedup.gp); %d of %d problems have a "
			    "speedup.\n\n",
			base, base, base, np, j - i);
		const char *rwhy;
		int rmade;
		DLB_CHECK(write_roofline(dir, base, title, sorted + i, j - i, group_peak(sorted + i, j - i),
					 group_bw(s, sorted + i, j - i), gnuplot, &rmade, &rwhy));
		nroof += rmade;
		char svg[128], data[512];
		snprintf(svg, sizeof svg, "%s_roofline.svg", base);
		snprintf(data, sizeof data,
			 "Roofline data: %s_roofline.csv (script %s_roofline.gp): intensity = work / the bytes of the inputs "
			 "read once and the output written once.",
			 base, base);
		plot_block(html, md, rmade, rwhy, svg, "Roofline", "roofline: throughput against arithmetic intensity", data);
		const char *pwhy;
		int pmade;
		DLB_CHECK(write_progress(dir, base, title, s, sorted + i, j - i, gnuplot, &pmade, &pwhy));
		nprog += pmade;
		snprintf(svg, sizeof svg, "%s_progress.svg", base);
		snprintf(data, sizeof data,
			 "Search progress data: %s_progress_N.csv (script %s_progress.gp): the best time so far over the "
			 "final best after each stored trial, in the order the search took them, for the problems with the "
			 "most trials.",
			 base, base);
		plot_block(html, md, pmade, pwhy, svg, "Search progress",
			   "search progress: best so far against trials and GPU seconds", data);
		const struct dlb_family_plot *fp = w->r.p.op ? w->r.p.op->family->plot : NULL;
		if (fp) { /* the family's own view of its results */
			const char *fwhy;
			int fmade;
			DLB_CHECK(write_family_plot(dir, base, title, sorted + i, j - i, gnuplot, &fmade, &fwhy));
			nown += fmade;
			snprintf(svg, sizeof svg, "%s_%s.svg", base, fp->name);
			snprintf(data, sizeof data, "%s data: %s_%s.csv (script %s_%s.gp), from the %s columns of the table.",
				 fp->title, base, fp->name, base, fp->name, w->r.p.op->family->name);
			data[0] = (char)toupper((unsigned char)data[0]);
			char cap[128];
			snprintf(cap, sizeof cap, "%s", fp->title);
			cap[0] = (char)toupper((unsigned char)cap[0]);
			plot_block(html, md, fmade, fwhy, svg, cap, fp->title, data);
		}
		const struct dlb_op *op = w->r.p.op;
		int nc = op ? dlb_columns(op->family, cols, DLB_MAX_COLUMNS) : 0, shown = 0;
		fprintf(html, "<table>\n<tr>");
		for (int c = 0; c < nc; c++)
			if (dlb_column_in(&cols[c], DLB_IN_MD)) {
				fprintf(html, "<th>");
				html_text(html, dlb_column_title(&cols[c], op));
				fprintf(html, "</th>");
				fprintf(md, "| ");
				md_text(md, dlb_column_title(&cols[c], op));
				fprintf(md, " ");
				shown++;
			}
		fprintf(html, "</tr>\n");
		fprintf(md, "|\n");
		for (int c = 0; c < shown; c++)
			fprintf(md, "|---");
		fprintf(md, "|\n");
		for (int r = i; r < j; r++) {
			struct dlb_row_ctx x = {&sorted[r]->r, 1, sorted[r]->stale};
			fprintf(html, "<tr>");
			for (int c = 0; c < nc; c++) {
				if (!dlb_column_in(&cols[c], DLB_IN_MD))
					continue;
				char cell[512];
				dlb_cell_text(&x, &cols[c], cell, sizeof cell);
				fprintf(html, "<td%s>", cols[c].width < 0 ? " class=\"l\"" : "");
				html_text(html, cell);
				fprintf(html, "</td>");
				fprintf(md, "| ");
				md_text(md, cell);
				fprintf(md, " ");
			}
			fprintf(html, "</tr>\n");
			fprintf(md, "|\n");
		}
		fprintf(html, "</table>\n");
	}
	int ncmp = 0, ncmp_made = 0;
	if (other)
		DLB_CHECK(compare(html, md, dir, sorted, n, other, source, gnuplot, &ncmp, &ncmp_made));
	fprintf(html, "</body>\n</html>\n");
	rc = close_checked(dir, "index.html.tmp", html);
	html = NULL;
	DLB_CHECK(rc);
	rc = close_checked(dir, "report.md.tmp", md);
	md = NULL;
	DLB_CHECK(rc);
	DLB_CHECK(rename_in(dir, "index.html"));
	DLB_CHECK(rename_in(dir, "report.md"));
	fprintf(stderr, "report: %s/index.html and report.md, %d tables, %d of %d plots, %d rooflines, %d search-progress plots, "
			"%d plots of the ops' own",
		dir, ngroups, nplots, ngroups, nroof, nprog, nown);
	if (other)
		fprintf(stderr, "; %d comparisons, %d of them plotted", ncmp, ncmp_made);
	fprintf(stderr, "\n");
fail:
	if (html)
		fclose(html);
	if (md)
		fclose(md);
	if (rc) {
		char path[4096];
		snprintf(path, sizeof path, "%s/index.html.tmp", dir);
		unlink(path);
		snprintf(path, sizeof path, "%s/report.md.tmp", dir);
		unlink(path);
	}
	free(sorted);
	free(pt);
	free(cols);
	return rc;
}
