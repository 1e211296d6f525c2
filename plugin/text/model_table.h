/// Every registered model's parameter table as users type it (name, default, range, unit,
/// meaning), straight from the registry: `impax models` and `impax-demo --models` print it.
#ifndef IMPAX_CLI_MODEL_TABLE_H
#define IMPAX_CLI_MODEL_TABLE_H

#include <stdio.h>

#include "impax/registry.h"

/// One line per parameter of m, each starting with indent.
void ipx_print_model_params(FILE *out, const ipx_model *m, const char *indent);
/// For every registered model: "name: what it is", then its parameters.
void ipx_print_models(FILE *out);

#endif
