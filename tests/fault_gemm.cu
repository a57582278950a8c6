// fault_gemm.cu — TEST ONLY, never part of the product's space: GEMM kernels with the real kernels' names
// and arguments (templates/gemm_fp32.cu) that misbehave on purpose, to show that no candidate can stop a
// search (tests/gpu_faults.c).
//   FAULT 1  writes far outside every allocation: an illegal address, which poisons the context
//   FAULT 2  never returns
//   FAULT 3  writes every element of C, with the wrong value
//   FAULT 4  does not compile
// BM, BN, BK, TM, TN are accepted so the host computes the launch as for a real candidate.
#ifndef FAULT
#define FAULT 1
#endif
#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 4
#endif
#define THREADS ((BM / TM) * (BN / TN))
typedef long long i64;

#define GEMM_ARGS                                                                                        \
	i64 M, i64 N, i64 K, const float *__restrict__ A, i64 lda, const float *__restrict__ B, i64 ldb,   \
		float *__restrict__ C, i64 ldc, float *__restrict__ W, unsigned *__restrict__ counters,       \
		i64 k_chunk, int vec_a, int vec_b, int vec_c

__device__ void fault_body(i64 M, i64 N, float *C, i64 ldc)
{
#if FAULT == 1
	C[((i64)1 << 40) + threadIdx.x] = 1.0f;
#elif FAULT == 2
	for (;;) /* the clock is opaque to the compiler: the loop cannot be proven finite and removed */
		if (clock64() < 0)
			break;
#elif FAULT == 3
	if (blockIdx.z != 0)
		return;
	i64 stride = (i64)gridDim.x * blockDim.x;
	for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < M * N; e += stride)
		C[(e % M) + (e / M) * ldc] = 1.0f;
#elif FAULT == 4
	this is not CUDA;
#endif
}

extern "C" __global__ void gemm_nn(GEMM_ARGS) { fault_body(M, N, C, ldc); }
extern "C" __global__ void gemm_nt(GEMM_ARGS) { fault_body(M, N, C, ldc); }
extern "C" __global__ void gemm_tn(GEMM_ARGS) { fault_body(M, N, C, ldc); }
extern "C" __global__ void gemm_tt(GEMM_ARGS) { fault_body(M, N, C, ldc); }
// The op looks up every kernel of its table when it loads a candidate (3xTF32's split3, the TMA tile's transpose);
// a KIND 0 candidate never launches them, so here they only trap.
extern "C" __global__ void split3(const float *x, i64 ld, int kmaj, i64 lines, i64 K, i64 kp, int b_order, int inter,
				  float *p)
{
	__trap();
}
extern "C" __global__ void transpose(const float *x, i64 ld, i64 rows, i64 cols, float *y, i64 ldy)
{
	__trap();
}
