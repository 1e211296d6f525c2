/* The shim's configuration from the environment (docs/ode-adapter.md "The LD_PRELOAD shim"): IMPAX_MODEL, IMPAX_PARAMS,
   IMPAX_SEED, IMPAX_TRACE, IMPAX_CAPTURE, IMPAX_VERBOSE. Every value is checked here, once, so that a bad one
   stops the program before it simulates anything with physics it did not ask for. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shim_config.h"

/* The largest seed the models take (2^53 - 1: exact in a double parameter). */
#define SEED_MAX 9007199254740991ULL

static int read_model(shim_config *c, const char *model, const char *params, char *msg, size_t size)
{
    if (strcmp(model, "ode") == 0) {
        c->passthrough = 1;
        if (params && *params) {
            snprintf(
                msg, size,
                "IMPAX_PARAMS='%s': model 'ode' (ODE's own contact handling) has no parameters",
                params);
            return -1;
        }
        return 0;
    }
    char why[256];
    if (ipx_params_init(&c->params, model, why, sizeof why) != IPX_OK) {
        char names[256];
        ipx_model_names(names, sizeof names);
        snprintf(msg, size, "IMPAX_MODEL='%s': unknown model (accepted: ode, %s)", model, names);
        return -1;
    }
    char model_text[1024];
    c->adapter = ipx_ode_default_config();
    if (ipx_ode_split_params(params, &c->adapter, model_text, sizeof model_text, why, sizeof why) !=
            0 ||
        ipx_params_parse(&c->params, model_text, why, sizeof why) != IPX_OK) {
        snprintf(msg, size, "IMPAX_PARAMS for model '%s': %s", model, why);
        return -1;
    }
    c->seed_index = ipx_param_index(c->params.model, "seed");
    if (c->seed_index >= 0) c->seed = (unsigned long long)c->params.value[c->seed_index];
    return 0;
}

static int read_seed(shim_config *c, const char *text, char *msg, size_t size)
{
    if (!text) return 0;
    errno = 0;
    char *end = NULL;
    const unsigned long long seed = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || seed > SEED_MAX) {
        snprintf(msg, size, "IMPAX_SEED='%s': not an integer in [0, %llu]", text, SEED_MAX);
        return -1;
    }
    c->seed = seed;
    return 0;
}

/* IMPAX_CAPTURE: an existing directory this process may write in (checked before the program
   runs; the files are made only when a model fails on a problem). */
static int read_capture(shim_config *c, const char *dir, char *msg, size_t size)
{
    if (!dir || !*dir) return 0;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
        snprintf(msg, size, "IMPAX_CAPTURE='%s': not a directory this program can write in", dir);
        return -1;
    }
    c->capture = dir;
    return 0;
}

int shim_config_read(shim_config *c, char *msg, size_t size)
{
    memset(c, 0, sizeof *c);
    c->seed_index = -1;
    const char *model = getenv("IMPAX_MODEL"), *verbose = getenv("IMPAX_VERBOSE");
    if (read_model(c, model && *model ? model : "plus", getenv("IMPAX_PARAMS"), msg, size) != 0 ||
        read_seed(c, getenv("IMPAX_SEED"), msg, size) != 0 ||
        read_capture(c, getenv("IMPAX_CAPTURE"), msg, size) != 0)
        return -1;
    if (verbose && strcmp(verbose, "0") != 0 && strcmp(verbose, "1") != 0) {
        snprintf(msg, size, "IMPAX_VERBOSE='%s': use 1 (a summary at exit) or 0", verbose);
        return -1;
    }
    c->verbose = verbose && strcmp(verbose, "1") == 0;
    const char *trace = getenv("IMPAX_TRACE");
    c->trace.fd = -1;
    return trace && *trace ? ipx_trace_open(&c->trace, "IMPAX_TRACE", trace, msg, size) : 0;
}
