/* W of a joint-constrained system applied through the bodies (impax/constrained.h) against the
   dense W of ipx_constrained_assemble, on random chains of bodies with random joint rows
   (redundant ones included), contact rows between them and the world, and a contact row the
   joints hold rigid:
   - ipx_constrained_apply(x) = W x to round-off (1e-12 of |W| |x|), for random x;
   - ipx_constrained_diagonal = W's diagonal, 0 exactly on the held row (whose row and column of
     W are zero), and ipx_constrained_delassus = the assembled W entry for entry;
   - ipx_constrained_factor alone leaves what ipx_constrained_delta_u needs: the same du, and
     ipx_constrained_project makes the projection ipx_constrained_prepare makes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/constrained.h"
#include "impax/problem.h"

#define MAX_BODIES 12
#define MAX_ROWS 64

typedef struct system {
    ipx_body body[MAX_BODIES];
    ipx_row joint[MAX_ROWS], contact[MAX_ROWS];
    ipx_constrained s;
} system_t;

static ipx_row random_row(ipx_rng *rng, int b1, int b2)
{
    ipx_row r;
    r.body[0] = b1;
    r.body[1] = b2;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 6; i++) r.J[s][i] = ipx_rng_normal(rng) * (i < 3 ? 1.0 : 0.3);
    return r;
}

/* n bodies (masses and inertias over two decades), joints between neighbours (some rows
   repeated: redundant), contacts between random pairs and with the world; the last contact
   row repeats a joint row: the joints hold it rigid. */
static void make_system(system_t *y, ipx_rng *rng, int n, int joints, int contacts)
{
    for (int b = 0; b < n; b++) {
        double B[9], *I = y->body[b].inv_inertia;
        const double scale = pow(10.0, ipx_rng_uniform(rng, -1.0, 1.0));
        for (int i = 0; i < 9; i++) B[i] = ipx_rng_normal(rng);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double s = i == j ? 0.1 : 0.0;
                for (int a = 0; a < 3; a++) s += B[i + 3 * a] * B[j + 3 * a];
                I[i + 3 * j] = s * scale;
            }
        y->body[b].inv_mass = pow(10.0, ipx_rng_uniform(rng, -1.0, 1.0));
        memset(y->body[b].com, 0, sizeof y->body[b].com);
    }
    for (int j = 0; j < joints; j++) {
        const int a = j % (n - 1);
        y->joint[j] = j > 2 && j % 5 == 0 ? y->joint[j - 3] : random_row(rng, a, a + 1);
    }
    for (int c = 0; c < contacts - 1; c++) {
        const int a = (int)(ipx_rng_next(rng) % (uint64_t)n),
                  b = (int)(ipx_rng_next(rng) % (uint64_t)(n + 1)) - 1;
        y->contact[c] = random_row(rng, a, b == a ? -1 : b);
    }
    y->contact[contacts - 1] = y->joint[0];
    y->s = (ipx_constrained){n, y->body, joints, y->joint, contacts, y->contact};
}

/* 1 if rows a and b name a common body (the free part couples them). */
static int rows_share_a_body(const ipx_row *a, const ipx_row *b)
{
    int share = 0;
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 2; t++) share |= a->body[s] >= 0 && a->body[s] == b->body[t];
    return share;
}

static void test_apply_diagonal_and_delassus_match_the_assembled_W(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 17);
    static system_t y;
    int systems = 0;
    for (int rep = 0; rep < 40; rep++) {
        const int n = 2 + rep % 10, joints = rep % 4 == 0 ? 0 : 1 + rep % 13,
                  contacts = 2 + (rep * 7) % 40;
        make_system(&y, &rng, n, joints, contacts);
        if (joints == 0) {
            y.contact[contacts - 1] = random_row(&rng, 0, -1); /* nothing holds it */
            y.contact[0] = random_row(&rng, 0, 0);             /* one body named on both sides */
        }
        const int c = contacts;
        const size_t nw = ipx_constrained_work_doubles(n, joints, c);
        double *work = malloc(nw * sizeof *work), *work2 = malloc(nw * sizeof *work2);
        memset(work, 0x7f, nw * sizeof *work); /* what a reused work array holds must not matter */
        memset(work2, 0x7f, nw * sizeof *work2);
        double *W = malloc((size_t)c * c * sizeof *W), *W2 = malloc((size_t)c * c * sizeof *W2);
        double u[6 * MAX_BODIES], v[MAX_ROWS], x[MAX_ROWS], yv[MAX_ROWS], diag[MAX_ROWS];
        double du[6 * MAX_BODIES], du2[6 * MAX_BODIES];
        for (int i = 0; i < 6 * n; i++) u[i] = ipx_rng_normal(&rng);
        char msg[IPX_MESSAGE_SIZE];
        ENSURE(ipx_constrained_assemble(&y.s, u, W, v, work, NULL, msg, sizeof msg) == IPX_OK);
        ENSURE(ipx_constrained_factor(&y.s, work2, NULL, msg, sizeof msg) == IPX_OK);
        ipx_constrained_delassus(&y.s, work2, W2);
        ENSURE(memcmp(W, W2, (size_t)c * c * sizeof *W) == 0);
        if (joints == 0) { /* W of free bodies: rows that share no body do not couple, exactly */
            int zeros = 1;
            for (int j = 0; j < c; j++)
                for (int i = 0; i < c; i++) {
                    if (!rows_share_a_body(&y.contact[i], &y.contact[j]) &&
                        W[i + (size_t)c * j] != 0.0)
                        zeros = 0;
                    if (W[i + (size_t)c * j] != W[j + (size_t)c * i]) zeros = 0;
                }
            ENSURE(zeros);
        }
        ipx_constrained_diagonal(&y.s, work2, diag);
        double wmax = 0.0, derr = 0.0;
        for (int i = 0; i < c * c; i++) wmax = fmax(wmax, fabs(W[i]));
        for (int i = 0; i < c; i++) derr = fmax(derr, fabs(diag[i] - W[i + (size_t)c * i]));
        ENSURE(derr == 0.0);
        if (joints > 0) {
            ENSURE(diag[c - 1] == 0.0); /* the held row */
            for (int j = 0; j < c; j++) ENSURE(W[(c - 1) + (size_t)c * j] == 0.0);
        }
        for (int trial = 0; trial < 3; trial++) {
            double xmax = 0.0, err = 0.0;
            for (int j = 0; j < c; j++) x[j] = ipx_rng_normal(&rng), xmax = fmax(xmax, fabs(x[j]));
            ipx_constrained_apply(&y.s, x, yv, du, work2);
            for (int i = 0; i < c; i++) {
                double d = 0.0;
                for (int j = 0; j < c; j++) d += W[i + (size_t)c * j] * x[j];
                err = fmax(err, fabs(d - yv[i]));
            }
            const int ok = err <= 1e-12 * wmax * xmax * c;
            ENSURE(ok);
            if (!ok)
                printf("  rep %d (n %d, %d joint rows, %d contact rows): |Wx - apply| %.3g, |W| "
                       "%.3g\n",
                       rep, n, joints, c, err, wmax);
        }
        ipx_constrained_delta_u(&y.s, x, du, work);
        ipx_constrained_delta_u(&y.s, x, du2, work2);
        ENSURE(memcmp(du, du2, 6 * (size_t)n * sizeof *du) == 0);
        /* ipx_constrained_project: the projection ipx_constrained_prepare makes, to the bit */
        for (int i = 0; i < 6 * n; i++) du[i] = du2[i] = ipx_rng_normal(&rng);
        ENSURE(ipx_constrained_prepare(&y.s, du, yv, work, NULL, msg, sizeof msg) == IPX_OK);
        ipx_constrained_project(&y.s, du2, x, work2);
        ENSURE(memcmp(du, du2, 6 * (size_t)n * sizeof *du) == 0 &&
               memcmp(yv, x, (size_t)c * sizeof *x) == 0);
        systems++;
        free(work), free(work2), free(W), free(W2);
    }
    printf("  %d systems\n", systems);
}

/* W as blocks (ipx_constrained_prepare, _block_count, _blocks) against the assembled dense W:
   the same v and u, every entry to the bit, a form ipx_problem_validate accepts, and without
   joints exactly the contact pairs that share a body (no block more). Contacts of three rows,
   mostly on one pair of bodies as a host writes them, some with rows on different pairs. */
static void test_blocks_are_the_assembled_W(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 23);
    static system_t y;
    for (int rep = 0; rep < 40; rep++) {
        const int n = 2 + rep % 10, joints = rep % 3 == 0 ? 0 : 1 + rep % 13,
                  k = 1 + (rep * 5) % 20, c = 3 * k;
        make_system(&y, &rng, n, joints, c);
        for (int q = 0; q < k; q++)
            if ((q + rep) % 4 != 0) /* the contact's three rows on the first row's bodies */
                for (int r = 1; r < 3; r++) {
                    y.contact[3 * q + r].body[0] = y.contact[3 * q].body[0];
                    y.contact[3 * q + r].body[1] = y.contact[3 * q].body[1];
                }
        const size_t nw = ipx_constrained_work_doubles(n, joints, c);
        double *work = malloc(nw * sizeof *work), *work2 = malloc(nw * sizeof *work2);
        memset(work, 0x7f, nw * sizeof *work);
        memset(work2, 0x7f, nw * sizeof *work2);
        double *W = malloc((size_t)c * c * sizeof *W), *W2 = malloc((size_t)c * c * sizeof *W2);
        double u[6 * MAX_BODIES], u2[6 * MAX_BODIES], v[MAX_ROWS], v2[MAX_ROWS];
        for (int i = 0; i < 6 * n; i++) u[i] = u2[i] = ipx_rng_normal(&rng);
        char msg[IPX_MESSAGE_SIZE];
        ENSURE(ipx_constrained_assemble(&y.s, u, W, v, work, NULL, msg, sizeof msg) == IPX_OK);
        ENSURE(ipx_constrained_prepare(&y.s, u2, v2, work2, NULL, msg, sizeof msg) == IPX_OK);
        ENSURE(memcmp(v, v2, (size_t)c * sizeof *v) == 0 &&
               memcmp(u, u2, 6 * (size_t)n * sizeof *u) == 0);
        const int nnz = ipx_constrained_block_count(&y.s, work2);
        int *start = malloc(((size_t)k + 1) * sizeof *start),
            *row = malloc((size_t)nnz * sizeof *row);
        double *blk = malloc(9 * (size_t)nnz * sizeof *blk);
        ENSURE(ipx_constrained_blocks(&y.s, work2, start, row, blk, msg, sizeof msg) == IPX_OK);
        const ipx_wsparse Ws = {nnz, start, row, blk};
        const ipx_contact contact[MAX_ROWS / 3] = {{0}};
        const ipx_problem p = {
            .k = k, .v = v2, .contact = contact, .flags = IPX_PROBLEM_W_ASSEMBLED, .Ws = &Ws};
        ENSURE(ipx_problem_validate(&p, NULL, msg, sizeof msg) == IPX_OK);
        ipx_problem_dense_W(&p, W2);
        ENSURE(memcmp(W, W2, (size_t)c * c * sizeof *W) == 0);
        if (joints == 0) {
            int pairs = 0;
            for (int a = 0; a < k; a++)
                for (int b = 0; b < k; b++) {
                    int share = a == b;
                    for (int r = 0; r < 3; r++)
                        for (int t = 0; t < 3; t++)
                            share |=
                                rows_share_a_body(&y.contact[3 * a + r], &y.contact[3 * b + t]);
                    pairs += share;
                }
            ENSURE(nnz == pairs);
        }
        free(work), free(work2), free(W), free(W2), free(start), free(row), free(blk);
    }
    /* rows that do not make whole contacts: refused, by name */
    make_system(&y, &rng, 3, 0, 7);
    double work[4096], u[18] = {0}, v[7];
    int start[4], row[16];
    double blk[144];
    char msg[IPX_MESSAGE_SIZE] = "";
    ENSURE(ipx_constrained_work_doubles(3, 0, 7) <= 4096);
    ENSURE(ipx_constrained_prepare(&y.s, u, v, work, NULL, msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_constrained_block_count(&y.s, work) == -1);
    ENSURE(ipx_constrained_blocks(&y.s, work, start, row, blk, msg, sizeof msg) == IPX_ERR_INPUT);
    ENSURE(strstr(msg, "3 rows per contact (7 contact rows given)") != NULL);
}

int main(void)
{
    RUN(test_apply_diagonal_and_delassus_match_the_assembled_W);
    RUN(test_blocks_are_the_assembled_W);
    return ipx_test_exit();
}
