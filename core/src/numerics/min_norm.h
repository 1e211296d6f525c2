/// Inside the core: the minimum-norm solve of a square system that PLUS and bowling use
/// (min_norm.c). Always the complete orthogonal factorisation of ipx_plus_lsq (faster than
/// LAPACK's dgelsy at every size these models meet: `bench_plus lsq`); from
/// IPX_MIN_NORM_CACHE_MIN unknowns on, a cache (ipx_min_norm_cache) also keeps the last system
/// in its work array, and a factorisation of it without a few columns once the same few columns
/// keep changing (the impending-slip direction search), which then solves each next system in
/// O(m^2). The contract of ipx_lsq_min_norm (A overwritten, b becomes x; rank_out may be NULL).
/// What the work array holds is known only from the cache's typed fields, which
/// ipx_min_norm_begin empties: the bytes of the work array are never taken as evidence, so an
/// answer depends only on the solves made since the cache began (a model begins it with each
/// impact), never on what an earlier impact or anything else left in the memory.
#ifndef IMPAX_MIN_NORM_H
#define IMPAX_MIN_NORM_H

#include <stddef.h>
#include "impax/types.h"

/// Systems below this many unknowns are solved directly, without the cache (bench_plus_scale
/// and bench_plus: the cache's bookkeeping costs more than it saves below it).
#ifndef IPX_MIN_NORM_CACHE_MIN
#define IPX_MIN_NORM_CACHE_MIN 16
#endif

/// Most columns a base factor can leave out (the impending contacts a direction search
/// sweeps); the room the cache keeps for them.
#define IPX_MIN_NORM_MAX_SET 32

/// Rows in which a left-out column may vary and still be updated in O(n) (min_norm.c
/// split_column): an impending contact's two friction rows.
#define IPX_MIN_NORM_SPLIT_ROWS 2

/// A factor cache: its work array and, in typed fields, which system that array holds and how
/// (min_norm.c). Its owner begins it empty (ipx_min_norm_begin) where the owner's solve begins,
/// and hands it to every min-norm solve of that solve; nothing else may write the work array in
/// between. The fields are min_norm.c's alone.
typedef struct ipx_min_norm_cache {
    double *work; /* ipx_min_norm_work_doubles(n) doubles for systems of up to n unknowns */
    int m;        /* unknowns of the system the work array holds; 0: none */
    double rcond; /* the rcond it was solved with */
    int kind;     /* min_norm.c KIND_*: the matrix alone, or with a base factor */
    int rank;     /* the base factor's rank */
    double r11;   /* its |R_11| */
    double next;  /* its largest pivot left out (0: none) */
    int x_ok;     /* 1 if x is the held system's solution */
    int x_rank;   /* that solution's rank */
    int w_ok;     /* 1 if x0, wq belong to the held right-hand side */
    int ns;       /* the base's left-out columns */
    int s[IPX_MIN_NORM_MAX_SET];    /* those columns, ascending */
    int g_ok[IPX_MIN_NORM_MAX_SET]; /* whether their Q^T g and A^+ g are up to date */
    int pn, pcount;                 /* columns that changed at the last dense solve(s), and at
                                       how many in a row */
    int p[IPX_MIN_NORM_MAX_SET];    /* those columns, ascending */
    double cond;                    /* condition estimate of the last dense solve's factor */
    int path;                       /* the path the last solve took (ipx_min_norm_path) */
    long builds, splits;            /* base factors built and columns split since it began */
    int en;                         /* columns a caller expects to change (ipx_min_norm_expect) */
    int e[IPX_MIN_NORM_MAX_SET];    /* those columns, ascending */
    int sr[IPX_MIN_NORM_SPLIT_ROWS * IPX_MIN_NORM_MAX_SET]; /* each left-out column's split rows */
} ipx_min_norm_cache;

/// Begins cache c on work (ipx_min_norm_work_doubles(n) doubles for systems of up to n
/// unknowns) holding nothing; whatever work holds is ignored.
void ipx_min_norm_begin(ipx_min_norm_cache *c, double *work);

/// The most a base factor leaves out for a system of n unknowns: n / 4, from 8 to
/// IPX_MIN_NORM_MAX_SET. A system that differs from the last in more columns is factorised
/// afresh. A solve from a base costs O(n) per column left out, and O(n^2) more per one that
/// changed other than in the rows it was split over (ipx_min_norm_splits). On the bin capture
/// (PLUS, bench_replay), before the splits: 8 columns at every size took 35 s, 16 at every
/// size 28.5 s, 32 29.5 s (the small systems slower), n / 8 26.6 s; with them n / 8 22.2,
/// 21.5 s and n / 4 21.4, 20.4 s (n / 2 23.6 s against 22.5).
int ipx_min_norm_set_limit(int n);

/// Work doubles for systems of up to n unknowns (iwork: n ints).
size_t ipx_min_norm_work_doubles(int n);

/// Solves on cache c (begun: ipx_min_norm_begin), which keeps the system for the next solve.
ipx_status ipx_min_norm_solve(int n, double *A, double *b, double rcond, ipx_min_norm_cache *c,
                              int *iwork, int *rank_out);

/// ipx_min_norm_solve for a caller that will change the same few columns again and again (the
/// direction search's probes): a system that differs from the cached one in a few columns gets
/// its base factor at once, not after BUILD_AFTER dense solves of those columns.
ipx_status ipx_min_norm_solve_again(int n, double *A, double *b, double rcond,
                                    ipx_min_norm_cache *c, int *iwork, int *rank_out);

/// ipx_min_norm_solve_again for a caller that knows in which columns A can differ from the
/// system last solved on c: only cols[0..ncols) (any order) are compared and taken, where
/// the plain call compares all n (an O(n^2) read, and the caller's copy of A, that a probe of
/// the direction search otherwise spends). A is only read; where a dense solve is needed it is
/// copied into scratch (n x n) and factored there. The caller must know that nothing else was
/// solved on c since that system (PLUS: its candidate's matrix, of which its probes change
/// only the impending contacts' normal columns); a cache that holds no system of n unknowns
/// and rcond solves A afresh.
ipx_status ipx_min_norm_solve_columns(int n, const double *A, double *scratch, double *b,
                                      double rcond, ipx_min_norm_cache *c, int *iwork,
                                      int *rank_out, const int *cols, int ncols);

/// Tells cache c, which holds a system of n unknowns, that the next solves will
/// change the columns cols[0..ncols) (at most ipx_min_norm_set_limit(n); more are
/// ignored): the next base factor it builds leaves all of them out, where it would otherwise
/// grow its set one column at a time, a fresh factorisation each (Newton on the slip angles
/// changes every impending contact's column in turn). Only the cost changes, never an answer.
/// A cache that holds no system of n unknowns ignores it.
void ipx_min_norm_expect(int n, ipx_min_norm_cache *c, const int *cols, int ncols);

/// How the last ipx_min_norm_solve of n unknowns on cache c was solved: the same
/// system again, from a base factor (O(m^2) per changed column), or by a dense factorisation
/// (every system below IPX_MIN_NORM_CACHE_MIN unknowns). For the tests of the cache's rules.
enum { IPX_MIN_NORM_SAME = 1, IPX_MIN_NORM_BASE = 2, IPX_MIN_NORM_DENSE = 3 };
int ipx_min_norm_path(int n, const ipx_min_norm_cache *c);

/// Base factors built on cache c since it began (ipx_min_norm_begin) or took a system of
/// another size: each costs a dense factorisation. For the tests of ipx_min_norm_expect.
long ipx_min_norm_base_builds(int n, const ipx_min_norm_cache *c);

/// Left-out columns split since the cache began: a column of a base factor that changes in at
/// most two rows (an impending contact's friction rows) is split once into its fixed part and
/// those rows' unit vectors through the factor (one O(n^2) solve per row), after which each
/// change of it costs O(n) instead of O(n^2). For the tests.
long ipx_min_norm_splits(int n, const ipx_min_norm_cache *c);

#endif
