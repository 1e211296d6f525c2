/* Files of impact problems (see impax/problem_file.h). */
#include "impax/problem_file.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "impax/problem.h"

static const char MAGIC[4] = {'I', 'P', 'X', '2'};
static const char MAGIC_V1[4] = {'I', 'P', 'X', 'P'}; /* no v_tol */

int ipx_problem_write(FILE *f, const ipx_problem *p)
{
    const size_t rows = 3 * (size_t)p->k;
    const int32_t k = p->k;
    const uint32_t flags = p->flags;
    const double v_tol = p->v_tol;
    /* records hold W densely: a W given as blocks is written out with its zeros */
    double *dense = p->W ? NULL : malloc(rows * rows * sizeof *dense);
    if (!p->W && !dense) return -1;
    if (dense) ipx_problem_dense_W(p, dense);
    int ok = fwrite(MAGIC, 1, 4, f) == 4 && fwrite(&k, sizeof k, 1, f) == 1 &&
             fwrite(&flags, sizeof flags, 1, f) == 1 && fwrite(&v_tol, sizeof v_tol, 1, f) == 1 &&
             fwrite(p->W ? p->W : dense, sizeof(double), rows * rows, f) == rows * rows &&
             fwrite(p->v, sizeof(double), rows, f) == rows;
    free(dense);
    for (int i = 0; ok && i < p->k; i++) {
        const ipx_contact *c = &p->contact[i];
        const double d[4] = {c->mu, c->e, c->v_capture, c->v_plastic};
        ok = fwrite(d, sizeof(double), 4, f) == 4;
    }
    return ok ? 0 : -1;
}

void ipx_problem_record_free(ipx_problem_record *rec)
{
    free(rec->W);
    free(rec->v);
    free(rec->contact);
    memset(rec, 0, sizeof *rec);
}

int ipx_problem_read(FILE *f, ipx_problem_record *rec, char *message, size_t size)
{
    memset(rec, 0, sizeof *rec);
    char magic[4];
    const size_t got = fread(magic, 1, 4, f);
    if (got == 0 && feof(f)) return 0;
    const int v1 = got == 4 && memcmp(magic, MAGIC_V1, 4) == 0;
    int32_t k = 0;
    uint32_t flags = 0;
    double v_tol = 0.0;
    if (got != 4 || (!v1 && memcmp(magic, MAGIC, 4) != 0) || fread(&k, sizeof k, 1, f) != 1 ||
        fread(&flags, sizeof flags, 1, f) != 1 || (!v1 && fread(&v_tol, sizeof v_tol, 1, f) != 1)) {
        snprintf(message, size, "not a problem record (no IPX2 or IPXP header)");
        return -1;
    }
    if (k < 1 || k > IPX_PROBLEM_FILE_MAX_CONTACTS) {
        snprintf(message, size, "a record claims %d contacts (1..%d)", (int)k,
                 IPX_PROBLEM_FILE_MAX_CONTACTS);
        return -1;
    }
    const size_t rows = 3 * (size_t)k;
    rec->W = malloc(sizeof(double) * rows * rows);
    rec->v = malloc(sizeof(double) * rows);
    rec->contact = malloc(sizeof(ipx_contact) * (size_t)k);
    if (!rec->W || !rec->v || !rec->contact) {
        ipx_problem_record_free(rec);
        snprintf(message, size, "no memory for a record of %d contacts", (int)k);
        return -1;
    }
    int ok = fread(rec->W, sizeof(double), rows * rows, f) == rows * rows &&
             fread(rec->v, sizeof(double), rows, f) == rows;
    for (int i = 0; ok && i < k; i++) {
        double d[4];
        ok = fread(d, sizeof(double), 4, f) == 4;
        rec->contact[i] =
            (ipx_contact){.mu = d[0], .e = d[1], .v_capture = d[2], .v_plastic = d[3]};
    }
    if (!ok) {
        ipx_problem_record_free(rec);
        snprintf(message, size, "a record of %d contacts is cut short", (int)k);
        return -1;
    }
    rec->problem = (ipx_problem){
        .k = k, .W = rec->W, .v = rec->v, .contact = rec->contact, .flags = flags, .v_tol = v_tol};
    return 1;
}
