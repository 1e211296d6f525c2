/// Inside the core: constants and small vector helpers shared by the models.
#ifndef IMPAX_MATHUTIL_H
#define IMPAX_MATHUTIL_H

#include <math.h>
#include <stddef.h>

#define IPX_PI 3.14159265358979323846

/// 1 if the 3 x 3 block of W (n x n, column-major, 3 rows per contact) in the rows of contact a
/// and the columns of contact b holds a non-zero: the two contacts share a body.
static inline int ipx_w_block_nonzero(const double *W, size_t n, int a, int b)
{
    for (int j = 0; j < 3; j++) {
        const double *w = W + n * (size_t)(3 * b + j) + 3 * (size_t)a;
        if (w[0] != 0.0 || w[1] != 0.0 || w[2] != 0.0) return 1;
    }
    return 0;
}

static inline double ipx_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void ipx_cross3(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/// The larger of a and b, for operands known not to be NaN: fmax is a library call unless the
/// compiler may rule NaNs out.
static inline double ipx_max(double a, double b) { return a > b ? a : b; }

/// The smaller of a and b, for operands known not to be NaN (as ipx_max).
static inline double ipx_min(double a, double b) { return a < b ? a : b; }

/// Length of (x, y), sqrt(x^2 + y^2), for velocities and impulses, far from overflow and
/// underflow: hypot's scaling, a library call, buys nothing there.
static inline double ipx_length2(double x, double y) { return sqrt(x * x + y * y); }

/// Largest |x_i| of n entries (0 for n = 0). A NaN entry is passed over, as fmax would, without
/// fmax's library call.
static inline double ipx_max_abs(const double *x, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double a = fabs(x[i]);
        m = a > m ? a : m;
    }
    return m;
}

/// 1 if every one of n entries is finite (neither NaN nor infinite), else 0.
static inline int ipx_all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/// x . y over n entries, in four interleaved partial sums: one running sum is a chain of
/// dependent additions that the compiler may not reorder, so it can neither vectorise it nor
/// overlap the additions (in Lemke's pivots it cost more than the row update it follows).
static inline double ipx_dot(const double *x, const double *y, int n)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i] * y[i];
        s1 += x[i + 1] * y[i + 1];
        s2 += x[i + 2] * y[i + 2];
        s3 += x[i + 3] * y[i + 3];
    }
    for (; i < n; i++) s0 += x[i] * y[i];
    return (s0 + s1) + (s2 + s3);
}

/// Sum of squares of n entries (ipx_dot's partial sums).
static inline double ipx_norm2(const double *x, int n) { return ipx_dot(x, x, n); }

/// sum |x_i| over n entries, in four partial sums as ipx_dot.
static inline double ipx_sum_abs(const double *x, int n)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += fabs(x[i]);
        s1 += fabs(x[i + 1]);
        s2 += fabs(x[i + 2]);
        s3 += fabs(x[i + 3]);
    }
    for (; i < n; i++) s0 += fabs(x[i]);
    return (s0 + s1) + (s2 + s3);
}

/// out = A x for a 3x3 column-major A.
static inline void ipx_mat3_vec(const double A[9], const double x[3], double out[3])
{
    double y0 = A[0] * x[0] + A[3] * x[1] + A[6] * x[2];
    double y1 = A[1] * x[0] + A[4] * x[1] + A[7] * x[2];
    double y2 = A[2] * x[0] + A[5] * x[1] + A[8] * x[2];
    out[0] = y0;
    out[1] = y1;
    out[2] = y2;
}

#endif
