/* `impax fit`'s folds (fit_folds.h). */
#include "fit_folds.h"

#include <stdint.h>
#include <stdlib.h>

#include "impax/rng.h"

void cli_fit_folds(int n, int folds, unsigned long seed, int *fold_of)
{
    int *order = malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    uint64_t s = seed;
    if (!order) { /* no shuffle without memory: round-robin in name order is still a partition */
        for (int i = 0; i < n; i++) fold_of[i] = i % folds;
        return;
    }
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        const int j = (int)(ipx_splitmix64(&s) % (uint64_t)(i + 1));
        const int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < n; i++) fold_of[order[i]] = i % folds;
    free(order);
}

void cli_fit_fold_split(const int *fold_of, int n, int fold, int *train, int *n_train, int *test,
                        int *n_test)
{
    *n_train = *n_test = 0;
    for (int i = 0; i < n; i++) {
        if (fold_of[i] == fold) test[(*n_test)++] = i;
        else train[(*n_train)++] = i;
    }
}
