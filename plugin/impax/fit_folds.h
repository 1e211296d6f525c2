/// `impax fit`'s cross-validation folds: which recordings each fold holds out. Apart from the
/// fit so that the anchors (bench/anchors) deal the tosses into the very same folds.
#ifndef IMPAX_CLI_FIT_FOLDS_H
#define IMPAX_CLI_FIT_FOLDS_H

#ifdef __cplusplus
extern "C" {
#endif

/// Fold of each of n recordings (0..folds-1): a seeded shuffle dealt round-robin, so every fold
/// has n/folds or one more, and the same (n, folds, seed) always gives the same folds.
void cli_fit_folds(int n, int folds, unsigned long seed, int *fold_of);

#ifdef __cplusplus
}
#endif
#endif
