/// Inside the core: validation for the entry points that read W entry by entry.
#ifndef IMPAX_VALIDATE_INTERNAL_H
#define IMPAX_VALIDATE_INTERNAL_H

#include "impax/validate.h"

/// ipx_problem_validate, and W given densely: a problem of blocks gets IPX_ERR_INPUT with a
/// message naming `who` (the entry point). ipx_solve makes a dense copy where a model needs one;
/// the other public entry points (ipx_plus_trace, ipx_jia_trace, ipx_gonthier_step,
/// ipx_bowling_solve, ipx_routh_sample, ipx_routh_set) take W densely.
ipx_status ipx_problem_validate_dense(const ipx_problem *p, ipx_workspace *ws, const char *who,
                                      char *message, size_t message_size);

#endif
