// rowsum_ref.cu — the toy op's "vendor": one thread per row, a serial sum. No tunables.

extern "C" __global__ void rowsum_naive(const float *x, float *y, long long rows, long long cols, float scale)
{
	const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0.f;
	for (long long j = 0; j < cols; j++)
		s += x[r * cols + j];
	y[r] = scale * s;
}
