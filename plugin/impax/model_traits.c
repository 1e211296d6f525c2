#include "model_traits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"

/* Models whose restitution law is off by default: the papers' AP-LCP and Routh impacts are
   inelastic, and their restitution (a simultaneous Newton target, Poisson's extension) is an
   option (docs/core-api.md "Model parameters"). */
static const struct {
    const char *model, *flag;
} laws[] = {{"aplcp", "newton_restitution"}, {"routh", "poisson_restitution"}};

const char *cli_restitution_flag(const char *model)
{
    for (size_t i = 0; model && i < sizeof laws / sizeof laws[0]; i++)
        if (strcmp(model, laws[i].model) == 0) return laws[i].flag;
    return NULL;
}

/* The value of the last "key=..." item of params, into *value: 1 if there is one. */
static int last_value(const char *params, const char *key, double *value)
{
    const size_t n = strlen(key);
    int found = 0;
    for (const char *p = params; p && *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        if (strncmp(p, key, n) == 0) {
            const char *q = p + n;
            while (*q == ' ' || *q == '\t') q++;
            if (*q == '=') {
                *value = strtod(q + 1, NULL);
                found = 1;
            }
        }
        p = strchr(p, ',');
    }
    return found;
}

int cli_model_inelastic(const char *model, const char *params)
{
    const char *flag = cli_restitution_flag(model);
    const ipx_model *m = flag ? ipx_model_find(model) : NULL;
    const int i = m ? ipx_param_index(m, flag) : -1;
    if (i < 0) return 0;
    double value = m->params[i].def;
    last_value(params, flag, &value);
    return value == 0.0;
}

void cli_inelastic_note(char *buf, size_t size, const char *label, const char *model, double e)
{
    const char *flag = cli_restitution_flag(model);
    const int same = strcmp(label, model) == 0;
    snprintf(buf, size, "%s%s%s is inelastic unless %s=1: the surfaces' restitution (e up to %g) was ignored",
             same ? "" : label, same ? "" : ": ", model, flag ? flag : "?", e);
}

int cli_model_compliant(const char *model) { return model && strcmp(model, "gonthier") == 0; }
