/* One JSON object per impact event, one per line (JSON Lines), with the keys INTERFACES.md
   documents. Numbers are printed with 17 significant digits (they read back exactly); arrays
   are null when the event failed before there was anything to show. */
#include "trace.h"

#include <math.h>

/* JSON has no NaN or infinity: such a value (it cannot come from a handed-back event, which
   is checked finite) is written as null rather than as invalid JSON. */
static void number(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.17g", x);
    else
        fputs("null", f);
}

static void string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void array(FILE *f, const double *x, int n)
{
    if (!x) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', f);
        number(f, x[i]);
    }
    fputc(']', f);
}

void ipx_trace_event(FILE *f, int world_index, double time_s, const ipx_ode_event *ev)
{
    fprintf(f, "{\"step\":%ld,\"time\":", ev->step);
    number(f, time_s);
    fprintf(f, ",\"world\":%d,\"model\":", world_index);
    string(f, ev->model);
    fprintf(f, ",\"contacts\":%d,\"status\":", ev->k);
    string(f, ev->status);
    fputs(",\"ke_before\":", f);
    number(f, ev->ke_before);
    fputs(",\"ke_after\":", f);
    number(f, ev->ke_after);
    fputs(",\"vn_before\":", f);
    array(f, ev->vn_before, ev->k);
    fputs(",\"vn_after\":", f);
    array(f, ev->vn_after, ev->k);
    fputs(",\"impulse\":", f);
    if (ev->impulse) {
        fputc('[', f);
        for (int i = 0; i < ev->k; i++) {
            if (i) fputc(',', f);
            array(f, ev->impulse + IPX_ROWS_PER_CONTACT * i, IPX_ROWS_PER_CONTACT);
        }
        fputc(']', f);
    } else {
        fputs("null", f);
    }
    const ipx_counts *c = &ev->counts;
    fprintf(f,
            ",\"rounds\":%d,\"intervals\":%d,\"lsq_solves\":%d,\"lcp_solves\":%d,\"pivots\":%d,"
            "\"steps\":%d,\"newton_iters\":%d,\"limits_hit\":%u}\n",
            c->rounds, c->intervals, c->lsq_solves, c->lcp_solves, c->pivots, c->steps,
            c->newton_iters, c->limits_hit);
}
