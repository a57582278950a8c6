/* sass_ops: counts the tensor-core instructions in each kernel of a cubin, without a disassembler (the
 * toolkit on our CPU machines has neither cuobjdump nor nvdisasm). A cubin is an ELF file whose kernels'
 * machine code is in sections named ".text.<kernel>"; on sm_80 and sm_90 every instruction is 16 bytes
 * and its low 12 bits are the opcode. The opcodes below were read from nvdisasm's output on the GPU
 * machine (tests/gpu_sass.sh checks them there against nvdisasm on the same cubins).
 *
 *   sass_ops FILE.cubin...        one line a kernel: "FILE KERNEL instructions=N HMMA=a IMMA=b HGMMA=c IGMMA=d
 *                                 ACQBULK=e LDG=f STG=g wait_at=W global_at=G": W the index of the kernel's first
 *                                 ACQBULK (griddepcontrol.wait), G of its first global-memory access in the
 *                                 code's layout (LDG, STG, LD, LDGSTS, ATOMG, UTMALDG), -1 where there is none
 *   sass_ops -a FILE.cubin...     one line a file with the counts of every opcode ("0x23c=8 ..."), for the
 *                                 cross-check
 * Exit 0, or 1 with the reason for a file that is not a 64-bit little-endian ELF with sane sections. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OP_ACQBULK 0x82e /* griddepcontrol.wait: counted, and where a kernel first waits */
static const struct {
	unsigned op, op2; /* op2: a second encoding of the same instruction (op where there is none) */
	const char *name;
} named[] = {
	{0x23c, 0x23c, "HMMA"},  /* mma.sync with f16/bf16 inputs */
	{0x237, 0x237, "IMMA"},  /* mma.sync with s8/u8 inputs */
	/* wgmma.mma_async with f16/bf16/tf32 inputs (sm_90a); 0xdf0: A from registers (3xTF32's ASPLIT), read from
	 * a cubin whose only wgmmas are of that form: 8 of them, as many as the source issues */
	{0x9f0, 0xdf0, "HGMMA"},
	{0x9f1, 0x9f1, "IGMMA"}, /* wgmma.mma_async with s8/u8 inputs (sm_90a) */
	{OP_ACQBULK, OP_ACQBULK, "ACQBULK"}, /* griddepcontrol.wait */
	{0x981, 0x981, "LDG"},
	{0x986, 0x986, "STG"},
};
/* the global-memory accesses a programmatic dependent launch must not make before its ACQBULK: LDG, STG, LD
 * (generic), LDGSTS (cp.async), ATOMG and UTMALDG (TMA, two encodings) */
static const unsigned global_ops[] = {0x981, 0x986, 0x980, 0xfae, 0x9a8, 0x3b4, 0x5b4};
#define NGLOBAL (sizeof global_ops / sizeof global_ops[0])
#define NNAMED (sizeof named / sizeof named[0])

static uint64_t get(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = malloc(cap);
	for (size_t got; b && (got = fread(b + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			unsigned char *nb = realloc(b, cap *= 2);
			if (!nb)
				free(b);
			b = nb;
		}
	}
	fclose(f);
	*len = n;
	return b;
}

/* 0, or 1 after printing why the file cannot be read */
static int scan(const char *path, int all)
{
	size_t len = 0;
	unsigned char *b = slurp(path, &len);
	int rc = 1;
	static unsigned hist[4096];
	memset(hist, 0, sizeof hist);
	if (!b) {
		fprintf(stderr, "sass_ops: %s: cannot read\n", path);
		return 1;
	}
	if (len < 64 || memcmp(b, "\177ELF", 4) || b[4] != 2 || b[5] != 1) {
		fprintf(stderr, "sass_ops: %s: not a 64-bit little-endian ELF file\n", path);
		goto out;
	}
	uint64_t shoff = get(b + 0x28, 8);
	unsigned shentsize = (unsigned)get(b + 0x3a, 2), shnum = (unsigned)get(b + 0x3c, 2),
		 shstrndx = (unsigned)get(b + 0x3e, 2);
	if (shentsize < 64 || shstrndx >= shnum || shoff > len || (uint64_t)shnum * shentsize > len - shoff) {
		fprintf(stderr, "sass_ops: %s: bad section table\n", path);
		goto out;
	}
	const unsigned char *strsec = b + shoff + (size_t)shstrndx * shentsize;
	uint64_t stroff = get(strsec + 0x18, 8), strsize = get(strsec + 0x20, 8);
	if (stroff > len || strsize > len - stroff) {
		fprintf(stderr, "sass_ops: %s: bad section names\n", path);
		goto out;
	}
	for (unsigned i = 0; i < shnum; i++) {
		const unsigned char *sh = b + shoff + (size_t)i * shentsize;
		uint64_t name = get(sh, 4), off = get(sh + 0x18, 8), size = get(sh + 0x20, 8);
		if (name >= strsize || !memchr(b + stroff + name, 0, strsize - name)) {
			fprintf(stderr, "sass_ops: %s: section %u: bad name\n", path, i);
			goto out;
		}
		const char *nm = (const char *)b + stroff + name;
		if (strncmp(nm, ".text.", 6))
			continue;
		if (off > len || size > len - off || size % 16) {
			fprintf(stderr, "sass_ops: %s: section %s: bad size\n", path, nm);
			goto out;
		}
		unsigned count[NNAMED] = {0};
		long long wait_at = -1, global_at = -1;
		for (uint64_t at = 0; at < size; at += 16) {
			unsigned op = (unsigned)(get(b + off + at, 2) & 0xfff);
			hist[op]++;
			for (size_t k = 0; k < NNAMED; k++)
				count[k] += op == named[k].op || op == named[k].op2;
			if (op == OP_ACQBULK && wait_at < 0)
				wait_at = (long long)(at / 16);
			for (size_t k = 0; k < NGLOBAL && global_at < 0; k++)
				if (op == global_ops[k])
					global_at = (long long)(at / 16);
		}
		if (!all) {
			printf("%s %s instructions=%llu", path, nm + 6, (unsigned long long)(size / 16));
			for (size_t k = 0; k < NNAMED; k++)
				printf(" %s=%u", named[k].name, count[k]);
			printf(" wait_at=%lld global_at=%lld\n", wait_at, global_at);
		}
	}
	if (all) {
		printf("%s", path);
		for (unsigned op = 0; op < 4096; op++)
			if (hist[op])
				printf(" 0x%03x=%u", op, hist[op]);
		printf("\n");
	}
	rc = 0;
out:
	free(b);
	return rc;
}

int main(int argc, char **argv)
{
	int all = argc > 1 && !strcmp(argv[1], "-a"), rc = 0;
	if (argc < 2 + all) {
		fprintf(stderr, "usage: sass_ops [-a] FILE.cubin...\n");
		return 2;
	}
	for (int i = 1 + all; i < argc; i++)
		rc |= scan(argv[i], all);
	return rc;
}
