// rowsum.cu — the tests' toy op (tests/toy/rowsum.c): y[i] = scale * sum_j x[i * cols + j], fp32, row-major x.
// Tunables:
//   BLOCK  threads per block
//   ROWS   rows per block; each row is summed by BLOCK / ROWS threads (a power of two, at least 8)
// Constraint: 8 <= BLOCK / ROWS <= 256 (a row of the space, tests/toy/rowsum.c); both are powers of two.

#ifndef BLOCK
#define BLOCK 128 // threads per block
#endif
#ifndef ROWS
#define ROWS 1 // rows per block
#endif

extern "C" __global__ void rowsum(const float *x, float *y, long long rows, long long cols, float scale)
{
	const int tpr = BLOCK / ROWS; // threads per row
	const long long r = (long long)blockIdx.x * ROWS + threadIdx.x / tpr;
	const int lane = threadIdx.x % tpr;
	__shared__ float red[BLOCK];
	float s = 0.f;
	if (r < rows)
		for (long long j = lane; j < cols; j += tpr)
			s += x[r * cols + j];
	red[threadIdx.x] = s;
	__syncthreads();
	for (int off = tpr / 2; off > 0; off >>= 1) { // a fixed order: the same sum on every run
		if (lane < off)
			red[threadIdx.x] += red[threadIdx.x + off];
		__syncthreads();
	}
	if (lane == 0 && r < rows)
		y[r] = scale * red[threadIdx.x];
}
