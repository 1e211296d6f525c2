/* Files of impact problems, for A/B timing on a fixed set: bench_scenes writes the problems a
   run hands to a model (BENCH_CAPTURE), bench_replay solves them again under any models. A
   chaotic scene (the 200-box bin) takes another trajectory whenever a change moves the last
   digits of an answer, so two builds' runs of it do not solve the same problems; their
   captures do.

   Format, per problem, in the writing machine's byte order (a capture is replayed where it was
   made): the 4 bytes "IPXP", int32 k, uint32 flags, then W (9 k^2 doubles, column-major, 1/kg),
   v (3k doubles, m/s) and per contact mu, e, v_capture, v_plastic (4 doubles). */
#ifndef IMPAX_PROBLEM_FILE_H
#define IMPAX_PROBLEM_FILE_H

#include <stdio.h>

#include "impax/types.h"

/// One problem read from a file; owns its arrays (problem_file_free).
typedef struct problem_record {
    ipx_problem problem;
    double *W, *v;
    ipx_contact *contact;
} problem_record;

/// Appends p to f. Returns 0, or -1 if a write failed.
int problem_file_write(FILE *f, const ipx_problem *p);

/// Reads the next problem of f into *rec. Returns 1, 0 at the end of the file, -1 on a
/// malformed or truncated record or no memory (message says which; *rec is then empty).
int problem_file_read(FILE *f, problem_record *rec, char *message, size_t size);

void problem_file_free(problem_record *rec);

#endif
