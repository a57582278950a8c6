/* salvage: `dlbtune db salvage DEST` — copy every record of a (damaged) result database that can still be read
 * and passes its own checks into a fresh database at DEST; the source is only read.
 *
 * LMDB promises nothing for a damaged file: reading one may fault or abort (store/guard.c ends such a process
 * with a message). So each sub-database is walked by child processes, in key order, each sending the entries
 * it reads to the parent through a pipe; the parent checks them (as `db verify` reads them) and writes those
 * that pass to DEST. When a child dies mid-walk, the next one starts just past the last key received; when one
 * dies before sending anything, the start moves further on (the last key with its tail cut off and its new
 * last byte increased, one byte more each time), skipping the damaged stretch. The kernel cache (DB/kernels)
 * is not copied: `dlbtune compile` rebuilds it. */
#ifndef DLB_SALVAGE_H
#define DLB_SALVAGE_H
#include <stdio.h>

/* Salvage the result database at src into dest (a directory without a database). The report goes to out.
 * 0 when at least one record was saved or the source was empty; DLB_E_USAGE for a bad destination;
 * DLB_E_DBFORMAT when nothing could be read. */
int dlb_db_salvage(const char *src, const char *dest, FILE *out);
#endif
