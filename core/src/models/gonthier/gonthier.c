/* The Gonthier et al. compliant model (see impax/gonthier.h): parameters and the paper's
   friction sets, the contact-space integration of an island, and the registry entry, whose
   solve integrates one collision from first touch to separation. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gonthier_internal.h"
#include "impax/check.h"
#include "impax/gonthier.h"
#include "impax/linalg.h"
#include "impax/validate.h"
#include "mathutil.h" /* ipx_length2 */
#include "result_internal.h"
#include "workspace_internal.h"
#include "validate_internal.h"

static const ipx_param_def gonthier_params[IPX_GONTHIER_N_PARAMS] = {
    [IPX_GONTHIER_K] = {"k", 1e6, 1e-3, 1e15, 0, "N/m^p",
                        "stiffness of the normal force k delta^p (paper: 1e6 balls, 1e9 pendulum, "
                        "3.4e10 Hertz steel)"},
    [IPX_GONTHIER_P] = {"p", 1.5, 1, 3, 0, "", "exponent of the depth (3/2: Hertz)"},
    [IPX_GONTHIER_E] =
        {"e", -1, -1, 1, 0, "",
         "coefficient of restitution; < 0: each contact's own (ODE: surface.bounce)"},
    [IPX_GONTHIER_E_MIN] = {"e_min", 0.01, 1e-3, 1, 0, "",
                            "smallest e used (e = 0 would divide by zero; the paper used 0.01)"},
    [IPX_GONTHIER_V_FLOOR] = {"v_floor", 0.01, 0, 10, 0, "m/s",
                              "floor of the latched impact speed (a = d/(e v_imp) is singular at "
                              "0; keep it >= g h d / e)"},
    [IPX_GONTHIER_PRESET] = {"preset", 0, 0, 3, 1, "",
                             "friction set: 0 the values below; 1 Bowden-Leben (Table I), 2 balls "
                             "(Table II), 3 pendulum (Table III)"},
    [IPX_GONTHIER_MU_S] = {"mu_s", -1, -1, 1e3, 0, "",
                           "stiction coefficient after a long dwell; < 0: each contact's mu"},
    [IPX_GONTHIER_MU_C] = {"mu_c", -1, -1, 1e3, 0, "",
                           "Coulomb coefficient; < 0: each contact's mu"},
    [IPX_GONTHIER_SIGMA0] = {"sigma0", 1e5, 1e-3, 1e12, 0, "N/m", "bristle stiffness"},
    [IPX_GONTHIER_SIGMA1] = {"sigma1", 316.22776601683796, 1e-6, 1e12, 0, "N*s/m",
                             "bristle damping"},
    [IPX_GONTHIER_SIGMA2] = {"sigma2", 0, 0, 1e9, 0, "N*s/m", "viscous friction"},
    [IPX_GONTHIER_V_S] = {"v_s", 1e-3, 1e-9, 1e3, 0, "m/s", "Stribeck velocity"},
    [IPX_GONTHIER_TAU_DW] = {"tau_dw", 2, 1e-9, 1e6, 0, "s",
                             "dwell time constant (stiction grows with time in stick)"},
    [IPX_GONTHIER_V_EPS] = {"v_eps", 1e-5, 1e-12, 1e3, 0, "m/s",
                            "tolerance of the slip direction (<= v_s / 10)"},
    [IPX_GONTHIER_S_DW_ONSET] = {"s_dw_onset", 0, 0, 1, 0, "",
                                 "dwell state of a new contact (1: starts with full stiction)"},
    /* 100 us: ten sub-steps of a 1 ms host step keep Hertz's and the paper's drops within
       1e-5 of their closed forms (test_gonthier_host_steps); 10 us cost 68 sub-steps per
       1/1480 s step of the cube tosses and changed their error by 0.01 % of the edge */
    [IPX_GONTHIER_SUBSTEP] = {"substep", 1e-4, 1e-9, 1, 0, "s",
                              "largest integration step (hosts sub-step their step to it)"},
    [IPX_GONTHIER_STEPS_PER_CONTACT] =
        {"steps_per_contact", 400, 10, 1e6, 1, "",
         "ipx_solve: steps per elastic contact duration of the fastest contact"},
    [IPX_GONTHIER_MATCH_DISTANCE] =
        {"match_distance", 0.01, 0, 10, 0, "m",
         "hosts: a contact within this of last step's on the same pair (beyond the distance its "
         "bodies carry it in a step) keeps its state"},
    [IPX_GONTHIER_MAX_STEPS] = {"max_steps", 1e7, 100, 1e10, 1, "",
                                "guard: integration steps of one ipx_solve collision"},
    [IPX_GONTHIER_MAX_SUBSTEPS] =
        {"max_substeps", 1e4, 1, 1e9, 1, "",
         "guard: sub-steps of one host step; a stiffer step is refused (ODE takes it)"},
};

/* The paper's Tables I-III: mu_s, mu_c, sigma0, sigma1, sigma2, v_s, tau_dw, v_eps. */
static const double presets[4][8] = {
    [IPX_GONTHIER_BOWDEN_LEBEN] = {0.15, 0.1, 1e5, 316.22776601683796, 0.1, 1e-3, 2.0, 1e-5},
    [IPX_GONTHIER_BALLS] = {0.45, 0.4, 1e5, 1e4, 0.0, 0.1, 0.01, 1e-3},
    [IPX_GONTHIER_PENDULUM] = {0.15, 0.12, 1e5, 316.22776601683796, 0.0, 0.1, 0.75, 1e-3},
};

void ipx_gonthier_law_for(const double *param, const ipx_contact *c, ipx_gonthier_law *law)
{
    const int preset = (int)param[IPX_GONTHIER_PRESET];
    double f[8];
    for (int j = 0; j < 8; j++) f[j] = param[IPX_GONTHIER_MU_S + j];
    if (preset != IPX_GONTHIER_CUSTOM) memcpy(f, presets[preset], sizeof f);
    const double e = param[IPX_GONTHIER_E] < 0.0 ? c->e : param[IPX_GONTHIER_E];
    *law = (ipx_gonthier_law){
        .k = param[IPX_GONTHIER_K],
        .p = param[IPX_GONTHIER_P],
        .e = fmax(e, param[IPX_GONTHIER_E_MIN]),
        .v_floor = param[IPX_GONTHIER_V_FLOOR],
        .mu_s = f[0] < 0.0 ? c->mu : f[0],
        .mu_c = f[1] < 0.0 ? c->mu : f[1],
        .sigma0 = f[2],
        .sigma1 = f[3],
        .sigma2 = f[4],
        .v_s = f[5],
        .tau_dw = f[6],
        .v_eps = f[7],
        .s_dw_onset = param[IPX_GONTHIER_S_DW_ONSET],
    };
}

/* The normal forces of one step (f: 3k, normal rows set, others 0). Each touching contact's law
   is f_i = max(0, S_i (1 + a_i delta_dot_i)), S_i = k delta_i^p. Its spring and damper are
   taken at the rate its depth moves over the step (rate_terms_of): by the implicit midpoint
   rule, the spring at the step's middle, unless a stiff damper needs a later rate. The rule is
   A-stable and conserves a linear spring's energy, so the springs coupled through W are stable
   at any step and the sub-step is set by accuracy alone (accurate_step). Held at the step's
   start (explicit), they were stable only below 0.2 / sqrt(w k') with w a Gershgorin row sum
   of W: 1 295 sub-steps a 10 ms step on ODE's house of cards. At the middle of a step whose
   depth moves by h delta_dot+ (semi-implicit Euler's) instead, they lose
   1 - 1 / sqrt(1 + (omega h)^2 / 2) of the amplitude a step: drops at 100 us sub-steps left at
   up to 2.1 % below e v (test_gonthier_host_steps). A contact apart that the step's start rate
   carries in joins too, its spring's secant starting it at first touch. With
   delta_dot_theta = (1 - theta) delta_dot + theta delta_dot+ and
   delta_dot+ = delta_dot - h (W f)_n - h accel_n, over the touching rows (P)
   f = max(0, S + E delta_dot_theta) = max(0, b - h D (W f + accel)), D = theta E > 0,
   b = S + E delta_dot: with A = D^-1 + h W_PP symmetric positive definite and
   y = D^-1 b - h accel_P, the
   complementarity problem f >= 0, w = A f - y >= 0, f.w = 0 (a force that would pull is 0 and
   then pushes no other contact). Clamping the linear solve's negative entries instead leaves
   the others' forces as if those contacts pulled: a contact pressed between a separating one
   and the bodies got a fraction of its spring's k delta^p while its depth grew (demo_plane2d:
   0.07 N against 72 N), its damper giving the springs energy. Solved by Murty's least-index
   principal pivoting (finite for a P-matrix), from the active set of the last sub-step:
   started with all rows in, the pivoting of ODE's house of cards (islands of up to 65
   contacts) took 14 factorisations a sub-step on average, 46 in the 30 % of sub-steps where
   some contact is held at zero; the active set seldom changes from one sub-step to the next. A
   contact that has separated forgets its latched speed and bristle (a new touch is a new
   impact). S stays in the work for move(). */
size_t ipx_gonthier_advance_work_doubles(int k)
{
    /* f (3k), S, D, y, P, x, in, act, sol (k each), A and G (k x k each), dv (3k), w_t,
       pushed, K, theta (k each), the normal forces of the last three sub-steps (3k), the
       coupling's blocks (coupling_blocks: up to k^2 of 9); then its ints (coupling_start): k + 1
       starts and up to k^2 neighbours */
    const size_t kk = (size_t)k * (size_t)k;
    return 11 * kk + 21 * (size_t)k + (kk + (size_t)k + 2) / 2;
}

/* 1/kg: each contact's tangential inverse mass bound of the step (friction_force's w_t), set
   once an ipx_gonthier_advance (W does not change within it). */
static double *tangential_mass(const ipx_gonthier_island *is)
{
    return is->work + 14 * (size_t)is->k + 2 * (size_t)is->k * (size_t)is->k;
}

/* Per contact, its normal force (N) in the last sub-step's complementarity problem, 0 where it
   was held at zero (1 before the first): the next sub-step's pivoting starts from the rows that
   pushed, its sweeps from these forces where they do not extrapolate (sweep_start). */
static double *pushed(const ipx_gonthier_island *is)
{
    return is->work + 15 * (size_t)is->k + 2 * (size_t)is->k * (size_t)is->k;
}

/* N: each contact's normal force in the last three sub-steps of this ipx_gonthier_advance (k
   each, the last first; 0 before them): sweep_start extrapolates the next from them. */
static double *force_history(const ipx_gonthier_island *is)
{
    return is->work + 18 * (size_t)is->k + 2 * (size_t)is->k * (size_t)is->k;
}

/* Each contact's spring secant K (N/m) and rate weight theta of the step (rate_terms_of; 0 and
   1/2 for a contact its spring does not reach), k each: normal_forces() writes them, move()
   reads them. */
static double *rate_work(const ipx_gonthier_island *is)
{
    return is->work + 16 * (size_t)is->k + 2 * (size_t)is->k * (size_t)is->k;
}

/* The island's coupling, built once an ipx_gonthier_advance (W does not change within it):
   contact j is a neighbour of contact i (i itself included) where their 3 x 3 block of W is not
   zero, that is where they share a moving body. coupling_start(is)[i] .. [i + 1] index i's
   neighbours in coupled(is), in increasing order, so that the sums over them add the same terms
   in the same order as over all k. A pile's contacts each touch a few others; the sums over all
   k contacts in every sub-step (row by row, across W's columns) were most of the time of ODE's
   crash demo, whose wall is an island of some 740 contacts. */
static int *coupling_start(const ipx_gonthier_island *is)
{
    const size_t k = (size_t)is->k;
    return (int *)(is->work + 21 * k + 11 * k * k);
}

/* 1/kg: the blocks of W the sums over the neighbours read, copied by build_coupling: at 9 q,
   contact i's rows and the columns of its neighbour coupled(is)[q] (q in coupling_start(is)[i]
   .. [i + 1]), column-major (coupling_w). Read in place, a block's three columns lie 3k doubles
   apart in a W of 40 MB (the crash demo's wall): a cache miss for each, in each of a sub-step's
   four passes over the neighbours (W f, the friction's pull on the normal rows and the normal
   forces' on the slips, the sweeps' rows), most of ipx_gonthier_advance's time once the sweeps
   were cut down. */
static double *coupling_blocks(const ipx_gonthier_island *is)
{
    const size_t k = (size_t)is->k;
    return is->work + 21 * k + 2 * k * k;
}

/* Entry (a, b) (rows and columns IPX_T1, IPX_T2, IPX_N) of neighbour block q (coupling_blocks). */
static double coupling_w(const double *blocks, int q, int a, int b)
{
    return blocks[9 * (size_t)q + (size_t)a + 3 * (size_t)b];
}

static const int *coupled(const ipx_gonthier_island *is) { return coupling_start(is) + is->k + 1; }

/* Entry (a, b) of W (row a, column b). */
static double w_at(const ipx_gonthier_island *is, int a, int b)
{
    return is->W[a + 3 * (size_t)is->k * b];
}

static void build_coupling(ipx_gonthier_island *is)
{
    int *start = coupling_start(is), *nbr = (int *)coupled(is), n = 0;
    double *blocks = coupling_blocks(is);
    for (int i = 0; i < is->k; i++) {
        start[i] = n;
        for (int j = 0; j < is->k; j++) {
            int touches = 0;
            for (int a = 0; a < 3 && !touches; a++)
                for (int b = 0; b < 3 && !touches; b++)
                    touches = w_at(is, 3 * j + a, 3 * i + b) != 0.0;
            if (!touches) continue;
            for (int b = 0; b < 3; b++)
                for (int a = 0; a < 3; a++)
                    blocks[9 * (size_t)n + a + 3 * b] = w_at(is, 3 * i + a, 3 * j + b);
            nbr[n++] = j;
        }
    }
    start[is->k] = n;
}

/* S_i = k delta_i^p of the step (0 when not touching): normal_forces() writes it, move() reads it. */
static double *spring_stiffness(const ipx_gonthier_island *is)
{
    return is->work + 3 * (size_t)is->k;
}

/* J: a normal spring's energy k delta^(p+1) / (p+1) (0 when not touching). */
static double spring_energy(const ipx_gonthier_law *law, double delta)
{
    return delta > 0.0 ? law->k * ipx_gonthier_depth_power(delta, law->p) * delta / (law->p + 1.0)
                       : 0.0;
}

/* N/m: the stiffness K of a normal spring at depth delta (m; S = k delta^p, 0 apart) over the
   depth change `change` (m) a step is expected to make: the secant with
   S change + K change^2 / 2 = V(delta + change) - V(delta), so that the force at the step's
   middle, S + K change / 2, does the spring's work exactly when the depth moves by `change`,
   across first touch and separation too (the tangent p k delta^(p-1) made a drop from first
   touch gain V(h v), 2e-5 of a Hertz ball's exit speed at 100 us: test_gonthier_host_steps).
   K >= 0 (V is convex). The tangent where the change is too small for the difference of
   energies to keep its digits. */
static double spring_secant(const ipx_gonthier_law *law, double S, double delta, double change)
{
    if (fabs(change) > 1e-4 * fabs(delta)) {
        const double rise =
            spring_energy(law, delta + change) - spring_energy(law, delta) - S * change;
        return fmax(2.0 * rise / (change * change), 0.0);
    }
    return delta > 0.0 ? law->p * S / delta : 0.0;
}

/* J: a bristle's elastic energy sigma0 |z|^2 / 2. */
static double bristle_energy(const ipx_gonthier_law *law, const ipx_gonthier_state *s)
{
    return 0.5 * law->sigma0 * (s->z[0] * s->z[0] + s->z[1] * s->z[1]);
}

double ipx_gonthier_stored_energy(const ipx_gonthier_law *law, const ipx_gonthier_state *s,
                                  double delta)
{
    return spring_energy(law, delta) + bristle_energy(law, s);
}

/* G (np x np, column-major) = h W + D^-1 (diagonal) over the rows P: gathered once a step, so
   that each pivot of solve_forces copies its active block from contiguous memory (read entry by
   entry from W through P, the copies were most of the cost of a sub-step on ODE's house of
   cards, islands of up to 65 contacts). */
static void gather_system(const ipx_gonthier_island *is, const int *P, const double *D, double h,
                          int np, double *G)
{
    const size_t rows = 3 * (size_t)is->k;
    for (int c = 0; c < np; c++) {
        const double *col = is->W + rows * (3 * (size_t)P[c] + IPX_N) + IPX_N;
        for (int r = 0; r < np; r++) G[r + (size_t)np * c] = h * col[3 * (size_t)P[r]];
        G[c + (size_t)np * c] += 1.0 / D[P[c]];
    }
}

/* A count in ipx_counts (an int, saturated). */
static int count_of(long n) { return n > INT_MAX ? INT_MAX : (int)n; }
static int add_count(int count, long more) { return count_of((long)count + more); }

/* The complementarity problem of normal_forces over its np rows: G its matrix (gather_system),
   y the right-hand side, x the forces (0 off the active set), in[] the active set (on entry
   where the pivoting starts, on return where it ended), act (np ints), sol (np) and A
   (np x np) scratch. The pivots taken, or -1 if the factorisation fails. Murty's rule is finite
   for a P-matrix from any start, and its solution is unique; should the pivots run out all the
   same, the last active set's forces are kept, clamped at 0. */
static long solve_forces(const double *G, int np, const double *y, double *x, double *in, int *act,
                         double *sol, double *A)
{
    const long max_pivots = 64L * np + 64;
    for (long pivot = 0; pivot <= max_pivots; pivot++) {
        int na = 0;
        for (int r = 0; r < np; r++) {
            x[r] = 0.0;
            if (in[r] != 0.0) act[na++] = r;
        }
        for (int r = 0; r < na; r++) {
            sol[r] = y[act[r]];
            for (int c = 0; c < na; c++) A[r + na * c] = G[act[r] + (size_t)np * act[c]];
        }
        if (na > 0 &&
            (ipx_cholesky_factor(na, A) != IPX_OK || ipx_cholesky_solve(na, A, 1, sol) != IPX_OK))
            return -1;
        for (int r = 0; r < na; r++) x[act[r]] = sol[r];
        int bad = -1; /* the least index breaking f >= 0 or w = A f - y >= 0 */
        for (int r = 0; r < np && bad < 0; r++) {
            if (in[r] != 0.0) {
                if (x[r] < 0.0) bad = r;
                continue;
            }
            double w = -y[r];
            for (int c = 0; c < np; c++)
                if (x[c] != 0.0) w += G[r + (size_t)np * c] * x[c];
            if (w < 0.0) bad = r;
        }
        if (bad < 0) return pivot;
        in[bad] = in[bad] != 0.0 ? 0.0 : 1.0;
    }
    for (int r = 0; r < np; r++) x[r] = fmax(x[r], 0.0);
    return max_pivots;
}

/* From this many rows the complementarity problem of normal_forces is solved by sweeps over
   each contact's neighbours (solve_by_sweeps), not by pivoting on its dense matrix: each pivot
   factorises the active block (np^3 / 3), 1e8 operations a sub-step on the wall of ODE's crash
   demo (some 740 contacts, 13 neighbours each). */
#define SWEEP_ROWS 128
/* Sweeps before the pivoting takes over; the sweeps end when no force changes by more than
   SWEEP_TOL of the largest, and their answer is kept only where it meets the problem's
   conditions to ANSWER_TOL of each row's terms or of the largest force (row_met). */
#define MAX_SWEEPS 500
#define SWEEP_TOL 1e-14
#define ANSWER_TOL 1e-12
/* Of the problem's v_tol, the velocity error a host step's sub-steps may leave together through
   their normal-force problems' residuals (ipx_gonthier_island.w_tol): the host's own step leaves
   v_tol at every resting contact (the ODE adapter: |g| h). */
#define HOST_SHARE 1e-3

/* normal_forces' problem's rows as sparse rows: row r's off-diagonal entries h W_{n_r n_c}
   over the neighbours of contact P[r] that have a row, at coef[start[r] .. start[r + 1]] with
   their rows in col, its diagonal h W_nn + 1/D in diag; coupling, the largest sum of a row's
   off-diagonal magnitudes (m/(N s)). */
typedef struct sweep_rows {
    int *start, *col;
    double *coef, *diag;
    double coupling;
} sweep_rows;

static void gather_rows(const ipx_gonthier_island *is, const int *P, int np, const double *D,
                        double h, const int *row, sweep_rows *g)
{
    const int *start = coupling_start(is), *nbr = coupled(is);
    const double *blocks = coupling_blocks(is);
    int n = 0;
    g->coupling = 0.0;
    for (int r = 0; r < np; r++) {
        const int i = P[r], ni = 3 * i + IPX_N;
        double sum = 0.0;
        g->start[r] = n;
        g->diag[r] = h * w_at(is, ni, ni) + 1.0 / D[i];
        for (int q = start[i]; q < start[i + 1]; q++) {
            const int c = row[nbr[q]];
            if (c < 0 || c == r) continue;
            g->coef[n] = h * coupling_w(blocks, q, IPX_N, IPX_N);
            sum += fabs(g->coef[n]);
            g->col[n++] = c;
        }
        g->coupling = fmax(g->coupling, sum);
    }
    g->start[np] = n;
}

/* Row r's off-diagonal part of G x (m/s), in two sums that alternate over the terms: a sweep
   waits on each row's sum before the next row (it may read the force just set), and one chain of
   additions made that wait the length of the row's terms. */
static inline double row_coupling(const sweep_rows *g, const double *x, int r)
{
    double even = 0.0, odd = 0.0;
    int q = g->start[r];
    for (; q + 1 < g->start[r + 1]; q += 2) {
        even += g->coef[q] * x[g->col[q]];
        odd += g->coef[q + 1] * x[g->col[q + 1]];
    }
    if (q < g->start[r + 1]) even += g->coef[q] * x[g->col[q]];
    return even + odd;
}

/* Row r of the problem at x: w_r = (G x - y)_r (m/s). */
static double row_residual(const sweep_rows *g, const double *y, const double *x, int r)
{
    return g->diag[r] * x[r] - y[r] + row_coupling(g, x, r);
}

/* The sum of the magnitudes of row r's terms at x (row_residual's), the scale its answer is
   checked against: summed in a loop of its own, so that the sweeps, which do not need it, do
   not pay for it (it was a third of their time on the crash demo's wall). */
static double row_size(const sweep_rows *g, const double *y, const double *x, int r)
{
    double size = fabs(g->diag[r] * x[r]) + fabs(y[r]);
    for (int q = g->start[r]; q < g->start[r + 1]; q++) size += fabs(g->coef[q] * x[g->col[q]]);
    return size;
}

/* Whether row r meets f >= 0, w >= 0, f.w = 0 at x: its residual w_r (m/s) within ANSWER_TOL of
   its own terms (row_size), or of G_rr times the largest force (N): w_r / G_rr is the change of
   f_r that would meet the row, and the sweeps' own stop measures changes against the largest
   force too. The second scale answers a contact barely touching, whose damper D is tiny
   (G_rr = h W_rr + 1/D up to 1e47 on the crash demo's wall): its terms are 1e-90 and round-off
   alone breaks the first scale, while its force is 1e-120 N beside the wall's 1e-3 N. Judged
   by its own terms only, each such row sent a solve of some 600 rows to the pivoting, which
   factorised the active block at every pivot. w_tol (m/s): the island's host allowance, which
   a row also meets (ipx_gonthier_island). */
static int row_met(const sweep_rows *g, const double *y, const double *x, int r, double largest,
                   double w_tol)
{
    const double w = row_residual(g, y, x, r);
    const double tol = fmax(ANSWER_TOL * fmax(row_size(g, y, x, r), g->diag[r] * largest), w_tol);
    return x[r] > 0.0 ? fabs(w) <= tol : w >= -tol;
}

/* A contact's force trend counts as motion once it exceeds this many times the sweeps' own error
   (sweep_start). */
#define TREND_OVER_ERROR 10.0

/* N: where the sweeps start contact i's force: a contact that pushed in each of the last three
   sub-steps and whose force moved by more than TREND_OVER_ERROR times error (N: the move at which
   the sweeps stop, w_tol over the rows' coupling; 0 where they solve to round-off) at the value the
   quadratic through them gives for this one (kept >= 0), others at their last force in the problem
   (last). The forces of a pile follow its slow motion, and their extrapolation starts the sweeps
   nearer their answer: on the crash demo's wall (its first 3 frames, 1 000 solves of some 720
   contacts, solved to round-off) 41 sweeps a solve against 55 from the last forces and 46 from the
   line through the last two. Where the sweeps stop at the host's accuracy instead (w_tol), each
   force is off by some error, and the quadratic (3, -3, 1) carries up to 7 times that into the
   start: a resting wall then started further from its answer than its last force (the crash demo's
   first 60 frames: 17.8 sweeps a solve against 2.6 from the last forces). The answer is the
   problem's one solution whatever the start. */
static double sweep_start(const ipx_gonthier_island *is, int i, double last, double error)
{
    const double *f1 = force_history(is), *f2 = f1 + is->k, *f3 = f2 + is->k;
    if (!(f1[i] > 0.0 && f2[i] > 0.0 && f3[i] > 0.0)) return last;
    if (error > 0.0 && fabs(f1[i] - f2[i]) <= TREND_OVER_ERROR * error) return last;
    const double next = 3.0 * (f1[i] - f2[i]) + f3[i];
    return next > 0.0 ? next : 0.0;
}

/* normal_forces' problem (G = h W_PP + D^-1, symmetric positive definite) by projected Gauss-Seidel
   from sweep_start's forces (last: each row's last force), over sparse rows (gather_rows): a sweep
   costs the coupling's entries, not np^2. For a positive definite G the sweeps converge to the
   problem's one solution (some 41 sweeps a sub-step on the crash demo's wall, solved to round-off);
   where a stiff damper leaves G near W's own (singular for a box on four corners) they converge
   slowly, and past MAX_SWEEPS, or where a row is not met (row_met), the pivoting answers instead
   (-1). They also end once no force moved by more than the island's w_tol over the rows' coupling
   (gather_rows): after a sweep a row's residual is what the rows after it moved at it, at most
   coupling times the largest move, so every row is then within w_tol (m/s), the velocity error the
   host allows a sub-step. row: k ints; g: room for np + 1 starts, np diagonal entries and up to np
   k off-diagonal ones. */
static int solve_by_sweeps(const ipx_gonthier_island *is, const int *P, int np, const double *D,
                           double h, const double *y, const double *last, double *x, int *row,
                           sweep_rows *g)
{
    for (int i = 0; i < is->k; i++) row[i] = -1;
    for (int r = 0; r < np; r++) row[P[r]] = r;
    gather_rows(is, P, np, D, h, row, g);
    const double error = g->coupling > 0.0 ? is->w_tol / g->coupling : 0.0; /* N */
    for (int r = 0; r < np; r++) x[r] = sweep_start(is, P[r], last[r], error);
    int settled = 0;
    double largest = 0.0; /* N: the largest force, that of the last sweep, which sets every row */
    for (int sweep = 0; sweep < MAX_SWEEPS && !settled; sweep++) {
        double change = 0.0; /* N */
        largest = 0.0;
        for (int r = 0; r < np; r++) {
            /* the row's force with the others held, (y_r - coupling) / G_rr, kept >= 0: fmax
               without a call into libm (a NaN gives 0 too) */
            const double step = (y[r] - row_coupling(g, x, r)) / g->diag[r];
            const double next = step > 0.0 ? step : 0.0, moved = fabs(next - x[r]);
            if (moved > change) change = moved;
            if (next > largest) largest = next;
            x[r] = next;
        }
        settled = change <= SWEEP_TOL * largest || change * g->coupling <= is->w_tol;
    }
    if (!settled) return -1;
    for (int r = 0; r < np; r++)
        if (!row_met(g, y, x, r, largest, is->w_tol)) return -1;
    return 0;
}

/* Contact i's row a (IPX_T1 or IPX_T2)'s absolute sum over the tangential columns: the
   friction's share of the Gershgorin bound (friction_force). */
static double tangential_row_sum(const ipx_gonthier_island *is, int i, int a)
{
    const int *start = coupling_start(is);
    const double *blocks = coupling_blocks(is);
    double sum = 0.0;
    for (int q = start[i]; q < start[i + 1]; q++) {
        sum += fabs(coupling_w(blocks, q, a, IPX_T1));
        sum += fabs(coupling_w(blocks, q, a, IPX_T2));
    }
    return sum;
}

/* Friction's share of the normal rates the dampers predict (y_r -= h sum_j W_{n_r, t_j} f_t_j):
   each touching contact's stick friction (ipx_gonthier_friction_stick, into f's tangential
   rows, which friction_force overwrites), bounded by its breakaway limit at the spring's force
   f_max(k delta^p). Without it the dampers expect a contact that friction presses in (a box's
   corner held on a slope) to leave h |W_nt f_t| a sub-step faster than it does and hold the
   force below the load, a times that (a = 1e4 s/m at e = 0): it sank for good
   (docs/models/gonthier.md §6.5a). Where it pulls a contact out (the uphill corner, which the
   friction's torque unloads) it counts as well: left out, the dampers expected the contact to
   open slower than it did and held its force above the law's at the rate its depth moved
   while it opened, energy from nothing (demo_cyl's resting island, 1e-9 J a host step;
   test_gonthier_friction_pull). The breakaway bound keeps the pull within what the friction
   can give: uncapped, a pull the saturated friction did not give left a touch without force
   while it approached (demo_plane2d, the stick damper of a touch). The Coulomb pull mu_c f_n
   is left out: it follows the normal force, and in a Painleve configuration
   (mu |W_nt| > W_nn) the loop normal force -> friction -> normal force, counted a sub-step
   late, has a gain above one. S: k delta^p. */
static void predict_stick_friction(ipx_gonthier_island *is, double h, const double *S, const int *P,
                                   int np, double *y, double *f)
{
    const int k = is->k, *start = coupling_start(is), *nbr = coupled(is);
    const double *w_t = tangential_mass(is), *blocks = coupling_blocks(is);
    for (int i = 0; i < k; i++) {
        if (!(is->delta[i] > 0.0)) continue;
        const ipx_gonthier_law *L = &is->law[i];
        const double *v = is->v + 3 * i, v_t[2] = {v[IPX_T1], v[IPX_T2]};
        double g[2];
        ipx_gonthier_friction_stick(&is->state[i], L, v_t, h, w_t[i], g);
        const double f_max = S[i] * (L->mu_c + (L->mu_s - L->mu_c) * is->state[i].s_dw);
        const double norm = ipx_length2(g[0], g[1]), cap = norm > f_max ? f_max / norm : 1.0;
        f[3 * i + IPX_T1] = cap * g[0];
        f[3 * i + IPX_T2] = cap * g[1];
    }
    for (int r = 0; r < np; r++) {
        double rate = 0.0; /* m/s^2: the friction's push (< 0) or pull on the normal rate */
        for (int q = start[P[r]]; q < start[P[r] + 1]; q++)
            for (int b = IPX_T1; b <= IPX_T2; b++)
                if (f[3 * nbr[q] + b] != 0.0)
                    rate += coupling_w(blocks, q, IPX_N, b) * f[3 * nbr[q] + b];
        y[r] -= h * rate;
    }
}

/* The weight theta of the end rate in a contact's rate over a step, (1 - theta) delta_dot +
   theta delta_dot+, for rate terms that alone would take the contact's rate down at h lambda a
   step (lambda = E W_nn, 1/s): 1/2, the implicit midpoint rule, second order, while
   h lambda <= 2; beyond, the least theta that keeps them from reversing the rate within the
   step (their factor (1 - (1 - theta) h lambda) / (1 + theta h lambda) >= 0), up to 1
   (backward Euler) for a damper far stiffer than the step. At 1 throughout, the dampers'
   first-order excess loss left the drops up to 0.64 % below e v once the springs no longer
   gained (test_gonthier_host_steps); at 1/2 throughout, a near-plastic contact's stiff damper
   reverses its approach within a sub-step, and the force that may not pull lets it go. */
static double rate_weight(double h_lambda) { return h_lambda > 2.0 ? 1.0 - 1.0 / h_lambda : 0.5; }

/* Contact i's force over a step is f = S + E delta_dot_theta (before the clamp at 0), with
   delta_dot_theta = (1 - theta) delta_dot + theta delta_dot+ the rate its depth moves at
   (move()): the spring at the step's middle, S + (h/2) K delta_dot_theta (K its secant over
   h delta_dot), times the law's 1 + a delta_dot, and the damper S a at the same rate. One rate
   for the spring, the damper and the depth: a force held at 0 (the law would pull) then has
   delta_dot_theta < 0, a depth that shrinks; a damper at a later rate than the depth's
   (theta 1 against 1/2) held the force at 0 while the depth grew, and the spring's energy
   grew with nothing paying (demo_plane2d: 389 events gaining up to 3.2e-3 J).
   delta_dot: m/s, the rate at the step's start; S: k delta^p. */
typedef struct rate_terms {
    double K;     /* N/m: the spring's secant stiffness over the step */
    double E;     /* N s/m: the force's coefficient of delta_dot_theta */
    double theta; /* the end rate's weight in delta_dot_theta */
} rate_terms;

static rate_terms rate_terms_of(const ipx_gonthier_island *is, int i, double h, double S,
                                double delta_dot)
{
    const ipx_gonthier_law *L = &is->law[i];
    const double a = is->state[i].a, w_n = is->W[(3 * i + IPX_N) * (3 * (size_t)is->k + 1)];
    rate_terms t = {.K = spring_secant(L, S, is->delta[i], h * delta_dot)};
    t.E = 0.5 * h * t.K * fmax(1.0 + a * delta_dot, 0.0) + S * a;
    t.theta = rate_weight(h * t.E * w_n);
    return t;
}

/* Shifts the sub-step's normal forces (f: 3k) into force_history. */
static void remember_forces(ipx_gonthier_island *is, const double *f)
{
    double *f1 = force_history(is), *f2 = f1 + is->k, *f3 = f2 + is->k;
    for (int i = 0; i < is->k; i++) {
        f3[i] = f2[i];
        f2[i] = f1[i];
        f1[i] = f[3 * i + IPX_N];
    }
}

static void normal_forces(ipx_gonthier_island *is, double h, double *f)
{
    const int k = is->k, rows = 3 * k;
    double *S = spring_stiffness(is), *D = S + k, *y = D + k, *K = rate_work(is), *theta = K + k,
           *x = y + 2 * (size_t)k, *in = x + k, *sol = in + 2 * (size_t)k, *A = sol + k;
    int *P = (int *)(y + k), *act = (int *)(in + k), np = 0; /* k ints in k doubles' room */
    for (int a = 0; a < rows; a++) f[a] = 0.0;
    for (int i = 0; i < k; i++) {
        ipx_gonthier_state *s = &is->state[i];
        const double delta_dot = -is->v[3 * i + IPX_N], change = h * delta_dot;
        S[i] = D[i] = K[i] = 0.0;
        theta[i] = 0.5;
        if (is->delta[i] > 0.0) {
            f[3 * i + IPX_N] = ipx_gonthier_normal(s, &is->law[i], is->delta[i], delta_dot);
            S[i] = is->law[i].k * ipx_gonthier_depth_power(is->delta[i], is->law[i].p);
        } else {
            if (s->v_imp != 0.0) *s = ipx_gonthier_fresh(&is->law[i]);
            if (!(is->delta[i] + change > 0.0)) continue; /* apart and staying apart */
        }
        const rate_terms t = rate_terms_of(is, i, h, S[i], delta_dot);
        K[i] = t.K;
        theta[i] = t.theta;
        D[i] = t.theta * t.E;
        /* a contact at the edge of touching (depth 1e-200 m: S and K underflow) has a damper so
           weak that its row's 1/D overflows: its force is D (...) = 0 to every digit, as the
           row would give, and an infinite diagonal made the sweeps' answer check NaN (0 inf),
           which sent the crash demo's wall (some 600 rows) to the pivoting */
        if (D[i] > 0.0 && 1.0 / D[i] < INFINITY)
            y[np] = (S[i] + (1.0 - t.theta) * t.E * delta_dot) / D[i] + delta_dot, P[np++] = i;
    }
    if (np == 0) return;
    for (int r = 0; r < np; r++) {
        const int ri = 3 * P[r] + IPX_N;
        if (is->accel) y[r] -= h * is->accel[ri]; /* the host's forces move delta_dot+ too */
        in[r] = pushed(is)[P[r]];
    }
    predict_stick_friction(is, h, S, P, np, y, f);
    double *G = A + (size_t)k * (size_t)k;
    /* the sweeps' rows in the pivoting's room (A and G), which they leave before it starts */
    sweep_rows sparse = {.coef = G, .col = (int *)A, .diag = sol};
    sparse.start = sparse.col + (size_t)k * (size_t)k;
    if (np < SWEEP_ROWS || solve_by_sweeps(is, P, np, D, h, y, in, x, act, &sparse) != 0) {
        /* cannot fail for a positive semidefinite W; if it did, the explicit forces stay */
        gather_system(is, P, D, h, np, G);
        const long pivots = solve_forces(G, np, y, x, in, act, sol, A);
        if (pivots < 0) return;
        if (is->counts) {
            is->counts->lcp_solves = add_count(is->counts->lcp_solves, 1);
            is->counts->pivots = add_count(is->counts->pivots, pivots);
        }
    }
    for (int r = 0; r < np; r++) {
        f[3 * P[r] + IPX_N] = x[r];
        pushed(is)[P[r]] = x[r];
    }
}

/* Friction of contact i for its normal force f[n] (into f[t1], f[t2]); advances its bristle.
   The dampers, the bristle's stretch over the step and the Coulomb part are taken at the slip
   the step leaves
   (ipx_gonthier_friction), with the tangential inverse mass bounded by the rows' absolute sums
   over the tangential columns w_i = sum_j |W_ij| (F has no normal entries, so the normal
   columns do not enter F.W F; counting them made the bound of one contact |W_nt| too large,
   and a load held by friction crept at h |W_nt| |F|): then friction forces F_i = c_i v_i with
   0 <= c_i <= 1 / (h w_i) dissipate for the coupled contacts too, since
   h F.W F <= h sum_ij |W_ij| |F_i| |F_j| <= h sum_i w_i |F_i|^2 <= sum_i c_i |v_i|^2 = F.v, so
   the step's dT = -h F.v + h^2/2 F.W F <= 0 (Gershgorin / Schur). The Coulomb part may also
   stop the slip the other forces (the host's, the normal forces through W) carry on within the
   step (ipx_gonthier_friction_loaded): stopped only at the step's start, a load that static
   friction holds crept at h w |load| for good. Taken explicitly, the Coulomb part reverses the slip of a contact
   whose friction drives it into the surface (mu |W_nt| > W_nn: the normal force then grows
   several-fold per step), each reversal larger than the last. */
static void friction_force(ipx_gonthier_island *is, int i, double h, const double *f_all,
                           double f[3])
{
    if (!(is->delta[i] > 0.0)) return;
    const int *start = coupling_start(is), *nbr = coupled(is);
    const double *v = is->v + 3 * i, *blocks = coupling_blocks(is);
    const double v_t[2] = {v[IPX_T1], v[IPX_T2]};
    double a_t[2]; /* m/s^2: the host's forces and the step's normal forces on the slip */
    for (int j = 0; j < 2; j++) {
        const int a = j == 0 ? IPX_T1 : IPX_T2;
        a_t[j] = is->accel ? is->accel[3 * i + a] : 0.0;
        for (int q = start[i]; q < start[i + 1]; q++)
            a_t[j] += coupling_w(blocks, q, a, IPX_N) * f_all[3 * nbr[q] + IPX_N];
    }
    ipx_gonthier_friction_loaded(&is->state[i], &is->law[i], f[IPX_N], v_t, a_t, h,
                                 tangential_mass(is)[i], f);
}

/* J: what contact i's friction gave the bodies over the sub-step beyond what its bristle gave up
   (0 for a contact apart): its force f_t, held over the sub-step, works h f_t.(v + v+) / 2 on
   the bodies (their kinetic energy changes by exactly that), its bristle's spring holds
   sigma0 |z|^2 / 2. held: its bristle's energy at the sub-step's start; dv: the sub-step's
   velocity change over h. */
static double bristle_gain(const ipx_gonthier_island *is, int i, double h, const double *f,
                           const double *dv, double held)
{
    if (!(is->delta[i] > 0.0)) return 0.0; /* no friction (move() has not run yet) */
    double given = 0.0;
    for (int a = 3 * i + IPX_T1; a <= 3 * i + IPX_T2; a++)
        given += h * f[a] * (is->v[a] - 0.5 * h * dv[a]);
    return given + bristle_energy(&is->law[i], &is->state[i]) - held;
}

/* (g) of ipx_gonthier_friction (gonthier_law.c), which needs the sub-step's end slip v+. A
   bristle stretches by the slip the friction alone would leave (h v_d), the bodies move by
   h (v + v+) / 2, the other forces' share with it: springing back, a bristle gives them about
   h^2 w sigma0^2 |z|^2 / 2 a sub-step more than it gives up (semi-implicit Euler's defect, of
   either sign; demo_boxstack's last gains, docs/models/gonthier.md §6.5b). Where the island's
   friction as a whole gave the bodies more than its bristles gave up, the bristles that gave
   more are shortened, each by its share of the excess: the bristles give no energy they did
   not hold. Counted contact by contact instead, the excess of one contact whose slip the
   others' friction drives (through W) shortened its bristle while theirs absorbed it: the
   resting island of demo_cyl crept 1 cm in 5.6 s. held: each contact's bristle energy at the
   sub-step's start (J), overwritten by its gain; dv: the sub-step's velocity change over h. */
static void keep_bristles_passive(ipx_gonthier_island *is, double h, const double *f,
                                  const double *dv, double *held)
{
    double excess = 0.0, over = 0.0; /* J: the island's gain, its contacts' positive gains */
    double *gain = held;             /* each contact's, over its held energy */
    for (int i = 0; i < is->k; i++) {
        gain[i] = bristle_gain(is, i, h, f, dv, held[i]);
        excess += gain[i];
        over += fmax(gain[i], 0.0);
    }
    if (!(excess > 0.0)) return;
    for (int i = 0; i < is->k; i++) {
        if (!(gain[i] > 0.0)) continue;
        double *z = is->state[i].z;
        const double holds = bristle_energy(&is->law[i], &is->state[i]),
                     keep = holds - excess * (gain[i] / over);
        const double shorten = keep > 0.0 && holds > 0.0 ? sqrt(keep / holds) : 0.0;
        z[0] *= shorten;
        z[1] *= shorten;
    }
}

/* The depths after a step, delta+ = delta + h delta_dot_theta (rate_terms_of), and the normal
   springs' energy defect: the spring's force, S + (h/2) K delta_dot_theta, works
   h (S + (h/2) K delta_dot_theta) (v_n + v_n+) / 2 on the bodies (their kinetic energy changes
   by pi.(v + v+) / 2 exactly), while its energy changes by V(delta+) - V(delta). At theta = 1/2
   the two cancel for a depth change of h delta_dot (K is the secant over it); they differ by the
   secant's miss otherwise, and by (theta - 1/2) h (delta_dot+ - delta_dot) times the force where
   a stiff damper sets theta above 1/2. Held at the step's start (explicit), the spring's defect
   was (h^2/2) k' delta_dot+^2 a step, a gain. A contact apart and not reached moves at the
   mean rate (nothing acts on it). v_n: the normal velocities at the step's start; S: the
   springs' stiffness terms, K and theta, normal_forces() left. */
static void move(ipx_gonthier_island *is, double h, const double *v_n)
{
    const double *S = spring_stiffness(is), *K = rate_work(is), *theta = K + is->k;
    for (int i = 0; i < is->k; i++) {
        const double vn = is->v[3 * i + IPX_N];
        const double rate = -((1.0 - theta[i]) * v_n[i] + theta[i] * vn); /* m/s */
        const double depth = is->delta[i] + h * rate;
        if (is->energy_error) {
            const ipx_gonthier_law *L = &is->law[i];
            const double spring = S[i] + 0.5 * h * K[i] * rate;
            *is->energy_error += fabs(spring * h * 0.5 * (v_n[i] + vn) + spring_energy(L, depth) -
                                      spring_energy(L, is->delta[i]));
        }
        is->delta[i] = depth;
    }
}

/* dv_i (m/s^2, 3): contact i's rows of accel + W f over its neighbours (those of contacts apart
   are 0). Summed in locals, not in dv: stores into dv inside the loop waited on each other (the
   compiler cannot keep dv in registers: it may alias the blocks), a fifth of the samples on the
   crash demo's wall (perf annotate). The same additions in the same order as summing into dv. */
static void contact_rate(const ipx_gonthier_island *is, const double *f, int i, double dv[3])
{
    const int *start = coupling_start(is), *nbr = coupled(is);
    const double *blocks = coupling_blocks(is);
    double d[3];
    for (int a = 0; a < 3; a++) d[a] = is->accel ? is->accel[3 * i + a] : 0.0;
    for (int q = start[i]; q < start[i + 1]; q++)
        for (int b = 0; b < 3; b++) {
            const double fb = f[3 * nbr[q] + b];
            if (fb == 0.0) continue;
            for (int a = 0; a < 3; a++) d[a] += coupling_w(blocks, q, a, b) * fb;
        }
    for (int a = 0; a < 3; a++) dv[a] = d[a];
}

void ipx_gonthier_advance(ipx_gonthier_island *is, double h, long n)
{
    const int rows = 3 * is->k;
    double *f = is->work, *dv = is->work + 11 * (size_t)is->k + 2 * (size_t)is->k * (size_t)is->k;
    double *v_n = is->work + 5 * (size_t)is->k;          /* y's room: free after normal_forces */
    double *held = is->work + 7 * (size_t)is->k;         /* x's room: free after normal_forces */
    for (int i = 0; i < is->k; i++) pushed(is)[i] = 1.0; /* the first pivoting starts all in */
    for (int i = 0; i < 3 * is->k; i++) force_history(is)[i] = 0.0;
    build_coupling(is);
    for (int i = 0; i < is->k; i++)
        tangential_mass(is)[i] =
            fmax(tangential_row_sum(is, i, IPX_T1), tangential_row_sum(is, i, IPX_T2));
    for (long step = 0; step < n; step++) {
        normal_forces(is, h, f);
        remember_forces(is, f);
        for (int i = 0; i < is->k; i++) held[i] = bristle_energy(&is->law[i], &is->state[i]);
        for (int i = 0; i < is->k; i++) friction_force(is, i, h, f, f + 3 * i);
        for (int i = 0; i < is->k; i++) v_n[i] = is->v[3 * i + IPX_N];
        for (int i = 0; i < is->k; i++) contact_rate(is, f, i, dv + 3 * i);
        for (int a = 0; a < rows; a++) {
            is->impulse[a] += f[a] * h;
            is->v[a] += dv[a] * h;
        }
        if (is->impulse_time) /* the impulse grows linearly over the step, as move() has it */
            for (int a = 0; a < rows; a++)
                is->impulse_time[a] += (is->impulse[a] - 0.5 * f[a] * h) * h;
        keep_bristles_passive(is, h, f, dv, held);
        move(is, h, v_n);
    }
}

/* J: what the island's contacts hold (ipx_gonthier_stored_energy). */
static double island_stored(const ipx_gonthier_island *is)
{
    double E = 0.0;
    for (int i = 0; i < is->k; i++)
        E += ipx_gonthier_stored_energy(&is->law[i], &is->state[i], is->delta[i]);
    return E;
}

/* The step of one collision: 1/steps_per_contact of the shortest elastic contact duration
   (t_c = 2.94 delta_max / v for p = 3/2, delta_max = ((p+1) m v^2 / (2k))^(1/(p+1)), m = 1/W_nn),
   and short enough for the damping, h a k delta_max^p / m <= 1/2. 0 if nothing approaches. */
static double collision_step(const ipx_gonthier_island *is, const double *param)
{
    double h = 0.0;
    for (int i = 0; i < is->k; i++) {
        const double v = -is->v[3 * i + IPX_N], w = is->W[(3 * i + IPX_N) * (3 * is->k + 1)];
        if (!(v > 0.0)) continue;
        const ipx_gonthier_law *L = &is->law[i];
        const double m = 1.0 / w, v_imp = fmax(v, L->v_floor);
        const double dmax = pow((L->p + 1.0) * m * v * v / (2.0 * L->k), 1.0 / (L->p + 1.0));
        const double a = ipx_gonthier_damping_factor(L->e) / (L->e * v_imp);
        const double hi = fmin(3.0 * dmax / v / param[IPX_GONTHIER_STEPS_PER_CONTACT],
                               0.5 * m / (a * L->k * pow(dmax, L->p)));
        h = h == 0.0 ? hi : fmin(h, hi);
    }
    return h == 0.0 ? 0.0 : fmin(h, param[IPX_GONTHIER_SUBSTEP]);
}

/* The longest sub-step of a host step of h for these contacts: each contact's spring
   (k' = p k delta^(p-1), at the depth it can reach in h) on its own normal inverse mass W_nn,
   0.2 / sqrt(W_nn k'), for accuracy (one period of a lone contact in some 30 sub-steps:
   test_gonthier_host_steps); and the bristle's, for accuracy too, on the contact's own
   tangential inverse mass w_t (W's diagonal): in stick the bristle and w_t make an oscillator
   lambda^2 + sigma1 w_t lambda + sigma0 w_t = 0 (1/s^2). Underdamped (sigma1^2 w_t <
   4 sigma0) it turns at sqrt(w_t sigma0), resolved at 0.2 / sqrt(w_t sigma0); overdamped, the
   slow root, between sigma0 / sigma1 and 2 sigma0 / sigma1 whatever w_t, is the bristle's own
   relaxation, resolved at 0.1 sigma1 / sigma0, and the fast root sigma1 w_t is a transient the
   bristle's stretch taken at the end slip damps within a sub-step. The larger of the two is the
   one that applies (they meet at critical damping). At the default sigma0, sigma1 that is
   316 us or more, above `substep`: the bristle sets the sub-step only where its constants are
   stiffer. The normal springs taken at the middle of the step (normal_forces) and the bristle's
   spring by symplectic Euler's rule (gonthier_law.c) are stable at any step, so the coupling of
   the contacts through W does not shorten it: the bristle's stability bound
   0.2 / sqrt(w sigma0) on the Gershgorin row sums set 869 sub-steps a 10 ms step on ODE's
   house of cards. The dampers and the Coulomb force are taken at the end of the step: stable at
   any step and any mu. */
static double accurate_step(const ipx_gonthier_island *is, double h)
{
    const int rows = 3 * is->k;
    double h_max = INFINITY;
    for (int i = 0; i < is->k; i++) {
        const ipx_gonthier_law *L = &is->law[i];
        const double vn = is->v[3 * i + IPX_N], an = is->accel ? is->accel[3 * i + IPX_N] : 0.0,
                     depth = fmax(is->delta[i], 0.0) + fmax(-vn, 0.0) * h + fmax(-an, 0.0) * h * h;
        if (!(depth > 0.0)) continue;
        const double w_n = is->W[(3 * i + IPX_N) * (rows + 1)];
        const double w_t =
            fmax(is->W[(3 * i + IPX_T1) * (rows + 1)], is->W[(3 * i + IPX_T2) * (rows + 1)]);
        const double kd = L->k * ipx_gonthier_depth_power(depth, L->p);
        if (w_n > 0.0) h_max = fmin(h_max, 0.2 / sqrt(w_n * L->p * kd / depth));
        if (w_t > 0.0 && L->mu_s + L->mu_c > 0.0)
            h_max = fmin(h_max, fmax(0.2 / sqrt(w_t * L->sigma0), 0.1 * L->sigma1 / L->sigma0));
    }
    return h_max;
}

/* Of the largest initial velocity: the speed under which an island that still touches is at
   rest (at_rest). */
#define REST_FRACTION 1e-9

static int separated(const ipx_gonthier_island *is)
{
    for (int i = 0; i < is->k; i++)
        if (is->delta[i] > 0.0 || is->v[3 * i + IPX_N] < 0.0) return 0;
    return 1;
}

/* 1 if the contacts that still touch have come to rest (a body jammed between contacts whose
   friction holds it: a wedge): each one's velocities and their change over the last block of
   steps (v_block: the velocities at the block's start) within v_rest. Contacts that have
   separated carry no force and may move on. A bounce at its deepest point has zero normal
   velocity too but changes it fast, so it is not taken for rest. */
static int at_rest(const ipx_gonthier_island *is, const double *v_block, double v_rest)
{
    for (int c = 0; c < is->k; c++) {
        if (is->delta[c] <= 0.0 && is->v[3 * c + IPX_N] >= 0.0) continue;
        for (int i = 3 * c; i < 3 * c + 3; i++)
            if (fabs(is->v[i]) > v_rest || fabs(is->v[i] - v_block[i]) > v_rest) return 0;
    }
    return 1;
}

static size_t gonthier_workspace_bytes(int k, const double *param)
{
    (void)param;
    const size_t n = 3 * (size_t)k;
    return 3 * ipx_ws_doubles_bytes(n) + ipx_ws_doubles_bytes((size_t)k) +
           ipx_ws_doubles_bytes(ipx_gonthier_advance_work_doubles(k)) +
           ipx_ws_doubles_bytes((size_t)k * sizeof(ipx_gonthier_state) / sizeof(double)) +
           ipx_ws_doubles_bytes((size_t)k * sizeof(ipx_gonthier_law) / sizeof(double));
}

static ipx_status gonthier_solve(const ipx_problem *p, const double *param, ipx_workspace *ws,
                                 ipx_result *r)
{
    const int k = p->k;
    double energy_error = 0.0;
    ipx_gonthier_island is = {
        .k = k, .W = p->W, .energy_error = &energy_error, .counts = &r->counts};
    is.v = ipx_ws_doubles(ws, 3 * (size_t)k);
    is.impulse = ipx_ws_doubles(ws, 3 * (size_t)k);
    double *v_block = ipx_ws_doubles(ws, 3 * (size_t)k);
    is.delta = ipx_ws_doubles(ws, (size_t)k);
    is.state = (ipx_gonthier_state *)ipx_ws_doubles(ws, (size_t)k * sizeof(ipx_gonthier_state) /
                                                            sizeof(double));
    ipx_gonthier_law *law = (ipx_gonthier_law *)ipx_ws_doubles(
        ws, (size_t)k * sizeof(ipx_gonthier_law) / sizeof(double));
    is.work = ipx_ws_doubles(ws, ipx_gonthier_advance_work_doubles(k));
    if (!is.v || !is.impulse || !v_block || !is.delta || !is.state || !law || !is.work) {
        snprintf(r->message, sizeof r->message, "gonthier: workspace too small for k = %d", k);
        return IPX_ERR_WORKSPACE;
    }
    const int stuck = ipx_problem_unreachable_approach(p, 0.0);
    if (stuck >= 0) { /* no force can stop it: the collision would never end */
        snprintf(
            r->message, sizeof r->message,
            "gonthier: contact %d approaches at %.3g m/s but W_nn = 0: no force can separate it",
            stuck, p->v[3 * stuck + IPX_N]);
        return IPX_ERR_INPUT;
    }
    is.law = law;
    memcpy(is.v, p->v, sizeof(double) * 3 * (size_t)k);
    memset(is.impulse, 0, sizeof(double) * 3 * (size_t)k);
    for (int i = 0; i < k; i++) {
        ipx_gonthier_law_for(param, &p->contact[i], &law[i]);
        is.state[i] = ipx_gonthier_fresh(&law[i]);
        is.delta[i] = 0.0; /* the collision starts at first touch */
    }
    const double h = collision_step(&is, param);
    const long max_steps = (long)param[IPX_GONTHIER_MAX_STEPS];
    const double v_rest = REST_FRACTION * ipx_max_abs(p->v, 3 * (size_t)k);
    long steps = 0;
    int rest = 0;
    if (h > 0.0) {
        do { /* 64 steps at a time: the separation test costs as much as a step */
            memcpy(v_block, is.v, sizeof(double) * 3 * (size_t)k);
            ipx_gonthier_advance(&is, h, 64);
            steps += 64;
        } while (!separated(&is) && !(rest = at_rest(&is, v_block, v_rest)) && steps < max_steps);
    }
    r->counts.steps = count_of(steps);
    if (rest) r->counts.limits_hit |= IPX_GONTHIER_HIT_REST;
    if (h > 0.0 && !separated(&is) && !rest) {
        r->counts.limits_hit |= IPX_GONTHIER_HIT_STEPS;
        snprintf(r->message, sizeof r->message,
                 "gonthier: the bodies still touch after max_steps = %ld steps of %.3g s",
                 max_steps, h);
        return IPX_ERR_NOT_CONVERGED;
    }
    memcpy(r->impulse, is.impulse, sizeof(double) * 3 * (size_t)k);
    r->delta_stored = island_stored(&is); /* it started at first touch with nothing stored */
    r->energy_error = energy_error;
    return ipx_result_finish(p, r);
}

ipx_status ipx_gonthier_step(const ipx_params *params, const ipx_problem *p, double *delta,
                             ipx_gonthier_state *state, double h, const double *accel,
                             ipx_workspace *ws, ipx_result *r, double *impulse_mean)
{
    if (ipx_result_begin(r, p ? p->k : 0, IPX_ROWS_PER_CONTACT, ws) != IPX_OK) return r->status;
    if (!params || params->model != &ipx_model_gonthier || !p || !delta || !state || !ws) {
        snprintf(r->message, sizeof r->message, "ipx_gonthier_step: %s",
                 !params || params->model != &ipx_model_gonthier
                     ? "params are not of model 'gonthier'"
                     : "NULL argument");
        return r->status = IPX_ERR_INPUT;
    }
    ipx_ws_reset(ws);
    ipx_status st =
        ipx_problem_validate_dense(p, ws, "ipx_gonthier_step", r->message, sizeof r->message);
    if (st == IPX_OK) st = ipx_problem_finite_mu(p, "gonthier", r->message, sizeof r->message);
    if (st != IPX_OK) return r->status = st;
    if (!(h > 0.0) || !isfinite(h)) {
        snprintf(r->message, sizeof r->message, "gonthier: step h = %g s must be finite and > 0",
                 h);
        return r->status = IPX_ERR_INPUT;
    }
    for (int i = 0; i < p->k; i++)
        if (!isfinite(delta[i])) {
            snprintf(r->message, sizeof r->message, "contact %d: depth %g m is not finite", i,
                     delta[i]);
            return r->status = IPX_ERR_INPUT;
        }
    for (int a = 0; accel && a < 3 * p->k; a++)
        if (!isfinite(accel[a])) {
            snprintf(r->message, sizeof r->message,
                     "contact %d: the host's acceleration %g m/s^2 is not finite", a / 3, accel[a]);
            return r->status = IPX_ERR_INPUT;
        }
    ipx_ws_reset(ws);
    const size_t n = 3 * (size_t)p->k;
    ipx_gonthier_law *law = (ipx_gonthier_law *)ipx_ws_doubles(
        ws, (size_t)p->k * sizeof(ipx_gonthier_law) / sizeof(double));
    double *v = ipx_ws_doubles(ws, n);
    double *work = ipx_ws_doubles(ws, ipx_gonthier_advance_work_doubles(p->k));
    if (!law || !v || !work) {
        snprintf(r->message, sizeof r->message, "gonthier: workspace too small for k = %d", p->k);
        return r->status = IPX_ERR_WORKSPACE;
    }
    for (int i = 0; i < p->k; i++) ipx_gonthier_law_for(params->value, &p->contact[i], &law[i]);
    memcpy(v, p->v, sizeof(double) * n);
    ipx_gonthier_island is = {.k = p->k,
                              .W = p->W,
                              .v = v,
                              .delta = delta,
                              .state = state,
                              .law = law,
                              .accel = accel,
                              .impulse = r->impulse,
                              .impulse_time = impulse_mean,
                              .work = work,
                              .energy_error = &r->energy_error,
                              .counts = &r->counts};
    const double stored = island_stored(&is);
    if (impulse_mean) memset(impulse_mean, 0, sizeof(double) * n);
    const double h_sub = fmin(params->value[IPX_GONTHIER_SUBSTEP], accurate_step(&is, h));
    const double want = ceil(h / h_sub - 1e-9);
    if (want > params->value[IPX_GONTHIER_MAX_SUBSTEPS]) {
        snprintf(r->message, sizeof r->message,
                 "gonthier: a sub-step of %.3g s needs %.3g of them (max_substeps %.3g): "
                 "lower k or sigma0, or shorten the step",
                 h_sub, want, params->value[IPX_GONTHIER_MAX_SUBSTEPS]);
        r->counts.limits_hit |= IPX_GONTHIER_HIT_STEPS;
        return r->status = IPX_ERR_NOT_CONVERGED;
    }
    const long steps = (long)want;
    is.w_tol = HOST_SHARE * p->v_tol / (double)steps;
    ipx_gonthier_advance(&is, h / (double)steps, steps);
    if (impulse_mean)
        for (size_t a = 0; a < n; a++) impulse_mean[a] /= h;
    r->delta_stored = island_stored(&is) - stored;
    r->counts.steps = count_of(steps);
    return r->status = ipx_result_finish(p, r);
}

/* No energy gain counted with what the contacts hold (delta_stored: a collision ends with its
   normal springs unloaded, its bristles may keep a little; a host step may release what the
   springs held) and the normal springs' integration defect (energy_error); the force never
   pulls and the bodies separate. */
static unsigned gonthier_promises(const double *param)
{
    (void)param;
    return IPX_CHECK_ENERGY | IPX_CHECK_NONPENETRATION | IPX_CHECK_UNILATERAL |
           IPX_CHECK_CONSISTENCY;
}

const ipx_model ipx_model_gonthier = {
    .name = "gonthier",
    .doc = "Gonthier et al. compliant contact: Hunt-Crossley normal force with asymmetric damping "
           "from e, seven-parameter dwell-time friction; the compliant reference",
    .n_params = IPX_GONTHIER_N_PARAMS,
    .params = gonthier_params,
    .solve = gonthier_solve,
    .workspace_bytes = gonthier_workspace_bytes,
    .promises = gonthier_promises,
};
