/// Shared by the model tests: parameters from text, and a solve that checks the model's promises.
#ifndef IMPAX_TEST_MODEL_TEST_H
#define IMPAX_TEST_MODEL_TEST_H

#include <stddef.h>

#include "impax/impax.h"

/// The model's defaults with `text` (key=value,...) applied; a failure is a test failure.
ipx_params ipx_test_params(const char *model, const char *text);

/// Parameter `name` of `model` (at `index`) defaults to `def`, and each text of bad (n of them,
/// key=value) is refused with a message naming the key, the values left as they were; every
/// miss is a test failure.
void ipx_test_param_refuses(const char *model, const char *name, int index, double def,
                            const char *const *bad, size_t n);

/// Solves through the registry as a host would (fresh workspace), then runs the invariant
/// checker on the promises of the model; every violation is a test failure and is printed.
/// The result's arrays live in that workspace, which stays alive for the next
/// IPX_TEST_KEPT_RESULTS - 1 calls (a ring of them): compare at most that many results at once.
ipx_status ipx_test_solve(const ipx_params *par, const ipx_problem *prob, ipx_result *r);
#define IPX_TEST_KEPT_RESULTS 8

/// A workspace sized for par and k that stays alive like ipx_test_solve's (the same ring).
ipx_workspace *ipx_test_workspace(const ipx_params *par, int k);

/// 1 if r keeps every promise of par's model on prob (the checker at its default tolerances) and
/// no safety net changed the answer (IPX_CHECK_SAFETY_NET);
/// else prints the violations and returns 0 (the caller decides whether that fails a test).
int ipx_test_keeps_promises(const ipx_params *par, const ipx_problem *prob, const ipx_result *r);

/// The checker on the given kinds at its default tolerances, with non-penetration (if among
/// them) taking eps_v (m/s) as its absolute floor: the velocity noise below which a model lets a
/// contact observe and the impact end (PLUS, paper 3b). Prints the violations; 1 if none.
int ipx_test_check_kinds(const ipx_problem *prob, const ipx_result *r, unsigned kinds,
                         double eps_v);

/// The same check, silent: the number of findings, and their lines in buf (size bytes; may be
/// NULL) for the caller to print (bench_replay).
int ipx_test_check_findings(const ipx_problem *prob, const ipx_result *r, unsigned kinds,
                            double eps_v, char *buf, size_t size);

#endif
