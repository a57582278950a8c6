// util.cu — helper kernels for every op: random inputs (PCG32) and verification. No tunables.
// fill_*: thread t draws from PCG32 stream (seed, t) — the algorithm of search/pcg32.c — and writes
// elements t, t+T, t+2T, ... (T threads in the grid), so a (seed, grid) pair always gives the same data.
// compare_f32: max |out - ref| over an M×N column-major matrix, the number of non-finite outputs and
// max |ref|; results go to out[0..2] as the bit patterns of non-negative floats (ordered as unsigned).

typedef long long i64;
typedef unsigned long long u64;

struct pcg32 {
	u64 state, inc;
	__device__ unsigned next()
	{
		u64 old = state;
		state = old * 6364136223846793005ULL + inc;
		unsigned xs = (unsigned)(((old >> 18u) ^ old) >> 27u);
		unsigned rot = (unsigned)(old >> 59u);
		return (xs >> rot) | (xs << ((0u - rot) & 31u));
	}
	__device__ void seed(u64 initstate, u64 initseq)
	{
		state = 0;
		inc = (initseq << 1u) | 1u;
		next();
		state += initstate;
		next();
	}
};

extern "C" __global__ void fill_f32_pm1(float *p, i64 n, u64 seed)
{
	const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x, T = (i64)gridDim.x * blockDim.x;
	pcg32 g;
	g.seed(seed, (u64)t);
	for (i64 i = t; i < n; i += T)
		p[i] = 2.0f * ((float)(g.next() >> 8) * (1.0f / 16777216.0f)) - 1.0f;
}

extern "C" __global__ void compare_f32(const float *out, i64 ldo, const float *ref, i64 ldr, i64 M, i64 N,
				       unsigned *res)
{
	const i64 total = M * N;
	float maxerr = 0.f, maxref = 0.f;
	unsigned bad = 0;
	for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (i64)gridDim.x * blockDim.x) {
		const i64 i = e % M, j = e / M;
		const float o = out[j * ldo + i], r = ref[j * ldr + i];
		if (!isfinite(o))
			bad++;
		else
			maxerr = fmaxf(maxerr, fabsf(o - r));
		maxref = fmaxf(maxref, fabsf(r));
	}
	atomicMax(&res[0], __float_as_uint(maxerr));
	if (bad)
		atomicAdd(&res[1], bad);
	atomicMax(&res[2], __float_as_uint(maxref));
}
