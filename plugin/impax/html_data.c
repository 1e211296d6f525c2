#include "html_data.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_colours.h"
#include "series.h"
#include "sweep_jobs.h" /* sweep_json_string */

static int append_base64(cli_buf *out, const unsigned char *p, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (cli_buf_reserve(out, out->size + 4 * (n / 3 + 1) + 2) != 0) return -1;
    char *o = out->data + out->size;
    size_t i = 0;
    for (; i + 2 < n; i += 3, o += 4) {
        const uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        o[0] = abc[v >> 18], o[1] = abc[v >> 12 & 63], o[2] = abc[v >> 6 & 63], o[3] = abc[v & 63];
    }
    if (i < n) {
        const uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        o[0] = abc[v >> 18], o[1] = abc[v >> 12 & 63], o[2] = i + 1 < n ? abc[v >> 6 & 63] : '=',
        o[3] = '=';
        o += 4;
    }
    out->size = (size_t)(o - out->data);
    return 0;
}

/* n values of size 4 or 8 as little-endian bytes, base64, quoted. */
static int append_numbers(cli_buf *out, const void *values, size_t n, size_t size)
{
    unsigned char *bytes = malloc(n * size + 1);
    if (!bytes) return -1;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        if (size == 4) {
            uint32_t u;
            memcpy(&u, (const float *)values + i, 4);
            v = u;
        } else {
            memcpy(&v, (const double *)values + i, 8);
        }
        for (size_t b = 0; b < size; b++) bytes[i * size + b] = (unsigned char)(v >> (8 * b));
    }
    int rc = cli_buf_append(out, "\"", 1) | append_base64(out, bytes, n * size) |
             cli_buf_append(out, "\"", 1);
    free(bytes);
    return rc ? -1 : 0;
}

static int append_vec(cli_buf *out, const char *key, const double *v, int n)
{
    int rc = cli_buf_printf(out, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) rc |= cli_buf_printf(out, "%s%.9g", i ? "," : "", v[i]);
    return rc | cli_buf_append(out, "]", 1);
}

static int append_shapes(cli_buf *json, ipx_sim *sim)
{
    static const char *const names[] = {"box", "sphere", "cylinder", "capsule", "plane"};
    int rc = cli_buf_printf(json, ",\"shapes\":[");
    for (int i = 0; i < ipx_sim_shape_count(sim); i++) {
        ipx_shape s;
        ipx_sim_shape(sim, i, &s);
        rc |= cli_buf_printf(json, "%s{\"type\":\"%s\",\"body\":%d,\"offset\":%.9g", i ? "," : "",
                             names[s.type], s.body, s.offset);
        rc |= append_vec(json, "size", s.size, 3) | append_vec(json, "pos", s.pos, 3) |
              append_vec(json, "quat", s.quat, 4) | append_vec(json, "normal", s.normal, 3);
        rc |= cli_buf_append(json, "}", 1);
    }
    rc |= cli_buf_printf(json, "],\"joints\":[");
    for (int i = 0; i < ipx_sim_joint_count(sim); i++) {
        ipx_joint_view j;
        ipx_sim_joint_view(sim, i, &j);
        rc |= cli_buf_printf(json, "%s{\"body\":[%d,%d]", i ? "," : "", j.body[0], j.body[1]);
        rc |= append_vec(json, "anchor", j.anchor, 3) | cli_buf_append(json, "}", 1);
    }
    return rc | cli_buf_append(json, "]", 1);
}

/* The meta JSON: world, up vector, bodies, shapes, joints, models. */
static int meta_json(cli_buf *json, ipx_sim *sim, int n, const html_model *models)
{
    double up[3];
    cli_up_vector(ipx_sim_world(sim), up);
    int rc = cli_buf_printf(json, "{\"fps\":%.9g", n > 0 ? models[0].frames->fps : 60.0);
    rc |= append_vec(json, "up", up, 3) | cli_buf_printf(json, ",\"bodies\":[");
    for (int b = 0; b < ipx_sim_body_count(sim); b++)
        rc |= cli_buf_printf(json, "%s", b ? "," : "") |
              sweep_json_string(json, ipx_sim_body_name(sim, b));
    rc |= cli_buf_append(json, "]", 1) | append_shapes(json, sim) |
          cli_buf_printf(json, ",\"models\":[");
    for (int m = 0; m < n; m++) {
        const cli_frames *f = models[m].frames;
        rc |= cli_buf_printf(json, "%s{\"label\":", m ? "," : "") |
              sweep_json_string(json, models[m].label);
        char colour[8];
        model_colour_hex(models[m].label, colour);
        rc |= cli_buf_printf(json,
                             ",\"colour\":\"%s\",\"frames\":%d,\"contacts\":%d,"
                             "\"dropped_contacts\":%ld}",
                             colour, f->n, f->n_contacts, f->dropped_contacts);
    }
    return rc | cli_buf_append(json, "]}", 2);
}

int html_data_append(cli_buf *out, ipx_sim *sim, int n, const html_model *models)
{
    cli_buf json = {0};
    int rc = meta_json(&json, sim, n, models);
    rc |= cli_buf_printf(out, "window.IMPAX_DATA = {meta: \"");
    rc |= rc ? -1 : append_base64(out, (const unsigned char *)json.data, json.size);
    rc |= cli_buf_printf(out, "\",\nmodels: [\n");
    for (int m = 0; m < n && rc == 0; m++) {
        const cli_frames *f = models[m].frames;
        const size_t per_frame = CLI_FRAME_FLOATS * (size_t)f->n_bodies;
        rc |= cli_buf_printf(out, "{t: ") | append_numbers(out, f->t_s, (size_t)f->n, 8);
        rc |= cli_buf_printf(out, ",\npose: ") |
              append_numbers(out, f->pose, (size_t)f->n * per_frame, 4);
        rc |=
            cli_buf_printf(out, ",\nenergy: ") | append_numbers(out, f->energy_j, (size_t)f->n, 4);
        rc |= cli_buf_printf(out, ",\ncontact: ") |
              append_numbers(out, f->contact, (size_t)f->n_contacts * CLI_CONTACT_FLOATS, 4);
        rc |= cli_buf_printf(out, "},\n");
    }
    cli_buf_free(&json);
    return rc | cli_buf_printf(out, "]};\n") ? -1 : 0;
}
