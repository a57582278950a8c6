/* guard: a damaged database ends dlbtune with a message, not a crash.
 *
 * LMDB keeps no page checksums. A damaged page makes it fail one of its assertions (abort) or follow a bad
 * pointer (SIGSEGV, SIGBUS); it promises no recovery. dlb_guard_open gives each opened environment an
 * assertion callback that names the database and exits 1, and installs (once) a handler for SIGSEGV and
 * SIGBUS that does the same when the faulting instruction is in liblmdb or the faulting address is in an open
 * database's map. Any other fault is re-raised with the default action, so a bug of dlbtune's stays a crash.
 * Under AddressSanitizer the fault handler is not installed (ASan's own reports more). */
#ifndef DLB_STORE_GUARD_H
#define DLB_STORE_GUARD_H
#include <lmdb.h>

/* After mdb_env_open succeeded: env's assertions and faults name path (which must outlive the environment). */
void dlb_guard_open(MDB_env *env, const char *path);
/* After the map moved or grew (mdb_env_set_mapsize). */
void dlb_guard_remap(MDB_env *env);
/* Before mdb_env_close. */
void dlb_guard_close(MDB_env *env);
/* While a copy of a database is being made: the file and directory an exit through the guard removes (NULL,
 * NULL once the copy is complete). */
void dlb_guard_undo(const char *file, const char *dir);
#endif
