#include "html_view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outputs.h"

extern const unsigned char cli_html_template[]; /* html_view.html (embed.cmake) */
extern const size_t cli_html_template_size;

int html_view_check(const char *cmd, const char *path)
{
    if (cli_check_output(cmd, "--html", path) != 0) return CLI_FAILED; /* as --out and --plot */
    FILE *f = fopen(HTML_VIEW_THREE_JS, "rb");
    if (f) {
        fclose(f);
        return 0;
    }
    fprintf(
        stderr,
        "impax %s: --html needs three.js: cannot read '%s' (%s); install Debian's libjs-three\n",
        cmd, HTML_VIEW_THREE_JS, strerror(errno));
    return CLI_FAILED;
}

int html_view_parse_fps(const char *text, double *fps)
{
    return cli_parse_real(text, "--html-fps", 1.0, 1000.0, fps) == 0 ? 0 : CLI_USAGE;
}

/* Appends the file at path to out. 0, or -1. */
static int append_file(cli_buf *out, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char chunk[65536];
    size_t got;
    int rc = 0;
    while (rc == 0 && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = cli_buf_append(out, chunk, got);
    if (ferror(f)) rc = -1;
    fclose(f);
    return rc;
}

/* The template's text from *at up to marker (NULL: its end), then *at past the marker. */
static int append_until(cli_buf *out, size_t *at, const char *marker)
{
    const char *t = (const char *)cli_html_template, *start = t + *at;
    const char *hit = marker ? strstr(start, marker) : NULL;
    const size_t len = hit ? (size_t)(hit - start) : cli_html_template_size - *at;
    *at += len + (hit ? strlen(marker) : 0);
    return cli_buf_append(out, start, len);
}

/* The whole page into out: the template with three.js and the data in place of its markers. */
static int make_page(cli_buf *out, ipx_sim *sim, int n, const html_model *models, char *why,
                     size_t size)
{
    size_t at = 0;
    int rc = append_until(out, &at, "/*@THREE@*/");
    if (rc == 0 && append_file(out, HTML_VIEW_THREE_JS) != 0) {
        snprintf(why, size, "cannot read '%s' (install Debian's libjs-three)", HTML_VIEW_THREE_JS);
        return -1;
    }
    rc |= append_until(out, &at, "/*@DATA@*/") | html_data_append(out, sim, n, models);
    rc |= append_until(out, &at, NULL);
    if (rc) snprintf(why, size, "out of memory");
    return rc ? -1 : 0;
}

static int save(const char *path, const cli_buf *page, char *why, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(why, size, "%s", strerror(errno));
        return -1;
    }
    const int ok = fwrite(page->data, 1, page->size, f) == page->size;
    if ((fclose(f) != 0 || !ok)) {
        snprintf(why, size, "writing failed");
        return -1;
    }
    return 0;
}

int html_view_write(const char *cmd, const char *path, const ipx_scene *scene, int n,
                    const html_model *models)
{
    char why[512];
    /* a simulation under ODE's own contacts is only read: its shapes, joints and body names */
    ipx_sim *sim = ipx_sim_create(scene, "ode", "", why, sizeof why);
    cli_buf page = {0};
    int rc = sim ? make_page(&page, sim, n, models, why, sizeof why) : -1;
    if (rc == 0) rc = save(path, &page, why, sizeof why);
    if (rc != 0) fprintf(stderr, "impax %s: --html '%s': %s\n", cmd, path, why);
    else printf("page: %s\n", path); /* as plot: FILE, so that it can be found and opened */
    cli_buf_free(&page);
    if (sim) ipx_sim_destroy(sim);
    return rc;
}
