// wgmma_probe.cu — standalone check and timing of templates/gemm_wgmma.cu against cuBLAS. Not part of the
// autotools build. Build (one binary per configuration; the template's macros on the command line):
//   nvcc -gencode=arch=compute_90a,code=sm_90a -std=c++17 -O2 -DPREC_INT8=0 -DBM=128 -DBN=256 -DSTAGES=4 \
//        -o wgmma_probe tests/wgmma_probe.cu -lcublas -lcublasLt
// Run: ./wgmma_probe [check] [time] [small]   (check and time when no argument; small: a few small odd
// shapes only, for compute-sanitizer)
// check: random inputs (fp16 in [-1,1), int8 in [-16,15]), C poisoned (padding included), odd shapes with
// padded leading dimensions, every supported layout; fp16 against cublasGemmEx (fp16 in, fp32 out,
// COMPUTE_32F) with |d| <= 2^-10 |ref| + 1e-3 sqrt(K)/8, int8 exact against a naive kernel; padding of C
// must stay poisoned; one large case is run twice and must match bit for bit.
// time: median of 20 runs after 3 warm-ups (CUDA events), next to cublasGemmEx (fp16 in/out COMPUTE_32F;
// int8 in, int32 out, COMPUTE_32I).
#include "../templates/gemm_wgmma.cu"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#define CK(x)                                                                                             \
	do {                                                                                              \
		cudaError_t e_ = (x);                                                                     \
		if (e_ != cudaSuccess) {                                                                  \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
			exit(2);                                                                          \
		}                                                                                         \
	} while (0)
#define CB(x)                                                                                   \
	do {                                                                                    \
		cublasStatus_t s_ = (x);                                                        \
		if (s_ != CUBLAS_STATUS_SUCCESS) {                                              \
			fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #x, (int)s_); \
			exit(2);                                                                \
		}                                                                               \
	} while (0)

typedef void (*kern_t)(i64, i64, i64, const TA *, i64, const TA *, i64, TC *, i64, ACC *, unsigned *, i64, int,
		       int, int);
static kern_t kern(int ta, int tb)
{
	return ta ? (tb ? gemm_tt : gemm_tn) : (tb ? gemm_nt : gemm_nn);
}

__global__ void fill_kernel(TA *p, i64 n, unsigned long long seed)
{
	for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (i64)gridDim.x * blockDim.x) {
		unsigned long long x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
		x ^= x >> 31;
		x *= 0xBF58476D1CE4E5B9ull;
		x ^= x >> 29;
		const unsigned r = (unsigned)(x >> 32);
#if PREC_INT8
		p[i] = (signed char)((int)(r % 32u) - 16);
#else
		p[i] = __half_as_ushort(__float2half_rn((float)(r >> 8) * (2.0f / 16777216.0f) - 1.0f));
#endif
	}
}

// naive int8 reference: C[i + j*M] = sum_k A(i,k) B(k,j), A 't' (k + i*lda), B 'n' (k + j*ldb)
__global__ void ref_i8_tn(i64 M, i64 N, i64 K, const signed char *A, i64 lda, const signed char *B, i64 ldb,
			  int *C)
{
	const i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
	if (i >= M)
		return;
	int s = 0;
	for (i64 k = 0; k < K; k++)
		s += (int)A[k + i * lda] * (int)B[k + j * ldb];
	C[i + j * M] = s;
}

static const i64 VA = 16 / ES_AB; // leading dimensions padded to 16 bytes
static i64 rup(i64 x, i64 m) { return (x + m - 1) / m * m; }

static void fill(TA *p, i64 n, unsigned long long seed)
{
	fill_kernel<<<1024, 256>>>(p, n, seed);
	CK(cudaGetLastError());
}

static void launch(int ta, int tb, i64 M, i64 N, i64 K, const TA *A, i64 lda, const TA *B, i64 ldb, TC *C,
		   i64 ldc, int vec_c, cudaStream_t st = 0)
{
	const i64 tiles = ((M + BM - 1) / BM) * ((N + BN - 1) / BN);
	kern(ta, tb)<<<dim3((unsigned)tiles, 1, 1), THREADS, SMEM_BYTES, st>>>(M, N, K, A, lda, B, ldb, C, ldc,
									       nullptr, nullptr, K, 1, 1, vec_c);
	CK(cudaGetLastError());
}

static cublasHandle_t handle;

static int check_case(int ta, int tb, i64 M, i64 N, i64 K, int ldc_pad, unsigned long long seed)
{
	// A: 'n' M×K (ld >= M), 't' K×M (ld >= K); B: 'n' K×N (ld >= K), 't' N×K (ld >= N)
	const i64 lda = rup(ta ? K : M, VA) + VA, ldb = rup(tb ? N : K, VA);
	const i64 acols = ta ? M : K, bcols = tb ? K : N;
	const i64 ldc = ldc_pad ? rup(M, 8) + 8 : M;
	const int vec_c = (ldc * ES_C) % 16 == 0;
	TA *A, *B;
	TC *C;
	float *R = nullptr;
	int *Ri = nullptr;
	CK(cudaMalloc(&A, lda * acols * sizeof(TA)));
	CK(cudaMalloc(&B, ldb * bcols * sizeof(TA)));
	CK(cudaMalloc(&C, ldc * N * sizeof(TC)));
	fill(A, lda * acols, seed);
	fill(B, ldb * bcols, seed * 7 + 1);
	CK(cudaMemset(C, PREC_INT8 ? 0x7B : 0xFF, ldc * N * sizeof(TC)));
	launch(ta, tb, M, N, K, A, lda, B, ldb, C, ldc, vec_c);
	CK(cudaDeviceSynchronize());
#if PREC_INT8
	CK(cudaMalloc(&Ri, M * N * sizeof(int)));
	ref_i8_tn<<<dim3((unsigned)((M + 127) / 128), (unsigned)N), 128>>>(M, N, K, A, lda, B, ldb, Ri);
	CK(cudaGetLastError());
#else
	CK(cudaMalloc(&R, M * N * sizeof(float)));
	const float one = 1.f, zero = 0.f;
	CB(cublasGemmEx(handle, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, (int)M, (int)N, (int)K,
			&one, A, CUDA_R_16F, (int)lda, B, CUDA_R_16F, (int)ldb, &zero, R, CUDA_R_32F, (int)M,
			CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
#endif
	CK(cudaDeviceSynchronize());
	std::vector<TC> hc(ldc * N);
	CK(cudaMemcpy(hc.data(), C, ldc * N * sizeof(TC), cudaMemcpyDeviceToHost));
	long bad = 0, pad_bad = 0;
	double maxerr = 0, maxref = 0;
#if PREC_INT8
	std::vector<int> hr(M * N);
	CK(cudaMemcpy(hr.data(), Ri, M * N * sizeof(int), cudaMemcpyDeviceToHost));
	for (i64 j = 0; j < N; j++)
		for (i64 i = 0; i < ldc; i++) {
			const int o = hc[i + j * ldc];
			if (i >= M) {
				pad_bad += o != 0x7B7B7B7B;
				continue;
			}
			const int r = hr[i + j * M];
			maxref = std::max(maxref, fabs((double)r));
			maxerr = std::max(maxerr, fabs((double)o - r));
			bad += o != r;
		}
#else
	std::vector<float> hr(M * N);
	CK(cudaMemcpy(hr.data(), R, M * N * sizeof(float), cudaMemcpyDeviceToHost));
	const double abs_tol = 1e-3 * sqrt((double)K) / 8;
	for (i64 j = 0; j < N; j++)
		for (i64 i = 0; i < ldc; i++) {
			unsigned short bits;
			memcpy(&bits, &hc[i + j * ldc], 2);
			if (i >= M) {
				pad_bad += bits != 0xFFFF;
				continue;
			}
			__half ho;
			memcpy(&ho, &hc[i + j * ldc], 2);
			const double o = (double)__half2float(ho);
			const double r = hr[i + j * M];
			maxref = std::max(maxref, fabs(r));
			const double d = fabs(o - r);
			if (!(d <= ldexp(1.0, -10) * fabs(r) + abs_tol))
				bad++;
			if (!(d <= maxerr))
				maxerr = isnan(d) ? INFINITY : std::max(maxerr, d);
		}
#endif
	const bool ok = bad == 0 && pad_bad == 0;
	printf("check %s%s M=%-5lld N=%-5lld K=%-5lld lda=%-5lld ldb=%-5lld ldc=%-5lld vec_c=%d  max|err|=%.3g "
	       "max|ref|=%.3g bad=%ld pad_bad=%ld  %s\n",
	       ta ? "t" : "n", tb ? "t" : "n", M, N, K, lda, ldb, ldc, vec_c, maxerr, maxref, bad, pad_bad,
	       ok ? "ok" : "FAIL");
	cudaFree(A);
	cudaFree(B);
	cudaFree(C);
	cudaFree(R);
	cudaFree(Ri);
	return ok ? 0 : 1;
}

// Same inputs twice: the outputs must agree bit for bit (a race shows as a moving result).
static int check_repeat(int ta, int tb, i64 M, i64 N, i64 K)
{
	const i64 lda = rup(ta ? K : M, VA), ldb = rup(tb ? N : K, VA), ldc = M;
	TA *A, *B;
	TC *C1, *C2;
	CK(cudaMalloc(&A, lda * (ta ? M : K) * sizeof(TA)));
	CK(cudaMalloc(&B, ldb * (tb ? K : N) * sizeof(TA)));
	CK(cudaMalloc(&C1, ldc * N * sizeof(TC)));
	CK(cudaMalloc(&C2, ldc * N * sizeof(TC)));
	fill(A, lda * (ta ? M : K), 99);
	fill(B, ldb * (tb ? K : N), 98);
	CK(cudaMemset(C1, 0xFF, ldc * N * sizeof(TC)));
	CK(cudaMemset(C2, 0x00, ldc * N * sizeof(TC)));
	launch(ta, tb, M, N, K, A, lda, B, ldb, C1, ldc, (ldc * ES_C) % 16 == 0);
	launch(ta, tb, M, N, K, A, lda, B, ldb, C2, ldc, (ldc * ES_C) % 16 == 0);
	CK(cudaDeviceSynchronize());
	std::vector<char> h1(ldc * N * sizeof(TC)), h2(ldc * N * sizeof(TC));
	CK(cudaMemcpy(h1.data(), C1, h1.size(), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(h2.data(), C2, h2.size(), cudaMemcpyDeviceToHost));
	const bool ok = memcmp(h1.data(), h2.data(), h1.size()) == 0;
	printf("repeat %s%s M=%lld N=%lld K=%lld: %s\n", ta ? "t" : "n", tb ? "t" : "n", M, N, K,
	       ok ? "identical" : "DIFFER");
	cudaFree(A);
	cudaFree(B);
	cudaFree(C1);
	cudaFree(C2);
	return ok ? 0 : 1;
}

template <class F>
static double median_ms(F f, int reps = 20)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int i = 0; i < 3; i++)
		f();
	CK(cudaDeviceSynchronize());
	std::vector<float> t;
	for (int i = 0; i < reps; i++) {
		CK(cudaEventRecord(a));
		f();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float ms;
		CK(cudaEventElapsedTime(&ms, a, b));
		t.push_back(ms);
	}
	CK(cudaGetLastError());
	std::sort(t.begin(), t.end());
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	return t[t.size() / 2];
}

static void time_case(int ta, int tb, i64 M, i64 N, i64 K)
{
	const i64 lda = rup(ta ? K : M, VA), ldb = rup(tb ? N : K, VA), ldc = M;
	TA *A, *B;
	TC *C, *C2;
	CK(cudaMalloc(&A, lda * (ta ? M : K) * sizeof(TA)));
	CK(cudaMalloc(&B, ldb * (tb ? K : N) * sizeof(TA)));
	CK(cudaMalloc(&C, ldc * N * sizeof(TC)));
	CK(cudaMalloc(&C2, ldc * N * sizeof(TC)));
	fill(A, lda * (ta ? M : K), 5);
	fill(B, ldb * (tb ? K : N), 6);
	const int vec_c = (ldc * ES_C) % 16 == 0;
	const double ours = median_ms([&] { launch(ta, tb, M, N, K, A, lda, B, ldb, C, ldc, vec_c); });
	const cublasOperation_t oa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
#if PREC_INT8
	const int one = 1, zero = 0;
	const double ref = median_ms([&] {
		CB(cublasGemmEx(handle, oa, ob, (int)M, (int)N, (int)K, &one, A, CUDA_R_8I, (int)lda, B, CUDA_R_8I,
				(int)ldb, &zero, C2, CUDA_R_32I, (int)ldc, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
	});
	// agreement with cuBLAS on this case too (exact)
	std::vector<int> h1(ldc * N), h2(ldc * N);
#else
	const float one = 1.f, zero = 0.f;
	const double ref = median_ms([&] {
		CB(cublasGemmEx(handle, oa, ob, (int)M, (int)N, (int)K, &one, A, CUDA_R_16F, (int)lda, B, CUDA_R_16F,
				(int)ldb, &zero, C2, CUDA_R_16F, (int)ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
	});
	std::vector<__half> h1(ldc * N), h2(ldc * N); // same bits as TC
#endif
	CK(cudaMemcpy(h1.data(), C, h1.size() * sizeof(TC), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(h2.data(), C2, h2.size() * sizeof(TC), cudaMemcpyDeviceToHost));
	double maxd = 0;
	for (size_t i = 0; i < h1.size(); i++) {
#if PREC_INT8
		const double d = fabs((double)h1[i] - h2[i]);
#else
		const double d = fabs((double)__half2float(h1[i]) - __half2float(h2[i]));
#endif
		if (!(d <= maxd))
			maxd = isnan(d) ? INFINITY : d;
	}
	const double flop = 2.0 * M * N * K;
	printf("time %s%s %-5s M=%-5lld N=%-5lld K=%-5lld  ours %8.3f ms %7.1f T/s   cublas %8.3f ms %7.1f T/s   "
	       "ratio %.3f   max|ours-cublas|=%.3g\n",
	       ta ? "t" : "n", tb ? "t" : "n", PREC_INT8 ? "int8" : "fp16", M, N, K, ours, flop / ours / 1e9, ref,
	       flop / ref / 1e9, ref / ours, maxd);
	cudaFree(A);
	cudaFree(B);
	cudaFree(C);
	cudaFree(C2);
}

int main(int argc, char **argv)
{
	bool do_check = argc < 2, do_time = argc < 2, small = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "small")) // a few small odd shapes, for compute-sanitizer
			do_check = small = true;
		if (!strcmp(argv[i], "check"))
			do_check = true;
		if (!strcmp(argv[i], "time"))
			do_time = true;
	}
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	printf("device %s, %d SMs; config PREC_INT8=%d WGS=%d BM=%d BN=%d BK=%d STAGES=%d GM=%d THREADS=%d "
	       "SMEM_BYTES=%d\n",
	       prop.name, prop.multiProcessorCount, PREC_INT8, WGS, BM, BN, BK, STAGES, GM, THREADS, SMEM_BYTES);
	const kern_t ks[4] = {gemm_nn, gemm_nt, gemm_tn, gemm_tt};
	for (int i = 0; i < 4; i++)
		CK(cudaFuncSetAttribute(ks[i], cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES));
	{
		cudaFuncAttributes fa;
		CK(cudaFuncGetAttributes(&fa, gemm_tn));
		printf("gemm_tn: %d registers, %zu bytes local\n", fa.numRegs, fa.localSizeBytes);
	}
	CB(cublasCreate(&handle));
	int fails = 0;
	if (do_check) {
		static const i64 shapes[][3] = {{128, 256, 64},   {1, 1, 1},        {35, 127, 1},     {127, 35, 5124},
						{1, 1760, 35},    {1760, 1, 127},   {1760, 1760, 127}, {5124, 127, 1760},
						{1760, 5124, 1760}, {5124, 5124, 35}, {256, 512, 8192}};
		static const i64 small_shapes[][3] = {{35, 127, 1}, {127, 35, 515}, {1, 300, 35}, {200, 1, 127},
						      {129, 257, 70}};
		const int nl = PREC_INT8 ? 1 : 4;
		for (int l = 0; l < nl; l++) {
			const int ta = PREC_INT8 ? 1 : l >> 1, tb = PREC_INT8 ? 0 : l & 1;
			int s = 0;
			if (small)
				for (const auto &sh : small_shapes)
					fails += check_case(ta, tb, sh[0], sh[1], sh[2], (s++) & 1, 1000 + s);
			else
				for (const auto &sh : shapes)
					fails += check_case(ta, tb, sh[0], sh[1], sh[2], (s++) & 1, 1000 + s);
		}
		if (!small)
			fails += check_repeat(PREC_INT8 ? 1 : 0, 0, 4096, 4096, 4096);
		printf("CHECK %s (%d failing cases)\n", fails ? "FAILED" : "PASSED", fails);
	}
	if (do_time) {
		static const i64 sizes[][3] = {{8192, 8192, 8192}, {4096, 7000, 4096}};
		for (const auto &sz : sizes) {
			time_case(1, 0, sz[0], sz[1], sz[2]);
			if (!PREC_INT8)
				time_case(0, 0, sz[0], sz[1], sz[2]);
		}
	}
	cublasDestroy(handle);
	return fails ? 1 : 0;
}
