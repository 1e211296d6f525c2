/// PLUS's linear systems (Table 1, docs/models/plus.md §5.3) built from a problem's W and v the way
/// plus_columns and plus_assemble build them, for the tests of the min-norm solvers.
#ifndef IMPAX_TEST_PLUS_TABLE1_H
#define IMPAX_TEST_PLUS_TABLE1_H

/// Contact states of ipx_test_table1.
enum { T1_OFF = 0, T1_ROLLING = 1, T1_SLIDING = 2, T1_EXPANDING = 3, T1_FRICTIONLESS = 4 };

/// B (m x m, column-major) and w of k contacts in states st[] (T1_*; sliding and expanding
/// contacts slide along phi[]) at friction mu: velocity rows from W (3k x 3k) and v, sliding
/// rows pi_t + mu s_t pi_n = 0, expanding rows pi_n = 0.3. Returns m; pos (3k) receives the
/// unknown of each row (-1: fixed at 0), col (3k) the row of each unknown.
int ipx_test_table1(int k, const double *W, const double *v, const int *st, const double *phi,
                    double mu, double *B, double *w, int *pos, int *col);

/// The arrays of ipx_test_table1 for problems of k contacts: st, phi (k), pos, col, w (3k), B
/// (3k x 3k).
typedef struct ipx_test_table1_arrays {
    int *st, *pos, *col;
    double *phi, *B, *w;
} ipx_test_table1_arrays;

ipx_test_table1_arrays ipx_test_table1_alloc(int k);
void ipx_test_table1_free(ipx_test_table1_arrays *a);

#endif
