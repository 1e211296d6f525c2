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

/// The recordings fold `fold` holds out (test, *n_test) and those it trains on (train, *n_train),
/// each in index order; train and test have room for n.
void cli_fit_fold_split(const int *fold_of, int n, int fold, int *train, int *n_train, int *test,
                        int *n_test);

#ifdef __cplusplus
}
#endif
#endif
