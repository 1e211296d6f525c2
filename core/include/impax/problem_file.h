/// Files of impact problems: the problems a model failed on, captured under the LD_PRELOAD shim
/// (IMPAX_CAPTURE, docs/ode-adapter.md "Capturing problems") or by the benchmarks
/// (bench_scenes' BENCH_CAPTURE), and read back to replay them (bench_replay) or to keep them
/// as regression data. A chaotic scene takes another trajectory whenever a change moves the
/// last digits of an answer, so two builds' runs of it do not solve the same problems; their
/// captures do.
///
/// Format, per problem, in the writing machine's byte order (a capture is replayed where it was
/// made): the 4 bytes "IPX2", int32 k, uint32 flags, double v_tol (m/s), then W (9 k^2 doubles,
/// column-major, 1/kg; a W given as blocks is written out densely), v (3k doubles, m/s) and per
/// contact mu, e, v_capture, v_plastic (4 doubles). Records of the first format, "IPXP" (no
/// v_tol: read as 0), are read too.
#ifndef IMPAX_PROBLEM_FILE_H
#define IMPAX_PROBLEM_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "impax/types.h"

/// One problem read from a file; owns its arrays (ipx_problem_record_free).
typedef struct ipx_problem_record {
    ipx_problem problem;
    double *W, *v;
    ipx_contact *contact;
} ipx_problem_record;

/// Most contacts a record may claim: a corrupt count is refused before anything is allocated
/// (9 k^2 doubles: 4 096 contacts are 1.2 GB).
#define IPX_PROBLEM_FILE_MAX_CONTACTS 4096

/// Appends p to f (W dense or as blocks). Returns 0, or -1 if a write failed or memory for a
/// dense copy of block W was short.
int ipx_problem_write(FILE *f, const ipx_problem *p);

/// Reads the next problem of f into *rec. Returns 1, 0 at the end of the file, -1 on a
/// malformed or truncated record or no memory (message says which; *rec is then empty).
int ipx_problem_read(FILE *f, ipx_problem_record *rec, char *message, size_t size);

void ipx_problem_record_free(ipx_problem_record *rec);

#endif
