// gemm_ref.cu — GEMM's reference kernels, compiled once per process by the GEMM family (src/ops/gemm/family.c).
// No tunables.

typedef long long i64;

// gemm_ref_s8: the int8 reference where cuBLASLt has no algorithm. C (int32, M×N, ld ldc) = op(A)·op(B),
// column-major; 16×16 output tiles, k in steps of 16 through shared memory; exact in int32.
extern "C" __global__ void gemm_ref_s8(i64 M, i64 N, i64 K, const signed char *A, i64 lda, int ta,
				       const signed char *B, i64 ldb, int tb, int *C, i64 ldc)
{
	__shared__ int as[16][17], bs[16][17];
	const int tx = threadIdx.x, ty = threadIdx.y; // tx along M, ty along N
	const i64 i = (i64)blockIdx.x * 16 + tx, j = (i64)blockIdx.y * 16 + ty;
	int sum = 0;
	for (i64 k0 = 0; k0 < K; k0 += 16) {
		// as[kk][m]: thread (tx, ty) loads A(blockrow + tx, k0 + ty); bs[kk][n]: B(k0 + tx, blockcol + ty)
		const i64 ai = (i64)blockIdx.x * 16 + tx, ak = k0 + ty;
		as[ty][tx] = ai < M && ak < K ? A[ta ? ak + ai * lda : ai + ak * lda] : 0;
		const i64 bk = k0 + tx, bj = (i64)blockIdx.y * 16 + ty;
		bs[tx][ty] = bk < K && bj < N ? B[tb ? bj + bk * ldb : bk + bj * ldb] : 0;
		__syncthreads();
		for (int kk = 0; kk < 16; kk++)
			sum += as[kk][tx] * bs[kk][ty];
		__syncthreads();
	}
	if (i < M && j < N)
		C[j * ldc + i] = sum;
}
