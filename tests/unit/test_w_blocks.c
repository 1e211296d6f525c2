/* W given as blocks (ipx_problem.Ws, types.h) against the same W given densely:
   - a large pile under aplcp and routh (which read the blocks in place) and a small one under
     plus and bowling (which ipx_solve gives a dense copy): the same result to the bit, and the
     invariant checker's same verdict on both forms;
   - ipx_model_reads_blocks follows the models' size switches, and ipx_workspace_bytes covers
     the dense copy (a workspace short of it gets a message that says so);
   - bad blocks are refused with the item named (structure, symmetry, values, flags), and the
     entry points that take W densely refuse blocks by name. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "pile_gen.h"
#include "w_blocks.h"

static ipx_params params_of(const char *model)
{
    ipx_params par;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&par, model, msg, sizeof msg) == IPX_OK);
    return par;
}

/* Solves p both ways under model; the results must agree to the bit. */
static void expect_same_solve(const char *model, const ipx_problem *dense,
                              const ipx_problem *sparse)
{
    ipx_params par = params_of(model);
    const int k = dense->k;
    const size_t rows = 3 * (size_t)k;
    ipx_workspace *w1 = ipx_workspace_create(&par, k), *w2 = ipx_workspace_create(&par, k);
    ipx_result r1, r2;
    ENSURE(ipx_solve(&par, dense, w1, &r1) == IPX_OK);
    ENSURE(ipx_solve(&par, sparse, w2, &r2) == IPX_OK);
    if (r2.status != IPX_OK) fprintf(stderr, "  %s on blocks: %s\n", model, r2.message);
    ENSURE(r1.status == r2.status);
    if (r1.status == IPX_OK && r2.status == IPX_OK) {
        ENSURE(memcmp(r1.impulse, r2.impulse, rows * sizeof(double)) == 0);
        ENSURE(memcmp(r1.v_post, r2.v_post, rows * sizeof(double)) == 0);
        ENSURE(r1.delta_ke == r2.delta_ke);
        ENSURE(r1.counts.limits_hit == r2.counts.limits_hit);
        ipx_check_options opt = ipx_check_default_options();
        opt.kinds = par.model->promises(par.value);
        ipx_check_report c1, c2;
        const int n1 = ipx_check(dense, &r1, &opt, &c1), n2 = ipx_check(sparse, &r2, &opt, &c2);
        ENSURE(n1 == 0 && n2 == 0);
        if (n1 || n2) fprintf(stderr, "  %s: %d violations dense, %d on blocks\n", model, n1, n2);
    }
    ipx_workspace_destroy(w1);
    ipx_workspace_destroy(w2);
}

/* A pile of k contacts (seeded) and its W as blocks. */
static void pile_with_blocks(ipx_pile *pile, ipx_test_blocks *b, const ipx_pile_options *opt, int k,
                             uint64_t seed)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    ENSURE(ipx_pile_make(pile, k, opt, &rng) == 0);
    ENSURE(ipx_test_blocks_of(&pile->problem, b) == 0);
}

static void test_large_pile_read_in_place_gives_the_dense_answer(void)
{
    ipx_pile pile;
    ipx_test_blocks b;
    const ipx_pile_options opt = ipx_pile_default_options(IPX_PILE_BIN);
    pile_with_blocks(&pile, &b, &opt, 160, 7);
    ENSURE(b.Ws.nnz == pile.blocks); /* the generator's count of body-sharing pairs */
    const ipx_problem sparse = b.problem;
    ipx_problem dense = pile.problem;
    dense.flags = IPX_PROBLEM_W_ASSEMBLED;
    ENSURE(ipx_model_reads_blocks((ipx_params[]){params_of("aplcp")}, 160));
    ENSURE(ipx_model_reads_blocks((ipx_params[]){params_of("routh")}, 160));
    expect_same_solve("aplcp", &dense, &sparse);
    expect_same_solve("routh", &dense, &sparse);
    ipx_test_blocks_free(&b);
    ipx_pile_free(&pile);
}

static void test_small_pile_copied_for_dense_models(void)
{
    ipx_pile pile;
    ipx_test_blocks b;
    ipx_pile_options opt = ipx_pile_default_options(IPX_PILE_STACK);
    opt.side = 2;
    opt.tower = 3;
    pile_with_blocks(&pile, &b, &opt, 12, 11);
    ENSURE(b.Ws.nnz < 12 * 12); /* towers side by side: most pairs share no box */
    const ipx_problem sparse = b.problem;
    ipx_problem dense = pile.problem;
    dense.flags = IPX_PROBLEM_W_ASSEMBLED;
    const char *models[] = {"plus", "bowling", "aplcp", "routh"};
    for (int m = 0; m < 4; m++) {
        ENSURE(!ipx_model_reads_blocks((ipx_params[]){params_of(models[m])}, 12));
        expect_same_solve(models[m], &dense, &sparse);
    }
    ipx_test_blocks_free(&b);
    ipx_pile_free(&pile);
}

static void test_reads_blocks_follows_the_size_switch(void)
{
    ipx_params ap = params_of("aplcp"), ro = params_of("routh"), pl = params_of("plus");
    char msg[IPX_MESSAGE_SIZE];
    /* above both the iterative switch and the dense fallback: the dense Lemke never runs */
    ENSURE(!ipx_model_reads_blocks(&ap, (int)ap.value[IPX_APLCP_LCP_FALLBACK]));
    ENSURE(ipx_model_reads_blocks(&ap, (int)ap.value[IPX_APLCP_LCP_FALLBACK] + 1));
    ENSURE(!ipx_model_reads_blocks(&ro, (int)ro.value[IPX_ROUTH_LCP_FALLBACK]));
    ENSURE(ipx_model_reads_blocks(&ro, (int)ro.value[IPX_ROUTH_LCP_FALLBACK] + 1));
    ENSURE(ipx_params_parse(&ap, "lcp_fallback=0,lcp_switch=200", msg, sizeof msg) == IPX_OK);
    ENSURE(!ipx_model_reads_blocks(&ap, 199) && ipx_model_reads_blocks(&ap, 200));
    ENSURE(!ipx_model_reads_blocks(&pl, 100000));
}

static void test_short_workspace_names_the_dense_copy(void)
{
    ipx_pile pile;
    ipx_test_blocks b;
    const ipx_pile_options opt = ipx_pile_default_options(IPX_PILE_STACK);
    pile_with_blocks(&pile, &b, &opt, 20, 3);
    const ipx_problem sparse = b.problem;
    ipx_params par = params_of("plus");
    const size_t copy = 9 * 20 * 20 * sizeof(double), full = ipx_workspace_bytes(&par, 20);
    ipx_workspace *ws = ipx_workspace_create_bytes(full - copy);
    ipx_result r;
    ENSURE(ipx_solve(&par, &sparse, ws, &r) == IPX_ERR_WORKSPACE);
    ENSURE(strstr(r.message, "dense copy") != NULL);
    for (int i = 0; i < r.n_rows; i++) ENSURE(r.impulse[i] == 0.0);
    ipx_workspace_destroy(ws);
    ws = ipx_workspace_create_bytes(full);
    ENSURE(ipx_solve(&par, &sparse, ws, &r) == IPX_OK);
    ipx_workspace_destroy(ws);
    ipx_test_blocks_free(&b);
    ipx_pile_free(&pile);
}

/* ---- bad blocks ---- */

static ipx_pile small;
static ipx_test_blocks sb;

static void expect_refused(const ipx_problem *p, const char *needle)
{
    char msg[IPX_MESSAGE_SIZE] = "";
    ENSURE(ipx_problem_validate(p, NULL, msg, sizeof msg) == IPX_ERR_INPUT);
    ENSURE(strstr(msg, needle) != NULL);
    if (!strstr(msg, needle)) fprintf(stderr, "  message was '%s', expected '%s'\n", msg, needle);
}

static void test_good_blocks_pass_in_place(void)
{
    const ipx_problem p = sb.problem;
    char msg[IPX_MESSAGE_SIZE] = "";
    ENSURE(ipx_problem_validate(&p, NULL, msg, sizeof msg) == IPX_OK); /* no workspace needed */
}

static void test_bad_blocks_are_named(void)
{
    ipx_problem p = sb.problem;
    p.flags = 0;
    expect_refused(&p, "needs IPX_PROBLEM_W_ASSEMBLED");
    p = sb.problem;
    p.W = small.problem.W;
    expect_refused(&p, "both densely (W) and as blocks");
    p.W = NULL;
    p.Ws = NULL;
    expect_refused(&p, "NULL W");

    /* an off-diagonal block (contact i's rows in column j) and its mirror */
    p = sb.problem;
    int b = -1;
    for (int q = sb.start[0]; q < sb.start[1]; q++)
        if (sb.row[q] != 0) b = q;
    ENSURE(b >= 0);
    const int i = sb.row[b], t = ipx_wsparse_find(&sb.Ws, 0, i);
    ENSURE(t >= 0 && ipx_wsparse_find(&sb.Ws, 0, 0) == sb.start[0] + 0 &&
           ipx_wsparse_find(&sb.Ws, 99, 0) == -1);
    char needle[128];

    double keep = sb.blk[9 * b + 5]; /* W[3i + 2][1] */
    sb.blk[9 * b + 5] += 1e-3 * fabs(keep) + 1.0;
    snprintf(needle, sizeof needle, "W is not symmetric: W[%d][%d]", 3 * i + 2, 1);
    expect_refused(&p, needle);
    sb.blk[9 * b + 5] = NAN;
    snprintf(needle, sizeof needle, "W[%d][%d] = nan is not finite (contacts %d and 0)", 3 * i + 2,
             1, i);
    expect_refused(&p, needle);
    /* with a bad contact too: W's entry is named first, as for a dense W */
    const double mu = small.contact[1].mu;
    small.contact[1].mu = -1.0;
    expect_refused(&p, needle);
    sb.blk[9 * b + 5] = keep;
    expect_refused(&p, "contact 1: friction mu = -1 is negative");
    small.contact[1].mu = mu;

    keep = sb.blk[9 * sb.start[0] + 8]; /* W_nn of contact 0 */
    sb.blk[9 * sb.start[0] + 8] = -keep;
    expect_refused(&p, "W is indefinite: diagonal W[2][2]");
    sb.blk[9 * sb.start[0] + 8] = keep;

    int row_keep = sb.row[b];
    sb.row[b] = small.k; /* not a contact */
    snprintf(needle, sizeof needle, "column 0's block row %d is not a contact", small.k);
    expect_refused(&p, needle);
    sb.row[b] = 0; /* a repeat of the diagonal: rows must ascend */
    expect_refused(&p, "not above the one before it");
    sb.row[b] = row_keep;

    /* a block whose mirror is missing: drop contact 0's block from column i */
    ipx_wsparse cut = sb.Ws;
    int *start = malloc(((size_t)small.k + 1) * sizeof(int)),
        *row = malloc((size_t)sb.Ws.nnz * sizeof(int));
    double *blk = malloc(9 * (size_t)sb.Ws.nnz * sizeof(double));
    int n = 0;
    for (int j = 0; j < small.k; j++) {
        start[j] = n;
        for (int q = sb.start[j]; q < sb.start[j + 1]; q++) {
            if (q == t) continue;
            row[n] = sb.row[q];
            memcpy(blk + 9 * n, sb.blk + 9 * q, 9 * sizeof(double));
            n++;
        }
    }
    start[small.k] = n;
    cut = (ipx_wsparse){n, start, row, blk};
    p.Ws = &cut;
    snprintf(needle, sizeof needle,
             "the block of contacts %d and 0 is given but not the block of contacts 0 and %d", i,
             i);
    expect_refused(&p, needle);
    cut.nnz = n + 1;
    expect_refused(&p, "must be 0 and nnz");
    free(start);
    free(row);
    free(blk);

    /* a column without its diagonal block: contact 0's column holds only its partner */
    const int one[2] = {0, 1}, partner[1] = {1};
    const double z[9] = {0};
    ipx_wsparse nodiag = {1, one, partner, z};
    ipx_problem p1 = p;
    p1.k = 1;
    p1.Ws = &nodiag;
    expect_refused(&p1, "block row 1 is not a contact");
    const int only[1] = {0};
    const int none[2] = {0, 0};
    nodiag = (ipx_wsparse){0, none, only, z};
    expect_refused(&p1, "column 0 has no diagonal block");
}

static void test_dense_entry_points_refuse_blocks_by_name(void)
{
    const ipx_problem p = sb.problem;
    ipx_params par = params_of("plus");
    ipx_workspace *ws = ipx_workspace_create(&par, small.k);
    ipx_result r;
    ENSURE(ipx_plus_trace(&p, par.value, ws, NULL, NULL, &r) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "ipx_plus_trace takes W densely") != NULL);
    ipx_workspace_destroy(ws);

    par = params_of("routh");
    ws = ipx_workspace_create(&par, small.k);
    ipx_rng rng;
    ipx_rng_seed(&rng, 1);
    ENSURE(ipx_routh_sample(&p, par.value, &rng, ws, &r) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "routh (ipx_routh_sample, ipx_routh_set) takes W densely") != NULL);
    ipx_workspace_destroy(ws);

    par = params_of("gonthier");
    ws = ipx_workspace_create(&par, small.k);
    double *depth = calloc((size_t)small.k, sizeof *depth);
    ipx_gonthier_state *state = calloc((size_t)small.k, sizeof *state);
    ENSURE(ipx_gonthier_step(&par, &p, depth, state, 1e-3, NULL, ws, &r, NULL) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "ipx_gonthier_step takes W densely") != NULL);
    free(depth);
    free(state);
    ipx_workspace_destroy(ws);

    par = params_of("bowling");
    ws = ipx_workspace_create(&par, small.k);
    const ipx_bowling_host host = {IPX_ROWS_PER_CONTACT, 0.0};
    ENSURE(ipx_bowling_solve(&par, &p, &host, ws, &r) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "bowling takes W densely") != NULL);
    ipx_workspace_destroy(ws);
}

static void test_jia_trace_validates_its_problem(void)
{
    /* ipx_jia_trace did not validate: a NaN W reached the integration */
    double W[9] = {1, 0, 0, 0, 1, 0, 0, 0, NAN}, v[3] = {0.1, 0, -1};
    const ipx_contact c = {0.5, 0.5, 0, 0};
    const ipx_problem p = {.k = 1, .W = W, .v = v, .contact = &c};
    ipx_params par = params_of("jia");
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ipx_result r;
    ENSURE(ipx_jia_trace(&p, par.value, NULL, NULL, NULL, ws, &r) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "W[2][2] = nan is not finite") != NULL);
    W[8] = 1.0;
    ENSURE(ipx_jia_trace(&p, par.value, NULL, NULL, NULL, ws, &r) == IPX_OK);
    ipx_workspace_destroy(ws);
}

int main(void)
{
    const ipx_pile_options opt = ipx_pile_default_options(IPX_PILE_BIN);
    pile_with_blocks(&small, &sb, &opt, 24, 5);
    RUN(test_large_pile_read_in_place_gives_the_dense_answer);
    RUN(test_small_pile_copied_for_dense_models);
    RUN(test_reads_blocks_follows_the_size_switch);
    RUN(test_short_workspace_names_the_dense_copy);
    RUN(test_good_blocks_pass_in_place);
    RUN(test_bad_blocks_are_named);
    RUN(test_dense_entry_points_refuse_blocks_by_name);
    RUN(test_jia_trace_validates_its_problem);
    ipx_test_blocks_free(&sb);
    ipx_pile_free(&small);
    return ipx_test_exit();
}
