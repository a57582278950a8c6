/* ops/sparse/mtx: a Matrix Market file (the format of NIST's and SuiteSparse's collections) as the sparse
 * operand: "%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric", comments, the size line,
 * then one "row col [value]" line per entry, 1-based. Pattern entries get the value 1; a symmetric file's
 * off-diagonal entries are mirrored. Any other form, a bad number, an entry outside the matrix, a repeated
 * entry or a count that does not match is refused with the file and line named (DLB_E_PARSE, exit 2). */
#ifndef DLB_OPS_SPARSE_MTX_H
#define DLB_OPS_SPARSE_MTX_H
#include "csr.h"

#include <stdio.h>

int dlb_mtx_read(const char *path, struct dlb_csr *out);
/* The same from an open stream; name is what messages call it. */
int dlb_mtx_read_stream(FILE *f, const char *name, struct dlb_csr *out);
#endif
