// spmm_ref.cu — the sparse family's reference and helpers (src/ops/sparse/). spmm_ref: C = A·B with A in CSR
// (M×K), B (K×N) and C (M×N) row-major, one thread per output, summed in double and rounded once to fp32;
// candidates and cuSPARSE are verified against it, and it against a CPU sum of sampled rows. csr_to_dense:
// the dense equivalent of A (row-major M×K, zeroed first by the host) for dense cuBLAS's baseline. The _h
// kernels do the same for the fp16 op: A's values and B in IEEE half (the reference still sums in double and
// writes fp32).
typedef long long i64;
typedef unsigned short half_t; // IEEE half, converted in PTX (NVRTC has no cuda_fp16.h without include paths)

// An element as a double: fp32 as it is, fp16 through PTX.
__device__ __forceinline__ double wide(float f)
{
	return (double)f;
}
__device__ __forceinline__ double wide(half_t h)
{
	float f;
	asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
	return (double)f;
}

template <typename T>
__device__ __forceinline__ void ref_body(const int *__restrict__ row_ptr, const int *__restrict__ col,
					 const T *__restrict__ val, const T *__restrict__ B, float *__restrict__ C, int M, int N)
{
	const i64 total = (i64)M * N;
	for (i64 o = (i64)blockIdx.x * blockDim.x + threadIdx.x; o < total; o += (i64)gridDim.x * blockDim.x) {
		const i64 r = o / N, n = o % N;
		double s = 0.0;
		for (int j = row_ptr[r]; j < row_ptr[r + 1]; j++)
			s += wide(val[j]) * wide(B[(i64)col[j] * N + n]);
		C[o] = (float)s;
	}
}

template <typename T>
__device__ __forceinline__ void to_dense_body(const int *__restrict__ row_ptr, const int *__restrict__ col,
					      const T *__restrict__ val, T *__restrict__ A, int M, int K)
{
	for (i64 r = (i64)blockIdx.x * blockDim.x + threadIdx.x; r < M; r += (i64)gridDim.x * blockDim.x)
		for (int j = row_ptr[r]; j < row_ptr[r + 1]; j++)
			A[r * K + col[j]] = val[j];
}

extern "C" __global__ void spmm_ref(const int *__restrict__ row_ptr, const int *__restrict__ col,
				    const float *__restrict__ val, const float *__restrict__ B, float *__restrict__ C,
				    int M, int N)
{
	ref_body(row_ptr, col, val, B, C, M, N);
}

extern "C" __global__ void csr_to_dense(const int *__restrict__ row_ptr, const int *__restrict__ col,
					const float *__restrict__ val, float *__restrict__ A, int M, int K)
{
	to_dense_body(row_ptr, col, val, A, M, K);
}

extern "C" __global__ void spmm_ref_h(const int *__restrict__ row_ptr, const int *__restrict__ col,
				      const half_t *__restrict__ val, const half_t *__restrict__ B, float *__restrict__ C,
				      int M, int N)
{
	ref_body(row_ptr, col, val, B, C, M, N);
}

extern "C" __global__ void csr_to_dense_h(const int *__restrict__ row_ptr, const int *__restrict__ col,
					  const half_t *__restrict__ val, half_t *__restrict__ A, int M, int K)
{
	to_dense_body(row_ptr, col, val, A, M, K);
}
