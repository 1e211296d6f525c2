/// `impax ab --models`: a comma-separated list of entries, each a model with settings of its own,
///
///     NAME[:KEY=VALUE[:KEY=VALUE...]]     e.g.  plus,plus:v_plastic=0.3,aplcp:newton_restitution=1
///
/// (the colons need no quoting in a shell; a comma always starts the next entry). NAME is ode or
/// a registered model; the keys are the model's parameters, the adapter's (recovery, ...) and
/// the contact surfaces' (mu, e, bounce_vel, rolling, spinning), checked when the entry's simulation is created.
#ifndef IMPAX_CLI_MODEL_ENTRY_H
#define IMPAX_CLI_MODEL_ENTRY_H

#include <stddef.h>

#include "world.h"

enum { CLI_ENTRY_LABEL = 160, CLI_ENTRY_PARAMS = 160 };

typedef struct cli_model_entry {
    char label[CLI_ENTRY_LABEL];   /* the entry as given, e.g. "plus:v_plastic=0.3" */
    char model[32];                /* "plus" */
    char params[CLI_ENTRY_PARAMS]; /* "v_plastic=0.3": the settings as key=value,... ("" if none) */
} cli_model_entry;

/// Parses list into at most max entries. 0, or -1 after printing "impax CMD: ..." on stderr: an
/// unknown model (with the accepted ones), a setting that is not KEY=VALUE, an entry too long,
/// more than max, none, or the same entry twice (the same model and the same settings, in any
/// order; the message names both spellings).
int cli_parse_model_entries(const char *cmd, const char *option, const char *list,
                            cli_model_entry *entries, int *n, int max);

/// The params of entry e's simulation: params (--params; NULL: the world's <impax:params> when
/// e's model is the world's) with e's own settings on top, written into buf; params itself when
/// e has no settings (NULL then keeps ipx_sim_create's default).
const char *cli_model_entry_params(const ipx_scene *scene, const char *params,
                                   const cli_model_entry *e, char *buf, size_t size);

#endif
