/* The model registry and its key=value parameter parser: what the shim, the command line and the
   world files all go through. */
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"

static void expect_message(const char *msg, const char *needle)
{
    ENSURE(strstr(msg, needle) != NULL);
    if (!strstr(msg, needle)) fprintf(stderr, "  message was '%s', expected '%s'\n", msg, needle);
}

static void test_unknown_model_lists_the_accepted_ones(void)
{
    ipx_params p;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, "newton", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "unknown model 'newton' (accepted: ");
    expect_message(msg, "aplcp");
}

static void test_every_model_has_a_sane_parameter_table(void)
{
    ENSURE(ipx_model_count() >= 1);
    for (int i = 0; i < ipx_model_count(); i++) {
        const ipx_model *m = ipx_model_at(i);
        ENSURE(ipx_model_find(m->name) == m);
        ENSURE(m->n_params <= IPX_MAX_PARAMS);
        ENSURE(m->solve && m->workspace_bytes && m->promises && m->doc && m->doc[0]);
        for (int j = 0; j < m->n_params; j++) {
            const ipx_param_def *d = &m->params[j];
            ENSURE(d->min <= d->def && d->def <= d->max);
            ENSURE(d->doc && d->doc[0] && d->unit);
            ENSURE(ipx_param_index(m, d->name) == j);
        }
    }
    ENSURE(ipx_model_at(ipx_model_count()) == NULL);
}

static void test_parse_sets_values_and_keeps_defaults(void)
{
    ipx_params p;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, "aplcp", msg, sizeof msg) == IPX_OK);
    ENSURE(p.value[IPX_APLCP_FRICTION_DIRECTIONS] == 4.0);
    ENSURE(ipx_params_parse(&p, " friction_directions = 8 , newton_restitution=1", msg,
                            sizeof msg) == IPX_OK);
    ENSURE(p.value[IPX_APLCP_FRICTION_DIRECTIONS] == 8.0);
    ENSURE(p.value[IPX_APLCP_NEWTON_RESTITUTION] == 1.0);
    ENSURE(p.value[IPX_APLCP_MAX_PIVOTS] == 0.0);
    ENSURE(ipx_params_parse(&p, "", msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_params_parse(&p, NULL, msg, sizeof msg) == IPX_OK);
    ENSURE(p.value[IPX_APLCP_FRICTION_DIRECTIONS] == 8.0);
}

static void test_bad_items_are_named_and_change_nothing(void)
{
    ipx_params p, before;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, "aplcp", msg, sizeof msg) == IPX_OK);
    before = p;
    ENSURE(ipx_params_parse(&p, "friction_directions=8,theta_max=0.01", msg, sizeof msg) ==
           IPX_ERR_INPUT);
    expect_message(msg, "model 'aplcp' has no parameter 'theta_max' (accepted: "
                        "friction_directions, newton_restitution, max_pivots, lcp_switch, lcp_tol, "
                        "max_sweeps, lcp_fallback, lcp_accept, stall_sweeps, lcp_switch_host, "
                        "block_rounds)");
    ENSURE(memcmp(&p, &before, sizeof p) == 0); /* all or nothing */

    ENSURE(ipx_params_parse(&p, "friction_directions=40", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg,
                   "parameter friction_directions = 40 of model 'aplcp' is out of range [2, 16]");
    ENSURE(ipx_params_parse(&p, "friction_directions=4.5", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "must be a whole number, got 4.5");
    ENSURE(ipx_params_parse(&p, "friction_directions=four", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "parameter friction_directions: 'four' is not a number");
    ENSURE(ipx_params_parse(&p, "friction_directions=nan", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "out of range");
    ENSURE(ipx_params_parse(&p, "friction_directions", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "parameter item 'friction_directions' is not key=value");
    ENSURE(ipx_params_parse(&p, "friction_directions=", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "empty key or value");
    ENSURE(ipx_params_parse(&p, "max_pivots=10,,newton_restitution=1", msg, sizeof msg) ==
           IPX_ERR_INPUT);
    expect_message(msg, "empty item");
    ENSURE(memcmp(&p, &before, sizeof p) == 0);
}

/* One rule for commas: an empty item is an error wherever it is, leading and trailing alike. */
static void test_leading_and_trailing_commas_are_both_empty_items(void)
{
    ipx_params p, before;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, "aplcp", msg, sizeof msg) == IPX_OK);
    before = p;
    static const char *const bad[] = {",max_pivots=10",
                                      "max_pivots=10,",
                                      "max_pivots=10, \n",
                                      " , max_pivots=10",
                                      ",",
                                      "max_pivots=10,,lcp_tol=1e-9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ENSURE(ipx_params_parse(&p, bad[i], msg, sizeof msg) == IPX_ERR_INPUT);
        expect_message(msg, "empty item (a leading, trailing or doubled comma)");
    }
    ENSURE(memcmp(&p, &before, sizeof p) == 0);
    ENSURE(ipx_params_parse(&p, " \t\n", msg, sizeof msg) == IPX_OK); /* blanks alone: no items */
}

/* White space around items, keys and values (newlines of a world file's <impax:params> too)
   is not part of them. */
static void test_white_space_and_newlines_around_items_are_trimmed(void)
{
    ipx_params p;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, "aplcp", msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_params_parse(&p, "\n  friction_directions =\t8 ,\n  max_pivots=\r\n 12\n", msg,
                            sizeof msg) == IPX_OK);
    ENSURE(p.value[IPX_APLCP_FRICTION_DIRECTIONS] == 8.0 && p.value[IPX_APLCP_MAX_PIVOTS] == 12.0);
    ENSURE(ipx_params_parse(&p, "friction_directions=40\n", msg, sizeof msg) == IPX_ERR_INPUT);
    ENSURE(strchr(msg, '\n') == NULL);
    expect_message(msg, "parameter friction_directions = 40 of model 'aplcp' is out of range");
}

/* A number too small or too large for a double is named as such, not as "not a number". */
static void test_underflow_and_overflow_are_named(void)
{
    ipx_params p;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, "aplcp", msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_params_parse(&p, "lcp_tol=1e-400", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "parameter lcp_tol: '1e-400' underflows");
    ENSURE(ipx_params_parse(&p, "lcp_tol=-1e400", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "parameter lcp_tol: '-1e400' overflows");
    ENSURE(ipx_params_parse(&p, "lcp_tol=1e-12", msg, sizeof msg) == IPX_OK &&
           p.value[IPX_APLCP_LCP_TOL] == 1e-12);
}

/* Control characters in a key or value are quoted as escapes, never echoed raw. */
static void test_messages_quote_control_characters(void)
{
    ipx_params p;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, "aplcp", msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_params_parse(&p, "max_pivots=1\x1b[2J0", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "'1\\x1b[2J0' is not a number");
    ENSURE(ipx_params_parse(&p, "bo\ngus=1", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "no parameter 'bo\\ngus'");
    ENSURE(ipx_params_parse(&p, "max\tpivots", msg, sizeof msg) == IPX_ERR_INPUT);
    expect_message(msg, "'max\\tpivots' is not key=value");
    for (const char *c = msg; *c; c++) ENSURE((unsigned char)*c >= 0x20);
    char out[16];
    ipx_printable("a\x01"
                  "b\x7f",
                  4, out, sizeof out);
    ENSURE(strcmp(out, "a\\x01b\\x7f") == 0);
    ipx_printable("\n\n\n\n\n\n\n\n\n", 9, out,
                  sizeof out); /* cut to fit, never inside an escape */
    ENSURE(strcmp(out, "\\n\\n\\n\\n\\n\\n\\n") == 0);
}

static void test_format_round_trips_through_parse(void)
{
    ipx_params p, q;
    char msg[IPX_MESSAGE_SIZE], text[512];
    ENSURE(ipx_params_init(&p, "aplcp", msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_params_parse(&p, "friction_directions=6,max_pivots=123", msg, sizeof msg) == IPX_OK);
    ipx_params_format(&p, text, sizeof text);
    ENSURE(ipx_params_init(&q, "aplcp", msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_params_parse(&q, text, msg, sizeof msg) == IPX_OK);
    ENSURE(memcmp(p.value, q.value, sizeof p.value) == 0);
}

static void test_small_workspace_is_reported_not_overrun(void)
{
    ipx_params p;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&p, "aplcp", msg, sizeof msg) == IPX_OK);
    double W[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, v[3] = {0, 0, -1};
    ipx_contact c = {0.5, 0, 0, 0};
    ipx_problem prob = {.k = 1, .W = W, .v = v, .contact = &c};
    ipx_workspace *tiny = ipx_workspace_create_bytes(64);
    ipx_result r;
    ENSURE(ipx_solve(&p, &prob, tiny, &r) == IPX_ERR_WORKSPACE);
    ENSURE(r.impulse == NULL && r.n_rows == 0); /* not even the result's arrays fit */
    printf("  tiny workspace: %s\n", r.message);
    ipx_workspace_destroy(tiny);
    ipx_workspace *ws = ipx_workspace_create(&p, 1);
    ENSURE(ipx_workspace_capacity(ws) == ipx_workspace_bytes(&p, 1));
    ENSURE(ipx_solve(&p, &prob, ws, &r) == IPX_OK);
    ENSURE_NEAR(r.impulse[IPX_N], 1.0, 1e-14);
    ipx_workspace_destroy(ws);
    ENSURE(ipx_workspace_create(&p, 0) == NULL);
    ENSURE(ipx_workspace_create(&p, -1) == NULL);
}

static void test_same_seed_gives_same_stream(void)
{
    ipx_rng a, b, c;
    ipx_rng_seed(&a, 42);
    ipx_rng_seed(&b, 42);
    ipx_rng_seed(&c, 43);
    int same_ab = 1, same_ac = 1;
    for (int i = 0; i < 1000; i++) {
        double x = ipx_rng_uniform_open0(&a), y = ipx_rng_uniform_open0(&b),
               z = ipx_rng_uniform_open0(&c);
        same_ab &= x == y;
        same_ac &= x == z;
        ENSURE(x > 0.0 && x <= 1.0);
    }
    ENSURE(same_ab);
    ENSURE(!same_ac);
}

/* Which models leave each contact's restitution aside: the papers' AP-LCP and Routh impacts are
   inelastic until their restitution flag is set; every other model applies each contact's e. */
static void test_inelastic_follows_each_models_restitution_flag(void)
{
    char msg[IPX_MESSAGE_SIZE];
    for (int i = 0; i < ipx_model_count(); i++) {
        const ipx_model *m = ipx_model_at(i);
        ipx_params p;
        ipx_params_default(&p, m);
        const char *flag = m->restitution_flag;
        const int expect_flag = strcmp(m->name, "aplcp") == 0 || strcmp(m->name, "routh") == 0;
        ENSURE(!flag == !expect_flag);
        if (!flag) {
            ENSURE(ipx_params_inelastic(&p) == 0);
            continue;
        }
        const int at = ipx_param_index(m, flag); /* a 0/1 parameter of the model's own table */
        ENSURE(at >= 0 && strcmp(m->params[at].unit, "flag") == 0 && m->params[at].def == 0.0);
        ENSURE(ipx_params_inelastic(&p) == 1);
        ENSURE(ipx_params_set(&p, flag, 1.0, msg, sizeof msg) == IPX_OK);
        ENSURE(ipx_params_inelastic(&p) == 0);
    }
}

/* The restitution an inelastic model leaves aside: the largest e of the contacts that approach
   faster than their v_capture (those the contact asked to bounce), 0 for a model that applies
   it. Three contacts: approaching above its capture speed with e 0.3, below it with e 0.9,
   separating with e 0.7. */
static void test_ignored_restitution_is_that_of_bouncing_contacts(void)
{
    double W[81] = {0}; /* 1/kg: three independent unit-mass contacts */
    for (int i = 0; i < 9; i++) W[10 * i] = 1.0;
    const double v[9] = {0, 0, -1.0, 0, 0, -0.05, 0, 0, 2.0}; /* m/s */
    const ipx_contact contact[3] = {{.mu = 0.5, .e = 0.3, .v_capture = 0.1},
                                    {.mu = 0.5, .e = 0.9, .v_capture = 0.1},
                                    {.mu = 0.5, .e = 0.7, .v_capture = 0.1}};
    const ipx_problem p = {.k = 3, .W = W, .v = v, .contact = contact};
    char msg[256];
    for (int i = 0; i < ipx_model_count(); i++) {
        ipx_params par;
        ipx_params_default(&par, ipx_model_at(i));
        ENSURE(ipx_params_ignored_restitution(&par, &p) == (ipx_params_inelastic(&par) ? 0.3 : 0));
        if (!par.model->restitution_flag) continue;
        ENSURE(ipx_params_set(&par, par.model->restitution_flag, 1.0, msg, sizeof msg) == IPX_OK);
        ENSURE(ipx_params_ignored_restitution(&par, &p) == 0.0);
    }
}

int main(void)
{
    RUN(test_unknown_model_lists_the_accepted_ones);
    RUN(test_every_model_has_a_sane_parameter_table);
    RUN(test_parse_sets_values_and_keeps_defaults);
    RUN(test_bad_items_are_named_and_change_nothing);
    RUN(test_leading_and_trailing_commas_are_both_empty_items);
    RUN(test_white_space_and_newlines_around_items_are_trimmed);
    RUN(test_underflow_and_overflow_are_named);
    RUN(test_messages_quote_control_characters);
    RUN(test_format_round_trips_through_parse);
    RUN(test_small_workspace_is_reported_not_overrun);
    RUN(test_same_seed_gives_same_stream);
    RUN(test_inelastic_follows_each_models_restitution_flag);
    RUN(test_ignored_restitution_is_that_of_bouncing_contacts);
    return ipx_test_exit();
}
