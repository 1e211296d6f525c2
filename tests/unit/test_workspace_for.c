/* ipx_workspace_bytes_for: a workspace sized for the problem at hand (issue scale).
   - A bin of 3 000 contacts given as blocks to aplcp and routh (which read them in place) is
     solved in a workspace of O(k) bytes, where ipx_workspace_bytes(k) counts a dense W's
     O(k^2): the bound grows linearly with k, the solve fits in exactly the bound, and a byte
     less is refused with a message that names the model and k, the result left at zero.
   - For a dense W the bound is ipx_workspace_bytes(k) less (at most) the block copy it does not
     need; for blocks a model copies densely, that bound itself; every model solves in it.
   - a model that reads blocks has their workspace bound;
   - NULL arguments and k out of range give 0. */
#include <stdint.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "pile_gen.h"
#include "problem_gen.h"
#include "w_blocks.h"

static ipx_params params_of(const char *model)
{
    ipx_params par;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&par, model, msg, sizeof msg) == IPX_OK);
    return par;
}

/* A settled bin of k contacts (seeded), W as blocks in b. */
static void bin_with_blocks(ipx_pile *pile, ipx_test_blocks *b, int k, uint64_t seed)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    const ipx_pile_options opt = ipx_pile_default_options(IPX_PILE_BIN);
    ENSURE(ipx_pile_make(pile, k, &opt, &rng) == 0);
    ENSURE(ipx_test_blocks_of(&pile->problem, b) == 0);
}

static size_t bytes_for_bin(const ipx_params *par, int k)
{
    ipx_pile pile;
    ipx_test_blocks b;
    bin_with_blocks(&pile, &b, k, 5);
    const size_t bytes = ipx_workspace_bytes_for(par, &b.problem);
    ipx_test_blocks_free(&b);
    ipx_pile_free(&pile);
    return bytes;
}

static void test_blocks_read_in_place_take_linear_memory(void)
{
    const char *models[] = {"aplcp", "routh"};
    for (int m = 0; m < 2; m++) {
        const ipx_params par = params_of(models[m]);
        const size_t b1 = bytes_for_bin(&par, 1000), b2 = bytes_for_bin(&par, 2000),
                     b4 = bytes_for_bin(&par, 4000);
        ENSURE(b1 > 0);
        /* affine in k: the step from 2 000 to 4 000 contacts is twice that from 1 000 to 2 000
           (up to the 16-byte rounding of each slice) */
        ENSURE(b4 - b2 >= 2 * (b2 - b1) - 256 && b4 - b2 <= 2 * (b2 - b1) + 256);
        /* less than one dense copy of W (9 k^2 doubles) by far: at 4 000 contacts 1.15 GB */
        ENSURE(b4 < 9 * sizeof(double) * 4000 * 4000 / 100);
        ENSURE(b4 * 100 < ipx_workspace_bytes(&par, 4000));
    }
}

static void test_solve_fits_the_bound_and_not_a_byte_less(void)
{
    ipx_pile pile;
    ipx_test_blocks b;
    const int k = 3000;
    bin_with_blocks(&pile, &b, k, 9);
    const char *models[] = {"aplcp", "routh"};
    for (int m = 0; m < 2; m++) {
        const ipx_params par = params_of(models[m]);
        ENSURE(ipx_model_reads_blocks(&par, k));
        const size_t need = ipx_workspace_bytes_for(&par, &b.problem);
        ipx_workspace *ws = ipx_workspace_create_bytes(need);
        ENSURE(ws != NULL);
        ipx_result r;
        const ipx_status st = ipx_solve(&par, &b.problem, ws, &r);
        /* the pile's LCPs may end at the flagged lcp_accept; what matters here is that the
           memory sufficed and the answer is the model's, within its stated accuracy */
        ENSURE(st == IPX_OK);
        if (st != IPX_OK) fprintf(stderr, "  %s: %s\n", models[m], r.message);
        if (st == IPX_OK) {
            ipx_check_options opt = ipx_check_default_options();
            opt.kinds = par.model->promises(par.value);
            opt.tol_rel = par.value[m == 0 ? IPX_APLCP_LCP_ACCEPT : IPX_ROUTH_LCP_ACCEPT];
            ipx_check_report rep;
            ENSURE(ipx_check(&b.problem, &r, &opt, &rep) == 0);
        }
        ipx_workspace_destroy(ws);

        ws = ipx_workspace_create_bytes(need - 1);
        ENSURE(ipx_solve(&par, &b.problem, ws, &r) == IPX_ERR_WORKSPACE);
        ENSURE(strstr(r.message, models[m]) != NULL && strstr(r.message, "k = 3000") != NULL);
        for (int i = 0; i < r.n_rows; i++) ENSURE(r.impulse[i] == 0.0 && r.v_post[i] == 0.0);
        ipx_workspace_destroy(ws);
    }
    ipx_test_blocks_free(&b);
    ipx_pile_free(&pile);
}

static void test_dense_problems_keep_the_dense_bound(void)
{
    static ipx_scene g; /* large: not on the stack */
    ipx_rng rng;
    ipx_rng_seed(&rng, 3);
    const int k = 4;
    const ipx_gen_options gen = ipx_gen_default_options();
    ipx_gen_random(&g, k, &gen, &rng);
    ipx_problem dense = g.problem;
    ipx_test_blocks b;
    dense.flags = IPX_PROBLEM_W_ASSEMBLED;
    ENSURE(ipx_test_blocks_of(&dense, &b) == 0);
    const size_t copy = 9 * k * k * sizeof(double); /* 16-byte multiple */
    int copy_saved = 0;
    for (int m = 0; m < ipx_model_count(); m++) {
        ipx_params par;
        ipx_params_default(&par, ipx_model_at(m));
        const size_t any = ipx_workspace_bytes(&par, k);
        const size_t for_dense = ipx_workspace_bytes_for(&par, &dense);
        const size_t for_blocks = ipx_workspace_bytes_for(&par, &b.problem);
        /* at 4 contacts every model reads W densely: blocks are copied, a dense W is not (the
           copy is saved where the model's own memory, not the validation's, is the larger) */
        ENSURE(!ipx_model_reads_blocks(&par, k));
        ENSURE(for_blocks == any);
        ENSURE(for_dense <= any && any - for_dense <= copy);
        copy_saved += for_dense == any - copy;
        const ipx_problem *problems[2] = {&dense, &b.problem};
        const size_t sizes[2] = {for_dense, for_blocks};
        for (int f = 0; f < 2; f++) {
            ipx_workspace *ws = ipx_workspace_create_bytes(sizes[f]);
            ipx_result r;
            const ipx_status st = ipx_solve(&par, problems[f], ws, &r);
            ENSURE(st != IPX_ERR_WORKSPACE);
            if (st == IPX_ERR_WORKSPACE) fprintf(stderr, "  %s: %s\n", par.model->name, r.message);
            ipx_workspace_destroy(ws);
        }
    }
    ENSURE(copy_saved >=
           4); /* plus, aplcp, routh and bowling; jia and gonthier need less than the validation */
    ipx_test_blocks_free(&b);
}

/* ipx_solve reads a model's blocks_workspace_bytes wherever it reads blocks in place. */
static void test_models_that_read_blocks_size_them(void)
{
    for (int m = 0; m < ipx_model_count(); m++) {
        const ipx_model *model = ipx_model_at(m);
        ENSURE(!model->blocks_from == !model->blocks_workspace_bytes);
    }
}

static void test_bad_arguments_give_zero(void)
{
    ipx_params par = params_of("aplcp");
    static ipx_scene g;
    ipx_rng rng;
    ipx_rng_seed(&rng, 1);
    const ipx_gen_options gen = ipx_gen_default_options();
    ipx_gen_random(&g, 2, &gen, &rng);
    ipx_problem p = g.problem;
    ENSURE(ipx_workspace_bytes_for(NULL, &p) == 0);
    ENSURE(ipx_workspace_bytes_for(&par, NULL) == 0);
    p.k = 0;
    ENSURE(ipx_workspace_bytes_for(&par, &p) == 0);
    p.k = (1 << 24) + 1;
    ENSURE(ipx_workspace_bytes_for(&par, &p) == 0);
}

int main(void)
{
    RUN(test_blocks_read_in_place_take_linear_memory);
    RUN(test_solve_fits_the_bound_and_not_a_byte_less);
    RUN(test_dense_problems_keep_the_dense_bound);
    RUN(test_models_that_read_blocks_size_them);
    RUN(test_bad_arguments_give_zero);
    return ipx_test_exit();
}
