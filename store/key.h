/* key: the database key of a result — what was measured (op, precision, and the op's layout and shape text,
 * src/problem.h) and under which conditions (GPU, driver, CUDA runtime, NVRTC, the op's vendor library,
 * template source). Any difference means a different key, so a
 * result measured elsewhere never answers as current. Encoded as readable text so mdb_dump shows it. */
#ifndef DLB_KEY_H
#define DLB_KEY_H
#include <stddef.h>
#include <stdint.h>

#define DLB_KEY_VERSION 2
#define DLB_KEY_MAX 511 /* LMDB's default maximum key size */

struct dlb_key {
	char op[16], prec[8];
	char layout[32];    /* "NN"; "-" for an op without layouts */
	char shape[160];    /* "35x700x2048" */
	char gpu[128];
	char id[48];        /* which GPUs the result answers for: their model, "132sm-79GiB-1980MHz-2619MHz" (SMs,
	                     * memory, SM and memory clocks: with gpu= and sm=, what makes their performance), or
	                     * one GPU's UUID, "GPU-5e2b..." (--per-gpu, and results of GPUs nothing else is known of) */
	int version;        /* of the key as decoded: 1 (uuid= in place of id=, always a UUID) or 2 */
	int sm;             /* compute capability ×10 + minor */
	int driver, cuda;   /* cudaDriverGetVersion, cudaRuntimeGetVersion */
	int nvrtc;          /* major ×100 + minor */
	char vlib[16];      /* the op's vendor library (its key in struct dlb_lib) and its version */
	long long vlib_version;
	uint64_t tpl_hash;  /* FNV-1a of the template source */
	char only[64];      /* "": a search of the op's whole space; else the restriction a search ran under (its
	                     * --only text, e.g. "family:FFMA" for --fp32-math ffma): a result that answers only for
	                     * that restriction. Encoded last, as "|only=TEXT", and only when set ('|' becomes '/') */
};

/* A restriction (--only TEXT) as a key holds it, in buf (at least sizeof k->only bytes): TEXT itself where it fits
 * k->only, else its first 46 characters, '~' and the FNV-1a hash of the whole TEXT in 16 hex digits (63 in all),
 * so that a restriction of any length (one whole configuration, say) has keys of its own and the same TEXT finds
 * them again. */
void dlb_key_only_text(const char *only, char *buf, size_t len);

/* Where k was measured, as tables head it: "NVIDIA H200 (132sm-...), driver 13.0, CUDA 13.0". */
void dlb_key_gpu_text(const struct dlb_key *k, char *buf, size_t len);
/* The model id of a GPU from its facts (struct dlb_key's id). */
void dlb_key_model_id(int sm_count, double memory_gib, int clock_mhz, int mem_clock_mhz, char *buf, size_t len);
/* 1 when id names one GPU (a UUID) rather than a model. */
int dlb_key_id_is_uuid(const char *id);

/* Encodes the current version. Returns the encoded length, or -1 when it would not fit in len or DLB_KEY_MAX
 * bytes. */
int dlb_key_encode(const struct dlb_key *k, char *buf, size_t len);
/* 0, or DLB_E_PARSE when buf is not a key of this version or of version 1 (read for the migration). */
int dlb_key_decode(const char *buf, size_t len, struct dlb_key *k);
#endif
