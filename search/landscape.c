/* landscape: synthetic times, lognormal noise from PCG32 (Box-Muller), and the simulation loop. */
#include "landscape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double uniform01(struct dlb_pcg32 *r)
{
	return ((double)dlb_pcg32_next(r) + 0.5) / 4294967296.0;
}

static double gauss(struct dlb_pcg32 *r)
{
	return sqrt(-2.0 * log(uniform01(r))) * cos(2.0 * M_PI * uniform01(r));
}

int dlb_landscape_alloc(int n, int dim, struct dlb_landscape *L)
{
	memset(L, 0, sizeof *L);
	L->n = n;
	L->dim = dim;
	L->coord = calloc((size_t)(n ? n : 1) * (size_t)(dim ? dim : 1), sizeof *L->coord);
	L->truth = calloc((size_t)(n ? n : 1), sizeof *L->truth);
	L->sd = calloc((size_t)(n ? n : 1), sizeof *L->sd);
	if (!L->coord || !L->truth || !L->sd) {
		dlb_landscape_free(L);
		return -1;
	}
	return 0;
}

int dlb_landscape_synthetic(const int *levels, int dim, double cv, double outlier, uint64_t seed,
			    struct dlb_landscape *L)
{
	struct dlb_pcg32 r;
	int n = 1;
	for (int d = 0; d < dim; d++)
		n *= levels[d];
	if (dlb_landscape_alloc(n, dim, L))
		return -1;
	L->outlier = outlier;
	dlb_pcg32_seed(&r, seed, 99u);
	double centre[16], weight[16];
	for (int d = 0; d < dim && d < 16; d++) { /* the bowl's centre and steepness differ per landscape */
		centre[d] = 0.2 + 0.6 * uniform01(&r);
		weight[d] = 0.6 + 0.8 * uniform01(&r);
	}
	double sd = sqrt(log1p(cv * cv));
	for (int i = 0; i < n; i++) {
		int rem = i;
		double f = 0, u[16];
		for (int d = dim - 1; d >= 0; d--) {
			L->coord[i * dim + d] = rem % levels[d];
			rem /= levels[d];
		}
		for (int d = 0; d < dim && d < 16; d++) {
			u[d] = levels[d] > 1 ? (double)L->coord[i * dim + d] / (levels[d] - 1) : 0;
			f += weight[d] * (u[d] - centre[d]) * (u[d] - centre[d]);
		}
		if (dim >= 2)
			f += 0.15 * u[0] * u[1];
		f += 0.01 * sin(7.0 * i); /* a ripple no model captures */
		L->truth[i] = 10.0 * exp(f * 1.4 / dim * 2.0);
		L->sd[i] = sd;
	}
	return 0;
}

void dlb_landscape_free(struct dlb_landscape *L)
{
	free(L->coord);
	free(L->truth);
	free(L->sd);
	memset(L, 0, sizeof *L);
}

double dlb_landscape_sample(const struct dlb_landscape *L, int i, struct dlb_pcg32 *rng)
{
	double t = L->truth[i] * exp(L->sd[i] * gauss(rng));
	if (L->outlier > 0 && uniform01(rng) < L->outlier)
		t *= 1.5 + 1.5 * uniform01(rng);
	return t;
}

struct sim_ctx {
	const struct dlb_landscape *L;
	const struct dlb_race_opts *ro;
	struct dlb_pcg32 rng;
	int i;
	double clock; /* simulated seconds: the sum of the samples taken */
	double cost;  /* estimated GPU time: samples, and a verification and a warm-up run per candidate */
};

static double sim_clock(void *arg)
{
	return ((struct sim_ctx *)arg)->clock;
}

static int sim_sample(void *arg, int k, double *t)
{
	struct sim_ctx *c = arg;
	for (int j = 0; j < k; j++) {
		t[j] = dlb_landscape_sample(c->L, c->i, &c->rng);
		c->clock += t[j] * 1e-6;
		c->cost += t[j];
	}
	return 0;
}

static int sim_evaluate(void *arg, int i, const struct dlb_race_summary *inc, int final, struct dlb_race_summary *out)
{
	struct sim_ctx *c = arg;
	struct dlb_race_opts ro = *c->ro;
	if (final)
		dlb_race_final_opts(c->ro, &ro);
	c->i = i;
	if (!final)
		c->cost += 3 * c->L->truth[i];
	dlb_race(&ro, sim_sample, c, inc, out);
	return 0;
}

int dlb_simulate(const struct dlb_landscape *L, const struct dlb_search_opts *so, const struct dlb_race_opts *ro,
		 int trials, uint64_t seed, struct dlb_sim_result *out)
{
	double best = INFINITY, acc = 0, samples = 0, share = 0, both = 0, cost = 0, exh = 0, lgap = 0;
	memset(out, 0, sizeof *out);
	for (int i = 0; i < L->n; i++) {
		if (L->truth[i] < best)
			best = L->truth[i];
		exh += 6 * L->truth[i];
	}
	exh += 150 * best;
	for (int t = 0; t < trials; t++) {
		struct dlb_search_opts o = *so;
		struct dlb_search_result res;
		struct sim_ctx c = {L, ro, {0, 0}, 0, 0, 0};
		o.seed = seed + (uint64_t)t * 7919u;
		o.clock = sim_clock;
		dlb_pcg32_seed(&c.rng, seed ^ 0x5eedu, (uint64_t)t);
		if (dlb_search(&o, &(struct dlb_points){L->n, L->dim, L->coord, L->categorical}, sim_evaluate, &c, &res))
			return -1;
		int hit = res.best >= 0 && L->truth[res.best] <= best * 1.01;
		double sh = (double)res.evaluated / L->n;
		acc += hit;
		cost += c.cost;
		lgap += res.best >= 0 ? log(L->truth[res.best] / best) : log(1e3);
		samples += (double)res.samples / (50.0 * L->n);
		share += sh;
		both += hit && sh <= 0.25;
		if (sh > out->evaluated_max)
			out->evaluated_max = sh;
	}
	out->trials = trials;
	out->accuracy = acc / trials;
	out->samples_ratio = samples / trials;
	out->evaluated_share = share / trials;
	out->within_both = both / trials;
	out->time_search = cost / trials;
	out->time_exhaustive = exh;
	out->gap = exp(lgap / trials);
	return 0;
}
