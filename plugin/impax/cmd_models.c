/* impax models: every model in short (what it is, what it is for, its parameters' names), or
   the models named in full (each parameter's default, range, unit and meaning); then the keys
   every model takes (the contact surfaces' and the adapter's). A user's text: the documents it
   points to are docs/models/<model>.md. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "impax/ode.h"
#include "model_table.h"
#include "text_table.h"

static const char help[] =
    "usage: impax models [NAME...]\n"
    "\n"
    "Lists the impact models that --model and --models accept: what each is for and the names\n"
    "of its parameters (KEY=VALUE in --params, <impax:params> and ab's entries such as\n"
    "plus:v_plastic=0.3); with NAMEs, those models' parameters in full, with their defaults,\n"
    "ranges, units and meanings; then the keys every model takes.\n"
    "docs/models/NAME.md in impax's source describes each model in full.\n"
    "\n"
    "example:\n"
    "  impax models plus routh\n";

/* When to choose each model (docs/models/README.md "Which model for what"). */
static const struct {
    const char *model, *use;
} uses[] = {
    {"plus",
     "sequential impacts with friction and restitution, no energy gain: cradles, chains, bricks"},
    {"aplcp", "ODE-like simultaneous impacts in one LCP: the baseline; fast on large piles"},
    {"jia", "one contact with tangential compliance and spin (a ball on a table)"},
    {"routh", "the set of possible outcomes of an ill-posed simultaneous impact (with impax set)"},
    {"bowling", "impacts with normal, tangential and moment CORs and an energy cap (wheels, legs)"},
    {"gonthier",
     "the compliant reference: contacts as forces over several steps, at a higher cost"},
};

/* In full: every parameter. In short: their names, and where the rest is. */
static void print_model(const ipx_model *m, int full)
{
    printf("%s: ", m->name);
    cli_print_wrapped(stdout, (int)strlen(m->name) + 2, m->doc, "  ", 100);
    for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++)
        if (strcmp(uses[i].model, m->name) == 0) printf("  for: %s\n", uses[i].use);
    if (full) {
        ipx_print_model_params(stdout, m, "  ");
        printf("  more: docs/models/%s.md\n", m->name);
        return;
    }
    char names[1024];
    size_t used = 0;
    for (int j = 0; j < m->n_params && used < sizeof names; j++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", j ? ", " : "",
                                 m->params[j].name);
    printf("  parameters: ");
    cli_print_wrapped(stdout, 14, names, "    ", 100);
    printf("  more: impax models %s; docs/models/%s.md\n", m->name, m->name);
}

static void print_common_keys(void)
{
    static const char *const contact[] = {"mu", "e", "bounce_vel", "rolling", "spinning"};
    static const char *const contact_unit[] = {"", "", " (m/s)", " (m)", " (m)"};
    static const char *const contact_doc[] = {
        "Coulomb friction of every contact surface (mu and mu2)",
        "restitution of every contact surface (ODE's bounce)",
        "approach speed below which nothing bounces",
        "rolling friction (ODE's rho, rho2): torque bound over the normal force; none: 0",
        "spinning friction about the normal (ODE's rhoN), the same way; none: 0"};
    printf(
        "\nevery model, ode included, also takes the contact surfaces' keys, which replace each\n"
        "surface's value (docs/command.md \"Running world files\"):\n");
    for (size_t i = 0; i < sizeof contact / sizeof contact[0]; i++) {
        double lo = 0, hi = 0;
        ipx_contact_param_range(contact[i], &lo, &hi);
        printf("  %-20s the world's%s; [%g, %g]\n      %s\n", contact[i], contact_unit[i], lo, hi,
               contact_doc[i]);
    }
    double lo = 0, hi = 0;
    ipx_body_param_range("inertia_scale", &lo, &hi);
    printf("and the replay body's key (the body recordings describe, impax replay and fit):\n"
           "  %-20s default 1; [%g, %g]\n      factor on the body's inertia tensor (its mass "
           "stays)\n",
           "inertia_scale", lo, hi);
    const ipx_ode_config c = ipx_ode_default_config();
    printf("and every model but ode the adapter's keys (docs/ode-adapter.md \"Penetration "
           "recovery\", \"Impact or\n"
           "resting contact\"):\n");
    printf("  %-20s default position; position, velocity or ode\n      how penetration left by an "
           "impact "
           "goes\n",
           "recovery");
    printf("  %-20s default %g m/s\n      the push-out limit of recovery=velocity\n",
           "recovery_speed", c.recovery_speed);
    printf("  %-20s default %g m/s\n      approaches slower than this (plus the steps below) are "
           "resting "
           "contact\n",
           "impact_threshold", c.impact_threshold);
    printf("  %-20s default %g\n      |g| h steps added to the threshold\n", "gravity_steps",
           c.gravity_steps);
    printf(
        "  %-20s default %g\n      |g| h steps per unit of the contact's lever factor, if more\n",
        "jitter_steps", c.jitter_steps);
    printf("  %-20s default %g\n      |g| h steps of velocity accuracy an iterative LCP solve "
           "(aplcp, routh)\n      may stop at; 0 = the models' own tolerances\n",
           "accuracy_steps", c.accuracy_steps);
}

int cli_cmd_models(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(help, stdout);
            return CLI_OK;
        }
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "ode") != 0 && !ipx_model_find(argv[i])) {
            char accepted[256];
            ipx_model_names(accepted, sizeof accepted);
            fprintf(stderr, "impax models: unknown model '%s' (accepted: ode, %s)\n", argv[i],
                    accepted);
            return CLI_USAGE;
        }
    int shown = 0;
    for (int i = 0; i <= ipx_model_count(); i++) { /* 0: ode, then the registry's */
        const char *name = i ? ipx_model_at(i - 1)->name : "ode";
        int wanted = argc < 2;
        for (int a = 1; a < argc; a++) wanted |= strcmp(argv[a], name) == 0;
        if (!wanted) continue;
        if (shown++) putchar('\n');
        if (i == 0)
            printf("ode: ODE's own contact handling, untouched\n  for: the A/B baseline; no "
                   "parameters\n");
        else print_model(ipx_model_at(i - 1), argc > 1);
    }
    print_common_keys();
    return CLI_OK;
}
