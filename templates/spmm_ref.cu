// spmm_ref.cu — the sparse family's reference and helpers (src/ops/sparse/). spmm_ref: C = A·B with A in CSR
// (M×K), B (K×N) and C (M×N) row-major, one thread per output, summed in double and rounded once to fp32;
// candidates and cuSPARSE are verified against it, and it against a CPU sum of sampled rows. csr_to_dense:
// the dense equivalent of A (row-major M×K, zeroed first by the host) for dense cuBLAS's baseline.
typedef long long i64;

extern "C" __global__ void spmm_ref(const int *__restrict__ row_ptr, const int *__restrict__ col,
				    const float *__restrict__ val, const float *__restrict__ B, float *__restrict__ C,
				    int M, int N)
{
	const i64 total = (i64)M * N;
	for (i64 o = (i64)blockIdx.x * blockDim.x + threadIdx.x; o < total; o += (i64)gridDim.x * blockDim.x) {
		const i64 r = o / N, n = o % N;
		double s = 0.0;
		for (int j = row_ptr[r]; j < row_ptr[r + 1]; j++)
			s += (double)val[j] * (double)B[(i64)col[j] * N + n];
		C[o] = (float)s;
	}
}

extern "C" __global__ void csr_to_dense(const int *__restrict__ row_ptr, const int *__restrict__ col,
					const float *__restrict__ val, float *__restrict__ A, int M, int K)
{
	for (i64 r = (i64)blockIdx.x * blockDim.x + threadIdx.x; r < M; r += (i64)gridDim.x * blockDim.x)
		for (int j = row_ptr[r]; j < row_ptr[r + 1]; j++)
			A[r * K + col[j]] = val[j];
}
