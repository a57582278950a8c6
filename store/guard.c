/* guard: see guard.h. The handler uses only async-signal-safe calls (write, _exit, sigaction, raise). */
#define _GNU_SOURCE /* dladdr, dl_iterate_phdr, REG_RIP */
#include "guard.h"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#define MAX_ENVS 8

static struct {
	MDB_env *env;
	const char *path;
	uintptr_t lo, hi; /* the map */
} envs[MAX_ENVS];
static uintptr_t lmdb_lo, lmdb_hi; /* liblmdb's code */
static int installed;

static const char *const advice = "; restore it from a copy (LMDB keeps no checksums and cannot repair it)\n";
static char undo_file[4400], undo_dir[4400]; /* a half-made copy to remove before exiting (dlb_guard_undo) */

void dlb_guard_undo(const char *file, const char *dir)
{
	snprintf(undo_file, sizeof undo_file, "%s", file ? file : "");
	snprintf(undo_dir, sizeof undo_dir, "%s", dir ? dir : "");
}

/* unlink and rmdir are async-signal-safe */
static void undo(void)
{
	if (undo_file[0])
		unlink(undo_file);
	if (undo_dir[0])
		rmdir(undo_dir);
}

static void say(const char *s)
{
	ssize_t r = write(2, s, strlen(s));
	(void)r;
}

static void on_assert(MDB_env *env, const char *msg)
{
	const char *path = mdb_env_get_userctx(env);
	say("dlbtune: error: database ");
	say(path ? path : "(unknown)");
	say(" is damaged (LMDB: ");
	say(msg);
	say(")");
	say(advice);
	undo();
	_exit(1);
}

static uintptr_t pc_of(void *uc)
{
#if defined(__x86_64__)
	return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	uintptr_t pc = pc_of(uc), addr = (uintptr_t)si->si_addr;
	const char *path = NULL;
	for (int i = 0; i < MAX_ENVS; i++)
		if (envs[i].env && ((addr >= envs[i].lo && addr < envs[i].hi) || (pc >= lmdb_lo && pc < lmdb_hi)))
			path = envs[i].path;
	if (!path) { /* not a read of a database: the default action, as without this handler */
		struct sigaction dfl;
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
		raise(sig);
		return;
	}
	say("dlbtune: error: database ");
	say(path);
	say(sig == SIGBUS ? " is damaged or was cut short (a read of its file failed: SIGBUS)"
			  : " is damaged (a read of it faulted inside LMDB: SIGSEGV)");
	say(advice);
	undo();
	_exit(1);
}

static int find_lmdb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	if ((void *)info->dlpi_addr != ((Dl_info *)arg)->dli_fbase)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			lmdb_lo = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
			lmdb_hi = lmdb_lo + ph->p_memsz;
		}
	}
	return 1;
}

static void install(void)
{
	installed = 1;
#if defined(__SANITIZE_ADDRESS__)
	return; /* AddressSanitizer's own SIGSEGV handler reports more than ours would; assertions are still caught */
#endif
	Dl_info info;
	if (dladdr((void *)mdb_cursor_get, &info) && info.dli_fbase)
		dl_iterate_phdr(find_lmdb, &info);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* The map of environment i: the mapping of its data.mdb in /proc/self/maps (mdb_env_info gives the address
 * only for MDB_FIXEDMAP). Left empty where that cannot be read: the instruction test still applies. */
static void note_map(int i)
{
	char want[4200], real[4096], line[4400];
	envs[i].lo = envs[i].hi = 0;
	if (!realpath(envs[i].path, real))
		return;
	snprintf(want, sizeof want, "%s/data.mdb", real);
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		int at = 0;
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &at) >= 2 && at > 0 && !strcmp(line + at, want)) {
			if (!envs[i].lo || lo < envs[i].lo)
				envs[i].lo = lo;
			if (hi > envs[i].hi)
				envs[i].hi = hi;
		}
	}
	fclose(f);
}

void dlb_guard_open(MDB_env *env, const char *path)
{
	mdb_env_set_userctx(env, (void *)path);
	mdb_env_set_assert(env, on_assert);
	if (!installed)
		install();
	for (int i = 0; i < MAX_ENVS; i++)
		if (!envs[i].env) {
			envs[i].path = path;
			envs[i].lo = envs[i].hi = 0;
			envs[i].env = env;
			note_map(i);
			return;
		}
	/* more open at once than the table holds: this one's assertions are still caught */
}

void dlb_guard_remap(MDB_env *env)
{
	for (int i = 0; i < MAX_ENVS; i++)
		if (envs[i].env == env)
			note_map(i);
}

void dlb_guard_close(MDB_env *env)
{
	for (int i = 0; i < MAX_ENVS; i++)
		if (envs[i].env == env)
			envs[i].env = NULL;
}
