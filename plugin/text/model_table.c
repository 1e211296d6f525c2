#include "model_table.h"

#include <string.h>

#include "text_table.h"

enum { WIDTH = 100 };

/* "[lo, hi]", "integer in [lo, hi]" or "0 or 1" (a flag). */
static void range_text(const ipx_param_def *d, char *buf, size_t size)
{
    if (strcmp(d->unit, "flag") == 0) snprintf(buf, size, "0 or 1");
    else snprintf(buf, size, "%s[%g, %g]", d->integer ? "integer in " : "", d->min, d->max);
}

void ipx_print_model_params(FILE *out, const ipx_model *m, const char *indent)
{
    for (int j = 0; j < m->n_params; j++) {
        const ipx_param_def *d = &m->params[j];
        const int has_unit = d->unit[0] && strcmp(d->unit, "flag") != 0;
        char range[96];
        range_text(d, range, sizeof range);
        char doc_indent[32];
        snprintf(doc_indent, sizeof doc_indent, "%s    ", indent);
        fprintf(out, "%s%-20s default %g%s%s; %s\n%s", indent, d->name, d->def, has_unit ? " " : "",
                has_unit ? d->unit : "", range, doc_indent);
        cli_print_wrapped(out, (int)strlen(doc_indent), d->doc, doc_indent, WIDTH);
    }
}

void ipx_print_models(FILE *out)
{
    for (int i = 0; i < ipx_model_count(); i++) {
        const ipx_model *m = ipx_model_at(i);
        fprintf(out, "%s: ", m->name);
        cli_print_wrapped(out, (int)strlen(m->name) + 2, m->doc, "  ", WIDTH);
        ipx_print_model_params(out, m, "  ");
    }
}
